"""The club: its settings, seasons, members, federation licences, fees and payments."""

import datetime
import unicodedata
from contextlib import suppress
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from clubsite.tenancy import ClubOwned, club_field, club_manager, current_club_id
from clubsite.web.collation import Collated


def fold(text: str) -> str:
    """Lower-case text without accents, so "Peña" is found by "pena" on any database."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


class Federation(models.TextChoices):
    AEB = "AEB", _("AEB (Spain)")
    FPB = "FPB", _("FPB (Portugal)")
    ABA = "ABA", _("ABA (Argentina)")
    OTHER = "OTHER", _("Other")


CLUB_CACHE_KEY = "clubsite:club:{}"
HOST_CACHE_KEY = "clubsite:club-host:{}"  # the club a host reaches (clubsite.web.club_host)
# How long a club's row and the club a host reaches are kept in the cache. Saving a club
# forgets both (``Club.save``), at once in a shared cache (``CACHE_URL``), which may then keep
# them an hour: with many clubs each club's entries would otherwise expire every minute and
# its next request pay the host lookup, a query over a page's six. Each process's own memory
# only hears of its own saves, so there they are kept a minute.
CLUB_CACHE_SECONDS = 60
CLUB_SHARED_CACHE_SECONDS = 3600


def club_cache_seconds() -> int:
    return CLUB_SHARED_CACHE_SECONDS if settings.CACHE_URL else CLUB_CACHE_SECONDS


def _sub_domain(slug: str | None) -> str | None:
    base = settings.CLUB_BASE_DOMAIN
    return f"{slug}.{base}" if slug and base else None


class Club(models.Model):
    """A club this installation serves: every club-owned row belongs to one
    (``clubsite.tenancy``). A one-club installation has the one made by the migrations."""

    name = models.CharField(_("name"), max_length=120, default="Club de Bridge")
    slug = models.SlugField(
        _("short name"),
        max_length=40,
        unique=True,
        null=True,
        blank=True,
        help_text=_("Its sub-domain under the installation's base domain (e.g. «madrid»)."),
    )
    host = models.CharField(
        _("host name"),
        max_length=200,
        unique=True,
        null=True,
        blank=True,
        help_text=_("The club's own host name (e.g. «bridge.example.org»), if it has one."),
    )
    federation = models.CharField(
        _("federation"), max_length=8, choices=Federation.choices, default=Federation.AEB
    )
    federation_club_id = models.CharField(_("club id at the federation"), max_length=40, blank=True)
    address = models.TextField(_("address"), blank=True)
    season_start_month = models.PositiveSmallIntegerField(
        _("season start month"), default=9, help_text=_("1 = January … 12 = December")
    )
    contact_email = models.EmailField(_("contact email"), blank=True)
    contact_phone = models.CharField(_("contact phone"), max_length=40, blank=True)
    secretaries_create_tournaments = models.BooleanField(
        _("secretaries may create tournaments"),
        default=False,
        help_text=_(
            "Directors always may; with this, the secretary can also put a "
            "tournament on the calendar for a director to set up."
        ),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("club")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.host = (self.host or "").strip().lower() or None
        self.slug = self.slug or None
        before = Club.objects.filter(pk=self.pk).values("host", "slug").first() if self.pk else None
        super().save(*args, **kwargs)
        self.forget_cached(*([before["host"], _sub_domain(before["slug"])] if before else []))

    def clean(self):
        host = (self.host or "").strip().lower()
        base = settings.CLUB_BASE_DOMAIN
        if host and ("/" in host or ":" in host or " " in host):
            raise ValidationError({"host": _("Give a host name only, e.g. bridge.example.org.")})
        if host and base and (host == base or host.endswith("." + base)):
            raise ValidationError(
                {"host": _("Addresses under %(base)s are the clubs' short names.") % {"base": base}}
            )

    def forget_cached(self, *hosts: str | None) -> None:
        """Drop what the cache knows of the club: its row, and the hosts that reached it
        (``hosts``: earlier ones too), after a change or when it leaves."""
        hosts = {self.host, _sub_domain(self.slug), *hosts}
        keys = [CLUB_CACHE_KEY.format(self.pk)] + [HOST_CACHE_KEY.format(h) for h in hosts if h]
        with suppress(Exception):
            cache.delete_many(keys)

    @classmethod
    def current(cls) -> "Club":
        """The club the running request, job or command works for (``clubsite.tenancy``)."""
        return cls.objects.get(pk=current_club_id())

    @classmethod
    def for_pages(cls) -> "Club":
        """The current club as every page's header and footer show it: from the cache, kept
        an hour in a shared cache, a minute in each process's own memory (saving the club
        drops it there; with a cache of each process's own memory, another process may show
        the old name for that minute)."""
        return cls.cached(current_club_id())

    @classmethod
    def cached(cls, pk: int) -> "Club":
        key = CLUB_CACHE_KEY.format(pk)
        with suppress(Exception):  # a cache that is down costs the query
            found = cache.get(key)
            if found is not None:
                return found
        club = cls.objects.get(pk=pk)
        club.keep_cached()
        return club

    def keep_cached(self) -> None:
        """Put the row where ``cached`` finds it (the host lookup read it already)."""
        with suppress(Exception):
            cache.set(CLUB_CACHE_KEY.format(self.pk), self, club_cache_seconds())

    @property
    def site_url(self) -> str:
        """Where the club's pages live, for links in mails, PDFs and QR codes: its own host
        (or sub-domain) with ``SITE_URL``'s scheme; else ``SITE_URL`` ("" when unset)."""
        host = self.host or _sub_domain(self.slug)
        if not host:
            return settings.SITE_URL.rstrip("/")
        return f"{urlsplit(settings.SITE_URL).scheme or 'https'}://{host}"

    def season_bounds(self, day: datetime.date) -> tuple[datetime.date, datetime.date]:
        """The first and last day of the season holding ``day``."""
        month = self.season_start_month
        year = day.year if day.month >= month else day.year - 1
        start = datetime.date(year, month, 1)
        end = datetime.date(year + 1, month, 1) - datetime.timedelta(days=1)
        return start, end


class SeasonQuerySet(models.QuerySet):
    def containing(self, day: datetime.date):
        return self.filter(start__lte=day, end__gte=day)


class Season(ClubOwned, models.Model):
    club = club_field("seasons")
    name = models.CharField(_("name"), max_length=20)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))

    objects = club_manager("club", models.Manager.from_queryset(SeasonQuerySet))

    class Meta:
        ordering = ["start"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"],
                name="season_name_per_club",
                violation_error_message=_("A season with this name already exists."),
            ),
            models.UniqueConstraint(
                fields=["club", "start"],
                name="season_start_per_club",
                violation_error_message=_("A season starting that day already exists."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def for_date(cls, day: datetime.date | None = None) -> "Season":
        """The season holding ``day`` (today by default), created on first need."""
        day = day or timezone.localdate()
        season = cls.objects.containing(day).first()
        if season is None:
            start, end = Club.current().season_bounds(day)
            name = (
                f"{start.year}-{str(end.year)[-2:]}" if start.year != end.year else str(start.year)
            )
            season, _created = cls.objects.get_or_create(
                start=start, defaults={"end": end, "name": name}
            )
        return season

    @classmethod
    def current(cls) -> "Season":
        return cls.for_date()

    def next(self) -> "Season":
        return Season.for_date(self.end + datetime.timedelta(days=1))

    def previous(self) -> "Season":
        return Season.for_date(self.start - datetime.timedelta(days=1))


class Category(ClubOwned, models.Model):
    """A member category (junior, senior, …): fees and federation licences depend on it."""

    club = club_field("categories")
    code = models.SlugField(_("code"), max_length=20)
    name = models.CharField(_("name"), max_length=60)

    objects = club_manager("club")

    class Meta:
        ordering = ["name"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "code"],
                name="category_code_per_club",
                violation_error_message=_("A category with this code already exists."),
            )
        ]

    def __str__(self) -> str:
        return self.name


class MemberStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    LAPSED = "lapsed", _("Lapsed")
    SUSPENDED = "suspended", _("Suspended")
    RESIGNED = "resigned", _("Resigned")
    DECEASED = "deceased", _("Deceased")


class Gender(models.TextChoices):
    # Mixed-pairs seating places men South/East (course, movements chapter).
    UNKNOWN = "", _("Not stated")
    FEMALE = "F", _("Female")
    MALE = "M", _("Male")


class Member(ClubOwned, models.Model):
    """A person who plays at the club; guests from other clubs are members flagged as guests."""

    club = club_field("members")
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=120)
    licence_number = models.CharField(
        _("licence number"),
        max_length=30,
        blank=True,
        help_text=_("Federation licence number; unique when present."),
    )
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    language = models.CharField(
        _("language for mails"),
        max_length=5,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Empty: the club's language."),
    )
    results_mail = models.BooleanField(
        _("results by mail"),
        default=True,
        help_text=_("Mail me my ranking and scorecard when results are published or corrected."),
    )
    category = models.ForeignKey(
        Category, verbose_name=_("category"), on_delete=models.PROTECT, null=True, blank=True
    )
    status = models.CharField(
        _("membership status"),
        max_length=12,
        choices=MemberStatus.choices,
        default=MemberStatus.ACTIVE,
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    home_club = models.CharField(_("home club"), max_length=120, blank=True)
    joined_on = models.DateField(_("joined on"), null=True, blank=True)
    privacy_consent_on = models.DateField(_("privacy consent date"), null=True, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # One person, one account: a member at each club they play at (one per club).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    search_text = models.CharField(max_length=300, editable=False, db_index=True, default="")

    history = HistoricalRecords(excluded_fields=["search_text"])

    objects = club_manager("club")

    class Meta:
        ordering = [Collated("last_name"), Collated("first_name")]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            # The same licence at several clubs is the same player (one federation number).
            models.UniqueConstraint(
                fields=["club", "licence_number"],
                condition=~Q(licence_number=""),
                name="unique_licence_number_when_present",
                violation_error_message=_("A member with this licence number already exists."),
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="one_member_per_account_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        self.licence_number = (self.licence_number or "").strip()
        self.search_text = fold(f"{self.first_name} {self.last_name} {self.licence_number}")
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_text"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("clubsite:member_detail", args=[self.pk])

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class ClubRole(models.Model):
    """A person's role at one club: secretary at one club, player at another. What each
    role may do is ``clubsite.accounts.permissions``; superusers hold every role."""

    class Name(models.TextChoices):
        SECRETARY = "Secretary", _("Secretary")
        DIRECTOR = "Director", _("Director")
        PLAYER = "Player", _("Player")

    club = club_field("roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.CASCADE,
        related_name="club_roles",
    )
    role = models.CharField(_("role"), max_length=12, choices=Name.choices)

    objects = club_manager("club")

    class Meta:
        verbose_name = _("role at the club")
        verbose_name_plural = _("roles at the club")
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="one_role_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()}"


class FederationOfficer(models.Model):
    """A person who serves a federation: sees its clubs, their published results, licence
    batches and uploads and its ranking; adds a club or lets one leave. Above the clubs,
    so not club-scoped; superusers are officers of every federation
    (``clubsite.accounts.permissions.federations_of``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.CASCADE,
        related_name="federation_offices",
    )
    federation = models.CharField(_("federation"), max_length=8, choices=Federation.choices)

    class Meta:
        verbose_name = _("federation officer")
        verbose_name_plural = _("federation officers")
        constraints = [
            models.UniqueConstraint(fields=["user", "federation"], name="one_office_per_federation")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_federation_display()}"


class LicenceStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    REQUESTED = "requested", _("Requested")
    # "la licencia / a licença" is feminine: Activa, Ativa (a member is Activo, Ativo).
    ACTIVE = "active", pgettext_lazy("licence status", "Active")
    EXPIRED = "expired", _("Expired")
    CANCELLED = "cancelled", _("Cancelled")


class Licence(models.Model):
    """A member's federation licence for one season."""

    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="licences"
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="licences"
    )
    federation = models.CharField(_("federation"), max_length=8, choices=Federation.choices)
    number = models.CharField(_("licence number"), max_length=30, blank=True)
    category = models.ForeignKey(
        Category, verbose_name=_("category"), on_delete=models.PROTECT, null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=10, choices=LicenceStatus.choices, default=LicenceStatus.PENDING
    )
    requested_on = models.DateField(_("requested on"), null=True, blank=True)
    valid_from = models.DateField(_("valid from"), null=True, blank=True)
    valid_until = models.DateField(_("valid until"), null=True, blank=True)
    fee = models.DecimalField(_("fee"), max_digits=8, decimal_places=2, default=Decimal("0"))
    paid = models.BooleanField(_("paid"), default=False)

    history = HistoricalRecords()

    objects = club_manager("member__club")

    class Meta:
        ordering = ["-season__start"]
        verbose_name = _("licence")
        verbose_name_plural = _("licences")
        constraints = [
            models.UniqueConstraint(fields=["member", "season"], name="one_licence_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.season} · {self.get_status_display()}"


class FeeKind(models.TextChoices):
    MEMBERSHIP = "membership", _("Membership fee")
    LICENCE = "licence", _("Licence fee")
    OTHER = "other", _("Other")


class Fee(models.Model):
    """One line of a season's fee schedule: what a category pays for membership or licence.

    A fee changed during the season is a new line with the day it applies from, so charges
    made before that day keep the old amount (``services.fee_for``); editing a line's amount
    corrects it for every charge made under it. A line without a day applies from the
    season's start.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="fees"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=FeeKind.choices)
    category = models.ForeignKey(Category, verbose_name=_("category"), on_delete=models.CASCADE)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2)
    effective_from = models.DateField(
        _("applies from"),
        blank=True,
        help_text=_(
            "Empty: from the season's start. A later day changes the fee for "
            "charges made from that day on."
        ),
    )

    objects = club_manager("season__club")

    class Meta:
        ordering = ["season__start", "kind", "category__name", "effective_from"]
        verbose_name = _("fee")
        verbose_name_plural = _("fee schedule")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "kind", "category", "effective_from"],
                name="one_fee_per_line_and_day",
            )
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.get_kind_display()} · {self.category}: {self.amount}"

    def save(self, *args, **kwargs):
        self._fill_effective_from()
        super().save(*args, **kwargs)

    def _fill_effective_from(self) -> None:
        if self.effective_from is None and self.season_id is not None:
            self.effective_from = self.season.start

    def clean(self):
        self._fill_effective_from()
        if (
            self.effective_from is not None
            and self.season_id is not None
            and not (self.season.start <= self.effective_from <= self.season.end)
        ):
            raise ValidationError(
                {
                    "effective_from": _("Give a day within the season (%(start)s to %(end)s).")
                    % {"start": self.season.start.isoformat(), "end": self.season.end.isoformat()}
                }
            )


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Cash")
    TRANSFER = "transfer", _("Bank transfer")
    CARD = "card", _("Card")
    DIRECT_DEBIT = "debit", _("Direct debit")


class Payment(models.Model):
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="payments"
    )
    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.PROTECT)
    kind = models.CharField(_("for"), max_length=12, choices=FeeKind.choices)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2)
    method = models.CharField(_("method"), max_length=10, choices=PaymentMethod.choices)
    paid_on = models.DateField(_("date"), default=datetime.date.today)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    history = HistoricalRecords()

    objects = club_manager("member__club")

    class Meta:
        ordering = ["-paid_on", "-id"]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")

    def __str__(self) -> str:
        return f"{self.member} · {self.amount} · {self.paid_on}"


class ArrearsReminder(models.Model):
    """One reminder mail about one debt: who asked for it, to whom it went, for which debt
    (season and the balance owed then) and whether it went out. A debt is the same while
    its balance is: a second reminder about it is only sent when asked for explicitly."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.PROTECT)
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="reminders"
    )
    email = models.EmailField(_("sent to"))
    due = models.DecimalField(_("due"), max_digits=8, decimal_places=2)
    paid = models.DecimalField(_("paid"), max_digits=8, decimal_places=2)
    balance = models.DecimalField(_("owed"), max_digits=8, decimal_places=2)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("message"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("sent by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    taken_at = models.DateTimeField(null=True, blank=True, editable=False)
    sent_at = models.DateTimeField(_("mailed at"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)

    objects = club_manager("member__club")

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("arrears reminder")
        verbose_name_plural = _("arrears reminders")
        indexes = [models.Index(fields=["season", "member", "balance"])]

    def __str__(self) -> str:
        return f"{self.member} · {self.balance} · {self.requested_at:%Y-%m-%d}"


class AccountLinkState(models.TextChoices):
    PENDING = "pending", _("waiting for the player's confirmation")
    CONFIRMED = "confirmed", _("confirmed by the player")
    DECLINED = "declined", _("declined by the player")


class AccountLink(models.Model):
    """A club asking to join one of its members to an account already linked at another
    club (same licence number and email): nothing is linked until the account's owner
    confirms from the mailed link (``clubsite.accounts.account_links``). ``nonce`` is in
    the link; a link sent again gets a new one, so only the newest mail's link works."""

    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="account_links"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    state = models.CharField(
        _("state"),
        max_length=10,
        choices=AccountLinkState.choices,
        default=AccountLinkState.PENDING,
    )
    nonce = models.CharField(max_length=32, editable=False)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("asked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    asked_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("mailed at"))
    decided_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    objects = club_manager("member__club")

    class Meta:
        ordering = ["-asked_at", "-id"]
        verbose_name = _("account link request")
        verbose_name_plural = _("account link requests")
        constraints = [
            models.UniqueConstraint(
                fields=["member"],
                condition=Q(state="pending"),
                name="one_pending_account_link_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.get_state_display()}"


class ArchiveState(models.TextChoices):
    QUEUED = "queued", _("Waiting")
    RUNNING = "running", _("Being made")
    DONE = "done", _("Ready")
    FAILED = "failed", _("Failed")


class ClubArchive(models.Model):
    """A club's whole data as one ZIP (members CSV, each tournament's USEBIO and PBN), made
    in the worker at a federation officer's request before the club leaves
    (``federation.jobs``). Above the clubs, as ``FederationOfficer`` is, and not club-owned:
    the record and its file outlive the club (its name and short name are kept; ``club``
    becomes empty when it is deleted), and a club's deletion does not remove its file
    (``federation.services.stored_files`` reads club-owned models only)."""

    federation = models.CharField(_("federation"), max_length=8, choices=Federation.choices)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="archives",
    )
    club_name = models.CharField(_("club name"), max_length=120)
    club_slug = models.CharField(_("short name"), max_length=40, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("asked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    state = models.CharField(
        _("state"), max_length=8, choices=ArchiveState.choices, default=ArchiveState.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    file = models.FileField(_("file"), upload_to="archives/%Y/%m/", blank=True)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # As ``ResultsPdf.due_at`` and ``taken_by``: when it was queued or last heard of from
    # the run making it, and which run that is (``federation.jobs.take``).
    due_at = models.DateTimeField(null=True, blank=True, editable=False)
    taken_by = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("club archive")
        verbose_name_plural = _("club archives")
        indexes = [models.Index(fields=["club", "-created_at"], name="club_archive_newest")]

    def __str__(self) -> str:
        return f"{self.club_name} · {self.created_at:%Y-%m-%d %H:%M}"

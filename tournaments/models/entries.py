"""Who plays: an entry (pair, team or individual) of members, and where it sits each session.

The entry is the contestant across the whole tournament, so multi-session totals add up
per entry; its seating (section, number, line) is per session. Players go through
``EntryPlayer`` so pairs, teams of four to six and individuals share one shape; guests are
members flagged as guests.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from clubsite.tenancy import club_manager

from .event import Section, Session, Tournament


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Entry(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="entries",
    )
    name = models.CharField(
        _("name"),
        max_length=160,
        blank=True,
        help_text=_("Team name; pairs show their players."),
    )
    players = models.ManyToManyField(
        Member, through="EntryPlayer", verbose_name=_("players"), related_name="entries"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    late = models.BooleanField(_("late arrival"), default=False)
    handicap = models.DecimalField(
        _("handicap"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Percentage points; half of it is added for the handicap ranking."),
    )
    # Denormalised "Ana Pérez – Luis Gil" so rankings and travellers need no join.
    display_name = models.CharField(_("players"), max_length=300, blank=True, editable=False)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return self.name or self.display_name or f"#{self.pk}"

    @property
    def is_active(self) -> bool:
        return self.status == EntryStatus.ACTIVE


class EntryPlayer(models.Model):
    """A member in an entry; ``seat`` orders them (in a pair 1 sits North/West, 2 South/East)."""

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="entry_players"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entry_seats"
    )
    seat = models.PositiveSmallIntegerField(_("order"))
    active = models.BooleanField(_("playing"), default=True)
    substitute = models.BooleanField(_("substitute"), default=False)
    # a handicap event's handicap of the player, when the director (or the imported file)
    # gives each player's: the entry's handicap is then their sum (``scoring.handicap``)
    handicap = models.DecimalField(
        _("handicap"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("The player's own, in percentage points; the pair's is its players' sum."),
    )

    objects = club_manager("entry__tournament__club")

    class Meta:
        ordering = ["entry", "seat", "-active"]
        verbose_name = _("entry player")
        verbose_name_plural = _("entry players")
        constraints = [
            models.UniqueConstraint(fields=["entry", "member"], name="member_once_per_entry"),
            models.UniqueConstraint(
                fields=["entry", "seat"],
                condition=Q(active=True),
                name="one_active_player_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} · {self.member}"


class Direction(models.TextChoices):
    NONE = "", _("Any line")
    NS = "NS", _("North-South")
    EW = "EW", _("East-West")


class Seating(models.Model):
    """An entry's number (and line, in a Mitchell) in one section of one session."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="seatings"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="seatings"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="seatings"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    direction = models.CharField(
        _("line"), max_length=2, choices=Direction.choices, blank=True, default=Direction.NONE
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["section", "direction", "number"]
        verbose_name = _("seating")
        verbose_name_plural = _("seatings")
        constraints = [
            models.UniqueConstraint(
                fields=["section", "number", "direction"], name="one_entry_per_number"
            ),
            models.UniqueConstraint(fields=["session", "entry"], name="one_seat_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.section.letter}{self.number}{self.direction}"

    @property
    def label(self) -> str:
        return f"{self.number}{self.direction}"

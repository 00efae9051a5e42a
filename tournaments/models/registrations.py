"""Online entry before the event: a registration (pair, team or player) and the "partner
wanted" list.

A registration is not yet an ``Entry``: it may wait for a place, be cancelled, and only
becomes the tournament's entry when the director seats the session
(``services.online_entry.take_into_session``), so the scoring machinery never sees a pair
that did not come. Its ``queued_at`` is when it was made: first come, first served for the
places and for the waiting list. A member is in at most one live registration of a
tournament, which the database also guarantees (``RegistrationPlayer.live``).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from clubsite.tenancy import club_manager

from .entries import Entry
from .event import Tournament


class RegistrationStatus(models.TextChoices):
    ENTERED = "entered", _("Entered")
    WAITING = "waiting", _("Waiting list")
    CANCELLED = "cancelled", _("Cancelled")


LIVE_STATUSES = (RegistrationStatus.ENTERED, RegistrationStatus.WAITING)


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    name = models.CharField(_("team name"), max_length=160, blank=True)
    display_name = models.CharField(_("players"), max_length=300, blank=True, editable=False)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.ENTERED,
    )
    queued_at = models.DateTimeField(_("entered at"))
    placed_at = models.DateTimeField(_("given a place at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    by_director = models.BooleanField(_("entered by the director"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("cancelled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entry = models.OneToOneField(
        Entry,
        verbose_name=_("entry"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registration",
    )

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["tournament", "queued_at", "id"]
        verbose_name = _("online entry")
        verbose_name_plural = _("online entries")
        indexes = [models.Index(fields=["tournament", "status", "queued_at"])]

    def __str__(self) -> str:
        return self.name or self.display_name or f"#{self.pk}"

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


class RegistrationPlayer(models.Model):
    """A member in a registration; ``seat`` orders them (1 is the team's captain)."""

    registration = models.ForeignKey(
        Registration,
        verbose_name=_("online entry"),
        on_delete=models.CASCADE,
        related_name="players",
    )
    # The tournament again, so the database can refuse a member in two live registrations.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", editable=False
    )
    member = models.ForeignKey(
        Member, verbose_name=_("player"), on_delete=models.PROTECT, related_name="registrations"
    )
    seat = models.PositiveSmallIntegerField(_("order"))
    live = models.BooleanField(default=True, editable=False)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["registration", "seat"]
        verbose_name = _("online entry player")
        verbose_name_plural = _("online entry players")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member"],
                condition=Q(live=True),
                name="member_in_one_live_registration",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} · {self.member}"


class PartnerRequest(models.Model):
    """A member looking for a partner (or a team) for a tournament; open until they enter
    or take the request back."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="partner_requests",
    )
    member = models.ForeignKey(
        Member, verbose_name=_("player"), on_delete=models.CASCADE, related_name="partner_requests"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    open = models.BooleanField(_("open"), default=True)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("partner wanted")
        verbose_name_plural = _("partners wanted")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member"],
                condition=Q(open=True),
                name="one_open_partner_request",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.member}"

"""Physical things on the tables: the boards of a pool, and the codes table devices sign in with."""

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .event import Section, Session


class Vulnerability(models.TextChoices):
    NONE = "", _("None")
    NS = "NS", _("North-South")
    EW = "EW", _("East-West")
    ALL = "All", _("All")


class Seat(models.TextChoices):
    NORTH = "N", _("North")
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")


class Board(models.Model):
    """One board of a session's pool; dealer and vulnerability come from the number (Law 2)
    unless the physical board says otherwise (``conditions_overridden``)."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="boards"
    )
    pool = models.CharField(_("board pool"), max_length=3)
    number = models.PositiveSmallIntegerField(_("board"))
    dealer = models.CharField(_("dealer"), max_length=1, choices=Seat.choices)
    vulnerability = models.CharField(
        _("vulnerability"), max_length=3, choices=Vulnerability.choices, blank=True
    )
    conditions_overridden = models.BooleanField(_("conditions differ from Law 2"), default=False)
    deal = models.CharField(
        _("deal (PBN)"), max_length=80, blank=True, help_text=_("N:AKQ.… … as in PBN's Deal tag.")
    )
    double_dummy = models.JSONField(_("double-dummy tricks"), null=True, blank=True)
    par = models.JSONField(_("par"), null=True, blank=True)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "pool", "number"]
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [
            models.UniqueConstraint(fields=["session", "pool", "number"], name="one_board_per_pool")
        ]

    def __str__(self) -> str:
        return _("Board %(number)s") % {"number": self.number}

    @property
    def vulnerability_core(self) -> str | None:
        """The scoring core's spelling: None, "NS", "EW" or "All"."""
        return self.vulnerability or None


def new_table_token() -> str:
    """The secret in a table card's QR code and link: 128 random bits, URL-safe (22 chars)."""
    return secrets.token_urlsafe(16)


class TableCode(models.Model):
    """How a table's tablet or phones sign in; they can write only that table's boards of
    that session.

    The card's QR code and link carry ``token``, too long to guess; the short ``code`` is for
    typing and only counts together with the table it belongs to (section letter and number),
    so it needs to be unique for nothing but its table. Both stop working when the session
    ends (``active`` goes off) or the director gives the table a new code.
    """

    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="table_codes"
    )
    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="table_codes"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    code = models.CharField(_("code"), max_length=8)
    token = models.CharField(
        _("link token"), max_length=43, unique=True, default=new_table_token, editable=False
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["section", "table"]
        verbose_name = _("table code")
        verbose_name_plural = _("table codes")
        constraints = [
            models.UniqueConstraint(
                fields=["section", "table"],
                condition=Q(active=True),
                name="one_active_code_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} · {self.code}"

    @property
    def label(self) -> str:
        """The table as its card names it and the sign-in form asks for it, e.g. "A3"."""
        return f"{self.section.letter}{self.table}"

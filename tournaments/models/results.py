"""What happened at the tables: one row per traveller line, plus procedural penalties.

A result is written once (``idempotency_key``); a different result sent for the same
line is kept as a ``conflict`` row for the director instead of overwriting. At most one
``ok`` row exists per line, enforced by the database. ``adjustment`` holds an adjusted
score in the plain-data shape ``services.adjustments`` turns into the scoring core's types.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubsite.tenancy import club_manager

from .boards import Board, Seat, TableCode
from .entries import Entry
from .event import Section, Session


class ResultStatus(models.TextChoices):
    OK = "ok", _("Valid")
    CONFLICT = "conflict", _("Conflicting entry")
    SUPERSEDED = "superseded", _("Replaced")
    REJECTED = "rejected", _("Rejected")


class BoardState(models.TextChoices):
    """Where a table's result stands (``services.table_corrections`` keeps it current)."""

    ENTERED = "entered", pgettext_lazy("board state", "Entered")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")
    CORRECTED = "corrected", _("Corrected by the director")


class Result(models.Model):
    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="results"
    )
    board = models.ForeignKey(
        Board, verbose_name=_("board"), on_delete=models.CASCADE, related_name="results"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"))
    ns = models.ForeignKey(
        Entry, verbose_name=_("North-South"), on_delete=models.PROTECT, related_name="+"
    )
    ew = models.ForeignKey(
        Entry, verbose_name=_("East-West"), on_delete=models.PROTECT, related_name="+"
    )
    # Individual events: ``ns`` is North's entry and ``ew`` East's, so the line keeps its
    # identity (section, round, board, ns, ew); their partners sit South and West.
    south = models.ForeignKey(
        Entry,
        verbose_name=_("South"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    west = models.ForeignKey(
        Entry,
        verbose_name=_("West"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    contract = models.CharField(_("contract"), max_length=8, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, choices=Seat.choices, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    ns_score = models.IntegerField(_("NS score"), null=True, blank=True)
    adjustment = models.JSONField(_("adjusted score"), null=True, blank=True)
    law = models.CharField(_("law"), max_length=40, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # Empty for rows the director creates without one; otherwise unique per section, table
    # and device (see constraints).
    idempotency_key = models.CharField(max_length=80, blank=True, default="", editable=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_by_table = models.ForeignKey(
        TableCode,
        verbose_name=_("entered at table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    modified_at = models.DateTimeField(_("modified at"), auto_now=True, db_index=True)
    confirmed = models.BooleanField(_("confirmed by the opponents"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=ResultStatus.choices, default=ResultStatus.OK
    )
    conflicts_with = models.ForeignKey(
        "self",
        verbose_name=_("conflicts with"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conflicts",
    )
    # Stored so the console's grid and the table's pages read it without the audit trail;
    # set by every writer of a result with its own write (``services.board_states.settle``).
    board_state = models.CharField(
        _("board state"),
        max_length=10,
        choices=BoardState.choices,
        default=BoardState.ENTERED,
        editable=False,
    )

    objects = club_manager("section__session__tournament__club")

    class Meta:
        ordering = ["section", "board__number", "round", "table"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            # A key is unique per device, not site-wide: a table's tablet (its table code) or
            # the director at that table. Two tables that happen to send the same key store
            # two results; a replay from the same device finds its row.
            models.UniqueConstraint(
                fields=["section", "table", "entered_by_table", "idempotency_key"],
                condition=~Q(idempotency_key="") & Q(entered_by_table__isnull=False),
                name="unique_key_per_table_device",
            ),
            models.UniqueConstraint(
                fields=["section", "table", "entered_by", "idempotency_key"],
                condition=~Q(idempotency_key="") & Q(entered_by_table__isnull=True),
                name="unique_key_per_director",
            ),
            models.UniqueConstraint(
                fields=["section", "round", "board", "ns", "ew"],
                condition=Q(status="ok"),
                name="one_effective_result_per_line",
            ),
        ]
        indexes = [
            models.Index(fields=["section", "status"]),
            # a session's newest change, one index probe per section (``newest_changes``)
            models.Index(fields=["section", "modified_at"], name="result_section_modified"),
        ]

    def __str__(self) -> str:
        return f"{self.section.letter} B{self.board.number} R{self.round} T{self.table}"

    @property
    def is_adjusted(self) -> bool:
        return bool(self.adjustment)

    def fresh_state(self) -> str:
        """The state of a result with no audit trail yet (a new or imported row)."""
        if self.is_adjusted:
            return BoardState.CORRECTED
        return BoardState.CONFIRMED if self.confirmed else BoardState.ENTERED

    def snapshot(self) -> dict:
        """The fields an audit entry keeps as before/after."""
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "lead": self.lead,
            "tricks": self.tricks,
            "ns_score": self.ns_score,
            "adjustment": self.adjustment,
            "law": self.law,
            "reason": self.reason,
            "status": self.status,
            "confirmed": self.confirmed,
        }


class Penalty(models.Model):
    """A procedural penalty (a fraction of a top off the entry's session total)."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="penalties"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="penalties"
    )
    fraction_of_top = models.DecimalField(_("fraction of a top"), max_digits=5, decimal_places=3)
    board_number = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    law = models.CharField(_("law"), max_length=40, blank=True)
    reason = models.TextField(_("reason"))
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("given by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    modified_at = models.DateTimeField(_("modified at"), auto_now=True)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "entry"]
        verbose_name = _("procedural penalty")
        verbose_name_plural = _("procedural penalties")

    def __str__(self) -> str:
        return f"{self.entry}: −{self.fraction_of_top}"

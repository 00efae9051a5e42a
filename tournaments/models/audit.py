"""The director's trail: every change to a result or a seating after it was first made."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .boards import TableCode
from .event import Session, Tournament
from .results import Result


class AuditAction(models.TextChoices):
    CONFLICT = "conflict", _("Conflicting result received")
    CORRECTED = "corrected", _("Result corrected")
    ADJUSTED = "adjusted", _("Adjusted score")
    CONFIRMED = "confirmed", _("Result confirmed")
    RESOLVED = "resolved", _("Conflict resolved")
    DELETED = "deleted", _("Result removed")
    PENALTY = "penalty", _("Procedural penalty")
    SEATING = "seating", _("Seating changed")
    LATE = "late", _("Late entry")
    WITHDRAWN = "withdrawn", _("Entry withdrawn")
    SUBSTITUTE = "substitute", _("Substitute player")
    LINEUP = "lineup", _("Team line-up changed")
    MOVEMENT = "movement", _("Movement changed")
    PUBLISHED = "published", _("Results published")
    ENTERED = "entered", _("Result entered by the director")
    TABLE_CODE = "table_code", _("Table code replaced")
    TABLE_EDIT = "table_edit", _("Result corrected at the table")
    DISPUTED = "disputed", _("Result disputed at the table")
    REINSTATED = "reinstated", _("Withdrawal undone")
    FEE_PAID = "fee_paid", _("Table fee paid")
    FEE_REFUND = "fee_refund", _("Table fee refunded")
    FEE_VOIDED = "fee_void", _("Table fee cancelled")
    FEE_RESTORED = "fee_restore", _("Table fee charged again")
    CASH_CLOSED = "cash_closed", _("Cash sheet closed")
    CASH_REOPENED = "cash_reopen", _("Cash sheet reopened")
    POINTS = "points", _("Master points awarded")
    RESCORED = "rescored", _("Imported results re-scored")
    HANDICAPS = "handicaps", _("Handicaps changed")


class AuditEntry(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="audit_entries",
    )
    session = models.ForeignKey(
        Session,
        verbose_name=_("session"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    result = models.ForeignKey(
        Result,
        verbose_name=_("result"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    action = models.CharField(_("action"), max_length=12, choices=AuditAction.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    table_code = models.ForeignKey(
        TableCode,
        verbose_name=_("table device"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("why"), blank=True)
    law = models.CharField(_("law"), max_length=40, blank=True)
    override = models.BooleanField(
        _("after the correction period"),
        default=False,
        help_text=_("Made after the Law 79C correction period with an explicit override."),
    )

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        indexes = [models.Index(fields=["tournament", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"

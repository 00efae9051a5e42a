"""A table's call for the director: raised on the table's device, shown on the live console
with the table and the time until the director answers it."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .boards import TableCode
from .event import Section, Session


class DirectorCall(models.Model):
    """One call; a table has at most one open (unanswered) at a time, so a second tap, or a
    second device of the same table, finds the call already made."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="director_calls"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="director_calls"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    table_code = models.ForeignKey(
        TableCode, verbose_name=_("table code"), null=True, blank=True, on_delete=models.SET_NULL
    )
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("answered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["called_at", "id"]
        verbose_name = _("call for the director")
        verbose_name_plural = _("calls for the director")
        constraints = [
            models.UniqueConstraint(
                fields=["section", "table"],
                condition=Q(answered_at__isnull=True),
                name="one_open_call_per_table",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(letter)s%(table)s calls the director") % {
            "letter": self.section.letter,
            "table": self.table,
        }

    @property
    def is_open(self) -> bool:
        return self.answered_at is None

"""Who of a team sits where in a match: its two pairs in the open and closed rooms, per half.

A team of four to six players names four for each half of a match (one half up to 16 boards,
two above: C03 l.136). The room decides the line: the home team sits NS in the open room
and EW in the closed room, the visitors the other way (C03 l.291), so a line-up stores only
which pair is in which room; "first" is North or East, "second" South or West. Changes and
substitutions are logged in the audit trail (``AuditEntry``), not here.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from clubsite.tenancy import club_manager

from .boards import TableCode
from .entries import Entry
from .teams import TeamMatch


class TeamLineup(models.Model):
    match = models.ForeignKey(
        TeamMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="lineups"
    )
    team = models.ForeignKey(
        Entry, verbose_name=_("team"), on_delete=models.CASCADE, related_name="lineups"
    )
    half = models.PositiveSmallIntegerField(_("half"), default=1)
    open_first = models.ForeignKey(
        Member,
        verbose_name=_("open room, North or East"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    open_second = models.ForeignKey(
        Member,
        verbose_name=_("open room, South or West"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    closed_first = models.ForeignKey(
        Member,
        verbose_name=_("closed room, North or East"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    closed_second = models.ForeignKey(
        Member,
        verbose_name=_("closed room, South or West"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
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
    entered_at = models.DateTimeField(_("entered at"), auto_now=True)

    objects = club_manager("match__session__tournament__club")

    class Meta:
        ordering = ["match", "half", "team"]
        verbose_name = _("team line-up")
        verbose_name_plural = _("team line-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "team", "half"], name="one_lineup_per_team_and_half"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.team} · {self.half}"

    @property
    def open_pair(self) -> tuple[int, int]:
        return (self.open_first_id, self.open_second_id)

    @property
    def closed_pair(self) -> tuple[int, int]:
        return (self.closed_first_id, self.closed_second_id)

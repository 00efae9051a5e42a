"""How the club ranks its players over a season: the rule lives in the database so the
club can change it in the admin without a release.

Two rules clubs use: the sum of each player's best N percentages, or points by position
(1st gets the first number of ``position_points``, 2nd the second, …). ``services.
season_ranking`` applies it; the season ranking page states the rule in use.
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import Season
from clubsite.tenancy import club_manager

DEFAULT_BEST = 10
DEFAULT_POINTS = "12,10,8,7,6,5,4,3,2,1"


class SeasonRule(models.TextChoices):
    BEST_PERCENTAGES = "best_n", _("Sum of the best N percentages")
    POSITION_POINTS = "position", _("Points by position")


def parse_points(text: str) -> list[int]:
    """``"12, 10,8"`` → ``[12, 10, 8]``; raises ``ValueError`` on anything else."""
    parts = [p.strip() for p in (text or "").split(",") if p.strip()]
    points = [int(p) for p in parts]
    if not points or any(p < 0 for p in points):
        raise ValueError(text)
    return points


class SeasonRankingRule(models.Model):
    season = models.OneToOneField(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="ranking_rule"
    )
    rule = models.CharField(
        _("rule"), max_length=10, choices=SeasonRule.choices, default=SeasonRule.BEST_PERCENTAGES
    )
    n = models.PositiveSmallIntegerField(
        _("N (tournaments that count)"),
        default=DEFAULT_BEST,
        help_text=_(
            "With “best N percentages”: how many of each player's tournaments count. "
            "With points by position: 0 counts every tournament, otherwise the best N."
        ),
    )
    position_points = models.CharField(
        _("points by position"),
        max_length=200,
        default=DEFAULT_POINTS,
        help_text=_("Points for 1st, 2nd, 3rd… separated by commas; places beyond get 0."),
    )

    objects = club_manager("season__club")

    class Meta:
        ordering = ["-season__start"]
        verbose_name = _("season ranking rule")
        verbose_name_plural = _("season ranking rules")

    def __str__(self) -> str:
        return f"{self.season}: {self.describe()}"

    def clean(self) -> None:
        try:
            parse_points(self.position_points)
        except ValueError as exc:
            raise ValidationError(
                {"position_points": _("Write whole numbers separated by commas, e.g. 12,10,8.")}
            ) from exc
        if self.rule == SeasonRule.BEST_PERCENTAGES and self.n < 1:
            raise ValidationError({"n": _("At least one tournament must count.")})

    @property
    def points(self) -> list[int]:
        try:
            return parse_points(self.position_points)
        except ValueError:
            return parse_points(DEFAULT_POINTS)

    def describe(self) -> str:
        """The rule as the page states it ("sum of the best 10 percentages")."""
        if self.rule == SeasonRule.POSITION_POINTS:
            text = _("points by position (%(points)s)") % {
                "points": ", ".join(str(p) for p in self.points)
            }
            if self.n:
                text += " · " + _("best %(n)s tournaments") % {"n": self.n}
            return text
        return _("sum of the best %(n)s percentages") % {"n": self.n}

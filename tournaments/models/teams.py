"""Team events: how a teams tournament is run, and its matches with their stored scores.

A teams event reuses the pairs machinery underneath: one section whose tables are the
rooms of the round's matches (table 2m-1 the open room, 2m the closed room of match m), so
table codes, score entry, conflicts, corrections and the audit need nothing new. What pairs
do not have is the match: ``TeamMatch`` names who plays whom in each round and keeps the
match's IMPs and victory points, written by the classification so standings are one query.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .entries import Entry
from .event import Session, Tournament, VPScale


class TeamFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin (all play all)")
    SWISS = "swiss", _("Swiss")
    PATTON = "patton", _("Patton (all play all, a few boards, 8 points a board)")
    TRIPLICATE = "triplicate", _("Three-team triplicate")
    KNOCKOUT = "knockout", _("Knockout")


class TeamScoring(models.TextChoices):
    """How a match is scored (C03 l.142, l.163-167, l.185-195). Empty: as the tournament's
    scoring method says (VPs or IMPs), which is how events made before this setting score."""

    TOURNAMENT = "", _("As the tournament's scoring method (VPs or IMPs)")
    VPS = "vps", _("IMPs converted to victory points")
    IMPS = "imps", _("IMPs")
    BOARD_A_MATCH = "bam", _("Board-a-match (2, 1 or 0 a board)")
    TOTAL_POINTS = "total", _("Total points")
    PATTON = "patton", _("Patton points (8 a board)")


class KnockoutSeeding(models.TextChoices):
    """How the knockout's seeds are set (C03 l.175: "sorteo, cabezas de serie…")."""

    REGISTRATION = "registration", _("Registration order")
    SEEDS = "seeds", _("The director's seeds")
    DRAW = "draw", _("Drawn at random")


class KnockoutTie(models.TextChoices):
    """What the conditions of contest say about a tied knockout match (the course and the
    specs are silent: C03 l.177 only says the winner by at least 1 IMP goes through)."""

    EXTRA_BOARDS = "extra_boards", _("Play extra boards at the same tables")
    HIGHER_SEED = "higher_seed", _("The higher seed goes through")
    MOST_BOARDS = (
        "most_boards",
        _("The team that won more boards goes through, then the higher seed"),
    )


class RoundRobinMethod(models.TextChoices):
    ROMAN = "roman", _("Roman square")
    INVERSE = "inverse", _("Inverse square")


class TieBreak(models.TextChoices):
    HEAD_TO_HEAD = "head_to_head", _("Matches between the tied teams")
    IMP_DIFFERENCE = "imp_difference", _("IMP difference")
    IMP_QUOTIENT = "imp_quotient", _("IMP quotient (won ÷ lost)")


TIE_BREAK_ORDERS = {
    "h2h,diff,quotient": (TieBreak.HEAD_TO_HEAD, TieBreak.IMP_DIFFERENCE, TieBreak.IMP_QUOTIENT),
    "diff,quotient,h2h": (TieBreak.IMP_DIFFERENCE, TieBreak.IMP_QUOTIENT, TieBreak.HEAD_TO_HEAD),
    "quotient,diff,h2h": (TieBreak.IMP_QUOTIENT, TieBreak.IMP_DIFFERENCE, TieBreak.HEAD_TO_HEAD),
    "none": (),
}


class TieBreakOrder(models.TextChoices):
    H2H_FIRST = "h2h,diff,quotient", _("Head to head, then IMP difference, then IMP quotient")
    DIFF_FIRST = "diff,quotient,h2h", _("IMP difference, then IMP quotient, then head to head")
    QUOTIENT_FIRST = "quotient,diff,h2h", _("IMP quotient, then IMP difference, then head to head")
    NONE = "none", _("None: tied teams share the place")


class TeamEvent(models.Model):
    """The settings of a teams tournament (one per tournament with event type Teams)."""

    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="team_event",
    )
    format = models.CharField(
        _("format"), max_length=12, choices=TeamFormat.choices, default=TeamFormat.SWISS
    )
    round_robin_method = models.CharField(
        _("round-robin schedule"),
        max_length=8,
        choices=RoundRobinMethod.choices,
        default=RoundRobinMethod.ROMAN,
        help_text=_(
            "The course's Roman square (last team fixed, the others rotate) or the inverse square."
        ),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"),
        default=4,
        help_text=_(
            "How many matches each team plays in a Swiss; a round robin plays every "
            "other team once."
        ),
    )
    boards_per_match = models.PositiveSmallIntegerField(_("boards per match"), default=8)
    vp_scale = models.CharField(
        _("VP scale"), max_length=16, choices=VPScale.choices, default=VPScale.WBF20
    )
    bye_vp = models.DecimalField(
        _("VPs for a bye"),
        max_digits=5,
        decimal_places=2,
        default=12,
        help_text=_(
            "What a team with no opponent in a round receives. Default 12 VPs (the "
            "WBF's usual award on the 20-VP scale); with IMP scoring a bye scores 0 "
            "IMPs."
        ),
    )
    scoring = models.CharField(
        _("scoring"),
        max_length=8,
        choices=TeamScoring.choices,
        blank=True,
        default=TeamScoring.TOURNAMENT,
        help_text=_("A Patton evening always scores Patton points and a triplicate IMPs."),
    )
    tie_breaks = models.CharField(
        _("tie-breaks"),
        max_length=24,
        choices=TieBreakOrder.choices,
        default=TieBreakOrder.H2H_FIRST,
    )
    random_first_round = models.BooleanField(
        _("draw the first round at random"),
        default=False,
        help_text=_(
            "Otherwise the first round pairs the teams in registration order: 1 v 2, 3 v 4…"
        ),
    )

    legs = models.PositiveSmallIntegerField(
        _("legs"),
        default=1,
        help_text=_(
            "A round robin played twice or more: each leg repeats the schedule with "
            "home and away swapped, as the AEB directors' course says."
        ),
    )
    knockout_seeding = models.CharField(
        _("knockout seeding"),
        max_length=12,
        choices=KnockoutSeeding.choices,
        default=KnockoutSeeding.REGISTRATION,
        help_text=_("Byes for a field that is not a power of two go to the top seeds."),
    )
    seeds = models.JSONField(
        _("seeds"), default=list, blank=True, help_text=_("Team entry ids, best seed first.")
    )
    knockout_tie = models.CharField(
        _("tied knockout match"),
        max_length=12,
        choices=KnockoutTie.choices,
        default=KnockoutTie.EXTRA_BOARDS,
        help_text=_(
            "As the conditions of contest say. A match is tied when neither team "
            "wins by at least 1 IMP."
        ),
    )
    tie_boards = models.PositiveSmallIntegerField(_("boards of a tie-break segment"), default=4)

    objects = club_manager("tournament__club")

    class Meta:
        verbose_name = _("teams event")
        verbose_name_plural = _("teams events")

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.get_format_display()}"

    @property
    def is_swiss(self) -> bool:
        return self.format == TeamFormat.SWISS

    @property
    def is_triplicate(self) -> bool:
        return self.format == TeamFormat.TRIPLICATE

    @property
    def unit(self) -> str:
        """What the standings count: "vps", "imps", "bam", "total" or "patton"."""
        if self.format == TeamFormat.PATTON:
            return TeamScoring.PATTON
        if self.format in (TeamFormat.TRIPLICATE, TeamFormat.KNOCKOUT):
            return TeamScoring.IMPS  # a knockout match is won on IMPs (C03 l.177)
        if self.scoring:
            return self.scoring
        return TeamScoring.VPS if self.tournament.method.ranks_by_vps else TeamScoring.IMPS

    @property
    def is_knockout(self) -> bool:
        return self.format == TeamFormat.KNOCKOUT

    @property
    def tie_break_order(self) -> tuple[str, ...]:
        return tuple(str(t) for t in TIE_BREAK_ORDERS.get(self.tie_breaks, ()))


class TeamMatch(models.Model):
    """One match of a round: home team NS in the open room (table 2·number − 1) and EW in the
    closed room (table 2·number). A bye has no away team and table number 0."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="team_matches"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("match"))
    home = models.ForeignKey(
        Entry, verbose_name=_("home team"), on_delete=models.PROTECT, related_name="home_matches"
    )
    away = models.ForeignKey(
        Entry,
        verbose_name=_("away team"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="away_matches",
    )
    # Each team's own IMPs won and lost: with split or artificial adjusted scores the two
    # teams' margins need not cancel (C03 l.790-833).
    home_won = models.DecimalField(
        _("IMPs won by the home team"), max_digits=8, decimal_places=2, default=0
    )
    home_lost = models.DecimalField(
        _("IMPs lost by the home team"), max_digits=8, decimal_places=2, default=0
    )
    away_won = models.DecimalField(
        _("IMPs won by the away team"), max_digits=8, decimal_places=2, default=0
    )
    away_lost = models.DecimalField(
        _("IMPs lost by the away team"), max_digits=8, decimal_places=2, default=0
    )
    home_vp = models.DecimalField(
        _("home VPs"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    away_vp = models.DecimalField(
        _("away VPs"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    boards_played = models.PositiveSmallIntegerField(_("boards scored"), default=0)
    # Board-a-match, total or Patton points of each team, when the event scores in them.
    home_points = models.DecimalField(
        _("home points"), max_digits=9, decimal_places=2, null=True, blank=True
    )
    away_points = models.DecimalField(
        _("away points"), max_digits=9, decimal_places=2, null=True, blank=True
    )
    # Knockout only: IMPs the director carries into the match (a qualifying stage, a handicap),
    # the home team's averaged margin including them (Law 12C4, C03 l.830), tie-break
    # segments played at the same two tables, and who went through.
    home_carry = models.DecimalField(
        _("home carry-over"), max_digits=6, decimal_places=1, default=0
    )
    away_carry = models.DecimalField(
        _("away carry-over"), max_digits=6, decimal_places=1, default=0
    )
    margin = models.DecimalField(
        _("home margin"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    tie_segments = models.JSONField(_("tie-break segments"), default=list, blank=True)
    winner = models.ForeignKey(
        Entry,
        verbose_name=_("went through"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="knockout_wins",
    )
    decided_by = models.CharField(_("decided by"), max_length=12, blank=True)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "round", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "round", "number"], name="one_team_match_number"
            ),
            models.UniqueConstraint(
                fields=["session", "round", "home"], name="home_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round} M{self.number}: {self.home} – {self.away or '—'}"

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def open_table(self) -> int:
        return 2 * self.number - 1

    @property
    def closed_table(self) -> int:
        return 2 * self.number

    @property
    def home_margin(self):
        return self.home_won - self.home_lost

    @property
    def away_margin(self):
        return self.away_won - self.away_lost

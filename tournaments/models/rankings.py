"""Classification output, stored so public pages read it with a constant number of queries.

Rows are replaced as a whole each time a session is classified; ``version`` is the
session's ranking version they belong to (usable as an ETag). Names and numbers are
copied in so a ranking page needs no join.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .entries import Entry
from .event import Section, Session, Tournament
from .results import Result


class RankingScope(models.TextChoices):
    SECTION = "section", _("Section")
    POOL = "pool", _("All sections on the same boards")
    EVENT = "event", _("Tournament (all sessions)")


# A player's headline line: the widest ranking they are in (the tournament's, the pool's, the
# section's); the pages and the master points both read it.
HEADLINE_ORDER = {RankingScope.EVENT: 0, RankingScope.POOL: 1, RankingScope.SECTION: 2}


class StoredRanking(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="rankings",
    )
    session = models.ForeignKey(
        Session,
        verbose_name=_("session"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rankings",
    )
    section = models.ForeignKey(
        Section,
        verbose_name=_("section"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rankings",
    )
    scope = models.CharField(_("scope"), max_length=8, choices=RankingScope.choices)
    pool = models.CharField(_("board pool"), max_length=3, blank=True)
    direction = models.CharField(_("line"), max_length=2, blank=True)
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="rankings"
    )
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    names = models.CharField(_("players"), max_length=300, blank=True)
    place = models.PositiveSmallIntegerField(_("place"))
    tied = models.BooleanField(_("tied"), default=False)
    decided_by = models.CharField(_("tie broken by"), max_length=20, blank=True)
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=2)
    maximum = models.DecimalField(_("maximum"), max_digits=12, decimal_places=2, null=True)
    percentage = models.DecimalField(_("percentage"), max_digits=6, decimal_places=2, null=True)
    exact = models.CharField(_("exact score"), max_length=60, blank=True)
    boards = models.PositiveSmallIntegerField(_("boards"), default=0)
    # a handicap event's second ranking (``scoring.handicap``): empty otherwise
    handicap = models.DecimalField(_("handicap"), max_digits=5, decimal_places=2, null=True)
    handicap_percentage = models.DecimalField(
        _("percentage with handicap"), max_digits=6, decimal_places=2, null=True
    )
    handicap_place = models.PositiveSmallIntegerField(_("place with handicap"), null=True)
    handicap_tied = models.BooleanField(_("tied with handicap"), default=False)
    version = models.PositiveIntegerField(_("version"), default=0)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["scope", "pool", "section", "direction", "place", "number"]
        verbose_name = _("ranking line")
        verbose_name_plural = _("rankings")
        indexes = [
            models.Index(fields=["session", "scope", "section", "direction", "place"]),
            models.Index(fields=["tournament", "scope"]),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.names}"


class StoredMark(models.Model):
    """One entry's mark on one board (matchpoints or IMPs), for travellers and scorecards."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="marks"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="marks"
    )
    board_number = models.PositiveSmallIntegerField(_("board"))
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="marks"
    )
    direction = models.CharField(_("line"), max_length=2)
    opponent = models.ForeignKey(
        Entry,
        verbose_name=_("opponents"),
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
        on_delete=models.CASCADE,
        related_name="marks",
    )
    mark = models.DecimalField(_("mark"), max_digits=10, decimal_places=2)
    percentage = models.DecimalField(_("percentage"), max_digits=6, decimal_places=2, null=True)
    kind = models.CharField(_("kind"), max_length=10)
    version = models.PositiveIntegerField(_("version"), default=0)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "board_number", "entry"]
        verbose_name = _("board mark")
        verbose_name_plural = _("board marks")
        indexes = [
            models.Index(fields=["session", "entry"]),
            models.Index(fields=["session", "board_number"]),
        ]

    def __str__(self) -> str:
        return f"B{self.board_number} {self.entry_id}: {self.mark}"


class StoredMatch(models.Model):
    """A pair's match in a Butler or cross-IMP pairs event converted to VPs: its IMPs over
    the boards of one round against one opponent and the VPs they are worth, written with
    the rankings so the scorecard shows what the ranking added."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="vp_matches"
    )
    section = models.ForeignKey(
        Section, verbose_name=_("section"), on_delete=models.CASCADE, related_name="vp_matches"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="vp_matches"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    opponent = models.ForeignKey(
        Entry,
        verbose_name=_("opponents"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    imps = models.DecimalField(_("IMPs"), max_digits=10, decimal_places=2)
    boards = models.PositiveSmallIntegerField(_("boards"))
    vps = models.DecimalField(_("VPs"), max_digits=8, decimal_places=2)
    version = models.PositiveIntegerField(_("version"), default=0)

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "entry", "round"]
        verbose_name = _("match score")
        verbose_name_plural = _("match scores")
        indexes = [models.Index(fields=["session", "entry"])]

    def __str__(self) -> str:
        return f"{self.entry_id} r{self.round}: {self.imps} IMPs, {self.vps} VPs"

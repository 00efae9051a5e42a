"""The scoring methods, each fact about each in one place.

A tournament stores one method's ``code`` (``Tournament.scoring_method``); everything else
that depends on the method reads it here: what a board and the standings are scored in,
who plays it, which pairs-IMP form ``score_imp_pairs_board`` computes, what a total prints
after it, and how USEBIO and PBN files name it (written and read). The Django side keeps
only the translated labels (``models.ScoringMethod``, keyed by these codes).

Adding a method: an entry here, its label in ``models.ScoringMethod``, and the scoring
itself if it is a new kind. Pure Python: no Django, no other project module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Players = Literal["pairs", "teams"]  # pairs (and individuals) or teams
BoardScoring = Literal["matchpoints", "imps"]  # what each board's mark is in
RankedBy = Literal["matchpoints", "imps", "vps"]  # what the standings add up
ImpForm = Literal["butler", "cross"]  # a pairs board IMPed against a datum / every result

BUTLER_FORM: Final[ImpForm] = "butler"
CROSS_FORM: Final[ImpForm] = "cross"


@dataclass(frozen=True)
class Method:
    """One scoring method and what follows from it."""

    code: str  # the database value of ``Tournament.scoring_method``
    name: str  # the English name (the model's choices hold the translated label)
    players: Players
    board_scoring: BoardScoring
    ranked_by: RankedBy
    imp_form: ImpForm | None  # pairs scored in IMPs: how ``score_imp_pairs_board`` IMPs them
    suffix: str  # written after a standings total in plain text (the results mail)
    usebio_event_type: str  # EVENT_TYPE written for a pairs event ("": teams say their own)
    usebio_event_types: tuple[str, ...]  # EVENT_TYPEs read as this method (pairs)
    usebio_scoring: str  # BOARD_SCORING_METHOD (pairs) / MATCH_SCORING_METHOD (teams) written
    usebio_scoring_words: tuple[str, ...]  # … and the words read as this method
    usebio_mark_tag: str  # a traveller line's NS_…/EW_… mark element ("": teams have none)
    pbn_scoring: str  # PBN's [Scoring] tag

    @property
    def is_teams(self) -> bool:
        return self.players == "teams"

    @property
    def is_matchpoints(self) -> bool:
        """Each board scored in matchpoints (and the standings in percentages)."""
        return self.board_scoring == "matchpoints"

    @property
    def is_pair_imps(self) -> bool:
        """Pairs (or individuals) scored in IMPs: Butler or cross-IMPs."""
        return self.imp_form is not None

    @property
    def ranks_by_imps(self) -> bool:
        """The standings are IMPs (pairs IMP methods and IMP-scored teams)."""
        return self.ranked_by == "imps"

    @property
    def ranks_by_vps(self) -> bool:
        return self.ranked_by == "vps"


MATCHPOINTS: Final = Method(
    code="matchpoints",
    name="Matchpoints",
    players="pairs",
    board_scoring="matchpoints",
    ranked_by="matchpoints",
    imp_form=None,
    suffix="",
    usebio_event_type="MP_PAIRS",
    usebio_event_types=("MP_PAIRS", "PAIRS", "SWISS_PAIRS"),
    usebio_scoring="MATCH_POINTS",
    usebio_scoring_words=("MATCH_POINTS", "MATCHPOINTS"),
    usebio_mark_tag="MATCH_POINTS",
    pbn_scoring="MatchPoints",
)
CROSS_IMPS: Final = Method(
    code="cross_imps",
    name="Cross-IMPs",
    players="pairs",
    board_scoring="imps",
    ranked_by="imps",
    imp_form=CROSS_FORM,
    suffix="",
    usebio_event_type="CROSS_IMP",
    usebio_event_types=("CROSS_IMP", "CROSS_IMPS"),
    usebio_scoring="CROSS_IMPS",
    usebio_scoring_words=("CROSS_IMPS", "CROSS_IMP"),
    usebio_mark_tag="CROSS_IMP_POINTS",
    pbn_scoring="IMP;Cross",
)
BUTLER: Final = Method(
    code="butler",
    name="Butler",
    players="pairs",
    board_scoring="imps",
    ranked_by="imps",
    imp_form=BUTLER_FORM,
    suffix="",
    usebio_event_type="BUTLER_PAIRS",
    usebio_event_types=("BUTLER_PAIRS", "BUTLER"),
    usebio_scoring="BUTLER",
    usebio_scoring_words=("BUTLER",),
    usebio_mark_tag="BUTLER_POINTS",
    pbn_scoring="Butler",
)
TEAM_IMPS: Final = Method(
    code="imps",
    name="IMPs (teams)",
    players="teams",
    board_scoring="imps",
    ranked_by="imps",
    imp_form=None,
    suffix="",
    usebio_event_type="",
    usebio_event_types=(),
    usebio_scoring="IMPS",
    usebio_scoring_words=("IMPS", "IMP"),
    usebio_mark_tag="",
    pbn_scoring="IMP",
)
TEAM_VPS: Final = Method(
    code="vps",
    name="Victory points (teams)",
    players="teams",
    board_scoring="imps",
    ranked_by="vps",
    imp_form=None,
    suffix="VP",
    usebio_event_type="",
    usebio_event_types=(),
    usebio_scoring="VPS",
    usebio_scoring_words=("VPS", "VP"),
    usebio_mark_tag="",
    pbn_scoring="IMP;VP",
)

# In the order the choices list them; the first is the default.
METHODS: Final[tuple[Method, ...]] = (MATCHPOINTS, CROSS_IMPS, BUTLER, TEAM_IMPS, TEAM_VPS)
DEFAULT: Final = MATCHPOINTS
BY_CODE: Final[dict[str, Method]] = {m.code: m for m in METHODS}


def method(code: str) -> Method:
    """The method stored as ``code``; an unknown code (a row from before a method was
    removed) reads as the default, as the exports always treated it."""
    return BY_CODE.get(code, DEFAULT)


def codes(*, players: Players | None = None) -> tuple[str, ...]:
    """The codes of every method, or of those ``players`` play."""
    return tuple(m.code for m in METHODS if players is None or m.players == players)


def from_usebio_event_type(word: str) -> Method | None:
    """The pairs method a USEBIO EVENT_TYPE names, or None."""
    key = word.upper()
    return next((m for m in METHODS if not m.is_teams and key in m.usebio_event_types), None)


def from_usebio_scoring(word: str, *, players: Players) -> Method | None:
    """The method of ``players`` a USEBIO BOARD_/MATCH_SCORING_METHOD names, or None."""
    key = word.upper()
    return next(
        (m for m in METHODS if m.players == players and key in m.usebio_scoring_words), None
    )


def usebio_mark_tags() -> tuple[str, ...]:
    """The mark elements a USEBIO traveller line may hold, in the order they are looked for."""
    return tuple(m.usebio_mark_tag for m in METHODS if m.usebio_mark_tag)

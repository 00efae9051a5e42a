"""Traveller entries other than a plain result, and the adjusted-score rules.

A board's line is a real result (``int`` or ``Real``), an artificial adjusted
score (``Artificial``: percentages per side, Law 12C2), an assigned split score
(``Split``: a different result for each side, Law 12C1e / 79B3), a weighted
assigned score (``Weighted``, Law 12C1c) or a board that was not played
(``NotPlayed``: relay/bye, missing, unplayed). The percentages of a side may be
a fixed number or a ``Role`` (offender / partly / non-offender) whose value
depends on the pair's own session percentage (Law 12C2c), which only the
session scorer knows; ``board.score_board`` falls back to 60/50/40.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from numbers import Rational
from numbers import Real as RealNumber

from .errors import ScoringError
from .numeric import Number


class Role(Enum):
    """A side's responsibility for an artificial adjusted score (Law 12C2a)."""

    NON_OFFENDER = "non_offender"  # "media máxima": at least 60%
    PARTLY_AT_FAULT = "partly"  # "media": 50%
    OFFENDER = "offender"  # "media mínima": at most 40%


BASE_PERCENT: dict[Role, Fraction] = {
    Role.NON_OFFENDER: Fraction(60),
    Role.PARTLY_AT_FAULT: Fraction(50),
    Role.OFFENDER: Fraction(40),
}


class Unplayed(Enum):
    """Why a line has no result; decides the pair's mark (C03 l.661, AEB norms L17 l.3133)."""

    RELAY = "relay"  # relay/bye: the pair's own average on its other boards (C03 l.669)
    JUSTIFIED = "justified"  # AEB 1: session average if unplayed <= 20% of the session
    PLAYER_FAULT = "player_fault"  # AEB 2: at most 40%
    ORGANISATION = "organisation"  # AEB 3: at least 60%


Percent = Fraction | Role


def _percent(value: object, field: str) -> Percent:
    if isinstance(value, Role):
        return value
    if isinstance(value, bool) or not isinstance(value, RealNumber):
        raise ScoringError(field, value, "an adjusted percentage is a number 0..100 or a Role")
    pct = Fraction(value) if isinstance(value, Rational) else Fraction(str(value))
    if not 0 <= pct <= 100:
        raise ScoringError(field, value, "an adjusted percentage must be between 0 and 100")
    return pct


def _score(value: object, field: str) -> Fraction | int:
    if isinstance(value, bool) or not isinstance(value, Rational):
        raise ScoringError(field, value, "a board result is an integer NS score")
    return value  # type: ignore[return-value]  # a numbers.Rational: an int or a Fraction


@dataclass(frozen=True, slots=True)
class Real:
    """A real result in NS points; ``group`` separates fouled-board/pool groups (Law 87)."""

    ns_score: int
    group: Hashable = None

    def __post_init__(self) -> None:
        _score(self.ns_score, "ns_score")


@dataclass(frozen=True, slots=True)
class Artificial:
    """Artificial adjusted score: a percentage of the top (or a Role) for each side.

    Percentages need not sum to 100 (C03 l.959; L17 12C2). ``unplayed`` marks a
    board the pair could not play at all, which the AEB's "at most two
    average-plus per session" note (L17 12C2d) limits.
    """

    ns: Percent
    ew: Percent
    unplayed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "ns", _percent(self.ns, "ns_percent"))
        object.__setattr__(self, "ew", _percent(self.ew, "ew_percent"))

    @classmethod
    def of(cls, ns: object, ew: object, unplayed: bool = False) -> Artificial:
        """``Artificial.of(60, 40)`` or from the ``("%", 60, 40)`` tuple shape."""
        return cls(ns, ew, unplayed)  # type: ignore[arg-type]  # __post_init__ checks them


AVERAGE = Artificial(Fraction(50), Fraction(50))
AVERAGE_PLUS_NS = Artificial(Fraction(60), Fraction(40))
AVERAGE_PLUS_EW = Artificial(Fraction(40), Fraction(60))


@dataclass(frozen=True, slots=True)
class Split:
    """Assigned split score: NS is scored on ``ns_score``, EW on ``ew_score`` (both NS points)."""

    ns_score: int
    ew_score: int
    group: Hashable = None

    def __post_init__(self) -> None:
        _score(self.ns_score, "ns_score")
        _score(self.ew_score, "ew_score")


@dataclass(frozen=True, slots=True)
class Weighted:
    """Weighted assigned score (Law 12C1c): ``((weight, ns_score), ...)``, weights summing to 1."""

    outcomes: tuple[tuple[Fraction, int], ...]
    group: Hashable = None

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise ScoringError("outcomes", self.outcomes, "a weighted score needs outcomes")
        clean: list[tuple[Fraction, int]] = []
        for weight, score in self.outcomes:
            if isinstance(weight, bool) or not isinstance(weight, RealNumber) or weight <= 0:
                raise ScoringError("weight", weight, "weights must be positive numbers")
            w = Fraction(weight) if isinstance(weight, Rational) else Fraction(str(weight))
            clean.append((w, _score(score, "ns_score")))  # type: ignore[arg-type]  # an int or a Fraction
        total = sum(w for w, _ in clean)
        if total != 1:
            raise ScoringError("outcomes", self.outcomes, f"weights must sum to 1, not {total}")
        object.__setattr__(self, "outcomes", tuple(clean))

    @classmethod
    def percent(cls, *pairs: tuple[object, int], group: Hashable = None) -> Weighted:
        """``Weighted.percent((30, 420), (70, -50))``: weights as percentages."""
        return cls(tuple((Fraction(str(p)) / 100, s) for p, s in pairs), group)


@dataclass(frozen=True, slots=True)
class NotPlayed:
    """No result at this table (relay/bye, missing or unplayed); others are Neuberg-factored."""

    reason: Unplayed = Unplayed.RELAY


Entry = int | Real | Artificial | Split | Weighted | NotPlayed


def as_entry(value: object) -> Entry:
    """Normalise the plain-data shapes services may pass.

    ``420`` → Real; ``("%", 60, 40)`` → Artificial; ``("split", 420, 450)`` → Split;
    ``("weighted", ((30, 420), (70, -50)))`` → Weighted (percent weights);
    ``None`` or ``"not_played"`` → NotPlayed; entries already typed pass through.
    """
    if isinstance(value, Real | Artificial | Split | Weighted | NotPlayed):
        return value
    if value is None or value == "not_played":
        return NotPlayed()
    if isinstance(value, bool):
        raise ScoringError("entry", value, "not a board entry")
    if isinstance(value, int | Fraction):
        return Real(value)  # type: ignore[arg-type]  # _score takes a Fraction too
    if isinstance(value, tuple) and value:
        tag = value[0]
        if tag == "%" and len(value) == 3:
            return Artificial.of(value[1], value[2])
        if tag == "split" and len(value) == 3:
            return Split(value[1], value[2])
        if tag == "weighted" and len(value) == 2:
            return Weighted.percent(*value[1])
    raise ScoringError(
        "entry", value, "not a board entry (score, ('%', ns, ew), ('split', ns, ew), ...)"
    )


def artificial_percentage(
    role: Role, session_percent: Number | None = None, edition: int = 2017
) -> Fraction:
    """Value of an artificial score for a side with ``role`` (Law 12C2).

    2017 (and 2007) 12C2c: a non-offender above 60% keeps its own session
    percentage; an offender below 40% gets its own, lower, percentage.
    The 2003 course (C03 l.963) and the 1997 Law 88 give the offender a flat
    40% "sin que tenga influencia el resto de las manos".
    ``session_percent`` is the pair's percentage on its other boards of the session.
    """
    if not isinstance(role, Role):
        raise ScoringError("role", role, "must be a Role")
    if edition not in (1997, 2003, 2007, 2017):
        raise ScoringError("edition", edition, "known editions: 1997, 2003, 2007, 2017")
    base = BASE_PERCENT[role]
    if session_percent is None or role is Role.PARTLY_AT_FAULT:
        return base
    own = (
        Fraction(session_percent)
        if isinstance(session_percent, Rational)
        else Fraction(str(session_percent))
    )
    if role is Role.NON_OFFENDER:
        return max(base, own)
    if edition >= 2007:
        return min(base, own)
    return base


def unplayed_board_percentage(
    reason: Unplayed,
    session_percent: Number,
    unplayed_boards: int = 1,
    session_boards: int | None = None,
) -> Fraction:
    """AEB norm for a board a pair did not play (L17 l.3133-3142); relay per C03 l.669.

    Interpretations (flagged in the docs): "promedio de la sesión" is the pair's
    own percentage on its played boards; above the 20% limit of a justified
    absence the norm is silent and 50% is used.
    """
    own = (
        Fraction(session_percent)
        if isinstance(session_percent, Rational)
        else Fraction(str(session_percent))
    )
    if reason is Unplayed.RELAY:
        return own
    if reason is Unplayed.PLAYER_FAULT:
        return min(Fraction(40), own)
    if reason is Unplayed.ORGANISATION:
        return max(Fraction(60), own)
    if reason is Unplayed.JUSTIFIED:
        if session_boards is not None and unplayed_boards * 5 > session_boards:
            return Fraction(50)
        return own
    raise ScoringError("reason", reason, "must be an Unplayed value")


def unplayed_session_percentage(played_percents: Sequence[Number], last: bool = False) -> Fraction:
    """AEB norm for a whole session not played (L17 l.3144-3149).

    The lowest of: (a) the average of the sessions played ("sin contar la sesión
    jugada" read as "no jugada"), (b) that average counting 50% for the missing
    session, (c) 53%. If it is the last session: the pair's worst session.
    Sessions are weighted equally (the norm does not say).
    """
    pcts = [Fraction(p) if isinstance(p, Rational) else Fraction(str(p)) for p in played_percents]
    if not pcts:
        raise ScoringError(
            "played_percents", played_percents, "at least one played session is needed"
        )
    if last:
        return min(pcts)
    mean = sum(pcts, Fraction(0)) / len(pcts)
    with_fifty = (sum(pcts, Fraction(0)) + 50) / (len(pcts) + 1)
    return min(mean, with_fifty, Fraction(53))


def relay_correction(total: Number, assigned: Number, rounds_played: int) -> Fraction:
    """C03 l.590: RELE = (total − assigned)/rounds played − assigned; add it to the total.

    It credits the relay round with the pair's own average per round played.
    """
    if isinstance(rounds_played, bool) or not isinstance(rounds_played, int) or rounds_played < 1:
        raise ScoringError("rounds_played", rounds_played, "must be a positive integer")
    t = Fraction(total) if isinstance(total, Rational) else Fraction(str(total))
    a = Fraction(assigned) if isinstance(assigned, Rational) else Fraction(str(assigned))
    return (t - a) / rounds_played - a


def procedural_penalty(top: int, fraction_of_top: Number) -> Fraction:
    """Matchpoints to subtract for a procedural penalty given as a fraction of a top (C03 l.586)."""
    f = (
        Fraction(fraction_of_top)
        if isinstance(fraction_of_top, Rational)
        else Fraction(str(fraction_of_top))
    )
    if f < 0:
        raise ScoringError(
            "fraction_of_top", fraction_of_top, "a penalty fraction cannot be negative"
        )
    return f * top


def fouled_group_percentages(scores: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    """Fixed (NS%, EW%) for a fouled-board group of 1-3 results (C03 l.706-721).

    1 → 60/60; 2 → best 65, worse 55; 3 → 70/60/50, each line by its own
    ranking; ties share the mean of their percentages. NS% + EW% = 120 per table.
    """
    table = {1: [60], 2: [65, 55], 3: [70, 60, 50]}
    if len(scores) not in table:
        raise ScoringError(
            "group", list(scores), "fixed percentages are for groups of 1 to 3 results"
        )
    pcts = [Fraction(p) for p in table[len(scores)]]
    n = len(scores)
    out: list[tuple[Fraction, Fraction]] = []
    for s in scores:
        higher = sum(1 for o in scores if o > s)
        equal = sum(1 for o in scores if o == s)
        ns_positions = range(higher, higher + equal)  # 0 = best for NS
        ns = sum((pcts[i] for i in ns_positions), Fraction(0)) / equal
        ew = sum((pcts[n - 1 - i] for i in ns_positions), Fraction(0)) / equal
        out.append((ns, ew))
    return out

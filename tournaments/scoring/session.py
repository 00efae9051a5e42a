"""A pairs session: board marks → per-pair totals and percentages.

Each side's marks are accumulated directly (not as "máximo teórico − NS
marks", C03 l.584), because split and non-complementary artificial scores make
NS + EW differ from the top. Deferred adjustments (Role percentages under
Law 12C2c, relay and AEB unplayed-board norms) need the pair's own percentage
on its really scored boards, so the session is scored in two passes.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .board import Factoring, LineMarks, SplitRule
from .errors import ScoringError
from .tally import (
    PairBoard,
    PairTotal,
    Provisional,
    Rules,
    SessionTally,
    exact_sum,
    settle_pair,
)

__all__ = [
    "BoardResult",
    "EventTotal",
    "PairBoard",
    "PairTotal",
    "Penalty",
    "Provisional",
    "SessionScore",
    "SessionTally",
    "TravellerLine",
    "combine_sessions",
    "exact_sum",
    "finish_session",
    "provisional_marks",
    "score_session",
    "session_score",
]


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One line of a traveller; a relay/bye line has only the pair that sat out."""

    ns_pair: Hashable
    ew_pair: Hashable
    entry: object  # anything ``adjusted.as_entry`` accepts


@dataclass(frozen=True, slots=True)
class BoardResult:
    board: int
    lines: tuple[TravellerLine, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """Procedural penalty: ``fraction_of_top`` of a top off the pair's total (C03 l.586)."""

    pair: Hashable
    fraction_of_top: Fraction
    board: int | None = None


@dataclass(frozen=True, slots=True)
class SessionScore:
    top: int
    boards_per_pair: int
    totals: dict[Hashable, PairTotal]
    marks: tuple[PairBoard, ...]


def score_session(
    boards: Sequence[BoardResult],
    *,
    expected: int,
    boards_per_pair: int | None = None,
    edition: int = 2017,
    penalties: Sequence[Penalty] = (),
    max_average_plus_unplayed: int | None = 2,
    split_rule: SplitRule = "course",
    factoring: Factoring = "neuberg",
) -> SessionScore:
    """Matchpoint every board and total each pair.

    ``expected`` is the tournament-wide theoretical results per board (the top
    is unique for the whole event, C03 l.483). ``boards_per_pair`` is the
    theoretical number of boards (rounds × boards per round, relay boards
    included, C03 l.746); it defaults to the most boards any pair has a line on.
    ``max_average_plus_unplayed`` is the AEB note to 12C2d: at most two
    "medias máximas" per session for boards a pair could not play
    (``Artificial(..., unplayed=True)``); later ones get 50% (the note does not
    say what they get; flagged). None disables it.

    A ``tally.SessionTally`` filled once: one kept between runs (the classification's)
    scores again only the boards whose lines changed, and gives the same figures.
    """
    tally = SessionTally(
        expected=expected,
        boards_per_pair=boards_per_pair,
        edition=edition,
        max_average_plus_unplayed=max_average_plus_unplayed,
        split_rule=split_rule,
        factoring=factoring,
    )
    for position, board in enumerate(boards):
        tally.put_board(position, board)
    tally.set_penalties((p.pair, p.fraction_of_top) for p in penalties)
    tally.settle()
    return session_score(tally)


def session_score(tally: SessionTally) -> SessionScore:
    """A settled tally as a ``SessionScore``: marks board by board in the order of the
    boards' keys, each board's lines in order (NS, then EW), pairs in order of their first
    mark."""
    final: list[PairBoard] = []
    taken: dict[tuple[Hashable, Hashable], int] = {}
    totals: dict[Hashable, PairTotal] = {}
    for key in sorted(tally.boards):  # type: ignore[type-var]  # the caller's keys sort
        for ns, ew, _entry in tally.boards[key]:  # (NS pair, EW pair, entry)
            for pair in (ns, ew):
                if pair is None:
                    continue
                i = taken.get((pair, key), 0)
                taken[(pair, key)] = i + 1
                final.append(tally.pairs[pair].finals[key][i])
                if pair not in totals:
                    totals[pair] = tally.totals[pair]
    return SessionScore(tally.top, tally.theoretical, totals, tuple(final))


def provisional_marks(
    board: int, marks: LineMarks, entry: object, holders: Sequence[tuple[Hashable, str, Hashable]]
) -> list[Provisional]:
    """The marks of one traveller line credited to each ``(contestant, "NS"/"EW", opponent)``
    that holds a side of it: the two pairs, or in an individual the four players (partners
    share their side's mark)."""
    unplayed_flag = bool(getattr(entry, "unplayed", False))
    out: list[Provisional] = []
    for holder, direction, opp in holders:
        if holder is None:
            continue
        mark, deferred = (
            (marks.ns, marks.ns_deferred) if direction == "NS" else (marks.ew, marks.ew_deferred)
        )
        kind: object = (
            deferred if deferred is not None else ("result" if marks.real else "adjusted")
        )
        out.append((board, holder, direction, opp, mark, kind, unplayed_flag))
    return out


def finish_session(
    provisional: Sequence[Provisional],
    *,
    top: int,
    boards_per_pair: int | None,
    edition: int = 2017,
    penalties: Sequence[Penalty] = (),
    max_average_plus_unplayed: int | None = 2,
) -> SessionScore:
    """Second pass: deferred adjustments from each contestant's own percentage, then totals
    (``tally.settle_pair`` for each contestant); final marks in the order given."""
    by_pair: dict[Hashable, list[Provisional]] = {}
    for m in provisional:
        by_pair.setdefault(m[1], []).append(m)
    most = max((len(marks) for marks in by_pair.values()), default=0)
    theoretical = boards_per_pair if boards_per_pair is not None else most
    if theoretical < most:
        raise ScoringError("boards_per_pair", boards_per_pair, "a pair has lines on more boards")
    rules = Rules(top, edition, max_average_plus_unplayed)
    penalty: dict[Hashable, Fraction] = {}
    for p in penalties:
        if p.pair not in by_pair:
            raise ScoringError("penalty.pair", p.pair, "the pair has no board in this session")
        penalty[p.pair] = penalty.get(p.pair, Fraction(0)) + Fraction(p.fraction_of_top)
    settled = {
        pair: settle_pair(pair, marks, rules, theoretical, penalty.get(pair, Fraction(0)))
        for pair, marks in by_pair.items()
    }
    ordered = {pair: iter(finals) for pair, (finals, _total) in settled.items()}
    final = tuple(next(ordered[m[1]]) for m in provisional)
    totals = {pair: total for pair, (_finals, total) in settled.items()}
    return SessionScore(top, theoretical, totals, final)


@dataclass(frozen=True, slots=True)
class EventTotal:
    pair: Hashable
    points: Fraction
    maximum: int
    percentage: Fraction
    session_percentages: tuple[Fraction | None, ...]


def combine_sessions(
    sessions: Sequence[SessionScore], fill_unplayed: bool = True
) -> dict[Hashable, EventTotal]:
    """Multi-session totals: points and maxima add up, so sessions weigh by their boards.

    A pair missing from a session gets the AEB unplayed-session percentage
    (L17 l.3144) when ``fill_unplayed`` is true, otherwise nothing for it.
    """
    from .adjusted import unplayed_session_percentage

    pairs: list[Hashable] = []
    for s in sessions:
        for pair in s.totals:
            if pair not in pairs:
                pairs.append(pair)
    out: dict[Hashable, EventTotal] = {}
    for pair in pairs:
        pcts = [s.totals[pair].percentage if pair in s.totals else None for s in sessions]
        played = [p for p in pcts if p is not None]
        pts, mx = Fraction(0), 0
        for i, s in enumerate(sessions):
            maximum = s.top * s.boards_per_pair
            if pair in s.totals:
                pts += s.totals[pair].points
                mx += maximum
            elif fill_unplayed:
                last = i == len(sessions) - 1
                pts += unplayed_session_percentage(played, last=last) * maximum / 100
                mx += maximum
        out[pair] = EventTotal(pair, pts, mx, pts * 100 / mx if mx else Fraction(0), tuple(pcts))
    return out

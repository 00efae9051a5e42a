"""A pairs session: board marks → per-pair totals and percentages.

Each side's marks are accumulated directly (not as "máximo teórico − NS
marks", C03 l.584), because split and non-complementary artificial scores make
NS + EW differ from the top. Deferred adjustments (Role percentages under
Law 12C2c, relay and AEB unplayed-board norms) need the pair's own percentage
on its really scored boards, so the session is scored in two passes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .adjusted import Role, Unplayed, artificial_percentage, unplayed_board_percentage
from .board import Factoring, LineMarks, SplitRule, score_board
from .errors import ScoringError
from .matchpoints import top_for


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
class PairBoard:
    """A pair's mark on one board, ready to store."""

    board: int
    pair: Hashable
    direction: str  # "NS" or "EW"
    opponent: Hashable
    mark: Fraction
    kind: str  # "result", "adjusted" or "unplayed"


@dataclass(frozen=True, slots=True)
class PairTotal:
    pair: Hashable
    points: Fraction
    maximum: int
    percentage: Fraction  # 0..100, exact; round only for display
    boards: int  # boards with a mark (relay/unplayed included)
    tops: int


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
    memo: MutableMapping | None = None,
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

    ``memo`` keeps each board's first-pass marks under everything they depend on (the
    board, its lines, N, the split and factoring rules): a board's matchpoints depend on
    that board alone, so re-scoring a session after one corrected result only scores that
    board again, and the second pass (own percentages, totals) still sees every board.
    """
    provisional: list[Provisional] = []
    for b in boards:
        key = (b, expected, split_rule, factoring)
        marks = memo.get(key) if memo is not None else None
        if marks is None:
            scored = score_board([line.entry for line in b.lines], expected,
                                 split_rule=split_rule, factoring=factoring)
            marks = []
            for line, m in zip(b.lines, scored.lines, strict=True):
                marks += provisional_marks(b.board, m, line.entry, (
                    (line.ns_pair, "NS", line.ew_pair), (line.ew_pair, "EW", line.ns_pair)))
            marks = tuple(marks)
        if memo is not None:
            memo[key] = marks
        provisional += marks
    return finish_session(provisional, top=top_for(expected), boards_per_pair=boards_per_pair,
                          edition=edition, penalties=penalties,
                          max_average_plus_unplayed=max_average_plus_unplayed)


# (board, contestant, direction, opponent, mark, kind or deferral, counts as unplayed)
Provisional = tuple[int, Hashable, str, Hashable, "Fraction | None", object, bool]


def provisional_marks(board: int, marks: LineMarks, entry: object,
                      holders: Sequence[tuple[Hashable, str, Hashable]]) -> list[Provisional]:
    """The marks of one traveller line credited to each ``(contestant, "NS"/"EW", opponent)``
    that holds a side of it: the two pairs, or in an individual the four players (partners
    share their side's mark)."""
    unplayed_flag = bool(getattr(entry, "unplayed", False))
    out: list[Provisional] = []
    for holder, direction, opp in holders:
        if holder is None:
            continue
        mark, deferred = (marks.ns, marks.ns_deferred) if direction == "NS" \
            else (marks.ew, marks.ew_deferred)
        kind: object = deferred if deferred is not None else ("result" if marks.real else "adjusted")
        out.append((board, holder, direction, opp, mark, kind, unplayed_flag))
    return out


def exact_sum(values: Iterable) -> Fraction:
    """The sum of rationals, exactly as adding them one by one gives it, in a fraction of the
    time: numerators are added per denominator (a board's marks share theirs), so only one
    ``Fraction`` addition (a gcd) is made per denominator instead of one per mark."""
    by_denominator: dict[int, int] = {}
    for value in values:
        d = value.denominator
        by_denominator[d] = by_denominator.get(d, 0) + value.numerator
    total = Fraction(0)
    for d, n in by_denominator.items():
        total += Fraction(n, d)
    return total


def finish_session(
    provisional: Sequence[Provisional],
    *,
    top: int,
    boards_per_pair: int | None,
    edition: int = 2017,
    penalties: Sequence[Penalty] = (),
    max_average_plus_unplayed: int | None = 2,
) -> SessionScore:
    """Second pass: deferred adjustments from each contestant's own percentage, then totals."""
    own_marks: dict[Hashable, list] = {}
    counts: dict[Hashable, int] = {}
    for _, pair, _, _, mark, kind, _ in provisional:
        counts[pair] = counts.get(pair, 0) + 1
        if kind == "result":
            own_marks.setdefault(pair, []).append(mark)
    own_points = {pair: exact_sum(marks) for pair, marks in own_marks.items()}
    own_boards = {pair: len(marks) for pair, marks in own_marks.items()}
    theoretical = boards_per_pair if boards_per_pair is not None else max(counts.values(), default=0)
    if theoretical < max(counts.values(), default=0):
        raise ScoringError("boards_per_pair", boards_per_pair, "a pair has lines on more boards")

    def own_percent(pair: Hashable) -> Fraction:
        if not own_boards.get(pair) or top == 0:
            return Fraction(50)
        return own_points[pair] * 100 / (top * own_boards[pair])

    unplayed_counts: dict[Hashable, dict[Unplayed, int]] = {}
    for _, pair, _, _, _, kind, _ in provisional:
        if isinstance(kind, Unplayed):
            per = unplayed_counts.setdefault(pair, {})
            per[kind] = per.get(kind, 0) + 1

    average_plus_used: dict[Hashable, int] = {}
    final: list[PairBoard] = []
    for board, pair, direction, opp, mark, kind, unplayed_flag in provisional:
        if isinstance(kind, Role):
            pct = artificial_percentage(kind, own_percent(pair), edition)
            if kind is Role.NON_OFFENDER and unplayed_flag and max_average_plus_unplayed is not None:
                used = average_plus_used.get(pair, 0)
                average_plus_used[pair] = used + 1
                if used >= max_average_plus_unplayed:
                    pct = Fraction(50)
            mark, label = pct * top / 100, "adjusted"
        elif isinstance(kind, Unplayed):
            pct = unplayed_board_percentage(
                kind, own_percent(pair), unplayed_counts[pair][kind], theoretical
            )
            mark, label = pct * top / 100, "unplayed"
        else:
            label = str(kind)
        final.append(PairBoard(board, pair, direction, opp, mark, label))  # type: ignore[arg-type]

    marks_of: dict[Hashable, list] = {}
    tops: dict[Hashable, int] = {}
    for pb in final:
        marks_of.setdefault(pb.pair, []).append(pb.mark)
        tops[pb.pair] = tops.get(pb.pair, 0) + (1 if pb.mark == top and top > 0 else 0)
    points = {pair: exact_sum(marks) for pair, marks in marks_of.items()}
    for p in penalties:
        if p.pair not in points:
            raise ScoringError("penalty.pair", p.pair, "the pair has no board in this session")
        points[p.pair] -= Fraction(p.fraction_of_top) * top
    # A pair with no line on some boards (a sit-out the movement does not lay out as a
    # relay, a table that never played a board) is ranked on the boards it has: the relay
    # rule credits a missed round with the pair's own average (C03 l.590, l.661), so its
    # percentage is its points over the top times its own boards.
    totals = {
        pair: PairTotal(
            pair,
            pts,
            top * counts[pair],
            pts * 100 / (top * counts[pair]) if top * counts[pair] else Fraction(50),
            counts[pair],
            tops[pair],
        )
        for pair, pts in points.items()
    }
    return SessionScore(top, theoretical, totals, tuple(final))


@dataclass(frozen=True, slots=True)
class EventTotal:
    pair: Hashable
    points: Fraction
    maximum: int
    percentage: Fraction
    session_percentages: tuple[Fraction | None, ...]


def combine_sessions(sessions: Sequence[SessionScore], fill_unplayed: bool = True) -> dict[Hashable, EventTotal]:
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

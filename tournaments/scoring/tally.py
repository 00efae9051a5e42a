"""A pairs session's matchpoints kept current board by board: a correction scores one board.

``score_session`` matchpoints every board, then settles each pair (the second pass: adjusted
and relay marks from the pair's own percentage, totals, penalties). Both passes are local: a
board's marks depend on that board's lines alone, and a pair's final marks and total on its
own marks alone. ``SessionTally`` keeps both, so putting a corrected board back scores that
board, and settling recomputes only the pairs whose marks on it moved; a pair with no
deferred mark (no A+/A−, no relay) is settled by the difference alone. ``score_session`` is
a tally filled once, so a kept tally and a fresh one agree exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .adjusted import Role, Unplayed, artificial_percentage, unplayed_board_percentage
from .board import Factoring, SplitRule, score_board
from .errors import ScoringError
from .matchpoints import top_for
from .numeric import Exact

# (board, contestant, direction, opponent, mark, kind or deferral, counts as unplayed)
Provisional = tuple[int, Hashable, str, Hashable, "Fraction | None", object, bool]


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


def exact_sum(values: Iterable[Exact]) -> Fraction:
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


@dataclass(frozen=True, slots=True)
class Rules:
    """What the second pass reads besides a pair's own marks."""

    top: int
    edition: int = 2017
    max_average_plus_unplayed: int | None = 2


def settle_pair(
    pair: Hashable,
    marks: Sequence[Provisional],
    rules: Rules,
    theoretical: int,
    penalty: Fraction = Fraction(0),
) -> tuple[tuple[PairBoard, ...], PairTotal]:
    """One contestant's second pass: its final marks (in the order of ``marks``) and total.

    Deferred adjustments take the contestant's own percentage on its really scored boards
    (Law 12C2c for A+/A−, the relay and AEB unplayed-board norms); at most
    ``max_average_plus_unplayed`` "medias máximas" for boards it could not play (the AEB
    note to 12C2d), later ones 50 %. ``penalty`` is the fraction of a top it loses."""
    top = rules.top
    own = [m[4] for m in marks if m[5] == "result"]
    own_points = exact_sum(own)  # type: ignore[arg-type]  # a result always has its mark

    def own_percent() -> Fraction:
        if not own or top == 0:
            return Fraction(50)
        return own_points * 100 / (top * len(own))

    unplayed_counts: dict[Unplayed, int] = {}
    for m in marks:
        if isinstance(m[5], Unplayed):
            unplayed_counts[m[5]] = unplayed_counts.get(m[5], 0) + 1
    used = 0
    final: list[PairBoard] = []
    for board, _pair, direction, opp, mark, kind, unplayed_flag in marks:
        if isinstance(kind, Role):
            pct = artificial_percentage(kind, own_percent(), rules.edition)
            cap = rules.max_average_plus_unplayed
            if kind is Role.NON_OFFENDER and unplayed_flag and cap is not None:
                used += 1
                if used > cap:
                    pct = Fraction(50)
            mark, label = pct * top / 100, "adjusted"
        elif isinstance(kind, Unplayed):
            pct = unplayed_board_percentage(kind, own_percent(), unplayed_counts[kind], theoretical)
            mark, label = pct * top / 100, "unplayed"
        else:
            assert mark is not None  # only a not-played line has none, and it is deferred
            label = str(kind)
        final.append(PairBoard(board, pair, direction, opp, mark, label))
    points = exact_sum(pb.mark for pb in final) - penalty * top
    tops = sum(1 for pb in final if pb.mark == top) if top > 0 else 0
    return tuple(final), _total(pair, points, top, len(final), tops)


def _total(pair: Hashable, points: Fraction, top: int, boards: int, tops: int) -> PairTotal:
    # A pair with no line on some boards (a sit-out the movement does not lay out as a
    # relay, a table that never played a board) is ranked on the boards it has: the relay
    # rule credits a missed round with the pair's own average (C03 l.590, l.661), so its
    # percentage is its points over the top times its own boards.
    maximum = top * boards
    percentage = (
        Fraction(points.numerator * 100, points.denominator * maximum) if maximum else Fraction(50)
    )
    return PairTotal(pair, points, maximum, percentage, boards, tops)


@dataclass
class _Pair:
    """What the tally keeps of one contestant: its provisional marks by board key, its final
    marks by board key, and the sums a difference moves (for a pair with nothing deferred)."""

    marks: dict[Hashable, list[Provisional]] = field(default_factory=dict)
    finals: dict[Hashable, list[PairBoard]] = field(default_factory=dict)
    stale: set[Hashable] = field(default_factory=set)  # board keys put since last settled
    deferred: int = 0  # provisional marks waiting for the second pass
    count: int = 0
    points: Fraction = Fraction(0)  # before penalties
    tops: int = 0


class SessionTally:
    """A session's matchpoints, kept: ``put_board``/``drop_board`` as lines change, then
    ``settle`` gives the pairs whose final marks or total changed.

    Boards are kept under a key of the caller's (a board number, or a position): a pair's
    marks are in the order of those keys, which decides which unplayed A+ are the
    "later" ones. ``expected`` is the tournament-wide theoretical results per board (C03
    l.483); ``boards_per_pair`` the theoretical boards of a pair (C03 l.746), by default
    the most boards any pair has a line on.
    """

    def __init__(
        self,
        *,
        expected: int,
        boards_per_pair: int | None = None,
        edition: int = 2017,
        max_average_plus_unplayed: int | None = 2,
        split_rule: SplitRule = "course",
        factoring: Factoring = "neuberg",
    ) -> None:
        self.expected = expected
        self.rules = Rules(top_for(expected), edition, max_average_plus_unplayed)
        self.boards_per_pair = boards_per_pair
        self.split_rule: SplitRule = split_rule
        self.factoring: Factoring = factoring
        # key → the board's lines as (NS pair, EW pair, entry)
        self.boards: dict[Hashable, tuple[tuple[Hashable, Hashable, object], ...]] = {}
        self.pairs: dict[Hashable, _Pair] = {}
        self.totals: dict[Hashable, PairTotal] = {}
        self.penalties: dict[Hashable, Fraction] = {}
        self._touched: set[Hashable] = set()
        self._theoretical = 0
        self._values: dict[tuple[int, int], Fraction] = {}

    @property
    def top(self) -> int:
        return self.rules.top

    @property
    def theoretical(self) -> int:
        """The boards a pair is scored over, as the last ``settle`` found it."""
        return self._theoretical

    # --- the first pass -----------------------------------------------------------------

    def put_board(self, key: Hashable, board: object) -> None:
        """Score ``board`` (a ``BoardResult``) under ``key``, replacing what was there; the
        pairs whose marks on it differ are settled again."""
        lines = board.lines  # type: ignore[attr-defined]
        entries = tuple((line.ns_pair, line.ew_pair, line.entry) for line in lines)
        if self.boards.get(key) == entries:
            return
        scored = score_board(
            [line.entry for line in lines],
            self.expected,
            split_rule=self.split_rule,
            factoring=self.factoring,
        )
        fresh: dict[Hashable, list[Provisional]] = {}
        number = board.board  # type: ignore[attr-defined]
        same: dict[
            int, tuple[Fraction | None, Fraction | None]
        ] = {}  # lines with one score share their marks: made once
        for line, m in zip(lines, scored.lines, strict=True):
            unplayed_flag = bool(getattr(line.entry, "unplayed", False))
            marks = same.get(id(m))
            if marks is None:
                marks = same[id(m)] = (self._kept_value(m.ns), self._kept_value(m.ew))
            for holder, direction, opp in (
                (line.ns_pair, "NS", line.ew_pair),
                (line.ew_pair, "EW", line.ns_pair),
            ):
                if holder is None:
                    continue
                mark, deferred = (
                    (marks[0], m.ns_deferred) if direction == "NS" else (marks[1], m.ew_deferred)
                )
                kind: object = (
                    deferred if deferred is not None else ("result" if m.real else "adjusted")
                )
                fresh.setdefault(holder, []).append(
                    (number, holder, direction, opp, mark, kind, unplayed_flag)
                )
        self._replace(key, entries, fresh)

    def drop_board(self, key: Hashable) -> None:
        if key in self.boards:
            self._replace(key, None, {})

    def _kept_value(self, mark: Fraction | None) -> Fraction | None:
        """The one object the tally keeps for a mark's value: a board scored again gives
        equal marks as the same objects, so comparing them is an identity check."""
        if mark is None:
            return None
        return self._values.setdefault((mark.numerator, mark.denominator), mark)

    def _replace(
        self,
        key: Hashable,
        entries: tuple[tuple[Hashable, Hashable, object], ...] | None,
        fresh: dict[Hashable, list[Provisional]],
    ) -> None:
        before = self._holders(key) if key in self.boards else set()
        if entries is None:
            del self.boards[key]
        else:
            self.boards[key] = entries
        for pair in before | fresh.keys():
            state = self.pairs.setdefault(pair, _Pair())
            old = state.marks.get(key)
            new = fresh.get(pair)
            if old == new:
                continue
            self._touched.add(pair)
            state.stale.add(key)
            for m in old or ():
                state.count -= 1
                state.deferred -= isinstance(m[5], Role | Unplayed)
            for m in new or ():
                state.count += 1
                state.deferred += isinstance(m[5], Role | Unplayed)
            if new is None:
                del state.marks[key]
            else:
                state.marks[key] = new

    def _holders(self, key: Hashable) -> set[Hashable]:
        holders: set[Hashable] = set()
        for ns, ew, _entry in self.boards[key]:
            holders.update(p for p in (ns, ew) if p is not None)
        return holders

    def set_penalties(self, penalties: Iterable[tuple[Hashable, Fraction]]) -> None:
        """Every procedural penalty of the session: (pair, fraction of a top) each."""
        summed: dict[Hashable, Fraction] = {}
        for pair, fraction in penalties:
            summed[pair] = summed.get(pair, Fraction(0)) + Fraction(fraction)
        for pair in summed.keys() | self.penalties.keys():
            if summed.get(pair) != self.penalties.get(pair):
                self._touched.add(pair)
        self.penalties = summed

    # --- the second pass ----------------------------------------------------------------

    def settle(self) -> dict[Hashable, set[Hashable]]:
        """Settle the pairs touched since the last call; returns those whose final marks or
        total changed, each with the keys of the boards whose final marks changed."""
        counts = [p.count for p in self.pairs.values()]
        most = max(counts, default=0)
        theoretical = self.boards_per_pair if self.boards_per_pair is not None else most
        if theoretical < most:
            raise ScoringError(
                "boards_per_pair", self.boards_per_pair, "a pair has lines on more boards"
            )
        if theoretical != self._theoretical:  # relay marks follow it
            self._touched.update(p for p, s in self.pairs.items() if s.deferred)
            self._theoretical = theoretical
        for pair in self.penalties:
            if not self.pairs.get(pair, _Pair()).count:
                raise ScoringError("penalty.pair", pair, "the pair has no board in this session")
        changed: dict[Hashable, set[Hashable]] = {}
        touched, self._touched = self._touched, set()
        for pair in touched:
            state = self.pairs.get(pair)
            if state is None:
                continue
            old_total = self.totals.get(pair)
            if not state.count:
                del self.pairs[pair]
                self.totals.pop(pair, None)
                changed[pair] = set(state.finals)
                continue
            if state.deferred:
                moved = self._settle_whole(pair, state, theoretical)
            else:
                moved = self._settle_by_difference(pair, state)
            if moved or self.totals.get(pair) != old_total:
                changed[pair] = moved
        return changed

    def _settle_whole(self, pair: Hashable, state: _Pair, theoretical: int) -> set[Hashable]:
        keys = sorted(state.marks)  # type: ignore[type-var]  # the caller's keys sort
        ordered = [m for k in keys for m in state.marks[k]]
        finals, total = settle_pair(
            pair, ordered, self.rules, theoretical, self.penalties.get(pair, Fraction(0))
        )
        before, state.finals, i = state.finals, {}, 0
        for k in keys:
            n = len(state.marks[k])
            state.finals[k] = list(finals[i : i + n])
            i += n
        state.points = total.points + self.penalties.get(pair, Fraction(0)) * self.rules.top
        state.tops, state.stale = total.tops, set()
        self.totals[pair] = total
        return {
            k for k in before.keys() | state.finals.keys() if before.get(k) != state.finals.get(k)
        }

    def _settle_by_difference(self, pair: Hashable, state: _Pair) -> set[Hashable]:
        """Nothing deferred: each final mark is its provisional one, so only the boards
        whose marks differ move the sums."""
        top = self.rules.top
        tops = state.tops
        moved = set()
        gone: list[Fraction] = []  # marks out and in (many: summed at once, ``exact_sum``)
        came: list[Fraction] = []
        for k in state.stale:
            old = state.finals.pop(k, None)
            for pb in old or ():
                gone.append(pb.mark)
                tops -= top > 0 and pb.mark == top
            new = None
            if k in state.marks:
                new = [PairBoard(m[0], pair, m[2], m[3], m[4], str(m[5])) for m in state.marks[k]]  # type: ignore[arg-type]  # nothing deferred: every mark is set
                for pb in new:
                    came.append(pb.mark)
                    tops += top > 0 and pb.mark == top
                state.finals[k] = new
            if old != new:
                moved.add(k)
        points = state.points
        if len(came) + len(gone) > 4:  # a board put for the first time: many marks at once
            points += exact_sum(came) - exact_sum(gone)
        else:
            for mark in came:
                points += mark
            for mark in gone:
                points -= mark
        state.points, state.tops, state.stale = points, tops, set()
        penalty = self.penalties.get(pair)
        if penalty:
            points = points - penalty * top
        self.totals[pair] = _total(pair, points, top, state.count, tops)
        return moved

    def final_marks(self, pair: Hashable) -> tuple[PairBoard, ...]:
        state = self.pairs.get(pair)
        if state is None:
            return ()
        return tuple(pb for k in sorted(state.finals) for pb in state.finals[k])  # type: ignore[type-var]  # keys sort


class ImpTally:
    """An IMP pairs session's board marks, kept: a pair's total is the sum of its marks, so a
    corrected board moves only its own pairs' totals. ``score`` gives a board's marks from
    its entries: one object with ``ns`` and ``ew`` IMPs (None: not played) per line."""

    def __init__(self, score: Callable[[list[object]], Sequence[object]]) -> None:
        self.score = score
        self.boards: dict[Hashable, tuple[tuple[Hashable, Hashable, object], ...]] = {}
        self.marks: dict[Hashable, dict[Hashable, list[PairBoard]]] = {}  # pair → key → marks
        self.totals: dict[Hashable, Fraction] = {}
        self.counts: dict[Hashable, int] = {}
        self._moved: dict[Hashable, set[Hashable]] = {}  # pair → keys put since settled

    def put_board(self, key: Hashable, board: object) -> None:
        lines = board.lines  # type: ignore[attr-defined]
        entries = tuple((line.ns_pair, line.ew_pair, line.entry) for line in lines)
        if self.boards.get(key) == entries:
            return
        number = board.board  # type: ignore[attr-defined]
        fresh: dict[Hashable, list[PairBoard]] = {}
        for line, m in zip(lines, self.score([line.entry for line in lines]), strict=True):
            for pair, direction, opp, value in (
                (line.ns_pair, "NS", line.ew_pair, m.ns),  # type: ignore[attr-defined]
                (line.ew_pair, "EW", line.ns_pair, m.ew),  # type: ignore[attr-defined]
            ):
                if pair is None:
                    continue
                kind = "unplayed" if value is None else "result"
                fresh.setdefault(pair, []).append(
                    PairBoard(number, pair, direction, opp, value or Fraction(0), kind)
                )
        self._replace(key, entries, fresh)

    def drop_board(self, key: Hashable) -> None:
        if key in self.boards:
            self._replace(key, None, {})

    def _replace(
        self,
        key: Hashable,
        entries: tuple[tuple[Hashable, Hashable, object], ...] | None,
        fresh: dict[Hashable, list[PairBoard]],
    ) -> None:
        before = {p for ns, ew, _e in self.boards.get(key, ()) for p in (ns, ew) if p is not None}
        if entries is None:
            del self.boards[key]
        else:
            self.boards[key] = entries
        for pair in before | fresh.keys():
            kept = self.marks.setdefault(pair, {})
            if kept.get(key) == fresh.get(pair):
                continue
            self._moved.setdefault(pair, set()).add(key)
            if pair in fresh:
                kept[key] = fresh[pair]
            else:
                kept.pop(key, None)

    def settle(self) -> dict[Hashable, set[Hashable]]:
        """Total the pairs touched since the last call; returns those whose marks changed,
        each with the keys of the boards whose marks changed."""
        changed, self._moved = self._moved, {}
        for pair in changed:
            kept = self.marks.get(pair, {})
            if not kept:
                self.marks.pop(pair, None)
                self.totals.pop(pair, None)
                self.counts.pop(pair, None)
                continue
            marks = [pb for k in sorted(kept) for pb in kept[k]]  # type: ignore[type-var]  # keys sort
            self.totals[pair] = sum((pb.mark for pb in marks), Fraction(0))
            self.counts[pair] = len(marks)
        return changed

    def final_marks(self, pair: Hashable) -> tuple[PairBoard, ...]:
        kept = self.marks.get(pair, {})
        return tuple(pb for k in sorted(kept) for pb in kept[k])  # type: ignore[type-var]  # keys sort

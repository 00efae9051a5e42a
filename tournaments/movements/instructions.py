"""What the room does when a round ends: where each pair (or player) and each set of boards goes
for the next round, read from the movement's seating of round r and round r + 1.

``round_change(movement, r)`` compares the two rounds table by table. Every contestant gets a
``Move`` (its table and seat now and next; ``None`` while it sits out) and every set of boards
in play a ``BoardMove`` (the tables holding it now and the tables playing it next; none while
it rests on a relay stand or at a half table). When the pairs of each line all move alike, as
in a Mitchell, ``steps`` says the change in one line ("NS stay, EW up one table, boards down
one table"), and ``other_boards`` the sets it does not describe (the twin table's relay stand);
a Howell's pairs each go their own way, so ``steps`` is None and the room reads the list.

Tables count round the room: from the last table "up one" is table 1. A round that leaves one
table empty (a Mitchell's half table) puts its sitting-out pair and its resting boards at that
table, so the usual words still hold for them. ``absent`` names contestants who are nobody (a
phantom, an empty place): a table where one of them sits is empty that round, and whoever
sits against them sits out. One section's movement at a time: the site stores a pools
Mitchell as one movement per section.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Movement
from .rounds import SEATS, Contestant, Round, TableRound, sort_key

LINES = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a contestant sits in a round."""

    table: int
    seat: str  # "NS" or "EW"; an individual's "north", "south", "east" or "west"


@dataclass(frozen=True, slots=True)
class Move:
    """One contestant from round r to round r + 1."""

    contestant: Contestant
    now: Place | None  # None: sits out round r
    next: Place | None  # None: sits out round r + 1

    @property
    def stays(self) -> bool:
        return self.now is not None and self.now == self.next


@dataclass(frozen=True, slots=True)
class BoardMove:
    """One set of boards from round r to round r + 1."""

    boards: tuple[int, ...]
    now: tuple[int, ...]  # the tables holding it in round r; () while it rests
    next: tuple[int, ...]  # the tables playing it in round r + 1; () when it rests


@dataclass(frozen=True, slots=True)
class LineSteps:
    """A change said in one line: each line's pairs move the same number of tables (0: they
    stay; positive: up, to higher numbers; negative: down), and so do the boards (None: they
    do not move alike)."""

    ns: int
    ew: int
    boards: int | None
    switch: bool  # round r + 1 is an arrow switch: every pair sits in the other line's seats


@dataclass(frozen=True)
class RoundChange:
    round: int  # from this round to the next
    moves: tuple[Move, ...]  # every contestant, in number order
    boards: tuple[BoardMove, ...]  # every set in play in either round
    steps: LineSteps | None  # None: no one line says it (a Howell, an individual)
    other_boards: tuple[BoardMove, ...] = ()  # the sets ``steps.boards`` does not describe

    @property
    def sitting_out(self) -> tuple[Contestant, ...]:
        """Who sits out the next round."""
        return tuple(m.contestant for m in self.moves if m.next is None)


def table_step(now: int, next_table: int, tables: int) -> int:
    """The tables between ``now`` and ``next_table`` counted round the room, the short way:
    +1 from table 3 to 4 and from the last table to table 1, -1 from 1 to the last."""
    if tables < 1:
        return next_table - now
    step = (next_table - now) % tables
    return step - tables if step > tables // 2 else step


def playing(rnd: Round, absent: frozenset[Contestant] = frozenset()) -> list[TableRound]:
    """The tables of ``rnd`` where somebody plays: every side there, none of them absent."""
    return [
        tr
        for tr in rnd.tables
        if tr.players is not None
        or (tr.ns is not None and tr.ew is not None and not {tr.ns, tr.ew} & absent)
    ]


def places(rnd: Round, absent: frozenset[Contestant] = frozenset()) -> dict[Contestant, Place]:
    """Every contestant playing in ``rnd`` and where."""
    out: dict[Contestant, Place] = {}
    for tr in playing(rnd, absent):
        if tr.players is not None:
            for seat, player in zip(SEATS, tr.players, strict=True):
                out[player] = Place(tr.table, seat)
            continue
        if tr.ns is not None:
            out[tr.ns] = Place(tr.table, "NS")
        if tr.ew is not None:
            out[tr.ew] = Place(tr.table, "EW")
    return out


def home_lines(movement: Movement) -> dict[Contestant, str]:
    """Each pair's usual line, the one it sits in most rounds (NS on a tie); an arrow switch
    puts it in the other for a few rounds. Individuals have none."""
    seen: dict[Contestant, Counter[str]] = {}
    for rnd in movement.rounds:
        for contestant, place in places(rnd).items():
            if place.seat in LINES:
                seen.setdefault(contestant, Counter())[place.seat] += 1
    return {c: ("EW" if n["EW"] > n["NS"] else "NS") for c, n in seen.items()}


def _empty_table(movement: Movement, rnd: Round, absent: frozenset[Contestant]) -> int | None:
    """The one table nobody plays at in ``rnd`` (a half table), if exactly one."""
    empty = set(range(1, movement.tables + 1)) - {tr.table for tr in playing(rnd, absent)}
    return empty.pop() if len(empty) == 1 else None


def _board_moves(now: Round, after: Round, absent: frozenset[Contestant]) -> list[BoardMove]:
    """Each set in play in either round, with its tables in each (in order of boards)."""
    holders_now: dict[tuple[int, int], list[int]] = {}
    tables_now, tables_next = playing(now, absent), playing(after, absent)
    for tr in tables_now:
        holders_now.setdefault((tr.copy, tr.boards[0] if tr.boards else 0), []).append(tr.table)
    sets_now = {(tr.copy, tr.boards[0] if tr.boards else 0): tr.boards for tr in tables_now}
    moves: dict[tuple[int, int], BoardMove] = {}
    for tr in tables_next:
        if not tr.boards:
            continue
        wanted = set(tr.boards)
        key = (tr.copy, min(wanted))
        found = moves.get(key)
        if found is not None:
            moves[key] = BoardMove(found.boards, found.now, (*found.next, tr.table))
            continue
        held = tuple(
            sorted(
                table
                for (copy, _first), tables in holders_now.items()
                for table in tables
                if copy == tr.copy and wanted & set(sets_now[(copy, _first)])
            )
        )
        moves[key] = BoardMove(tr.boards, held, (tr.table,))
    played_next = {b for tr in tables_next for b in tr.boards}
    for (copy, first), tables in holders_now.items():
        boards = sets_now[(copy, first)]
        if boards and not set(boards) & played_next:
            moves[(copy, first)] = BoardMove(boards, tuple(sorted(tables)), ())
    return [moves[key] for key in sorted(moves, key=lambda k: (moves[k].boards, k[0]))]


def _common_step(steps: Iterable[int]) -> int | None:
    found = set(steps)
    return found.pop() if len(found) == 1 else None


def _line_steps(
    movement: Movement, moves: list[Move], now: Round, after: Round, absent: frozenset[Contestant]
) -> tuple[int, int, bool] | None:
    """NS and EW steps and the arrow switch when every pair of each line moves alike."""
    home = home_lines(movement)
    empty_now = _empty_table(movement, now, absent)
    empty_next = _empty_table(movement, after, absent)
    by_line: dict[str, list[int]] = {"NS": [], "EW": []}
    switched: set[bool] = set()
    for move in moves:
        line = home.get(move.contestant)
        if line is None:
            return None  # an individual's player, or nobody's home
        before = move.now.table if move.now is not None else empty_now
        nxt = move.next.table if move.next is not None else empty_next
        if before is None or nxt is None:
            return None  # a sit-out with no empty table to stand for it
        if move.next is not None:
            switched.add(move.next.seat != line)
        by_line[line].append(table_step(before, nxt, movement.tables))
    ns, ew = _common_step(by_line["NS"]), _common_step(by_line["EW"])
    if len(switched) != 1 or (by_line["NS"] and ns is None) or (by_line["EW"] and ew is None):
        return None
    return ns or 0, ew or 0, switched.pop()


def _boards_step(
    movement: Movement,
    boards: list[BoardMove],
    now: Round,
    after: Round,
    absent: frozenset[Contestant],
) -> tuple[int | None, tuple[BoardMove, ...]]:
    """The step most sets make, and the sets it does not describe."""
    empty_now = _empty_table(movement, now, absent)
    empty_next = _empty_table(movement, after, absent)

    def ends(move: BoardMove) -> tuple[tuple[int, ...], tuple[int, ...]]:
        first = move.now or ((empty_now,) if empty_now is not None else ())
        last = move.next or ((empty_next,) if empty_next is not None else ())
        return first, last

    def fits(move: BoardMove, step: int) -> bool:
        first, last = ends(move)
        return any(table_step(a, b, movement.tables) == step for a in first for b in last)

    counts: Counter[int] = Counter()
    for move in boards:
        first, last = ends(move)
        for step in {table_step(a, b, movement.tables) for a in first for b in last}:
            counts[step] += 1
    if not counts:
        return None, tuple(boards)
    best = max(counts, key=lambda s: (counts[s], -abs(s)))
    others = tuple(m for m in boards if not fits(m, best))
    if len(others) * 2 > len(boards):
        return None, tuple(boards)
    return best, others


def round_change(
    movement: Movement, round_number: int, absent: Iterable[Contestant] = ()
) -> RoundChange | None:
    """What changes from ``round_number`` to the next round; None after the last round (or
    for a round the movement does not have). ``absent``: contestants who are nobody."""
    rounds = {rnd.number: rnd for rnd in movement.rounds}
    now, after = rounds.get(round_number), rounds.get(round_number + 1)
    if now is None or after is None:
        return None
    nobody = frozenset(absent)
    seated_now, seated_next = places(now, nobody), places(after, nobody)
    everyone = set(movement.contestants()) | set(seated_now) | set(seated_next)
    moves = [
        Move(c, seated_now.get(c), seated_next.get(c))
        for c in sorted(everyone - nobody, key=sort_key)
    ]
    boards = _board_moves(now, after, nobody)
    lines = _line_steps(movement, moves, now, after, nobody)
    steps, others = None, tuple(boards)
    if lines is not None:
        board_step, others = _boards_step(movement, boards, now, after, nobody)
        steps = LineSteps(lines[0], lines[1], board_step, lines[2])
    return RoundChange(round_number, tuple(moves), tuple(boards), steps, others)

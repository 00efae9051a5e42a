"""Individual movements: everyone partners everyone (C03 l.315-347).

16 players: the course's position system is the affine plane of order 4 - five parallel classes
of four tables; within a position N stays and the other three rotate through the partnerships.
We *construct* it over GF(4) (seat labels N=0, S=1, E=alpha+1, W=alpha; slope alpha^(p-2) for
positions 2-4, rows for position 1, columns for position 5), which reproduces the printed table.
8 and 12 players: the course's tables are missing, so a cyclic design over Z_(n-1) plus a fixed
player is searched once (cached): partners exactly once, opponents exactly twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, product

from .design import Design
from .model import Movement
from .rounds import MovementError, Round, TableRound, board_numbers

_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)  # elements 0, 1, alpha, alpha+1 as 0..3 with alpha^2 = alpha + 1; addition is XOR
_SEAT_LABEL = (0, 1, 3, 2)  # N, S, E, W as GF(4) elements
SUPPORTED_PLAYERS = (8, 12, 16)


def individual(players: int = 16, boards_per_round: int = 2) -> Movement:
    if players not in SUPPORTED_PLAYERS:
        raise MovementError(
            f"individual movements exist here for {SUPPORTED_PLAYERS} players, not {players!r}; "
            "with other numbers add or remove players (substitutes) to reach one of these"
        )
    if not isinstance(boards_per_round, int) or boards_per_round < 1:
        raise MovementError(f"boards_per_round must be at least 1, got {boards_per_round!r}")
    if players == 16:
        if boards_per_round != 2:
            raise MovementError(
                "the course's 16-player table plays 6 boards per position, 2 per round "
                "(tables 3 and 4 share); use boards_per_round=2"
            )
        return _sixteen()
    return _cyclic(players, boards_per_round)


def position_table_16() -> list[list[tuple[int, int, int, int]]]:
    """The 15 rows of the course table: per round, (N, S, E, W) for tables 1-4."""
    rows: list[list[tuple[int, int, int, int]]] = []
    for position in range(1, 6):
        base = []
        for k in range(4):
            seats = []
            for j in range(4):
                if position == 1:
                    row, col = k, j
                elif position == 5:
                    row, col = j, k
                else:
                    slope = (1, 2, 3)[position - 2]  # 1, alpha, alpha^2
                    row, col = k ^ _GF4_MUL[slope][_SEAT_LABEL[j]], j
                seats.append(4 * row + col + 1)
            base.append(tuple(seats))
        for turn in range(3):
            rows.append([_rotate(t, turn) for t in base])  # type: ignore[arg-type]  # 4 seats each
    return rows


def _rotate(seats: tuple[int, int, int, int], turn: int) -> tuple[int, int, int, int]:
    """N stays; S, E, W take the next partnership: (N,S,E,W) -> (N,E,W,S)."""
    n, *rest = seats
    rest = rest[turn:] + rest[:turn]
    return (n, rest[0], rest[1], rest[2])


def _sixteen() -> Movement:
    rounds: list[Round] = []
    for r, row in enumerate(position_table_16(), start=1):
        position, turn = divmod(r - 1, 3)
        first = 6 * position + 1
        pairs_of_boards = [(first, first + 1), (first + 2, first + 3), (first + 4, first + 5)]
        t1, t2, t34 = (pairs_of_boards[(i + turn) % 3] for i in range(3))
        tables = (
            TableRound(1, boards=t1, players=row[0]),
            TableRound(2, boards=t2, players=row[1]),
            TableRound(3, boards=t34, players=row[2], shares_with=(4,)),
            TableRound(4, boards=t34, players=row[3], shares_with=(3,)),
        )
        rounds.append(Round(r, tables))
    return Movement(
        kind="individual",
        tables=4,
        boards_per_round=2,
        rounds=rounds,
        design=Design(max_meetings=2, all_meet=True, partners_once=True, all_partner=True),
        notes=(
            "Course position system (C03 l.323-347): 5 positions of 3 rounds, 6 boards per "
            "position redealt at each position; tables 3 and 4 share their boards; top 6.",
        ),
    )


def _cyclic(players: int, boards_per_round: int) -> Movement:
    n = players - 1
    base, offsets = _cyclic_base(players)
    rounds: list[Round] = []
    for r in range(n):
        tables = []
        for k, seats in enumerate(base):
            ids = tuple(players if s < 0 else (s + r) % n + 1 for s in seats)
            board_set = (offsets[k] + r) % n + 1
            shares = tuple(j + 1 for j, o in enumerate(offsets) if o == offsets[k] and j != k)
            tables.append(
                TableRound(
                    k + 1,
                    boards=board_numbers(board_set, boards_per_round),
                    board_set=board_set,
                    players=ids,  # type: ignore[arg-type]  # 4 seats
                    shares_with=shares,
                )
            )
        rounds.append(Round(r + 1, tuple(tables)))
    return Movement(
        kind="individual",
        tables=players // 4,
        boards_per_round=boards_per_round,
        rounds=rounds,
        design=Design(max_meetings=2, all_meet=True, partners_once=True, all_partner=True),
        notes=(
            f"Cyclic individual for {players}: player {players} stays at table 1 in the "
            "North seat; everyone partners everyone once and meets everyone twice.",
        ),
    )


@cache
def _cyclic_base(players: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Search round 1 (seats N,S,E,W; -1 = the fixed player) and the board-set offsets."""
    n = players - 1
    tables = players // 4
    elements = [-1, *range(n)]

    def diff(a: int, b: int) -> int:
        d = (a - b) % n
        return min(d, n - d)

    def search(
        left: list[int], partial: list[tuple[int, ...]], part: list[int], opp: list[int]
    ) -> Iterator[list[tuple[int, ...]]]:
        if not left:
            yield partial
            return
        first = left[0]
        for trio in combinations(left[1:], 3):
            for s, e, w in (
                (trio[0], trio[1], trio[2]),
                (trio[1], trio[0], trio[2]),
                (trio[2], trio[0], trio[1]),
            ):
                seats = (first, s, e, w)
                new_part = [diff(first, s), diff(e, w)] if -1 not in seats else []
                if -1 in seats:
                    pairs = [(first, s), (e, w)]
                    new_part = [diff(a, b) for a, b in pairs if -1 not in (a, b)]
                new_opp = [diff(a, b) for a in (first, s) for b in (e, w) if -1 not in (a, b)]
                p2, o2 = part[:], opp[:]
                ok = True
                for d in new_part:
                    p2[d] += 1
                    ok &= p2[d] <= 1
                for d in new_opp:
                    o2[d] += 1
                    ok &= o2[d] <= 2
                if not ok:
                    continue
                rest = [x for x in left if x not in seats]
                yield from search(rest, partial + [seats], p2, o2)

    # Board sets: player x at base seat d plays set offset_k + (x - d); all must differ.
    # Prefer every table its own set; tables with equal offsets share their boards (as the
    # course's tables 3 and 4 do), which the first design found for 8 and 12 players needs.
    candidates = sorted(product(range(n), repeat=tables), key=lambda o: -len(set(o)))
    for base in search(elements, [], [0] * (n // 2 + 1), [0] * (n // 2 + 1)):
        for offs in candidates:
            used: set[int] = set()
            ok = True
            for k, seats in enumerate(base):
                for d in seats:
                    if d >= 0:
                        v = (offs[k] - d) % n
                        ok = ok and v not in used
                        used.add(v)
            if ok:
                return tuple(base), offs
    raise MovementError(f"no cyclic individual movement for {players} players")  # pragma: no cover

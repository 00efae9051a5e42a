"""Complete and shortened Howell movements (C03 l.112-128), generated rather than copied.

The course's Howell tables "for 3 to 8 tables" are missing from the text, so we build them with
the standard cyclic construction: pair P (the highest number) is stationary at table 1 and meets
pair r in round r; the other tables hold the matches {r + a_k, r + b_k} of a *starter* (pairs
covering every difference once, so everyone meets everyone once) and play board set r + c_k,
where the *adder* c makes every pair play every set once.  That is exactly a cyclic Room square
of side P - 1; Room squares do not exist for sides 3 and 5, which is why 2- and 3-table Howells
must share boards between tables (declared, so ``validate`` accepts it).

Starters come from, in order of preference: a closed form in the field Z_p (p prime with p - 1
not a power of two: pairs {x, a*x} with a of order 2*t, t odd > 1 - the Mullin-Nemeth idea),
a small exhaustive search (side 9, which has no strong starter), or a seeded hill climb for a
strong starter (the remaining sides up to 29; its results are recorded in HILL_CLIMB_RESULTS,
which the tests check against a fresh climb).  All are deterministic and cached.
"""

from __future__ import annotations

import math
import random
from functools import cache

from .design import Design
from .model import Movement
from .rounds import MovementError, Round, TableRound, board_numbers

MAX_HOWELL_TABLES = 15
Base = tuple[tuple[int, int, int], ...]  # (a_k, b_k, c_k): NS offset, EW offset, set offset


def howell(
    tables: int | None = None,
    boards_per_round: int = 2,
    *,
    pairs: int | None = None,
    rounds: int | None = None,
    kind: str = "howell",
) -> Movement:
    """A Howell for ``pairs`` (default 2*tables) pairs; odd pairs add a phantom (a sit-out).

    ``rounds`` below pairs-1 gives a shortened Howell: the first rounds of the complete one, so
    nobody meets anybody twice or replays a board, but not everybody meets.
    """
    pairs = _resolve_pairs(tables, pairs)
    if not isinstance(boards_per_round, int) or boards_per_round < 1:
        raise MovementError(
            f"boards_per_round must be at least 1, got {boards_per_round!r}; "
            "a Howell usually plays 2-4 boards per round"
        )
    even_pairs = pairs + pairs % 2
    n = even_pairs - 1  # rounds of the complete Howell, and number of board sets
    if rounds is None:
        rounds = n
    if not isinstance(rounds, int) or not 1 <= rounds <= n:
        raise MovementError(
            f"a Howell for {pairs} pairs has at most {n} rounds (pairs - 1"
            + (", counting the phantom" if pairs % 2 else "")
            + f"), not {rounds!r}; choose rounds between 1 and {n}"
        )
    stationary = even_pairs
    phantom = stationary if pairs % 2 else None
    base = howell_base(n)
    offsets = ((0, 0, 0),) + base  # table 1: the stationary pair meets pair r
    n_tables = len(offsets)
    shared = n in (3, 5)

    built: list[Round] = []
    for r in range(rounds):
        entries: list[TableRound] = []
        sitout: list[int] = []
        relay: list[int] = []
        used_sets: set[int] = set()
        for k, (a, b, c) in enumerate(offsets):
            board_set = (r + c) % n + 1
            boards = board_numbers(board_set, boards_per_round)
            used_sets.add(board_set)
            if k == 0:
                ns, ew = (stationary, r + 1) if r % 2 == 0 else (r + 1, stationary)
                if phantom is not None:
                    sitout.append(r + 1)
                    if not shared:
                        relay.extend(boards)
                    continue
            else:
                ns, ew = (r + a) % n + 1, (r + b) % n + 1
            table = k + 1 - (1 if phantom is not None else 0)
            entries.append(TableRound(table, ns, ew, boards, board_set))
        if shared:
            all_tables = tuple(e.table for e in entries)
            entries = [
                TableRound(
                    e.table,
                    e.ns,
                    e.ew,
                    e.boards,
                    e.board_set,
                    shares_with=tuple(t for t in all_tables if t != e.table),
                )
                for e in entries
            ]
        for s in range(1, n + 1):
            if s not in used_sets:
                relay.extend(board_numbers(s, boards_per_round))
        built.append(Round(r + 1, tuple(entries), tuple(sitout), tuple(sorted(set(relay)))))

    complete = rounds == n
    design = Design(
        max_meetings=1,
        all_meet=complete,
        uniform_plays=complete,
        ns_ew_balance=1 if complete else None,
        every_set_once=complete and not shared and phantom is None,
    )
    playing_tables = n_tables - (1 if phantom is not None else 0)
    notes = [
        f"{'Complete' if complete else 'Shortened'} Howell: {pairs} pairs, {rounds} of {n} rounds,"
        f" {n} board sets of {boards_per_round}; sets not in play wait on the relay table.",
        f"Pair {stationary} is stationary at table 1 (NS in odd rounds, EW in even rounds)."
        if phantom is None
        else f"Pair {phantom} is a phantom: the pair it would meet sits out.",
    ]
    if shared:
        notes.append(
            f"With {playing_tables} tables no Howell can give every table its own set (no Room "
            "square of side 3 or 5): the tables share the same set each round and swap boards."
        )
    return Movement(
        kind=kind,
        tables=playing_tables,
        boards_per_round=boards_per_round,
        rounds=built,
        design=design,
        phantom=phantom,
        notes=tuple(notes),
    )


def butler(
    pairs: int | None = None, boards_per_round: int = 4, *, tables: int | None = None
) -> Movement:
    """Butler (C03 l.203-209): every pair plays every board and every pair, so a complete Howell;
    each round is scored as a match against the "par de la mano"."""
    return howell(tables, boards_per_round, pairs=pairs, kind="butler")


def _resolve_pairs(tables: int | None, pairs: int | None) -> int:
    if pairs is None:
        if not isinstance(tables, int) or tables < 2:
            raise MovementError(
                f"a Howell needs at least 2 tables (4 pairs), got tables={tables!r}"
            )
        pairs = 2 * tables
    elif tables is not None and math.ceil(pairs / 2) != tables:
        raise MovementError(
            f"{pairs} pairs need {math.ceil(pairs / 2)} tables, not {tables}; pass one of them"
        )
    if not isinstance(pairs, int) or pairs < 4:
        raise MovementError(f"a Howell needs at least 4 pairs, got {pairs!r}")
    if math.ceil(pairs / 2) > MAX_HOWELL_TABLES:
        raise MovementError(
            f"{pairs} pairs is too many for a Howell (at most {2 * MAX_HOWELL_TABLES} pairs here; "
            "the course uses Howells below 24 pairs): use mitchell("
            f"tables={math.ceil(pairs / 2)})"
        )
    return pairs


@cache
def howell_base(n: int) -> Base:
    """Starter and adder for a cyclic Howell with n = pairs - 1 rounds (n odd)."""
    if n in (3, 5):
        # No Room square: patterned starter {x, -x}, every table plays the same set.
        return tuple((x, n - x, 0) for x in range(1, (n + 1) // 2))
    if _is_prime(n) and _odd_part(n - 1) > 1:
        return _field_starter(n)
    if n == 9:
        return _search_starter_adder(n)
    if n in HILL_CLIMB_RESULTS:
        return HILL_CLIMB_RESULTS[n]
    return _hill_climb_strong_starter(n)


# What ``_hill_climb_strong_starter`` returns for the sides that need it up to
# MAX_HOWELL_TABLES (the climb takes up to 60 ms a side; the movements tests recompute every
# entry and compare, so this is a record of the generator's output, not a copied table).
HILL_CLIMB_RESULTS: dict[int, Base] = {
    15: ((4, 5, 9), (11, 9, 5), (13, 1, 14), (6, 2, 8), (7, 12, 4), (14, 8, 7), (10, 3, 13)),
    17: (
        (1, 2, 3),
        (5, 3, 8),
        (15, 12, 10),
        (11, 7, 1),
        (9, 14, 6),
        (10, 4, 14),
        (13, 6, 2),
        (8, 16, 7),
    ),
    21: (
        (15, 16, 10),
        (5, 7, 12),
        (13, 10, 2),
        (18, 1, 19),
        (4, 20, 3),
        (11, 17, 7),
        (9, 2, 11),
        (14, 6, 20),
        (12, 3, 15),
        (19, 8, 6),
    ),
    25: (
        (23, 22, 20),
        (10, 8, 18),
        (15, 18, 8),
        (5, 9, 14),
        (17, 12, 4),
        (21, 2, 23),
        (13, 6, 19),
        (16, 24, 15),
        (4, 20, 24),
        (1, 11, 12),
        (3, 14, 17),
        (19, 7, 1),
    ),
    27: (
        (3, 4, 7),
        (17, 15, 5),
        (11, 14, 25),
        (26, 22, 21),
        (23, 18, 14),
        (1, 7, 8),
        (12, 5, 17),
        (24, 16, 13),
        (19, 10, 2),
        (25, 8, 6),
        (2, 13, 15),
        (9, 21, 3),
        (6, 20, 26),
    ),
}


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def _odd_part(m: int) -> int:
    while m % 2 == 0:
        m //= 2
    return m


def _field_starter(p: int) -> Base:
    """Pairs {x, a*x} for x over the even powers of a in each coset of <a>, a of order 2t."""
    t = _odd_part(p - 1)
    omega = next(g for g in range(2, p) if _is_primitive_root(g, p))
    a = pow(omega, (p - 1) // (2 * t), p)
    cosets = (p - 1) // (2 * t)
    base = []
    for j in range(cosets):
        g = pow(omega, j, p)
        for i in range(t):
            x = g * pow(a, 2 * i, p) % p
            y = a * x % p
            base.append((x, y, (x + y) % p))
    return _ordered(base, p)


def _is_primitive_root(g: int, p: int) -> bool:
    m = p - 1
    factors = {d for d in range(2, m + 1) if m % d == 0 and _is_prime(d)}
    return all(pow(g, m // f, p) != 1 for f in factors)


def _search_starter_adder(n: int) -> Base:
    """Exhaustive depth-first search for a starter with a (not necessarily strong) adder."""
    half = (n - 1) // 2
    used = [False] * n
    covered = [False] * n
    adders = [False] * n
    used[0] = covered[0] = adders[0] = True
    chosen: list[tuple[int, int, int]] = []

    def extend(d: int) -> bool:
        if d == 0:
            return True
        for a in range(1, n):
            b = (a + d) % n
            if used[a] or used[b]:
                continue
            used[a] = used[b] = True
            for c in range(1, n):
                x, y = (c - a) % n, (c - b) % n
                if adders[c] or covered[x] or covered[y]:
                    continue
                adders[c] = covered[x] = covered[y] = True
                chosen.append((a, b, c))
                if extend(d - 1):
                    return True
                chosen.pop()
                adders[c] = covered[x] = covered[y] = False
            used[a] = used[b] = False
        return False

    if not extend(half):  # pragma: no cover - a Room square of side 9 exists
        raise MovementError(f"no cyclic Howell with {n} rounds found")
    return _ordered(chosen, n)


def _hill_climb_strong_starter(n: int) -> Base:
    """Dinitz-Stinson style hill climb: add a pair, evicting whatever it collides with."""
    half = (n - 1) // 2
    for seed in range(100):
        rng = random.Random(seed)
        partner = [0] * n
        by_diff: dict[int, tuple[int, int]] = {}
        by_sum: dict[int, tuple[int, int]] = {}
        free_diffs = list(range(1, half + 1))
        for _ in range(2_000_000):
            if not free_diffs:
                return _ordered([(x, y, (x + y) % n) for x, y in by_diff.values()], n)
            d = free_diffs[rng.randrange(len(free_diffs))]
            x = rng.randrange(1, n)
            if partner[x]:
                continue
            y = (x + d) % n if rng.random() < 0.5 else (x - d) % n
            s = (x + y) % n
            if y == 0 or s == 0:
                continue
            evict = []
            if partner[y]:
                evict.append((y, partner[y]))
            if s in by_sum and by_sum[s] not in evict and by_sum[s][::-1] not in evict:
                evict.append(by_sum[s])
            for u, v in evict:
                partner[u] = partner[v] = 0
                dd = min((v - u) % n, (u - v) % n)
                del by_diff[dd]
                del by_sum[(u + v) % n]
                free_diffs.append(dd)
            partner[x], partner[y] = y, x
            by_diff[d] = (x, y)
            by_sum[s] = (x, y)
            free_diffs.remove(d)
    raise MovementError(f"no strong starter found for {n} rounds")  # pragma: no cover


def _ordered(base: list[tuple[int, int, int]], n: int) -> Base:
    """Tables in order of the distance between the two pairs, for readable cards."""
    return tuple(
        sorted(base, key=lambda abc: (min((abc[1] - abc[0]) % n, (abc[0] - abc[1]) % n), abc))
    )

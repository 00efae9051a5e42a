"""A quick yes for a sound movement: every property checked with whole-movement set and counter
operations, without wording a single problem.

``is_sound`` answers True only when the detailed checks (``problems.report``) would find nothing,
and False at the least doubt; ``validate`` then lets the detailed checks word the problems.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, repeat
from operator import eq

from .design import Design
from .model import Movement
from .problems import one_winner_problems
from .rounds import Contestant, Round


def is_sound(mv: Movement) -> bool:
    """True only if ``problems.report`` would find no problem; False whenever it might find one.

    Covers pairs movements whose distinct board lists share no board (every generated one);
    anything else (individual movements, overlapping board lists) goes to the detailed checks.
    Each step may rely on the steps before it: once the seating is sound, every contestant is
    seated exactly once or sits out in every round, and NS differs from EW at every table.
    """
    d = mv.design
    rounds = mv.rounds
    if not rounds or [r.number for r in rounds] != list(range(1, len(rounds) + 1)):
        return False
    everyone: set[Contestant] | None = None
    order: list[Contestant] = []
    ns_all: list[Contestant] = []
    ew_all: list[Contestant] = []
    boards_all: list[tuple[int, ...]] = []
    sets_all: list[int | None] = []
    shared_rounds: list[tuple[Round, tuple[tuple[int, ...], ...]]] = []
    relay_rounds: list[tuple[Round, set[tuple[int, ...]]]] = []
    boards_by_round: list[list[object]] = []  # per round: the boards of each of ``order``
    low = high = 1
    for i, rnd in enumerate(rounds):
        tables = rnd.tables
        n = len(tables)
        if not n:
            return False
        numbers, ns, ew, boards, board_sets, sections, players, _, copies = zip(
            *tables, strict=True
        )
        if players.count(None) != n:
            return False  # individual movement: the detailed checks handle it
        # P1 and seating: NS, EW and sit-outs all different and not None, and the same people
        # every round: so nobody is seated twice or missing, and NS != EW at every table.
        # ``played`` (contestant -> boards) also serves P2 below.
        played = dict(zip(ns, boards, strict=True))
        played.update(zip(ew, boards, strict=True))
        sitout = rnd.sitout
        if len(played) != 2 * n or None in played:
            return False
        if everyone is None:
            everyone = set(played)
            everyone.update(sitout)
            if len(everyone) != len(sitout) + 2 * n or None in everyone:
                return False
            order = list(everyone)
        elif (
            len(everyone) != len(sitout) + 2 * n
            or not everyone.issuperset(played)
            or (
                sitout
                and (
                    not everyone.issuperset(sitout)
                    or not played.keys().isdisjoint(sitout)
                    or len(set(sitout)) != len(sitout)
                )
            )
        ):
            return False
        if numbers != _one_to(n):  # tables 1..n in order: distinct and in range
            if len(set(numbers)) != n and len(set(zip(sections, numbers, strict=True))) != n:
                return False
            low = min(low, *numbers)
            high = max(high, *numbers)
        else:
            high = max(high, n)
        distinct = set(boards)
        if len(distinct) != n:
            shared_rounds.append((rnd, boards))  # equal boards at two tables: declared sharing?
        if rnd.relay:
            relay_rounds.append(
                (
                    rnd,
                    distinct
                    if copies.count(0) == n
                    else {bs for bs, c in zip(boards, copies, strict=True) if c == 0},
                )
            )
        if d.split_lines and not _lines_split(d.apart, set(ns), set(ew)):
            return False
        ns_all += ns
        ew_all += ew
        boards_all += boards
        if d.every_set_once:
            sets_all += board_sets
        boards_by_round.append(list(map(played.get, order, repeat(i))))  # sitting out: i
    assert everyone is not None
    if low < 1 or high > mv.tables:
        return False
    if mv.phantom is not None and mv.phantom in everyone:
        return False
    if not all(isinstance(c, (int, str)) for c in everyone):
        return False  # the detailed checks raise the error that sorting such names gives
    # Each table's boards: some, none listed twice; and no board in two different lists, so a
    # board is at two tables exactly when their lists are equal, and a pair plays a board
    # twice exactly when it plays a list twice.
    plays = Counter(boards_all)
    owner: dict[int, tuple[int, ...]] = {}
    for bs in plays:
        if not bs or len(set(bs)) != len(bs):
            return False
        owner.update(dict.fromkeys(bs, bs))
    if len(owner) != sum(map(len, plays)):
        return False  # overlapping board lists: the detailed checks handle them
    # P4
    for rnd, boards in shared_rounds:
        if not _sharing_declared(rnd, boards):
            return False
    for rnd, in_play in relay_rounds:  # in_play: the board lists at copy-0 tables
        if any(owner.get(b) in in_play for b in rnd.relay):
            return False
    # P2: each contestant's boards, round by round (a round number when sitting out), differ
    count = len(rounds)
    for row in zip(*boards_by_round, strict=True):
        if len(set(row)) != count:
            return False
    # P3, apart, all_meet
    ns_line, ew_line = set(ns_all), set(ew_all)
    if not _meetings_sound(d, everyone, ns_all, ew_all, ns_line, ew_line):
        return False
    if d.all_partner:
        return False  # in a pairs movement nobody is anybody's partner
    # P5: every board as often as every other; a board only ever on the relay is played 0 times
    if d.uniform_plays:
        if len(set(plays.values())) > 1:
            return False
        if any(b not in owner for rnd, _ in relay_rounds for b in rnd.relay):
            return False
    # lines
    if d.fixed_lines and not ns_line.isdisjoint(ew_line):
        return False
    if d.ns_ew_balance is not None:
        ns_count, ew_count = Counter(ns_all), Counter(ew_all)
        for c in ns_count.keys() | ew_count.keys():
            if abs(ns_count[c] - ew_count[c]) > d.ns_ew_balance:
                return False
    if d.every_set_once:
        sets = set(sets_all)
        if None in sets:
            return False
        both = ns_all + ew_all
        if len(set(zip(both, sets_all + sets_all, strict=True))) != len(both):
            return False
        if any(n != len(sets) for n in Counter(both).values()):
            return False
    if d.one_winner:
        if one_winner_problems(mv):
            return False
    return True


@cache
def _one_to(n: int) -> tuple[int, ...]:
    return tuple(range(1, n + 1))


def _sharing_declared(rnd: Round, boards: tuple[tuple[int, ...], ...]) -> bool:
    """P4 for a round in which some tables hold equal board lists (and distinct lists share no
    board): tables of one section and copy holding the same boards must name each other."""
    for bs, count in Counter(boards).items():
        if count < 2:
            continue
        holders = []
        start = 0
        for _ in range(count):
            start = boards.index(bs, start) + 1
            holders.append(rnd.tables[start - 1])
        for t1, t2 in combinations(holders, 2):
            if (
                t1.section == t2.section
                and t1.copy == t2.copy
                and not (t2.table in t1.shares_with and t1.table in t2.shares_with)
            ):
                return False
    return True


def _meetings_sound(
    d: Design,
    everyone: set[Contestant],
    ns_all: list[Contestant],
    ew_all: list[Contestant],
    ns_line: set[Contestant],
    ew_line: set[Contestant],
) -> bool:
    """P3, ``apart`` and ``all_meet`` for a pairs movement whose seating is sound."""
    group: dict[Contestant, int] = {}
    mixed = False  # some group has members both among the NS and among the EW contestants
    for g, members in enumerate(d.apart):
        for c in members:
            if c in everyone and group.setdefault(c, g) != g:
                return False  # in two groups: leave it to the detailed checks
        if not (ns_line.isdisjoint(members) or ew_line.isdisjoint(members)):
            mixed = True
    if mixed:  # then look table by table whether two members of one group meet
        ns_group = list(map(group.get, ns_all, repeat(-1)))
        ew_group = list(map(group.get, ew_all, repeat(-2)))
        if any(map(eq, ns_group, ew_group)):
            return False  # two members of one group meet
    m = d.max_meetings
    if m == 1:
        met = set(zip(ns_all, ew_all, strict=True))
        if len(met) != len(ns_all):
            return False  # two pairs meet twice, with the same pair NS both times
        if not ns_line.isdisjoint(ew_line) and not met.isdisjoint(zip(ew_all, ns_all, strict=True)):
            return False  # two pairs meet twice, once each way round
        distinct_meetings = len(met)
    else:
        counts = Counter(map(frozenset, zip(ns_all, ew_all, strict=True)))
        if counts and max(counts.values()) > m:
            return False
        if d.all_meet and any(n != m for n in counts.values()):
            return False
        distinct_meetings = len(counts)
    if d.all_meet:
        k = len(everyone)
        per_group = Counter(group.values())
        allowed = k * (k - 1) // 2 - sum(n * (n - 1) // 2 for n in per_group.values())
        if distinct_meetings != allowed or (m < 1 and allowed):
            return False
    return True


def _lines_split(
    apart: tuple[tuple[Contestant, ...], ...], ns: set[Contestant], ew: set[Contestant]
) -> bool:
    for members in apart:
        if sum(c in ns for c in members) > 1 or sum(c in ew for c in members) > 1:
            return False
    return True

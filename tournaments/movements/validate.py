"""Independent checks of a movement against the universal properties (P1-P5) and its own claims.

The validator never trusts the generator: it recomputes everything from the table entries, so a
movement typed in by hand (``Movement.from_dict``) is checked exactly like a generated one.
Problems are returned as sentences a tournament director can act on; an empty list means sound.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache
from itertools import combinations, repeat
from operator import eq

from .model import Contestant, Design, Movement, Round

MAX_REPORTED = 12


def validate(movement: Movement) -> list[str]:
    """Return human-readable problems; empty when the movement keeps every promise it makes.

    Two tiers: ``_sound`` checks every property with whole-movement set and counter operations
    and answers True only when the detailed checks would find nothing (False at the least
    doubt).  Whenever it does not answer True, the detailed checks run and word the problems, so
    a broken movement gets exactly the sentences it always got.
    """
    try:
        if _sound(movement):
            return []
    except (TypeError, ValueError):
        pass  # unusual data (unhashable or unorderable values): the detailed checks decide
    return _report(movement)


def _report(movement: Movement) -> list[str]:
    problems: list[str] = []
    _structure(movement, problems)
    _boards_and_opponents(movement, problems)
    _physical_boards(movement, problems)
    _play_counts(movement, problems)
    _lines(movement, problems)
    if movement.design.every_set_once:
        _every_set_once(movement, problems)
    if movement.design.one_winner:
        _one_winner(movement, problems)
    if len(problems) > MAX_REPORTED:
        extra = len(problems) - MAX_REPORTED
        problems = problems[:MAX_REPORTED] + [f"... and {extra} more problems"]
    return problems


# --------------------------------------------------------------------------- the fast tier
def _sound(mv: Movement) -> bool:
    """True only if ``_report`` would find no problem; False whenever it might find one.

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
            or (sitout and (
                not everyone.issuperset(sitout)
                or not played.keys().isdisjoint(sitout)
                or len(set(sitout)) != len(sitout)
            ))
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
            relay_rounds.append((rnd, distinct if copies.count(0) == n else {
                bs for bs, c in zip(boards, copies, strict=True) if c == 0
            }))
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
        found: list[str] = []
        _one_winner(mv, found)
        if found:
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
            if t1.section == t2.section and t1.copy == t2.copy and not (
                t2.table in t1.shares_with and t1.table in t2.shares_with
            ):
                return False
    return True


def _meetings_sound(
    d: Design, everyone: set[Contestant], ns_all: list[Contestant], ew_all: list[Contestant],
    ns_line: set[Contestant], ew_line: set[Contestant],
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
        if not ns_line.isdisjoint(ew_line) and not met.isdisjoint(
            zip(ew_all, ns_all, strict=True)
        ):
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


# ------------------------------------------------------------------ the detailed checks
def _structure(mv: Movement, problems: list[str]) -> None:
    numbers = [r.number for r in mv.rounds]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"rounds must be numbered 1..{len(numbers)}, found {numbers}")
    everyone = set(mv.contestants())
    for rnd in mv.rounds:
        seated: list[Contestant] = list(rnd.sitout)
        tables_seen: set[tuple[str, int]] = set()
        for tr in rnd.tables:
            key = (tr.section, tr.table)
            if key in tables_seen:
                problems.append(f"round {rnd.number}: {tr.section}table {tr.table} appears twice")
            tables_seen.add(key)
            if tr.players is not None:
                seated.extend(tr.players)
                if len(set(tr.players)) != 4:
                    problems.append(
                        f"round {rnd.number}, table {tr.table}: a player holds two seats"
                    )
            else:
                if tr.ns is None or tr.ew is None or tr.ns == tr.ew:
                    problems.append(
                        f"round {rnd.number}, {tr.section}table {tr.table}: needs two different "
                        f"contestants NS and EW, has {tr.ns} v {tr.ew}"
                    )
                seated.append(tr.ns)  # type: ignore[arg-type]
                seated.append(tr.ew)  # type: ignore[arg-type]
            if not 1 <= tr.table <= mv.tables:
                problems.append(
                    f"round {rnd.number}: table {tr.table} is outside 1..{mv.tables}"
                )
            if not tr.boards or len(set(tr.boards)) != len(tr.boards):
                problems.append(
                    f"round {rnd.number}, {tr.section}table {tr.table}: boards {list(tr.boards)} "
                    "are empty or list a board twice"
                )
        unique = set(seated)
        unique.discard(None)  # type: ignore[arg-type]
        if len(unique) != len([c for c in seated if c is not None]):
            counts = Counter(seated)
            for c, n in counts.items():
                if n > 1 and c is not None:
                    problems.append(f"round {rnd.number}: {c} is seated {n} times (P1)")
        missing = everyone - unique
        if missing:
            problems.append(
                f"round {rnd.number}: {sorted(map(str, missing))} neither play nor sit out"
            )
        if mv.phantom is not None and mv.phantom in unique:
            problems.append(f"round {rnd.number}: phantom {mv.phantom} is seated")


def _boards_and_opponents(mv: Movement, problems: list[str]) -> None:
    d = mv.design
    everyone = mv.contestants()
    index = {c: i for i, c in enumerate(everyone)}
    size = len(everyone)
    played: list[set[int]] = [set() for _ in everyone]
    repeated: dict[int, set[int]] = defaultdict(set)
    meetings: Counter[int] = Counter()
    partners: Counter[int] = Counter()
    for _, tr in mv.iter_tables():
        ns_side, ew_side = tr.sides()
        ns_ix = [index[c] for c in ns_side]
        ew_ix = [index[c] for c in ew_side]
        for i in ns_ix + ew_ix:
            seen = played[i]
            before = len(seen)
            seen.update(tr.boards)
            if len(seen) - before != len(tr.boards):
                repeated[i].update(b for b in tr.boards)
        for i in ns_ix:
            for j in ew_ix:
                meetings[i * size + j if i < j else j * size + i] += 1
        for side in (ns_ix, ew_ix):
            if len(side) == 2:
                i, j = sorted(side)
                partners[i * size + j] += 1
    for i in sorted(repeated):
        c = everyone[i]
        problems.append(f"{c} plays a board more than once (P2), among {sorted(repeated[i])}")
    group_of: list[set[int]] = [set() for _ in everyone]
    for g, group in enumerate(d.apart):
        for c in group:
            if c in index:
                group_of[index[c]].add(g)
    for key in sorted(meetings):
        n = meetings[key]
        i, j = divmod(key, size)
        a, b = everyone[i], everyone[j]
        if group_of[i] & group_of[j]:
            problems.append(f"{a} and {b} should never meet but meet {n} times")
        elif n > d.max_meetings:
            problems.append(f"{a} and {b} meet {n} times; the design allows {d.max_meetings} (P3)")
    if d.all_meet:
        for i, j in combinations(range(size), 2):
            if group_of[i] & group_of[j]:
                continue
            n = meetings.get(i * size + j, 0)
            if n != d.max_meetings:
                problems.append(
                    f"{everyone[i]} and {everyone[j]} meet {n} times, "
                    f"the design says {d.max_meetings}"
                )
    if d.partners_once or d.all_partner:
        for key, n in partners.items():
            if n > 1:
                i, j = divmod(key, size)
                problems.append(f"{everyone[i]} and {everyone[j]} are partners {n} times")
    if d.all_partner:
        for i, j in combinations(range(size), 2):
            if partners.get(i * size + j, 0) == 0:
                problems.append(f"{everyone[i]} and {everyone[j]} are never partners")


def _physical_boards(mv: Movement, problems: list[str]) -> None:
    """P4: a physical board is at one table at a time unless the tables declare sharing."""
    for rnd in mv.rounds:
        holders: dict[tuple[str, int, int], list[int]] = defaultdict(list)
        share: dict[tuple[str, int], set[int]] = {}
        for tr in rnd.tables:
            share[(tr.section, tr.table)] = set(tr.shares_with)
            for b in tr.boards:
                holders[(tr.section, tr.copy, b)].append(tr.table)
        for (section, _copy, board), tables in holders.items():
            for t1, t2 in combinations(tables, 2):
                declared = t2 in share[(section, t1)] and t1 in share[(section, t2)]
                if not declared:
                    problems.append(
                        f"round {rnd.number}: board {board} is at {section}tables {t1} and {t2} "
                        "at once without declared sharing (P4)"
                    )
        on_tables = {b for tr in rnd.tables if tr.copy == 0 for b in tr.boards}
        clash = sorted(on_tables & set(rnd.relay))
        if clash:
            problems.append(f"round {rnd.number}: boards {clash} are both on the relay and in play")


def _play_counts(mv: Movement, problems: list[str]) -> None:
    if not mv.design.uniform_plays:
        return
    counts: Counter[int] = Counter()
    for _, tr in mv.iter_tables():
        counts.update(tr.boards)
    for rnd in mv.rounds:
        for b in rnd.relay:
            counts.setdefault(b, 0)
    if len(set(counts.values())) > 1:
        by_count: dict[int, list[int]] = defaultdict(list)
        for b, n in sorted(counts.items()):
            by_count[n].append(b)
        summary = "; ".join(f"{n}x: {_ranges(bs)}" for n, bs in sorted(by_count.items()))
        problems.append(f"boards are not played the same number of times (P5): {summary}")


def _lines(mv: Movement, problems: list[str]) -> None:
    d = mv.design
    if d.ns_ew_balance is None and not d.fixed_lines and not d.split_lines:
        return
    ns: Counter[Contestant] = Counter()
    ew: Counter[Contestant] = Counter()
    line_of: dict[Contestant, set[str]] = defaultdict(set)
    for rnd in mv.rounds:
        line_now: dict[Contestant, str] = {}
        for tr in rnd.tables:
            ns_side, ew_side = tr.sides()
            for c in ns_side:
                ns[c] += 1
                line_of[c].add("NS")
                line_now[c] = "NS"
            for c in ew_side:
                ew[c] += 1
                line_of[c].add("EW")
                line_now[c] = "EW"
        if d.split_lines:
            for group in d.apart:
                lines = [line_now.get(c) for c in group if c in line_now]
                if len(lines) != len(set(lines)):
                    problems.append(f"round {rnd.number}: team {list(group)} has both in one line")
    if d.fixed_lines:
        for c, lines in line_of.items():
            if len(lines) > 1:
                problems.append(f"{c} changes line although lines are fixed")
    if d.ns_ew_balance is not None:
        for c in set(ns) | set(ew):
            if abs(ns[c] - ew[c]) > d.ns_ew_balance:
                problems.append(
                    f"{c} sits NS {ns[c]} and EW {ew[c]} times; the design promises a "
                    f"difference of at most {d.ns_ew_balance}"
                )


def _every_set_once(mv: Movement, problems: list[str]) -> None:
    sets = {tr.board_set for _, tr in mv.iter_tables()}
    if None in sets:
        problems.append("a table has no board set although every set must be played once")
        return
    per: dict[Contestant, Counter[int]] = defaultdict(Counter)
    for _, tr in mv.iter_tables():
        for c in tr.contestants():
            per[c][tr.board_set] += 1  # type: ignore[index]
    for c, counts in per.items():
        if set(counts) != sets or any(n != 1 for n in counts.values()):
            missing = sorted(sets - set(counts))  # type: ignore[type-var]
            problems.append(f"{c} does not play every board set exactly once (missing {missing})")


def one_winner_problems(mv: Movement) -> list[str]:
    """Two contestants are compared when they play a board in the same direction."""
    problems: list[str] = []
    _one_winner(mv, problems)
    return problems


def _one_winner(mv: Movement, problems: list[str]) -> None:
    by_board: dict[tuple[int, str], set[Contestant]] = defaultdict(set)
    for _, tr in mv.iter_tables():
        ns_side, ew_side = tr.sides()
        for b in tr.boards:
            by_board[(b, "NS")].update(ns_side)
            by_board[(b, "EW")].update(ew_side)
    compared: dict[Contestant, set[Contestant]] = defaultdict(set)
    for group in by_board.values():
        for c in group:
            compared[c] |= group
    everyone = set(compared)
    for c in sorted(everyone, key=str):
        never = everyone - compared[c]
        if never:
            problems.append(
                f"{c} is never compared with {sorted(map(str, never))}: not a one-winner movement"
            )


def _ranges(boards: list[int]) -> str:
    parts: list[str] = []
    start = prev = boards[0]
    for b in boards[1:] + [None]:  # type: ignore[list-item]
        if b is not None and b == prev + 1:
            prev = b
            continue
        parts.append(f"{start}-{prev}" if start != prev else str(start))
        if b is not None:
            start = prev = b
    return ",".join(parts)

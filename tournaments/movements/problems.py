"""The detailed checks of a movement, each problem worded as a sentence a director can act on.

They recompute everything from the table entries, so a movement typed in by hand
(``Movement.from_dict``) is checked exactly like a generated one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

from .model import Movement
from .rounds import Contestant

MAX_REPORTED = 12


def report(movement: Movement) -> list[str]:
    """Every problem of the movement as a sentence a director can act on (at most
    ``MAX_REPORTED`` and a count of the rest); empty when it keeps every promise."""
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


def _structure(mv: Movement, problems: list[str]) -> None:
    numbers = [r.number for r in mv.rounds]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"rounds must be numbered 1..{len(numbers)}, found {numbers}")
    everyone = set(mv.contestants())
    for rnd in mv.rounds:
        seated: list[Contestant | None] = list(rnd.sitout)  # a table may lack a side
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
                seated.append(tr.ns)
                seated.append(tr.ew)
            if not 1 <= tr.table <= mv.tables:
                problems.append(f"round {rnd.number}: table {tr.table} is outside 1..{mv.tables}")
            if not tr.boards or len(set(tr.boards)) != len(tr.boards):
                problems.append(
                    f"round {rnd.number}, {tr.section}table {tr.table}: boards {list(tr.boards)} "
                    "are empty or list a board twice"
                )
        unique = set(seated)
        unique.discard(None)
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
        for c, seen in line_of.items():
            if len(seen) > 1:
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
            per[c][tr.board_set] += 1  # type: ignore[index]  # None returned above
    for c, counts in per.items():
        if set(counts) != sets or any(n != 1 for n in counts.values()):
            missing = sorted(sets - set(counts))  # type: ignore[type-var]  # no None, as above
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
    for b in boards[1:] + [None]:
        if b is not None and b == prev + 1:
            prev = b
            continue
        parts.append(f"{start}-{prev}" if start != prev else str(start))
        if b is not None:
            start = prev = b
    return ",".join(parts)

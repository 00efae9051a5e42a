"""Mitchell movements as taught in the 2003 AEB course (C03 l.79-108).

NS pairs stay put, EW pairs move up one table and boards move down one table.  Even table counts
need either the skip after half the rounds (C03 l.89) or the twin table with a board-only relay
stand between tables T/2 and T/2+1 (C03 l.91-95), otherwise EW pairs meet their boards again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import partial
from itertools import repeat
from typing import Literal

from .design import Design
from .model import Movement
from .problems import one_winner_problems
from .rounds import Contestant, MovementError, Round, TableRound, board_numbers, new_round

EvenMethod = Literal["skip", "twin", "plain"]
SECTION_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def max_mitchell_rounds(tables: int, even: EvenMethod = "skip") -> int:
    """Odd: T; even with skip: T-1; even with twin table: T; even without either: T/2."""
    if tables % 2:
        return tables
    return {"skip": tables - 1, "twin": tables, "plain": tables // 2}[even]


def mitchell(
    tables: int,
    rounds: int | None = None,
    boards_per_round: int = 2,
    *,
    even: EvenMethod = "skip",
    pairs: int | None = None,
    phantom: str | None = None,
    sections: int = 1,
    arrow_switch: Iterable[int] | Literal["auto"] | None = None,
) -> Movement:
    """Generate a Mitchell.

    ``pairs`` = 2*tables - 1 makes a half table: by default NS pair T is missing, so the table T
    is the course's "rele" where each EW pair sits out once (C03 l.748-752); ``phantom`` picks
    another missing pair (e.g. ``"1EW"``).  ``sections`` > 1 gives pools playing the same boards
    with their own copies, duplicated in round 1 (C03 l.99).  ``arrow_switch`` lists rounds in
    which every table turns the boards round (EW pairs play the NS cards); ``"auto"`` picks the
    pattern closest to the customary last quarter of the rounds for which every pair is compared
    with every other pair, so the event has one winner (MovementError if none exists).
    """
    _check_request(tables, rounds, boards_per_round, even, sections)
    limit = max_mitchell_rounds(tables, even)
    rounds = limit if rounds is None else rounds
    names = [SECTION_NAMES[i] for i in range(sections)] if sections > 1 else [""]
    missing = _missing_pair(tables, pairs, phantom)
    if arrow_switch == "auto":
        return _one_winner(tables, rounds, boards_per_round, even, pairs, phantom, sections)
    switched = _switched_rounds(arrow_switch, rounds)
    half = tables // 2
    twin = tables % 2 == 0 and even == "twin"
    skip = tables % 2 == 0 and even == "skip"

    # Each round is a rotation of the EW pairs and of the board sets, so a round is built with
    # list slicing and zip instead of per-table arithmetic; the rare special tables (half table,
    # twin table) are patched afterwards.  The output is the same table by table.
    ns_lists = [[f"{name}{t}NS" for t in range(1, tables + 1)] for name in names]
    ew_twice = [[f"{name}{t}EW" for t in range(1, tables + 1)] * 2 for name in names]
    numbers = range(1, tables + 1)
    sets_twice = list(numbers) * 2
    boards_twice = [board_numbers(s, boards_per_round) for s in numbers] * 2
    # index (0-based) of the board-set position each table holds; the twin layout moves sets
    position = list(range(half)) + list(range(half + 1, tables)) + [0]
    missing_ns = missing_ew = None
    if missing is not None:
        missing_ns = next((t for t in numbers if f"{t}NS" == missing), None)
        missing_ew = next((t for t in numbers if f"{t}EW" == missing), None)
    new_table = partial(tuple.__new__, TableRound)
    empty: tuple[int, ...] = ()
    built: list[Round] = []
    for r in range(1, rounds + 1):
        shift = (r - 1) + (1 if skip and r > half else 0)
        k = -shift % tables
        b = (r - 1) % tables
        sets_r = sets_twice[b : b + tables]
        boards_r = boards_twice[b : b + tables]
        if twin:
            sets_r = list(map(sets_r.__getitem__, position))
            boards_r = list(map(boards_r.__getitem__, position))
        # the table where the missing pair would play this round (1-based), if any
        gap = (
            missing_ns
            if missing_ns is not None
            else ((missing_ew - 1 + shift) % tables + 1 if missing_ew is not None else None)
        )
        flip = r in switched
        entries: list[TableRound] = []
        sitout: list[Contestant] = []
        relay: list[int] = []
        for copy, name in enumerate(names):
            ns_r = ns_lists[copy]
            ew_r = ew_twice[copy][k : k + tables]
            row = list(
                map(
                    new_table,
                    zip(
                        numbers,
                        ew_r if flip else ns_r,
                        ns_r if flip else ew_r,
                        boards_r,
                        sets_r,
                        repeat(name),
                        repeat(None),
                        repeat(empty),
                        repeat(copy),
                    ),
                )
            )
            if twin:
                phantoms = (
                    _phantom_tables(missing, r, tables, skip) if missing is not None else set()
                )
                if tables not in phantoms:
                    row[0] = new_table((*row[0][:7], (tables,), copy))
                if 1 not in phantoms:
                    row[-1] = new_table((*row[-1][:7], (1,), copy))
            if gap is not None:
                sitout.append(ew_r[gap - 1] if gap == missing_ns else ns_r[gap - 1])
                if copy == 0 and (not twin or gap not in (1, tables)):
                    relay.extend(boards_r[gap - 1])
                del row[gap - 1]
            entries += row
        if twin:
            relay.extend(board_numbers((half + r - 1) % tables + 1, boards_per_round))
        built.append(
            new_round(
                r,
                tuple(entries),
                tuple(sitout),
                tuple(sorted(set(relay))) if relay else (),
                sections > 1 and r == 1,
            )
        )

    everyone_ns = [f"{n}{t}NS" for n in names for t in range(1, tables + 1)]
    everyone_ew = [f"{n}{t}EW" for n in names for t in range(1, tables + 1)]
    phantom_ids = {f"{n}{missing}" for n in names} if missing else set()
    ns_line = tuple(c for c in everyone_ns if c not in phantom_ids)
    ew_line = tuple(c for c in everyone_ew if c not in phantom_ids)
    complete = rounds == tables and sections == 1
    uneven = missing is not None or (twin and rounds < tables)
    design = Design(
        max_meetings=1,
        all_meet=complete and missing is None,
        apart=(ns_line, ew_line),
        uniform_plays=not uneven,
        fixed_lines=not switched,
        one_winner=bool(switched),
    )
    notes = [
        f"NS pairs stationary; EW pairs move up one table, boards down one ({rounds} of "
        f"at most {limit} rounds)."
    ]
    if skip and rounds > half:
        notes.append(f"Skip: after round {half} EW pairs move up two tables (C03 l.89).")
    if twin:
        notes.append(
            f"Twin table: tables 1 and {tables} share their boards and swap them during the round;"
            f" a board-only relay stand between tables {half} and {half + 1} holds one set; "
            f"table {tables - 1} receives the boards of tables 1/{tables} (C03 l.91-95)."
        )
    if missing:
        notes.append(f"Half table: pair {missing} does not exist; whoever faces it sits out.")
    if sections > 1:
        notes.append(
            f"{sections} pools play the same boards; in round 1 each board is duplicated into the "
            "same-numbered board of the other pools and the copies exchanged (C03 l.99)."
        )
    if switched:
        notes.append(f"Arrow switch in rounds {sorted(switched)}: EW pairs play the NS cards.")
    return Movement(
        kind="mitchell",
        tables=tables,
        boards_per_round=boards_per_round,
        rounds=built,
        design=design,
        phantom=missing,
        notes=tuple(notes),
    )


def _phantom_tables(missing: str, r: int, tables: int, skip: bool) -> set[int]:
    number = int(missing[:-2])
    if missing.endswith("NS"):
        return {number}
    half = tables // 2
    shift = (r - 1) + (1 if skip and r > half else 0)
    return {(number - 1 + shift) % tables + 1}


def _check_request(
    tables: int, rounds: int | None, boards_per_round: int, even: EvenMethod, sections: int
) -> None:
    if not isinstance(tables, int) or tables < 3:
        raise MovementError(
            f"a Mitchell needs at least 3 tables, got {tables!r}; "
            "for 2 tables (4 pairs) use howell(tables=2)"
        )
    if not isinstance(boards_per_round, int) or boards_per_round < 1:
        raise MovementError(
            f"boards_per_round must be at least 1, got {boards_per_round!r}; "
            "the course suggests 22-30 boards per session, e.g. 2 or 3 per round"
        )
    if even not in ("skip", "twin", "plain"):
        raise MovementError(f"even must be 'skip', 'twin' or 'plain', got {even!r}")
    if tables % 2 == 0 and even == "twin" and boards_per_round < 2:
        raise MovementError(
            "the twin table needs at least 2 boards per round (tables 1 and "
            f"{tables} each play one and swap); use boards_per_round=2 or even='skip'"
        )
    if not isinstance(sections, int) or sections < 1 or sections > len(SECTION_NAMES):
        raise MovementError(f"sections must be 1..{len(SECTION_NAMES)}, got {sections!r}")
    limit = max_mitchell_rounds(tables, even)
    if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= limit):
        why = (
            {
                "skip": "with the skip an even Mitchell plays at most T-1 rounds",
                "twin": "the twin table allows T rounds",
                "plain": "without skip or twin table an even Mitchell repeats boards after T/2 rounds",
            }[even]
            if tables % 2 == 0
            else "an odd Mitchell plays at most as many rounds as tables"
        )
        alternative = ""
        if tables % 2 == 0 and even != "twin" and rounds is not None and rounds <= tables:
            alternative = "; even='twin' allows up to " + str(tables)
        raise MovementError(
            f"a {tables}-table Mitchell ({even}) can play 1..{limit} rounds, not {rounds!r}: "
            f"{why}{alternative}"
        )


def _missing_pair(tables: int, pairs: int | None, phantom: str | None) -> str | None:
    if pairs is None and phantom is None:
        return None
    if pairs is not None and pairs not in (2 * tables, 2 * tables - 1):
        raise MovementError(
            f"{tables} tables seat {2 * tables} pairs (or {2 * tables - 1} with a half table), "
            f"not {pairs}; use tables={math.ceil(pairs / 2)}"
        )
    if pairs == 2 * tables and phantom is None:
        return None
    missing = phantom or f"{tables}NS"
    number, line = missing[:-2], missing[-2:]
    if line not in ("NS", "EW") or not number.isdigit() or not 1 <= int(number) <= tables:
        raise MovementError(
            f"phantom must name a pair like '{tables}NS' or '1EW' (1..{tables}), got {phantom!r}"
        )
    return missing


def _one_winner(
    tables: int,
    rounds: int,
    boards_per_round: int,
    even: EvenMethod,
    pairs: int | None,
    phantom: str | None,
    sections: int,
) -> Movement:
    """Try arrow-switch patterns, the customary last quarter first, until everyone is compared."""
    quarter = max(1, math.ceil(rounds / 4))
    counts = sorted(range(1, rounds), key=lambda k: (abs(k - quarter), k))
    patterns = [range(rounds - k + 1, rounds + 1) for k in counts]
    patterns += [range(step, rounds + 1, step) for step in (2, 3, 4) if step < rounds]
    for pattern in patterns:
        candidate = mitchell(
            tables,
            rounds,
            boards_per_round,
            even=even,
            pairs=pairs,
            phantom=phantom,
            sections=sections,
            arrow_switch=pattern,
        )
        if not one_winner_problems(candidate):
            return candidate
    raise MovementError(
        f"no arrow-switch pattern makes a {tables}-table, {rounds}-round Mitchell a one-winner "
        f"event; play more rounds or use howell(pairs={2 * tables})"
    )


def _switched_rounds(arrow_switch: Iterable[int] | None, rounds: int) -> frozenset[int]:
    if arrow_switch is None:
        return frozenset()
    chosen = frozenset(arrow_switch)
    bad = sorted(r for r in chosen if not isinstance(r, int) or not 1 <= r <= rounds)
    if bad:
        raise MovementError(f"arrow-switch rounds {bad} are outside 1..{rounds}")
    return chosen

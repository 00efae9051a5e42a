"""The director's per-board grid: for one round of a session, each table's boards and where
each result stands (missing, entered, confirmed, disputed, corrected by the director), read
from the state stored on the results (``Result.board_state``) in one query."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import BoardState, Result, ResultStatus, Seating, Session
from tournaments.services.setup import plan

MISSING = "missing"
STATE_ORDER = (
    MISSING,
    BoardState.ENTERED,
    BoardState.CONFIRMED,
    BoardState.DISPUTED,
    BoardState.CORRECTED,
)


@dataclass(frozen=True)
class Cell:
    board: int
    state: str  # MISSING or a ``BoardState``
    section_id: int


@dataclass(frozen=True)
class Row:
    section: str
    table: int
    cells: tuple[Cell, ...]  # none when a place of the table is empty (a phantom's rest)


@dataclass(frozen=True)
class Grid:
    round: int
    rounds: tuple[int, ...]
    rows: tuple[Row, ...]
    counts: dict[str, int]


def _plays(section, slot, seats) -> bool:
    """Both places of the slot are taken (else the table rests that round)."""
    directional = plan.is_directional(section.movement)
    return all(
        (section.pk, n, line if directional else "") in seats
        for n, line in ((slot.ns, "NS"), (slot.ew, "EW"))
    )


def current_round(slots, entered: dict, seats, rounds: tuple[int, ...]) -> int:
    """The round the room is on: each table is on its lowest round not yet complete (its
    last when all are); the round most tables are on, the lowest of a tie. One fast table
    already on the next round does not move the grid from where the others still play."""
    from collections import Counter

    if not rounds:
        return 1
    on: dict[tuple[int, int], int] = {}
    for section, slot in sorted(slots, key=lambda pair: pair[1].round):
        key = (section.pk, slot.table)
        if key in on:
            continue
        if _plays(section, slot, seats) and entered.get(
            (section.pk, slot.round, slot.table), 0
        ) < len(slot.boards):
            on[key] = slot.round
    for section, slot in slots:  # every round complete: the table is on its last
        on.setdefault((section.pk, slot.table), rounds[-1])
    tally = Counter(on.values())
    return min(tally, key=lambda r: (-tally[r], r)) if tally else rounds[0]


def board_grid(session: Session, round_number: int | None = None) -> Grid:
    """The grid of ``round_number`` (three queries and the seating's); without one (or one
    the movement does not have), the round most tables are on (``current_round``)."""
    from django.db.models import Count

    sections = list(session.sections.order_by("letter"))
    slots = [
        (section, slot)
        for section in sections
        for slot in plan.slots(section.movement)
        if slot.boards
    ]
    rounds = tuple(sorted({slot.round for _s, slot in slots}))
    results = Result.objects.filter(section__session=session, status=ResultStatus.OK)
    seats = set(
        Seating.objects.filter(session=session).values_list("section_id", "number", "direction")
    )
    if round_number not in rounds:
        entered = {
            (s, r, t): n
            for s, r, t, n in results.order_by()
            .values_list("section_id", "round", "table")
            .annotate(n=Count("id"))
        }
        round_number = current_round(slots, entered, seats, rounds)
    found = {
        (section_id, table, board): state
        for section_id, table, board, state in results.filter(round=round_number).values_list(
            "section_id", "table", "board__number", "board_state"
        )
    }
    rows, counts = [], dict.fromkeys(STATE_ORDER, 0)
    for section, slot in slots:
        if slot.round != round_number:
            continue
        if not _plays(section, slot, seats):
            rows.append(Row(section.letter, slot.table, ()))  # nobody to play: a rest
            continue
        cells = []
        for number in slot.boards:
            board = number + section.board_offset
            state = found.get((section.pk, slot.table, board), MISSING)
            counts[state] += 1
            cells.append(Cell(board, state, section.pk))
        rows.append(Row(section.letter, slot.table, tuple(cells)))
    rows.sort(key=lambda r: (r.section, r.table))
    return Grid(round_number, rounds, tuple(rows), counts)

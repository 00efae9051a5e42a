"""The director's per-board grid: for one round of a session, each table's boards and where
each result stands (missing, entered, confirmed, disputed, corrected by the director), read
from the state stored on the results (``Result.board_state``) in one query."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import BoardState, Result, ResultStatus, Seating, Session
from . import plan

MISSING = "missing"
STATE_ORDER = (MISSING, BoardState.ENTERED, BoardState.CONFIRMED, BoardState.DISPUTED,
               BoardState.CORRECTED)


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


def board_grid(session: Session, round_number: int | None = None) -> Grid:
    """The grid of ``round_number`` (two queries and the seating's); without one (or one the movement does not have), the
    latest round with a result, else the first."""
    sections = list(session.sections.order_by("letter"))
    slots = [(section, slot) for section in sections for slot in plan.slots(section.movement)
             if slot.boards]
    rounds = tuple(sorted({slot.round for _s, slot in slots}))
    results = Result.objects.filter(section__session=session, status=ResultStatus.OK)
    if round_number not in rounds:
        latest = results.order_by("-round").values_list("round", flat=True).first()
        round_number = latest if latest in rounds else (rounds[0] if rounds else 1)
    found = {(section_id, table, board): state for section_id, table, board, state in
             results.filter(round=round_number).values_list(
                 "section_id", "table", "board__number", "board_state")}
    seats = set(Seating.objects.filter(session=session).values_list(
        "section_id", "number", "direction"))
    rows, counts = [], dict.fromkeys(STATE_ORDER, 0)
    for section, slot in slots:
        if slot.round != round_number:
            continue
        directional = plan.is_directional(section.movement)
        if not all((section.pk, n, line if directional else "") in seats
                   for n, line in ((slot.ns, "NS"), (slot.ew, "EW"))):
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

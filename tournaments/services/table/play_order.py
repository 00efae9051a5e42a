"""The order a table plays its rounds in, as the server enforces it.

A table device may post a result only for a round its table has reached: its current round,
or an earlier one still open to it. A round opens at a table once the round that table played
before it is complete there (every board has a stored line: a result, an adjusted score or a
not-played line); the first round a table plays is open from the start. So a device cannot
store a result for a board it has yet to play, which would count the board as played and show
its deal to the tables still to play it (``board_visibility`` reads the same rule). A board
left unplayed in a round (a late board) keeps the next round closed at that table until the
director stores its line, as a Bridgemate waits for the director.

``open_rounds`` is the rule, pure; ``open_lines`` filters stored lines by it for a whole
session; ``refuse_unreached_round`` is what a post asks, in one query in the usual case.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable

from django.utils.translation import gettext as _

from tournaments.models import EntryStatus, Result, ResultStatus, Seating, Section
from tournaments.services.errors import NotAllowed
from tournaments.services.setup import plan

RoundBoards = tuple[int, tuple[int, ...]]  # (round, the board numbers a table plays in it)
Line = tuple[int, int, int, int]  # (section id, round, table, board number)


class RoundNotOpen(NotAllowed):
    """A table device posted for a round its table has not reached: nothing was stored."""


def open_rounds(
    rounds: Iterable[RoundBoards], stored: Collection[tuple[int, int]]
) -> frozenset[int]:
    """Pure: the rounds open to a table.

    ``rounds``: the rounds the table plays (sit-out rounds left out), each with its board
    numbers; ``stored``: the ``(round, board)`` lines stored at the table. The first round is
    open, and every round whose previous played round is complete.
    """
    out: set[int] = set()
    previous_complete = True
    for number, boards in sorted(rounds):
        if previous_complete:
            out.add(number)
        previous_complete = all((number, b) in stored for b in boards)
    return frozenset(out)


def seats_taken(slot: plan.Slot, taken: Callable[[int | None, str], bool]) -> bool:
    """Whether everybody due at ``slot`` is seated: both pairs, or an individual's four
    players (``taken(number, line)``, the line "NS"/"EW" for a pair, "" for a player)."""
    if slot.players is not None:
        return all(taken(number, "") for number in slot.players)
    return taken(slot.ns, "NS") and taken(slot.ew, "EW")


def played_rounds(
    movement: dict, offset: int, taken: Callable[[int | None, str], bool]
) -> dict[int, list[RoundBoards]]:
    """Pure: each table → the rounds it plays, with their board numbers (``offset`` added)."""
    out: dict[int, list[RoundBoards]] = defaultdict(list)
    for slot in plan.slots(movement):
        if seats_taken(slot, taken):
            out[slot.table].append((slot.round, tuple(b + offset for b in slot.boards)))
    return out


def open_lines(
    sections: Iterable, seated: set[tuple[int, int, str]], lines: Iterable[Line]
) -> list[Line]:
    """Pure: the stored ``lines`` whose round is open at their table, for the sections of a
    session (``SectionPlan``s: id, board offset, movement; ``seated`` holds ``(section id,
    number, line)``, the line "" unless the movement numbers pairs per line)."""
    lines = list(lines)
    stored: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for section_id, rnd, table, board in lines:
        stored[(section_id, table)].add((rnd, board))
    opened: dict[tuple[int, int], frozenset[int]] = {}
    for section in sections:
        directional = plan.is_directional(section.movement)

        def taken(number, line, sid=section.id, directional=directional):
            return number is not None and (sid, number, line if directional else "") in seated

        for table, rounds in played_rounds(section.movement, section.board_offset, taken).items():
            opened[(section.id, table)] = open_rounds(rounds, stored[(section.id, table)])
    return [line for line in lines if line[1] in opened.get((line[0], line[2]), ())]


def refuse_unreached_round(section: Section, table: int, round_number: int, *, replay=None) -> None:
    """Raise ``RoundNotOpen`` unless ``round_number`` is open to ``table``, or ``replay`` (the
    rows stored under the post's key) finds the result the device stored earlier: its resend
    still gets its answer, whatever the director changed since.

    Walks back from the round before: the latest round the table played before this one must
    be complete (a sit-out round is passed over). One query for the table's stored lines of the earlier rounds; the seatings are read only when
    a round has none stored (a sit-out round, or one not begun).
    """
    movement = section.movement
    earlier = sorted(
        (s for s in plan.table_slots(movement, table) if s.round < round_number),
        key=lambda s: s.round,
        reverse=True,
    )
    if not earlier:
        return
    directional = plan.is_directional(movement)
    stored: dict[int, set[int]] = defaultdict(set)
    for rnd, board in (
        Result.objects.filter(
            section=section, table=table, round__lt=round_number, status=ResultStatus.OK
        )
        .order_by()
        .values_list("round", "board__number")
    ):
        stored[rnd].add(board)
    seated = None
    for slot in earlier:
        rnd = slot.round
        boards = {b + section.board_offset for b in slot.boards}
        if stored[rnd] >= boards:
            return  # the round before is complete: this one is open
        if not stored[rnd]:
            if seated is None:
                seated = _active_seats(section)
            if not seats_taken(
                slot,
                lambda n, line, seats=seated: (
                    n is not None and (n, line if directional else "") in seats
                ),
            ):
                continue  # the table sat out that round: look at the one before it
        if replay is not None and replay.exists():
            return
        raise RoundNotOpen(
            _(
                "Round %(round)s is not open at this table yet: first save every board of round "
                "%(before)s. If a board of that round cannot be played, call the director."
            )
            % {"round": round_number, "before": rnd}
        )


def _active_seats(section: Section) -> set[tuple[int, str]]:
    return set(
        Seating.objects.filter(section=section, entry__status=EntryStatus.ACTIVE)
        .order_by()
        .values_list("number", "direction")
    )

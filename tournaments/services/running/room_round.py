"""The round the room is playing, and how many of its tables have finished it.

The director's clock names the round once started (the director says when a round begins),
until every table has finished it; otherwise the round most tables are on
(``board_grid.current_round``: each table is on its lowest round with a result missing), so a
clock the director forgot to start again does not hold the room on a round played out. A table finishes a round when every board the
movement gives it that round has a result; a table whose pair sits out (a phantom's place)
plays nothing and is not counted. Read in three queries whatever the session's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from tournaments.models import Result, ResultStatus, RoomScreen, Seating, Session
from tournaments.services.running.board_grid import current_round
from tournaments.services.setup import plan


@dataclass(frozen=True)
class RoomRound:
    round: int  # the round being played (0: the session has no movement yet)
    rounds: int  # the rounds the session plays
    tables: int  # the tables playing that round
    done: int  # the tables with every result of it in
    on_clock: bool  # the director's clock names it

    @property
    def all_done(self) -> bool:
        return self.tables > 0 and self.done >= self.tables

    @property
    def last(self) -> bool:
        return self.round >= self.rounds


def room_round(session: Session, room: RoomScreen | None = None) -> RoomRound:
    room = room if room is not None else RoomScreen.for_session(session)
    sections = [s for s in session.sections.order_by("letter") if s.movement]
    slots = [(s, slot) for s in sections for slot in plan.slots(s.movement) if slot.boards]
    rounds = tuple(sorted({slot.round for _s, slot in slots}))
    if not rounds:
        return RoomRound(0, 0, 0, 0, False)
    seats = set(
        Seating.objects.filter(session=session).values_list("section_id", "number", "direction")
    )
    entered = {
        (s, r, t): n
        for s, r, t, n in Result.objects.filter(section__session=session, status=ResultStatus.OK)
        .order_by()
        .values_list("section_id", "round", "table")
        .annotate(n=Count("id"))
    }

    def finished(number: int) -> tuple[int, int]:
        tables = done = 0
        for section, slot in slots:
            if slot.round != number or not _plays(section, slot, seats):
                continue
            tables += 1
            if entered.get((section.pk, slot.round, slot.table), 0) >= len(slot.boards):
                done += 1
        return tables, done

    computed = current_round(slots, entered, seats, rounds)
    if room.clock_round in rounds:
        tables, done = finished(room.clock_round)
        if not (tables and done >= tables and computed > room.clock_round):
            return RoomRound(room.clock_round, len(rounds), tables, done, True)
    return RoomRound(computed, len(rounds), *finished(computed), False)


def _plays(section, slot, seats) -> bool:
    """Both places of the table are taken that round (else it rests)."""
    directional = plan.is_directional(section.movement)
    return all(
        (section.pk, n, line if directional else "") in seats
        for n, line in ((slot.ns, "NS"), (slot.ew, "EW"))
    )

"""Who may see a board's deal, traveller and other tables' scores while the session is played.

Provisional results are published while boards are still going round: a deal or another
table's score shown then tells a pair what is in a board it has yet to play. So a board's
hand record, traveller, frequencies and the scores at other tables are shown to the public,
to players and to table devices only once **every table the stored movement schedules to
play that board has a line stored for it in a round that table has reached** (a result, an
adjusted score or a not-played line; ``play_order``), or once the director has closed the
session (``Session.status`` finished, or the tournament's results final). The director (and a superuser) sees everything all along.

The rule lives here alone; the views, the results PDF and the teams pages only ask it.
``scheduled_plays`` and ``complete_boards`` are pure (the rule itself); ``visibility`` reads a
session in three queries whatever its size (sections, seatings, results).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from clubsite.accounts.permissions import Role, has_role
from tournaments.models import (
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
    SessionStatus,
    TournamentStatus,
)
from tournaments.services.setup import plan
from tournaments.services.table import play_order

BoardKey = tuple[str, int]  # (pool, board number): a board of a session
PlayKey = tuple[int, int, int]  # (section id, round, table): one table in one round


@dataclass(frozen=True, slots=True)
class SectionPlan:
    """What the rule needs of a section: where it is, which boards it plays and its movement."""

    id: int
    pool: str
    board_offset: int
    movement: dict


def scheduled_plays(
    sections: Iterable[SectionPlan], seated: set[tuple[int, int, str]]
) -> dict[BoardKey, set[PlayKey]]:
    """Pure: each board → the tables that must play it (``(section, round, table)``).

    A table plays a board when the movement puts the board on it that round and both its
    sides are seated (``seated`` holds ``(section id, number, line)``, the line "" unless the
    movement numbers pairs per line); a phantom's table plays nothing, as the live console
    counts it (``progress.session_progress``). A Mitchell puts each board on one table a
    round, a Howell's shared sets and a relay's twin tables put it on two in the same round:
    each of those tables counts.
    """
    out: dict[BoardKey, set[PlayKey]] = defaultdict(set)
    for section in sections:
        directional = plan.is_directional(section.movement)
        for slot in plan.slots(section.movement):
            present = all(
                (section.id, n, line if directional else "") in seated
                for n, line in ((slot.ns, "NS"), (slot.ew, "EW"))
            )
            if not present:
                continue
            for b in slot.boards:
                out[(section.pool, b + section.board_offset)].add(
                    (section.id, slot.round, slot.table)
                )
    return dict(out)


def complete_boards(
    scheduled: dict[BoardKey, set[PlayKey]],
    played: Iterable[tuple[int, int, int, int]],
    pool_of: dict[int, str],
) -> frozenset[BoardKey]:
    """Pure: the boards every scheduled table has a line for.

    ``played`` holds ``(section id, round, table, board number)`` of the stored lines;
    ``pool_of`` maps a section id to its pool. A board no table is scheduled to play is not
    complete (nobody has played it, so nothing about it is known yet).
    """
    done: dict[BoardKey, set[PlayKey]] = defaultdict(set)
    for section_id, rnd, table, number in played:
        done[(pool_of.get(section_id, ""), number)].add((section_id, rnd, table))
    return frozenset(
        board for board, tables in scheduled.items() if tables and tables <= done.get(board, set())
    )


def session_closed(session: Session) -> bool:
    """The director closed the session: finished, or the tournament's results are final."""
    return (
        session.status == SessionStatus.FINISHED
        or session.tournament.status == TournamentStatus.FINAL
    )


def sees_everything(viewer) -> bool:
    """The director and a superuser (``has_role`` gives a superuser every role); a table
    device (a ``TableCode``) or anybody else does not."""
    return getattr(viewer, "is_authenticated", False) and has_role(viewer, Role.DIRECTOR)


def boards_complete(session: Session) -> frozenset[BoardKey]:
    """The session's boards every scheduled table has played, as ``(pool, number)``; three
    queries (sections, seatings, stored lines)."""
    sections = [
        SectionPlan(s["id"], s["pool"], s["board_offset"], s["movement"] or {})
        for s in Section.objects.filter(session=session).values(
            "id", "pool", "board_offset", "movement"
        )
    ]
    seated = set(
        Seating.objects.filter(session=session).values_list("section_id", "number", "direction")
    )
    played = Result.objects.filter(section__session=session, status=ResultStatus.OK).values_list(
        "section_id", "round", "table", "board__number"
    )
    # A line counts once its table has reached its round (``play_order``): a result stored
    # ahead of the table's play (by the director) shows nothing of the board before then.
    return complete_boards(
        scheduled_plays(sections, seated),
        play_order.open_lines(sections, seated, played),
        {s.id: s.pool for s in sections},
    )


@dataclass(frozen=True)
class BoardVisibility:
    """What one viewer may see of one session's boards; ask ``shows(pool, number)``."""

    everything: bool
    complete: frozenset[BoardKey] = frozenset()

    def shows(self, pool: str, number: int) -> bool:
        return self.everything or (pool, number) in self.complete


def visibility(session: Session, viewer=None) -> BoardVisibility:
    """The boards of ``session`` whose deal, traveller and other tables' scores ``viewer``
    (a user, ``None`` / anonymous, or a table device's ``TableCode``) may see now.

    No queries for the director or a closed session; otherwise ``boards_complete``.
    """
    if sees_everything(viewer) or session_closed(session):
        return BoardVisibility(True)
    return BoardVisibility(False, boards_complete(session))


def may_see_board(viewer, session: Session, pool: str, number: int) -> bool:
    """Whether ``viewer`` may see the deal, traveller and other tables' scores of a board."""
    return visibility(session, viewer).shows(pool, number)

"""Whether a section's round has all its results in: the moment a director wants the ranking.

The live classification runs once per window (``reclassification``), so the last result of a
round, or of the session, would otherwise wait up to the window's end before the players see
the ranking it completes. ``completes_round`` is asked once that result is committed (so of
two tables finishing together, the later commit sees both), and answers with one count.

A round's lines are those of its tables where both pairs sit (a sit-out or a withdrawn pair's
table has none); which pairs sit changes rarely in a session (a late pair, a withdrawal), so
it is kept in this process for ``SEATING_SECONDS`` rather than read at every post. Until then
a changed seating can only make the answer late (the window still classifies) or one
classification early.
"""

from __future__ import annotations

import threading
import time

from ..models import Direction, EntryStatus, Result, ResultStatus, Seating, Section
from . import plan

SEATING_SECONDS = 30.0

_lock = threading.Lock()
_seated: dict[int, tuple[float, frozenset]] = {}


def _seats(section: Section) -> frozenset:
    now = time.monotonic()
    with _lock:
        known = _seated.get(section.pk)
    if known is not None and known[0] > now:
        return known[1]
    seats = frozenset(Seating.objects.filter(section=section, entry__status=EntryStatus.ACTIVE)
                      .order_by().values_list("number", "direction"))
    with _lock:
        _seated[section.pk] = (now + SEATING_SECONDS, seats)
        if len(_seated) > 1000:
            _seated.clear()
    return seats


def expected_lines(section: Section, round_number: int) -> int:
    """How many results the round of ``section`` should have once every table has played."""
    directional = plan.is_directional(section.movement)
    ns, ew = (Direction.NS, Direction.EW) if directional else (Direction.NONE, Direction.NONE)
    seats = None
    lines = 0
    for slot in plan.slots(section.movement):
        if slot.round != round_number:
            continue
        if slot.players is None:
            seats = _seats(section) if seats is None else seats
            if (slot.ns, ns) not in seats or (slot.ew, ew) not in seats:
                continue
        lines += len(slot.boards)
    return lines


def completes_round(section: Section, round_number: int) -> bool:
    """Whether the results stored for ``round_number`` of ``section`` are all of its lines."""
    expected = expected_lines(section, round_number)
    if not expected:
        return False
    stored = Result.objects.filter(section=section, round=round_number,
                                   status=ResultStatus.OK).order_by().count()
    return stored >= expected

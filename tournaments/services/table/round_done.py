"""Whether a section's round has all its results in: the moment a director wants the ranking.

The live classification runs once per window (``reclassification``), so the last result of a
round, or of the session, would otherwise wait up to the window's end before the players see
the ranking it completes. ``completes_round`` is asked once that result is committed (so of
two tables finishing together, the later commit sees both), and answers with one count.

A round's lines are those of its tables where both pairs sit (a sit-out or a withdrawn pair's
table has none); which pairs sit changes rarely in a session (a late pair, a withdrawal), so
it is kept in this process for ``SEATING_SECONDS`` rather than worked out at every post. Until
then a changed seating can only make the answer late (the window still classifies) or one
classification early. The round's stored results are counted in the same round trip as the
post's first look at its line (``line_write.probe``), so most posts cost no query more.
"""

from __future__ import annotations

import threading
import time

from tournaments.models import Direction, EntryStatus, Result, ResultStatus, Seating, Section
from tournaments.services.setup import plan

SEATING_SECONDS = 30.0
# The posts that may be in flight at once besides a table's one each: the director's.
# Fewer missing results than the round's tables plus these (rows committed before the
# post's own, counted by ``line_write.probe``), and the round may be complete once every post
# in flight commits, so it is counted again after the commit. A smaller margin missed the
# round's end when more tables than it posted at the same moment (each post saw too many
# missing and none counted again).
IN_FLIGHT_EXTRA = 2

_lock = threading.Lock()
_known: dict[tuple[int, int], tuple[float, int]] = {}


def expected_lines(section: Section, round_number: int) -> tuple[int, int]:
    """How many results the round of ``section`` should have once every table has played,
    and at how many tables (kept in this process for ``SEATING_SECONDS``: every post of the
    round asks)."""
    now = time.monotonic()
    key = (section.pk, round_number)
    with _lock:
        known = _known.get(key)
    if known is not None and known[0] > now:
        return known[1]
    counted = _count_lines(section, round_number)
    with _lock:
        if len(_known) > 5000:
            _known.clear()
        _known[key] = (now + SEATING_SECONDS, counted)
    return counted


def _count_lines(section: Section, round_number: int) -> tuple[int, int]:
    directional = plan.is_directional(section.movement)
    ns, ew = (Direction.NS, Direction.EW) if directional else (Direction.NONE, Direction.NONE)
    seats = None
    lines = tables = 0
    for rnd in section.movement.get("rounds", ()):
        if int(rnd["round"]) != round_number:
            continue
        for table in rnd.get("tables", ()):
            slot = plan.slot_for_table(round_number, table)
            if slot.players is None:
                if seats is None:
                    seats = frozenset(
                        Seating.objects.filter(section=section, entry__status=EntryStatus.ACTIVE)
                        .order_by()
                        .values_list("number", "direction")
                    )
                if (slot.ns, ns) not in seats or (slot.ew, ew) not in seats:
                    continue
            lines += len(slot.boards)
            tables += 1
    return lines, tables


def forget(section_id: int | None = None) -> None:
    """Drop what this process knows of the sections' rounds (tests; a re-seated section)."""
    with _lock:
        for key in [k for k in _known if section_id is None or k[0] == section_id]:
            del _known[key]


def round_count(section: Section, round_number: int) -> int:
    """The results stored for ``round_number`` of ``section`` (committed, or this
    transaction's)."""
    return (
        Result.objects.filter(section=section, round=round_number, status=ResultStatus.OK)
        .order_by()
        .count()
    )


def completes_round(section: Section, round_number: int, stored_before: int | None = None) -> bool:
    """Whether the results stored for ``round_number`` of ``section`` are all of its lines,
    once the post of one of them is committed.

    ``stored_before``: the round's results the post saw before writing (its own not
    counted); when they leave more lines missing than posts can be in flight, the round is
    not complete and nothing is counted again.
    """
    expected, tables = expected_lines(section, round_number)
    if not expected:
        return False
    if stored_before is not None:
        if stored_before + 1 >= expected:
            return True
        if stored_before + 1 + tables + IN_FLIGHT_EXTRA < expected:
            return False
    return round_count(section, round_number) >= expected

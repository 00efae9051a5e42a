"""A late pair takes a free place (a half-table Mitchell's phantom, a Howell's sit-out) in a
session already under way, keeping the movement: it plays from the round the director says,
and the boards its place passed before that are not played, scored like a sit-out
(``not_played``, relay: each side's own average on the boards it played), so the pair and
those opponents are ranked on the boards they played."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Entry, Result, ResultStatus, Seating, Section
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.running.corrections import adjust_score
from tournaments.services.setup import plan

NOT_PLAYED = {"kind": "not_played", "reason": "relay"}


def rounds_in_play(section: Section) -> int:
    """The round a late pair would join: the latest with a result (1 before any)."""
    latest = (
        Result.objects.filter(section=section, status=ResultStatus.OK)
        .order_by("-round")
        .values_list("round", flat=True)
        .first()
    )
    return latest or 1


def passed_lines(section: Section, number: int, direction: str, from_round: int):
    """(round, table, board) of each board the place was due to play before ``from_round``."""
    for slot in plan.slots(section.movement):
        if slot.round >= from_round:
            continue
        ns = slot.ns == number and direction in ("NS", "")
        ew = slot.ew == number and direction in ("EW", "")
        if ns or ew:
            for board in slot.boards:
                yield slot.round, slot.table, board + section.board_offset


@transaction.atomic
def seat_late_pair(
    section: Section,
    entry: Entry,
    *,
    user,
    number: int | None = None,
    direction: str | None = None,
    from_round: int = 1,
) -> tuple[Seating, int]:
    """Seat ``entry`` in a free place and score the boards that place passed before
    ``from_round`` as not played (lines that already have a result are left alone).
    Returns the seating and how many boards were scored as not played."""
    rounds = plan.round_count(section.movement)
    if not 1 <= from_round <= rounds:
        raise TournamentError(
            _("The pair can join from round 1 to %(n)s.") % {"n": rounds}, "from_round"
        )
    seating = registration.add_late_entry(
        section, entry, user=user, number=number, direction=direction
    )
    done = set(
        Result.objects.filter(section=section, status=ResultStatus.OK).values_list(
            "round", "table", "board__number"
        )
    )
    scored = 0
    for line in passed_lines(section, seating.number, seating.direction, from_round):
        if line in done:
            continue
        rnd, table, board = line
        adjust_score(
            user=user,
            section=section,
            round=rnd,
            table=table,
            board=board,
            adjustment=dict(NOT_PLAYED),
            reason=_("Late pair: boards passed before it arrived are not played."),
        )
        scored += 1
    return seating, scored

"""The round clock of the room screen: the director sets the minutes a round lasts, starts a
round's clock, pauses and resumes it; every screen counts down by itself from what is stored.

``Clock`` is the arithmetic, pure (no database: the tests give it ``now``): running, it has a
deadline; paused, the time it had left; past its deadline, it is over (at zero, never
below). ``set_minutes``, ``start_round``, ``pause`` and ``resume`` store the director's
changes on the session's ``RoomScreen`` (made on the first change). New minutes count from
the next round started: the round on the clock keeps its deadline.
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import RoomScreen, Session, SessionStatus
from tournaments.services.errors import TournamentError
from tournaments.services.setup import plan

IDLE, RUNNING, PAUSED, OVER = "idle", "running", "paused", "over"
MAX_MINUTES = 180
ZERO = datetime.timedelta(0)


class ClockError(TournamentError):
    """A clock change that cannot be made now (the message says why, translated)."""


@dataclass(frozen=True)
class Clock:
    """A round's clock: ``round`` 0 until the director first starts one."""

    round: int = 0
    minutes: int = 0
    ends_at: datetime.datetime | None = None
    left: datetime.timedelta | None = None  # set while paused

    def state(self, now: datetime.datetime) -> str:
        if self.left is not None:
            return PAUSED
        if self.ends_at is None:
            return IDLE
        return RUNNING if now < self.ends_at else OVER

    def remaining(self, now: datetime.datetime) -> datetime.timedelta | None:
        """The time the round has left at ``now`` (zero once over); None: no clock."""
        if self.left is not None:
            return self.left
        if self.ends_at is None:
            return None
        return max(self.ends_at - now, ZERO)

    def start(self, now: datetime.datetime, round_number: int) -> Clock:
        """Round ``round_number`` starts now, for ``minutes``."""
        if self.minutes < 1:
            raise ClockError(_("Set the minutes a round lasts first."), "minutes")
        return Clock(
            round_number, self.minutes, now + datetime.timedelta(minutes=self.minutes), None
        )

    def pause(self, now: datetime.datetime) -> Clock:
        if self.state(now) != RUNNING:
            raise ClockError(_("The clock is not running."))
        return dataclasses.replace(self, ends_at=None, left=self.remaining(now))

    def resume(self, now: datetime.datetime) -> Clock:
        if self.left is None:
            raise ClockError(_("The clock is not paused."))
        return dataclasses.replace(self, ends_at=now + self.left, left=None)

    def with_minutes(self, minutes: int) -> Clock:
        if not 1 <= minutes <= MAX_MINUTES:
            raise ClockError(
                _("A round lasts 1 to %(most)s minutes.") % {"most": MAX_MINUTES}, "minutes"
            )
        return dataclasses.replace(self, minutes=minutes)

    @classmethod
    def of(cls, room: RoomScreen) -> Clock:
        return cls(room.clock_round, room.round_minutes, room.clock_ends_at, room.clock_left)


def suggested_minutes(session: Session) -> int:
    """What a round usually takes: seven and a half minutes a board, rounded up."""
    boards = max(
        (plan.boards_per_round(s.movement) for s in session.sections.all() if s.movement),
        default=0,
    )
    return max(1, -(-boards * 15 // 2)) if boards else 15


def _locked_room(session: Session) -> RoomScreen:
    room, _made = RoomScreen.objects.get_or_create(session=session)
    return RoomScreen.objects.select_for_update().get(pk=room.pk)


def _store(room: RoomScreen, clock: Clock) -> RoomScreen:
    room.clock_round, room.round_minutes = clock.round, clock.minutes
    room.clock_ends_at, room.clock_left = clock.ends_at, clock.left
    room.save(
        update_fields=[
            "clock_round",
            "round_minutes",
            "clock_ends_at",
            "clock_left",
            "changed_at",
        ]
    )
    return room


@transaction.atomic
def set_minutes(session: Session, minutes: int) -> RoomScreen:
    room = _locked_room(session)
    return _store(room, Clock.of(room).with_minutes(minutes))


@transaction.atomic
def start_round(
    session: Session,
    round_number: int,
    *,
    minutes: int | None = None,
    now: datetime.datetime | None = None,
) -> RoomScreen:
    """Start the clock of ``round_number`` (with ``minutes``, also kept for the next)."""
    status = Session.objects.values_list("status", flat=True).get(pk=session.pk)
    if status != SessionStatus.RUNNING:
        raise ClockError(_("The clock runs while the session is being played."))
    rounds = max(
        (plan.round_count(s.movement) for s in session.sections.all() if s.movement), default=0
    )
    if not 1 <= round_number <= rounds:
        raise ClockError(
            _("This session plays rounds 1 to %(rounds)s.") % {"rounds": rounds}, "round"
        )
    room = _locked_room(session)
    clock = Clock.of(room)
    if minutes is not None:
        clock = clock.with_minutes(minutes)
    return _store(room, clock.start(now or timezone.now(), round_number))


@transaction.atomic
def pause(session: Session, *, now: datetime.datetime | None = None) -> RoomScreen:
    room = _locked_room(session)
    return _store(room, Clock.of(room).pause(now or timezone.now()))


@transaction.atomic
def resume(session: Session, *, now: datetime.datetime | None = None) -> RoomScreen:
    room = _locked_room(session)
    return _store(room, Clock.of(room).resume(now or timezone.now()))

"""The room screen's round clock: the arithmetic (pure, given ``now``) and the director's
changes stored so every screen, and a reload, read the same time."""

import datetime

import pytest

from tournaments.models import RoomScreen
from tournaments.services.running import room_clock
from tournaments.services.running.room_clock import (
    IDLE,
    OVER,
    PAUSED,
    RUNNING,
    Clock,
    ClockError,
)

T0 = datetime.datetime(2026, 3, 4, 19, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def left(clock: Clock, seconds: float) -> float | None:
    remaining = clock.remaining(at(seconds))
    return None if remaining is None else remaining.total_seconds()


# --- the arithmetic -------------------------------------------------------------------------


def test_a_new_clock_is_idle_and_shows_no_time():
    clock = Clock()
    assert clock.state(T0) == IDLE and clock.remaining(T0) is None


def test_start_counts_the_rounds_minutes_from_now():
    clock = Clock(minutes=15).start(T0, 4)
    assert clock.round == 4 and clock.ends_at == at(15 * 60)
    assert clock.state(at(90)) == RUNNING
    assert left(clock, 90) == 15 * 60 - 90


def test_past_its_deadline_the_clock_is_over_at_zero_never_below():
    clock = Clock(minutes=10).start(T0, 1)
    assert clock.state(at(599)) == RUNNING
    assert clock.state(at(600)) == OVER
    assert left(clock, 600) == 0 and left(clock, 3600) == 0


def test_pause_keeps_the_time_left_and_resume_gives_it_back():
    clock = Clock(minutes=15).start(T0, 2)
    paused = clock.pause(at(5 * 60 + 30))  # 9:30 left
    assert paused.state(at(400)) == PAUSED and paused.ends_at is None
    assert left(paused, 400) == left(paused, 4000) == 9 * 60 + 30  # time stands still
    resumed = paused.resume(at(20 * 60))  # resumed 14:30 after the pause
    assert resumed.state(at(20 * 60)) == RUNNING
    assert resumed.ends_at == at(20 * 60 + 9 * 60 + 30)
    assert left(resumed, 20 * 60 + 30) == 9 * 60
    assert resumed.state(at(29 * 60 + 30)) == OVER


def test_a_second_start_restarts_the_full_minutes():
    clock = Clock(minutes=15).start(T0, 2).pause(at(60))
    again = clock.start(at(120), 3)
    assert again.round == 3 and again.left is None and left(again, 120) == 15 * 60


@pytest.mark.parametrize(
    ("clock", "change"),
    [
        (Clock(), lambda c: c.start(T0, 1)),  # no minutes set
        (Clock(minutes=5), lambda c: c.pause(T0)),  # not running
        (Clock(minutes=5).start(T0, 1), lambda c: c.pause(at(301))),  # over: nothing to pause
        (Clock(minutes=5).start(T0, 1), lambda c: c.resume(at(10))),  # not paused
        (Clock(), lambda c: c.with_minutes(0)),
        (Clock(), lambda c: c.with_minutes(room_clock.MAX_MINUTES + 1)),
    ],
)
def test_changes_that_cannot_be_made_are_refused(clock, change):
    with pytest.raises(ClockError):
        change(clock)


# --- stored ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_clock_is_stored_so_every_screen_agrees(mitchell_session):
    session = mitchell_session.session
    assert not RoomScreen.objects.filter(session=session).exists()
    room_clock.set_minutes(session, 14)
    room_clock.start_round(session, 3, now=T0)
    room_clock.pause(session, now=at(4 * 60))
    stored = Clock.of(RoomScreen.objects.get(session=session))  # another screen, read afresh
    assert stored == Clock(3, 14, None, datetime.timedelta(minutes=10))
    room_clock.resume(session, now=at(3600))
    stored = Clock.of(RoomScreen.objects.get(session=session))
    assert stored.state(at(3600 + 599)) == RUNNING and left(stored, 3600 + 60) == 9 * 60


@pytest.mark.django_db
def test_the_clock_runs_only_while_the_session_is_played(mitchell_session):
    from tournaments.services.setup import events as setup

    session = mitchell_session.session
    with pytest.raises(ClockError):
        room_clock.start_round(session, 8, minutes=15)  # a 7-round session
    setup.finish_session(session)
    with pytest.raises(ClockError):
        room_clock.start_round(session, 1, minutes=15)


@pytest.mark.django_db
def test_a_round_usually_takes_seven_and_a_half_minutes_a_board(mitchell_session, howell_session):
    assert room_clock.suggested_minutes(mitchell_session.session) == 15  # 2 boards a round
    assert room_clock.suggested_minutes(howell_session.session) == 23  # 3 boards: 22.5

"""Online entry's rules, without HTTP: places, the waiting list, the closing time, double
entry, who may cancel, partner wanted, and taking the entries into the session."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsite.models import Member
from clubsite.tenancy import thread_in_scope
from tournaments.models import (
    Entry,
    EventType,
    PartnerRequest,
    Registration,
    RegistrationPlayer,
    RegistrationStatus,
    ScoringMethod,
)
from tournaments.services.entries import online_entry, registration
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db

NOW = timezone.make_aware(datetime.datetime(2026, 3, 2, 12, 0))
EVENT_DAY = datetime.date(2026, 3, 10)


def member(i: int, *, guest: bool = False) -> Member:
    user = None if guest else User.objects.create(username=f"u{i}")
    return Member.objects.create(
        first_name=f"Nombre{i:02d}",
        last_name=f"Apellido{i:02d}",
        licence_number=f"R-{i:03d}",
        is_guest=guest,
        user=user,
    )


@pytest.fixture(autouse=True)
def english():
    """The refusals are read in English here (the club's language is Spanish)."""
    with translation.override("en"):
        yield


@pytest.fixture
def people():
    return [member(i) for i in range(16)]


def event(*, kind=EventType.PAIRS, max_tables=None, closes=None, opens=None, online=True):
    method = ScoringMethod.IMPS if kind == EventType.TEAMS else ScoringMethod.MATCHPOINTS
    return setup.create_tournament(
        name="Torneo de primavera",
        date=EVENT_DAY,
        event_type=kind,
        scoring_method=method,
        online_entry=online,
        max_tables=max_tables,
        entry_closes_at=closes,
        entry_opens_at=opens,
        start_time=datetime.time(19, 0),
    )


def enter_pair(tournament, a: Member, b: Member, now=NOW):
    return online_entry.enter(tournament, [a, b], user=a.user, now=now)


def test_a_member_enters_with_a_partner(people):
    tournament = event()
    entry = enter_pair(tournament, people[0], people[1])
    assert entry.status == RegistrationStatus.ENTERED
    assert entry.queued_at == entry.placed_at == NOW
    assert entry.display_name == "Nombre00 Apellido00 – Nombre01 Apellido01"
    assert [p.member for p in entry.players.all()] == people[:2]
    assert online_entry.registration_of(tournament, people[1]) == entry


def test_beyond_the_tables_entries_wait_and_move_up_first_come_first_served(people):
    tournament = event(max_tables=1)  # two pairs
    first = enter_pair(tournament, people[0], people[1])
    second = enter_pair(tournament, people[2], people[3], now=NOW + datetime.timedelta(1))
    third = enter_pair(tournament, people[4], people[5], now=NOW + datetime.timedelta(2))
    fourth = enter_pair(tournament, people[6], people[7], now=NOW + datetime.timedelta(3))
    assert [r.status for r in (first, second, third, fourth)] == [
        "entered",
        "entered",
        "waiting",
        "waiting",
    ]
    assert online_entry.places(tournament) == online_entry.Places(2, 2, 2)

    later = NOW + datetime.timedelta(4)
    moved = online_entry.cancel(first, user=people[1].user, now=later)
    assert moved == [third]
    third.refresh_from_db()
    assert third.status == RegistrationStatus.ENTERED and third.placed_at == later
    assert list(online_entry.waiting(tournament)) == [fourth]
    first.refresh_from_db()
    assert first.status == RegistrationStatus.CANCELLED and first.cancelled_at == later


def test_cancelling_a_waiting_entry_moves_nobody_up(people):
    tournament = event(max_tables=1)
    enter_pair(tournament, people[0], people[1])
    enter_pair(tournament, people[2], people[3])
    waiting = enter_pair(tournament, people[4], people[5])
    assert online_entry.cancel(waiting, user=people[4].user, now=NOW) == []
    assert online_entry.places(tournament) == online_entry.Places(2, 2, 0)


def test_more_tables_give_the_waiting_list_their_places(people):
    tournament = event(max_tables=1)
    for i in range(0, 8, 2):
        enter_pair(tournament, people[i], people[i + 1])
    tournament.max_tables = 2
    tournament.save()
    moved = online_entry.fill_places(tournament)
    assert len(moved) == 2
    assert online_entry.places(tournament) == online_entry.Places(4, 4, 0)


@pytest.mark.parametrize(
    "kind, per_table", [(EventType.PAIRS, 2), (EventType.TEAMS, 1), (EventType.INDIVIDUAL, 4)]
)
def test_places_follow_the_event_kind(kind, per_table):
    assert online_entry.capacity(event(kind=kind, max_tables=3)) == 3 * per_table
    assert online_entry.capacity(event(kind=kind)) is None


def test_entry_after_the_closing_time_is_refused_but_the_director_can_add(people, director):
    closes = NOW - datetime.timedelta(hours=1)
    tournament = event(closes=closes)
    with pytest.raises(TournamentError, match="Entries closed on"):
        enter_pair(tournament, people[0], people[1])
    assert not Registration.objects.exists()
    added = online_entry.enter(tournament, people[:2], user=director, by_director=True, now=NOW)
    assert added.by_director and added.status == RegistrationStatus.ENTERED


def test_cancelling_after_the_closing_time_is_refused_but_the_director_can(people, director):
    tournament = event(closes=NOW + datetime.timedelta(hours=1))
    entry = enter_pair(tournament, people[0], people[1])
    after = NOW + datetime.timedelta(hours=2)
    with pytest.raises(TournamentError, match="tell the director"):
        online_entry.cancel(entry, user=people[0].user, now=after)
    entry.refresh_from_db()
    assert entry.status == RegistrationStatus.ENTERED
    online_entry.cancel(entry, user=director, by_director=True, now=after)
    entry.refresh_from_db()
    assert entry.status == RegistrationStatus.CANCELLED and entry.cancelled_by == director


def test_without_a_closing_time_entry_closes_when_the_event_starts(people):
    tournament = event()
    start = timezone.make_aware(datetime.datetime.combine(EVENT_DAY, datetime.time(19, 0)))
    assert online_entry.closes_at(tournament) == start
    assert online_entry.entry_state(tournament, start - datetime.timedelta(minutes=1)) == "open"
    with pytest.raises(TournamentError, match="Entries closed"):
        enter_pair(tournament, people[0], people[1], now=start)


def test_entry_before_it_opens_or_when_it_is_off_is_refused(people):
    with pytest.raises(TournamentError, match="Entry opens on"):
        enter_pair(event(opens=NOW + datetime.timedelta(days=1)), people[0], people[1])
    with pytest.raises(TournamentError, match="does not take entries online"):
        enter_pair(event(online=False), people[0], people[1])


def test_double_entry_is_refused_with_the_players_name(people):
    tournament = event()
    enter_pair(tournament, people[0], people[1])
    with pytest.raises(TournamentError, match="Nombre01 Apellido01 has already entered"):
        enter_pair(tournament, people[2], people[1])
    with pytest.raises(TournamentError, match="named twice"):
        online_entry.enter(tournament, [people[3], people[3]], user=people[3].user, now=NOW)
    assert Registration.objects.count() == 1


def test_after_cancelling_a_player_may_enter_again(people):
    tournament = event()
    first = enter_pair(tournament, people[0], people[1])
    online_entry.cancel(first, user=people[0].user, now=NOW)
    again = enter_pair(tournament, people[1], people[2])
    assert again.status == RegistrationStatus.ENTERED


def test_a_player_already_in_the_directors_entries_cannot_enter_online(people):
    tournament = event()
    registration.register_entry(tournament, people[:2])
    with pytest.raises(TournamentError, match="already playing"):
        enter_pair(tournament, people[1], people[2])


def test_the_database_refuses_a_member_in_two_live_registrations(people):
    tournament = event()
    entry = enter_pair(tournament, people[0], people[1])
    other = Registration.objects.create(tournament=tournament, queued_at=NOW)
    with pytest.raises(IntegrityError), transaction.atomic():
        RegistrationPlayer.objects.create(
            registration=other, tournament=tournament, member=people[0], seat=1
        )
    assert entry.players.count() == 2


def test_a_member_enters_only_an_entry_they_are_in(people):
    tournament = event()
    with pytest.raises(TournamentError, match="not other players"):
        online_entry.enter(tournament, people[1:3], user=people[0].user, now=NOW)
    nobody = User.objects.create_user("nobody", password="pass-1234-word")
    with pytest.raises(TournamentError, match="not linked to a club member"):
        online_entry.enter(tournament, people[1:3], user=nobody, now=NOW)


def test_guests_are_entered_by_the_director_only(people, director):
    tournament = event()
    guest = member(90, guest=True)
    with pytest.raises(TournamentError, match="is a guest"):
        enter_pair(tournament, people[0], guest)
    entry = online_entry.enter(
        tournament, [people[0], guest], user=director, by_director=True, now=NOW
    )
    assert entry.status == RegistrationStatus.ENTERED


def test_cancelling_someone_elses_entry_is_not_allowed(people):
    tournament = event()
    entry = enter_pair(tournament, people[0], people[1])
    with pytest.raises(NotAllowed):
        online_entry.cancel(entry, user=people[2].user, now=NOW)
    entry.refresh_from_db()
    assert entry.status == RegistrationStatus.ENTERED


def test_a_cancelled_entry_cannot_be_cancelled_twice(people):
    tournament = event()
    entry = enter_pair(tournament, people[0], people[1])
    online_entry.cancel(entry, user=people[0].user, now=NOW)
    with pytest.raises(TournamentError, match="already cancelled"):
        online_entry.cancel(entry, user=people[1].user, now=NOW)


def test_teams_need_a_name_and_four_to_six_players(people):
    tournament = event(kind=EventType.TEAMS, max_tables=1)
    with pytest.raises(TournamentError, match="Give the team a name"):
        online_entry.enter(tournament, people[:4], user=people[0].user, now=NOW)
    with pytest.raises(TournamentError, match="4 to 6 players"):
        online_entry.enter(tournament, people[:3], user=people[0].user, name="Ases", now=NOW)
    team = online_entry.enter(tournament, people[:5], user=people[0].user, name="Ases", now=NOW)
    assert team.name == "Ases" and team.players.get(seat=1).member == people[0]
    second = online_entry.enter(tournament, people[5:9], user=people[5].user, name="Reyes", now=NOW)
    assert second.status == RegistrationStatus.WAITING  # one table: one team


def test_partner_wanted_list(people):
    tournament = event()
    request = online_entry.ask_for_partner(tournament, user=people[0].user, note=" 2/1 ", now=NOW)
    assert request.note == "2/1"
    assert list(online_entry.open_partner_requests(tournament)) == [request]
    with pytest.raises(TournamentError, match="already on the list"):
        online_entry.ask_for_partner(tournament, user=people[0].user, now=NOW)
    with pytest.raises(NotAllowed):
        online_entry.withdraw_partner_request(request, user=people[1].user)
    enter_pair(tournament, people[1], people[0])  # found one: off the list
    assert not PartnerRequest.objects.get(pk=request.pk).open
    with pytest.raises(TournamentError, match="already entered"):
        online_entry.ask_for_partner(tournament, user=people[1].user, now=NOW)


def test_the_director_takes_the_placed_entries_into_the_session(people):
    tournament = event(max_tables=2)
    placed = [
        enter_pair(tournament, people[i], people[i + 1], now=NOW + datetime.timedelta(i))
        for i in range(0, 10, 2)
    ]
    entries, section = online_entry.take_into_session(tournament)
    assert [e.display_name for e in entries] == [r.display_name for r in placed[:4]]
    assert section.letter == "A" and section.session.number == 1
    assert Entry.objects.filter(tournament=tournament).count() == 4  # not the waiting pair
    assert [r.entry for r in online_entry.placed(tournament)] == entries
    # taken once: again takes nobody, and a taken entry is withdrawn, not cancelled
    assert online_entry.take_into_session(tournament)[0] == []
    with pytest.raises(TournamentError, match="already in the session"):
        online_entry.cancel(placed[0], user=people[0].user, now=NOW)


def test_taking_the_entries_is_all_or_nothing(people):
    tournament = event()
    enter_pair(tournament, people[0], people[1])
    enter_pair(tournament, people[2], people[3])
    registration.register_entry(tournament, [people[3], people[9]])  # a walk-in with a player of it
    with pytest.raises(TournamentError, match="Nombre03 Apellido03"):
        online_entry.take_into_session(tournament)
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert not Registration.objects.filter(entry__isnull=False).exists()


# --- the waiting list under any sequence of entries and cancellations ----------------------

actions = st.lists(
    st.tuples(st.sampled_from(["enter", "cancel"]), st.integers(min_value=0, max_value=7)),
    max_size=30,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=actions, tables=st.integers(min_value=1, max_value=2))
def test_places_never_exceed_the_tables_and_go_first_come_first_served(people, steps, tables):
    """Whatever members do, the placed entries are the oldest live ones, never more than
    the places, and an entry waits only while every place is taken."""
    with transaction.atomic():
        tournament = event(max_tables=tables)
        limit = 2 * tables
        pairs = [(people[2 * i], people[2 * i + 1]) for i in range(8)]
        for n, (action, i) in enumerate(steps):
            now = NOW + datetime.timedelta(minutes=n)
            mine = online_entry.registration_of(tournament, pairs[i][0])
            if action == "enter" and mine is None:
                enter_pair(tournament, *pairs[i], now=now)
            elif action == "cancel" and mine is not None:
                online_entry.cancel(mine, user=pairs[i][1].user, now=now)
            live = list(online_entry.live_registrations(tournament))
            placed = [r for r in live if r.status == RegistrationStatus.ENTERED]
            assert len(placed) <= limit
            assert placed == live[:limit]
            assert all(r.status == RegistrationStatus.WAITING for r in live[limit:])
        transaction.set_rollback(True)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_pairs_taking_the_last_place_at_once_get_one_place_and_one_wait():
    """The tournament row lock: both read "one place free", only one may take it."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    people = [member(i) for i in range(6)]
    for attempt in range(3):
        tournament = event(max_tables=1)
        enter_pair(tournament, people[0], people[1])
        barrier = threading.Barrier(2)
        statuses, errors = [], []

        def take(a, b, tournament=tournament, barrier=barrier, statuses=statuses, errors=errors):
            try:
                barrier.wait()
                with translation.override("en"):
                    statuses.append(enter_pair(tournament, a, b).status)
            except Exception as exc:  # noqa: BLE001 - reported by the assertion below
                errors.append(exc)
            finally:
                connection.close()

        threads = [
            thread_in_scope(take, args=pair)
            for pair in ((people[2], people[3]), (people[4], people[5]))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert sorted(statuses) == ["entered", "waiting"], attempt
        assert online_entry.places(tournament) == online_entry.Places(2, 2, 1)
        Registration.objects.all().delete()

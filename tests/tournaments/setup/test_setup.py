"""Setting up events: seating a Mitchell and a Howell with a sit-out, late pairs, withdrawals."""

import datetime

import pytest

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Board,
    EntryStatus,
    Seating,
    SessionStatus,
    TableCode,
)
from tournaments.scoring import board_conditions
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

pytestmark = pytest.mark.django_db


def test_seven_table_mitchell_from_registered_pairs(mitchell_session):
    section = mitchell_session
    seats = list(Seating.objects.filter(section=section).order_by("entry_id"))
    # Entries in registration order: the first seven are NS 1..7, the next EW 1..7.
    assert [(s.number, s.direction) for s in seats] == (
        [(n, "NS") for n in range(1, 8)] + [(n, "EW") for n in range(1, 8)]
    )
    assert len({s.entry_id for s in seats}) == 14
    section.session.refresh_from_db()
    assert section.tables == 7 and section.session.rounds == 7
    assert section.session.boards_per_round == 2
    boards = list(Board.objects.filter(session=section.session).order_by("number"))
    assert [b.number for b in boards] == list(range(1, 15))
    for b in boards:
        assert (b.dealer, b.vulnerability or None) == board_conditions(b.number)
    codes = list(TableCode.objects.filter(section=section, active=True))
    assert sorted(c.table for c in codes) == list(range(1, 8))
    assert all(
        len(c.code) == setup.CODE_LENGTH and set(c.code) <= set(setup.CODE_ALPHABET) for c in codes
    )
    assert len({c.token for c in codes}) == 7 and all(len(c.token) >= 22 for c in codes)
    assert section.session.status == SessionStatus.RUNNING


def test_howell_with_a_sitout_leaves_the_phantom_unseated(howell_session):
    section = howell_session
    numbers = sorted(Seating.objects.filter(section=section).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5, 6, 7]
    assert registration.free_places(section) == [(8, "")]
    sitting_out = [s for s in plan.slots(section.movement) if 8 in (s.ns, s.ew)]
    assert sorted(s.ew for s in sitting_out) == [1, 2, 3, 4, 5, 6, 7]


def test_too_many_pairs_for_the_movement_are_refused(members, movements, pairs):
    tournament = setup.create_tournament(name="Lleno", date=datetime.date(2025, 1, 2))
    section = setup.add_section(tournament.sessions.get())
    with pytest.raises(TournamentError):
        setup.seat_section(section, movements.howell(), pairs(tournament, members, 9))


def test_a_player_cannot_be_in_two_entries(members):
    tournament = setup.create_tournament(name="Doble", date=datetime.date(2025, 1, 2))
    registration.register_entry(tournament, members[:2])
    with pytest.raises(TournamentError):
        registration.register_entry(tournament, [members[1], members[2]])


def test_mixed_pairs_put_the_man_south_or_east(members):
    tournament = setup.create_tournament(name="Mixto", date=datetime.date(2025, 1, 2), mixed=True)
    man = next(m for m in members if m.gender == "M")
    woman = next(m for m in members if m.gender == "F")
    entry = registration.register_entry(tournament, [man, woman])
    order = list(entry.entry_players.order_by("seat").values_list("member_id", flat=True))
    assert order == [woman.pk, man.pk]


def test_late_pair_takes_the_sitout_place(members, director, movements, pairs):
    tournament = setup.create_tournament(name="Tarde", date=datetime.date(2025, 1, 2))
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(section, movements.howell(), pairs(tournament, members, 7))
    late = registration.register_entry(tournament, members[20:22], late=True)
    seating = registration.add_late_entry(section, late, user=director)
    assert (seating.number, seating.direction) == (8, "")
    assert registration.free_places(section) == []
    assert AuditEntry.objects.filter(action=AuditAction.LATE, user=director).count() == 1
    another = registration.register_entry(tournament, members[22:24])
    with pytest.raises(TournamentError):
        registration.add_late_entry(section, another, user=director)


def test_withdrawal_and_substitute_are_logged(mitchell_session, members, director):
    entry = Seating.objects.get(section=mitchell_session, number=3, direction="NS").entry
    leaving = entry.entry_players.order_by("seat").first().member
    joining = members[40]
    registration.substitute_player(
        entry, leaving=leaving, joining=joining, user=director, reason="Indisposición"
    )
    entry.refresh_from_db()
    assert joining.full_name in entry.display_name and leaving.full_name not in entry.display_name
    registration.withdraw_entry(entry, user=director, reason="Se marchan")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {AuditAction.SUBSTITUTE, AuditAction.WITHDRAWN} <= actions
    with pytest.raises(TournamentError):
        registration.withdraw_entry(entry, user=director, reason=" ")


def test_rounds_change_before_start_only(members, director, movements, pairs):
    tournament = setup.create_tournament(name="Cambio", date=datetime.date(2025, 1, 2))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = pairs(tournament, members, 14)
    setup.seat_section(section, movements.mitchell(7, 7, 2), entries)
    setup.change_movement(
        section, movements.mitchell(7, 6, 3), user=director, reason="Falta tiempo"
    )
    session.refresh_from_db()
    assert (session.rounds, session.boards_per_round) == (6, 3)
    ns1 = Seating.objects.get(section=section, number=1, direction="NS").entry_id
    assert ns1 == entries[0].pk
    assert AuditEntry.objects.filter(action=AuditAction.MOVEMENT).count() == 1
    setup.start_session(session)
    with pytest.raises(TournamentError):
        setup.change_movement(section, movements.mitchell(7, 5, 3), user=director)


def test_board_conditions_override(mitchell_session):
    board = Board.objects.get(session=mitchell_session.session, number=1)
    setup.override_board_conditions(board, dealer="S", vulnerability="All")
    board.refresh_from_db()
    assert (board.dealer, board.vulnerability, board.conditions_overridden) == ("S", "All", True)

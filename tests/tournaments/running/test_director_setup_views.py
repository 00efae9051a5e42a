"""The director's set-up pages on events each test makes: the list of tournaments, forms
that keep what was typed, live search and entries, the movement advice, seating and the
start of a session, all through the services.

Apart from test_director_views.py, whose tests share one running Mitchell built once for
the module: these count and list the tournaments and entries they make themselves."""

import datetime

import pytest
from django.urls import reverse

from clubsite.models import Member
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Seating,
    SessionStatus,
    TableCode,
    Tournament,
)
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import movements as section_movements
from tournaments.services.setup import plan
from tournaments.services.table import entry as entry_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft_section(members, pairs):
    """A tournament with 14 registered pairs and one empty section."""
    tournament = setup.create_tournament(name="Lunes", date=datetime.date(2025, 3, 3))
    pairs(tournament, members, 14)
    return setup.add_section(tournament.sessions.get())


def test_index_lists_newest_first(director_client, db):
    setup.create_tournament(name="Viejo", date=datetime.date(2024, 1, 1))
    setup.create_tournament(name="Nuevo", date=datetime.date(2025, 1, 1))
    html = director_client.get(reverse("director:index")).content.decode()
    assert html.index("Nuevo") < html.index("Viejo")
    assert reverse("director:tournament_create") in html


def test_tournament_form_keeps_input_on_error_then_creates(director_client):
    data = {
        "name": "",
        "date": "2025-05-06",
        "venue": "Sala Azul",
        "event_type": "pairs",
        "scoring_method": "butler",
        "session_count": "2",
        "mixed": "on",
        "correction_minutes": "45",
        "public_results": "on",
    }
    response = director_client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Sala Azul"' in html and 'value="45"' in html
    assert '<option value="butler" selected>' in html
    assert Tournament.objects.count() == 0
    data["name"] = "Copa de primavera"
    response = director_client.post(reverse("director:tournament_create"), data)
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("director:tournament", args=[tournament.pk])
    assert tournament.sessions.count() == 2 and tournament.mixed
    assert tournament.scoring_method == "butler" and tournament.correction_minutes == 45
    assert not tournament.show_traveller  # unticked boxes are off


def test_editing_the_session_count_adds_and_drops_empty_sessions(director_client):
    tournament = setup.create_tournament(name="Liga", date=datetime.date(2025, 5, 6))
    url = reverse("director:tournament_edit", args=[tournament.pk])
    data = {
        "name": "Liga",
        "date": "2025-05-06",
        "event_type": "pairs",
        "scoring_method": "matchpoints",
        "session_count": "3",
        "correction_minutes": "30",
    }
    director_client.post(url, data)
    assert list(tournament.sessions.values_list("number", flat=True)) == [1, 2, 3]
    data["session_count"] = "1"
    director_client.post(url, data)
    assert list(tournament.sessions.values_list("number", flat=True)) == [1]


def test_live_search_is_accent_insensitive_and_marks_players_taken(director_client, members):
    tournament = setup.create_tournament(name="Búsqueda", date=datetime.date(2025, 1, 2))
    pena = Member.objects.create(first_name="Inés", last_name="Peña", licence_number="X-1")
    registration.register_entry(tournament, [pena, members[0]])
    url = reverse("director:member_search", args=[tournament.pk])
    html = director_client.get(
        url, {"q2": "ines pena", "slot": "2"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'name="player2"' in html and f'value="{pena.pk}"' in html
    assert "disabled" in html  # already playing
    html = director_client.get(url, {"q1": "X-1", "slot": "1"}).content.decode()
    assert "Peña" in html


def test_entry_form_keeps_the_chosen_player_and_adds_a_guest_on_the_spot(director_client, members):
    tournament = setup.create_tournament(name="Invitados", date=datetime.date(2025, 1, 2))
    url = reverse("director:entries", args=[tournament.pk])
    first = members[3]
    # Only one player chosen: refused, the choice and the search text stay.
    response = director_client.post(
        url, {"player1": first.pk, "q1": "Apellido03", "q2": "zzz", "action": "register"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'value="{first.pk}" checked' in html and 'value="Apellido03"' in html
    assert 'value="zzz"' in html
    assert not Entry.objects.exists()
    # A guest for the second seat, added without losing the first player.
    response = director_client.post(
        url,
        {
            "player1": first.pk,
            "q1": "Apellido03",
            "action": "guest2",
            "guest2-first_name": "Rocío",
            "guest2-last_name": "Quintana",
            "guest2-home_club": "Alicante",
        },
    )
    guest = Member.objects.get(last_name="Quintana")
    assert guest.is_guest
    html = response.content.decode()
    assert f'value="{first.pk}" checked' in html and f'value="{guest.pk}" checked' in html
    response = director_client.post(
        url, {"player1": first.pk, "player2": guest.pk, "action": "register"}
    )
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert set(entry.players.all()) == {first, guest}


def test_guest_without_a_name_is_refused_and_the_form_is_kept(director_client, members):
    tournament = setup.create_tournament(name="Sin nombre", date=datetime.date(2025, 1, 2))
    url = reverse("director:entries", args=[tournament.pk])
    response = director_client.post(
        url, {"player1": members[0].pk, "action": "guest2", "guest2-first_name": "Solo"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Solo"' in html and f'value="{members[0].pk}" checked' in html
    assert not Member.objects.filter(first_name="Solo").exists()


def test_plan_reads_the_cores_mitchell_contestants(draft_section):
    """The core names Mitchell pairs "3NS"/"3EW"; the stored movement must seat and resolve."""
    movement = section_movements.build_movement(
        "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
    )
    assert movement["rounds"][0]["tables"][0]["ns"] == "1NS"
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(draft_section, movement, entries)
    assert plan.pair_numbers(movement)[:2] == [(1, "NS"), (2, "NS")]
    slot = plan.slot_for(movement, 2, 1)
    assert (slot.ns, slot.ew) == (1, 7)
    setup.start_session(draft_section.session)
    line = entry_service.resolve_line(draft_section, 2, 1, slot.boards[0])
    assert line.ns == entries[0] and line.ew == entries[13]


def test_advice_is_shown_ranked_and_a_mitchell_is_picked(director_client, draft_section):
    url = reverse("director:movement", args=[draft_section.pk])
    html = director_client.get(url).content.decode()
    assert html.count('class="secondary pick-suggestion"') >= 3
    from tournaments.movements import advise

    advice = advise(14)[:12]
    index = next(
        i for i, s in enumerate(advice) if s.kind == "mitchell" and s.rounds == 7 and s.tables == 7
    )
    assert 'data-kind="mitchell" data-tables="7" data-rounds="7"' in html
    response = director_client.post(
        url,
        {
            "suggestion": index,
            "entries": [
                e.pk for e in Entry.objects.filter(tournament=draft_section.session.tournament)
            ],
        },
    )
    assert response.status_code == 302
    draft_section.refresh_from_db()
    assert draft_section.tables == 7
    assert Seating.objects.filter(section=draft_section).count() == 14
    assert TableCode.objects.filter(section=draft_section, active=True).count() == 7


def test_two_pools_from_the_advice_seat_two_sections_on_one_pool(director_client, members, pairs):
    """24 pairs: the advice's "two sections on the same boards" seats sections A and B of 6
    tables each, pairs alternating, both drawing on one pool of boards."""
    tournament = setup.create_tournament(name="Pools", date=datetime.date(2025, 3, 3))
    entries = pairs(tournament, members, 24)
    section = setup.add_section(tournament.sessions.get())
    url = reverse("director:movement", args=[section.pk])
    html = director_client.get(url).content.decode()
    index, suggestion, description, pickable = next(
        row
        for row in director_client.get(url).context["suggestions"]
        if row[1].kind == "mitchell_pools"
    )
    assert pickable and "Dos secciones de 6 mesas" in description and description in html
    response = director_client.post(url, {"suggestion": index, "entries": [e.pk for e in entries]})
    assert response.status_code == 302
    a, b = tournament.sessions.get().sections.order_by("letter")
    assert (a.letter, b.letter, a.pool, b.pool) == ("A", "B", "A", "A")
    assert a.tables == b.tables == 6
    assert {s.entry_id for s in Seating.objects.filter(section=a)} == {e.pk for e in entries[0::2]}
    assert {s.entry_id for s in Seating.objects.filter(section=b)} == {e.pk for e in entries[1::2]}
    boards_a = plan.plays_per_board(a.movement)
    assert boards_a == plan.plays_per_board(b.movement)
    assert len(boards_a) == 6 * suggestion.boards_per_round  # six board sets in play
    assert TableCode.objects.filter(session=a.session, active=True).count() == 12


def test_only_the_pairs_present_are_advised_for(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    url = reverse("director:movement", args=[draft_section.pk])
    response = director_client.get(url, {"picked": "1", "entries": [e.pk for e in entries[:13]]})
    assert "13" in response.content.decode()
    assert response.context["count"] == 13


def test_manual_howell_and_bad_manual_input_kept(director_client, draft_section):
    url = reverse("director:movement", args=[draft_section.pk])
    entries = [e.pk for e in Entry.objects.filter(tournament=draft_section.session.tournament)]
    response = director_client.post(
        url,
        {
            "action": "manual",
            "kind": "mitchell",
            "tables": "2",
            "rounds": "9",
            "boards_per_round": "3",
            "entries": entries,
        },
    )
    assert response.status_code == 400
    assert 'value="9"' in response.content.decode()
    assert not Seating.objects.exists()
    response = director_client.post(
        url,
        {
            "action": "manual",
            "kind": "howell",
            "tables": "7",
            "rounds": "13",
            "boards_per_round": "2",
            "entries": entries,
        },
    )
    assert response.status_code == 302
    draft_section.refresh_from_db()
    assert draft_section.movement["kind"] == "howell"
    assert plan.round_count(draft_section.movement) == 13


def test_change_rounds_before_start_and_hand_seating(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(
        draft_section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    director_client.post(
        reverse("director:change_rounds", args=[draft_section.pk]),
        {"rounds": "5", "reason": "Vamos tarde"},
    )
    draft_section.refresh_from_db()
    assert plan.round_count(draft_section.movement) == 5
    assert AuditEntry.objects.filter(action=AuditAction.MOVEMENT, reason="Vamos tarde").exists()
    # Swap the first NS pair with the first EW pair by hand.
    seats = {
        (s.number, s.direction): s.entry_id for s in Seating.objects.filter(section=draft_section)
    }
    data = {f"place-{entry}": f"{n}:{line}" for (n, line), entry in seats.items()}
    data[f"place-{seats[(1, 'NS')]}"] = "1:EW"
    data[f"place-{seats[(1, 'EW')]}"] = "1:NS"
    director_client.post(reverse("director:seating", args=[draft_section.pk]), data)
    assert (
        Seating.objects.get(section=draft_section, number=1, direction="NS").entry_id
        == seats[(1, "EW")]
    )
    # Two pairs on one place: refused, nothing changes.
    data[f"place-{seats[(2, 'NS')]}"] = "1:NS"
    director_client.post(reverse("director:seating", args=[draft_section.pk]), data)
    assert Seating.objects.filter(section=draft_section).count() == 14


def test_late_pair_takes_the_free_place(director_client, members, pairs):
    tournament = setup.create_tournament(name="Tarde", date=datetime.date(2025, 1, 2))
    entries = pairs(tournament, members, 13)
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(
        section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    late = registration.register_entry(tournament, members[40:42])
    response = director_client.post(
        reverse("director:late_entry", args=[section.pk]), {"entry": late.pk, "place": ""}
    )
    assert response.status_code == 302
    assert Seating.objects.get(entry=late).label == "7EW"
    late.refresh_from_db()
    assert late.late


def test_start_session(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(
        draft_section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    response = director_client.post(
        reverse("director:session_start", args=[draft_section.session_id])
    )
    assert response["Location"] == reverse("director:console", args=[draft_section.session_id])
    draft_section.session.refresh_from_db()
    assert draft_section.session.status == SessionStatus.RUNNING

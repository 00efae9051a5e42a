"""Individual events over HTTP: the director's set-up, the table screens, the director's lines.

A running individual of sixteen players is built once for the module (tests/module_rows.py),
each test in a savepoint of it; the tests that seat or play their own individual are in
test_individual_set_up.py, the public pages of a played one in test_individual_results.py."""

import datetime
import uuid

import pytest
from django.urls import reverse

from tests.module_rows import module_rows
from tests.tournaments.conftest import make_members
from tournaments.models import EventType, Result, Seating, Section, SessionStatus, TableCode
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual, plan

pytestmark = pytest.mark.django_db


def individual_event(members, players=16):
    tournament = setup.create_tournament(
        name="Individual de otoño", date=datetime.date(2025, 10, 7), event_type=EventType.INDIVIDUAL
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [registration.register_entry(tournament, [m]) for m in members[:players]]
    return section, entries


def build_running(members):
    """An individual of sixteen players on the course movement, started."""
    section, entries = individual_event(members)
    setup.seat_section(section, individual.build_movement(16), entries)
    setup.start_session(section.session)
    return section


@pytest.fixture(scope="module")
def _running_rows(django_db_setup, django_db_blocker):
    """``members`` and the running individual seated on them, built once for the module."""
    with module_rows(django_db_blocker):
        yield build_running(make_members()).pk


@pytest.fixture
def running(_running_rows, db):
    """The module's running individual, read afresh."""
    return Section.objects.get(pk=_running_rows)


def sign_in(client, section, table):
    code = TableCode.objects.get(section=section, table=table, active=True)
    assert (
        client.post(reverse("table:index"), {"table": code.label, "code": code.code}).status_code
        == 302
    )
    return client


def result_data(round_, board, **fields):
    data = {
        "round": round_,
        "board": board,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": uuid.uuid4().hex,
    }
    data.update(fields)
    return data


# --- the director ---------------------------------------------------------------------------


def test_table_cards_show_four_seats_a_round(director_client, running):
    response = director_client.get(reverse("director:print_tables", args=[running.pk]))
    assert response.status_code == 302
    cards = director_client.get(response["Location"])
    html = cards.content.decode()
    assert cards.status_code == 200 and html.count('class="print-card table-card') == 4
    assert html.count('data-seat="W"') == 4 * 15
    first = cards.context["cards"][1].lines[0]
    assert [s.number for s in first.seats] == [5, 6, 7, 8]
    assert str(first.seats[3].entry) in html


def test_the_rounds_form_cannot_turn_an_individual_into_a_howell(director_client, running):
    running.session.status = SessionStatus.DRAFT
    running.session.save()
    before = running.movement
    response = director_client.post(
        reverse("director:change_rounds", args=[running.pk]), {"rounds": 7, "reason": "short"}
    )
    assert response.status_code == 302
    running.refresh_from_db()
    assert running.movement == before


def test_players_cannot_use_the_individual_set_up(player_client, running):
    for name in ("director:individual_movement", "director:individual_tables"):
        assert player_client.get(reverse(name, args=[running.pk])).status_code == 403


# --- the table --------------------------------------------------------------------------------


def test_the_table_shows_four_names_with_their_seats(client, running):
    sign_in(client, running, 2)
    home = client.get(reverse("table:home"))
    html = home.content.decode()
    seats = home.context["tr"].seats
    assert [(s.seat, s.number) for s in seats] == [("N", 5), ("S", 6), ("E", 7), ("W", 8)]
    for s in seats:
        assert f'data-seat="{s.seat}"' in html and str(s.entry) in html
    board = home.context["boards"][0]["board"].number
    page = client.get(reverse("table:board", args=[1, board]))
    assert page.status_code == 200
    assert 'id="seat-names"' in page.content.decode()
    assert str(seats[3].entry) in page.content.decode()


def test_a_table_device_cannot_write_another_table_s_boards(client, running):
    sign_in(client, running, 1)
    other = plan.slot_for(running.movement, 1, 2).boards[0]
    response = client.post(
        reverse("table:result"), result_data(1, other), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403
    assert not Result.objects.exists()
    own = plan.slot_for(running.movement, 1, 1).boards[0]
    created = client.post(
        reverse("table:result"), result_data(1, own), HTTP_ACCEPT="application/json"
    )
    assert created.status_code == 201
    row = Result.objects.get()
    numbers = dict(Seating.objects.filter(section=running).values_list("entry_id", "number"))
    assert [numbers[e] for e in (row.ns_id, row.south_id, row.ew_id, row.west_id)] == [1, 2, 3, 4]


def test_moves_tell_each_player_their_next_table_and_seat(client, running):
    sign_in(client, running, 1)
    slot = plan.slot_for(running.movement, 1, 1)
    for board in slot.boards:
        client.post(reverse("table:result"), result_data(1, board), HTTP_ACCEPT="application/json")
    home = client.get(reverse("table:home") + "?round=1")
    assert home.context["tr"].complete
    # round 2 at table 1 is 1 3 4 2 (C03 l.331): North stays, South (2) goes West
    moves = [(m.seat, m.number, m.table, m.new_seat) for m in home.context["tr"].moves]
    assert moves == [("N", 1, 1, "N"), ("S", 2, 1, "W"), ("E", 3, 1, "S"), ("W", 4, 1, "E")]
    html = home.content.decode()
    assert html.count('class="move"') == 4 and 'id="next-round"' in html


def test_the_director_enters_corrects_and_adjusts_an_individual_line(director_client, running):
    slot = plan.slot_for(running.movement, 1, 3)
    board = slot.boards[0]
    url = reverse("director:line", args=[running.pk, 1, 3, board])
    page = director_client.get(url)
    assert page.status_code == 200 and page.context["line"].west is not None
    assert page.content.decode().count('class="individual-line"') == 2
    director_client.post(
        url, {"action": "result", "contract": "3NT", "declarer": "S", "result": "+1"}
    )
    row = Result.objects.get(section=running, round=1, table=3, board__number=board)
    numbers = dict(Seating.objects.filter(section=running).values_list("entry_id", "number"))
    assert [numbers[e] for e in (row.ns_id, row.south_id, row.ew_id, row.west_id)] == list(
        slot.players
    )
    response = director_client.post(
        url,
        {
            "action": "result",
            "contract": "3NT",
            "declarer": "S",
            "result": "=",
            "reason": "Error al teclear",
        },
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.tricks == 9
    response = director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "artificial",
            "preset": "60/40",
            "reason": "Información no autorizada",
            "law": "12C1",
        },
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.adjustment == {"kind": "artificial", "ns": 60, "ew": 40}
    assert Result.objects.filter(section=running).count() == 1


def test_board_lists_name_both_players_of_each_side(director_client, running):
    response = director_client.get(reverse("director:print_boards", args=[running.pk]))
    assert response.status_code == 200
    first = response.context["lists"][0]
    assert first.number == 1 and len(first.plays) == 4  # four tables play every board
    assert (first.plays[0].ns.label, first.plays[0].ew.label) == ("1–2", "3–4")


def test_player_cards_from_the_set_up_page(director_client, running):
    page = director_client.get(reverse("director:individual_movement", args=[running.pk]))
    url = reverse("director:individual_players", args=[running.pk])
    assert page.status_code == 200 and f'href="{url}"' in page.content.decode()
    response = director_client.get(url)
    html = response.content.decode()
    assert response.status_code == 200 and html.count('class="print-card player-card') == 16
    assert html.count('class="partner"') == 16 * 15
    card = response.context["cards"][5]  # player 6: South at table 2 in round 1 (C03 l.330)
    assert (card.number, card.lines[0].table, card.lines[0].seat) == (6, 2, "S")
    assert card.lines[0].partner.number == 5
    assert [o.number for o in card.lines[0].opponents] == [7, 8]
    assert str(card.entry) in html and str(card.lines[0].partner.entry) in html
    # the pairs' card address sends an individual to its players' cards
    pairs = director_client.get(reverse("director:print_pairs", args=[running.pk]))
    assert pairs.status_code == 302 and pairs["Location"] == url


def test_players_cannot_print_the_player_cards(player_client, running):
    url = reverse("director:individual_players", args=[running.pk])
    assert player_client.get(url).status_code == 403


def test_the_set_up_pdf_has_a_movement_card_per_player(running):
    from tournaments import documents, pdf
    from tournaments.models.uploads import PdfKind

    html, _version = documents.render_html(running.session.tournament, PdfKind.SETUP, "en")
    assert html.count('class="card player-card"') == 16
    cards = pdf.setup_context(running.session.tournament)["sessions"][0]["sections"][0]
    assert cards["individual"] and len(cards["table_cards"]) == 4
    seven = cards["player_cards"][6]  # player 7: East at table 2 in round 1 (C03 l.330)
    assert (seven.lines[0].table, seven.lines[0].seat, seven.lines[0].partner.number) == (2, "E", 8)

"""Individual events over HTTP: the director's set-up, the table screens, the public pages."""

import datetime
import random
import uuid

import pytest
from django.urls import reverse

from tournaments.demo import play_rounds
from tournaments.models import (
    EventType,
    RankingScope,
    Result,
    ScoringMethod,
    Seating,
    SessionStatus,
    StoredMark,
    StoredRanking,
    TableCode,
)
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual, plan
from tournaments.tables import IndividualImpRankingTable, IndividualRankingTable

pytestmark = pytest.mark.django_db


def individual_event(members, players=16):
    tournament = setup.create_tournament(
        name="Individual de otoño", date=datetime.date(2025, 10, 7), event_type=EventType.INDIVIDUAL
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [registration.register_entry(tournament, [m]) for m in members[:players]]
    return section, entries


@pytest.fixture
def running(members):
    section, entries = individual_event(members)
    setup.seat_section(section, individual.build_movement(16), entries)
    setup.start_session(section.session)
    return section


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


def test_the_pairs_movement_page_sends_an_individual_to_its_own(director_client, members):
    section, _entries = individual_event(members)
    response = director_client.get(reverse("director:movement", args=[section.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("director:individual_movement", args=[section.pk])


def test_director_seats_sixteen_players_in_the_course_movement(director_client, members):
    section, entries = individual_event(members)
    url = reverse("director:individual_movement", args=[section.pk])
    page = director_client.get(url)
    assert page.status_code == 200
    assert page.context["count"] == 16 and page.context["form"].initial["players"] == 16
    response = director_client.post(
        url, {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("director:seating", args=[section.pk])
    numbers = dict(Seating.objects.filter(section=section).values_list("entry_id", "number"))
    assert [numbers[e.pk] for e in entries] == list(range(1, 17))
    section.refresh_from_db()
    assert plan.is_individual(section.movement) and plan.round_count(section.movement) == 15
    session_page = director_client.get(reverse("director:session", args=[section.session_id]))
    html = session_page.content.decode()
    assert (
        session_page.context["cards"][0]["individual"]
        and reverse("director:print_pairs", args=[section.pk]) not in html
    )


def test_a_movement_for_another_number_of_players_is_refused_and_nothing_is_seated(
    director_client, members
):
    section, entries = individual_event(members, players=15)
    url = reverse("director:individual_movement", args=[section.pk])
    response = director_client.post(
        url, {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]}
    )
    assert response.status_code == 400
    assert "hay 15 presentes" in response.content.decode()  # Spanish, the club's language
    assert not Seating.objects.filter(section=section).exists()
    sixteen = director_client.post(
        url, {"players": 16, "boards_per_round": 3, "entries": [e.pk for e in entries]}
    )
    assert sixteen.status_code == 400 and sixteen.context["form"].errors["boards_per_round"]


def test_twelve_players_with_three_boards_a_round(director_client, members):
    section, entries = individual_event(members, players=12)
    response = director_client.post(
        reverse("director:individual_movement", args=[section.pk]),
        {"players": 12, "boards_per_round": 3, "entries": [e.pk for e in entries]},
    )
    assert response.status_code == 302
    section.refresh_from_db()
    assert (plan.round_count(section.movement), plan.boards_per_round(section.movement)) == (11, 3)


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


# --- the public pages -----------------------------------------------------------------------


@pytest.fixture
def published(running, director):
    play_rounds(running, random.Random(5))
    setup.finish_session(running.session)
    publish.publish_final(running.session.tournament, user=director)
    return running


def test_the_ranking_has_one_winner_and_a_player_column(client, published):
    tournament = published.session.tournament
    response = client.get(reverse("results:section", args=[tournament.slug, 1, "A"]))
    assert response.status_code == 200
    tables = response.context["tables"]
    assert len(tables) == 1
    html = response.content.decode()
    assert html.count("<tr data-entry=") == 16
    assert isinstance(tables[0]["table"], IndividualRankingTable)


def test_a_player_scorecard_names_partner_and_opponents(client, published):
    tournament = published.session.tournament
    first = Seating.objects.get(section=published, number=1)
    response = client.get(reverse("results:scorecard", args=[tournament.slug, 1, first.entry_id]))
    assert response.status_code == 200
    card = response.context["card"]
    assert card.individual and len(card.rows) == 30
    partners = {row["partner"]["number"] for row in card.rows}
    assert partners == set(range(2, 17))  # partners everyone once (two boards each)
    round_one = next(row for row in card.rows if row["round"] == 1)
    assert round_one["partner"]["number"] == 2
    assert [o["number"] for o in round_one["opponents"]] == [3, 4]
    html = response.content.decode()
    assert html.count('class="partner"') == 30 and html.count('class="opponents"') == 30


def test_the_traveller_shows_four_players_a_line(client, published):
    tournament = published.session.tournament
    response = client.get(reverse("results:board", args=[tournament.slug, 1, "A", 1]))
    assert response.status_code == 200
    rows = response.context["data"].rows
    assert len(rows) == 4 and all(len(row["players"]) == 4 for row in rows)
    html = response.content.decode()
    assert html.count('class="individual-side"') == 8


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


@pytest.mark.parametrize(
    ("method", "accepted"),
    [(ScoringMethod.BUTLER, True), (ScoringMethod.CROSS_IMPS, True), (ScoringMethod.IMPS, False)],
)
def test_an_individual_is_scored_in_matchpoints_or_pairs_imps(
    director_client, members, method, accepted
):
    section, entries = individual_event(members)
    tournament = section.session.tournament
    tournament.scoring_method = method
    tournament.save()
    response = director_client.post(
        reverse("director:individual_movement", args=[section.pk]),
        {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]},
    )
    assert response.status_code == (302 if accepted else 400)
    assert Seating.objects.filter(section=section).exists() == accepted
    if not accepted:
        assert response.context["form"].non_field_errors()


def test_a_butler_individual_ranks_and_scores_in_imps(client, members, director):
    section, entries = individual_event(members)
    tournament = section.session.tournament
    tournament.scoring_method = ScoringMethod.BUTLER
    tournament.save()
    setup.seat_section(section, individual.build_movement(16), entries)
    setup.start_session(section.session)
    play_rounds(section, random.Random(5))
    setup.finish_session(section.session)
    publish.publish_final(tournament, user=director)
    response = client.get(reverse("results:section", args=[tournament.slug, 1, "A"]))
    assert response.status_code == 200
    table = response.context["tables"][0]["table"]
    assert isinstance(table, IndividualImpRankingTable)
    assert response.content.decode().count("<tr data-entry=") == 16
    rows = StoredRanking.objects.filter(session=section.session, scope=RankingScope.SECTION)
    assert all(r.percentage is None for r in rows)
    first = Seating.objects.get(section=section, number=1)
    card = client.get(reverse("results:scorecard", args=[tournament.slug, 1, first.entry_id]))
    assert card.status_code == 200
    scorecard = card.context["card"]
    assert scorecard.imps and scorecard.individual and len(scorecard.rows) == 30
    mine = {
        m.board_number: m.mark
        for m in StoredMark.objects.filter(session=section.session, entry_id=first.entry_id)
    }
    assert {row["board"]: row["mark"] for row in scorecard.rows} == mine
    # the player's total in IMPs is the sum of the IMPs on their boards
    assert rows.get(entry_id=first.entry_id).points == sum(mine.values())


def test_single_players_register_as_members_or_guests(director_client, members):
    section, _entries = individual_event(members, players=0)
    tournament = section.session.tournament
    url = reverse("director:entries", args=[tournament.pk])
    page = director_client.get(url)
    assert len(page.context["slots"]) == 1  # one player per entry
    assert director_client.post(url, {"player1": members[0].pk}).status_code == 302
    added = director_client.post(
        url,
        {
            "action": "guest1",
            "guest1-first_name": "Rocío",
            "guest1-last_name": "Quintana",
            "guest1-home_club": "Alicante",
        },
    )
    guest = added.context["slots"][0]["chosen"]
    assert guest.is_guest and guest.full_name.startswith("Rocío")
    assert director_client.post(url, {"player1": guest.pk}).status_code == 302
    again = director_client.post(url, {"player1": members[0].pk})
    assert again.status_code == 400  # already playing
    names = [e.display_name for e in tournament.entries.order_by("id")]
    assert names == [members[0].full_name, guest.full_name]


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

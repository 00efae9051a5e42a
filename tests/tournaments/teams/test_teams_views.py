"""Teams events over HTTP: the director's pages, table devices in a match, public pages."""

import datetime
import uuid

import pytest
from django.urls import reverse

from tournaments.models import (
    Entry,
    EventType,
    Result,
    ScoringMethod,
    TableCode,
    TeamMatch,
    TournamentStatus,
)
from tournaments.services.entries import registration
from tournaments.services.errors import NotAllowed
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import team_events, team_schedule

pytestmark = pytest.mark.django_db


def teams_event(members, count=4, **settings):
    tournament = setup.create_tournament(
        name="Liga",
        date=datetime.date(2025, 6, 3),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(
        tournament, **({"format": "swiss", "boards_per_match": 2, "swiss_rounds": 3} | settings)
    )
    for i in range(count):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    return tournament


def sign_in(client, session, table):
    code = TableCode.objects.get(session=session, table=table, active=True)
    # the table card's QR link posts its token
    assert client.post(reverse("table:index"), {"token": code.token}).status_code == 302
    return client


def result_data(round_=1, board=1, **fields):
    return {
        "round": round_,
        "board": board,
        "level": "4",
        "strain": "S",
        "double": "",
        "declarer": "N",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": uuid.uuid4().hex,
    } | fields


def post_json(client, data):
    return client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")


# --- director -------------------------------------------------------------------------------


def test_director_registers_a_team_with_a_captain_and_an_optional_fifth(director_client, members):
    tournament = teams_event(members, 0)
    data = {"action": "register", "name": "Los Ases"}
    data |= {f"player{i}": members[i].pk for i in range(1, 6)}
    response = director_client.post(reverse("director:entries", args=[tournament.pk]), data)
    assert response.status_code == 302
    team = Entry.objects.get(tournament=tournament)
    assert team.name == "Los Ases"
    assert [p.member_id for p in team.entry_players.order_by("seat")] == [
        m.pk for m in members[1:6]
    ]
    page = director_client.get(reverse("director:entries", args=[tournament.pk])).content.decode()
    assert "Los Ases" in page and "badge-captain" in page
    # three players and no name: nothing registered, the form explains
    bad = {"action": "register", "name": ""} | {
        f"player{i}": members[10 + i].pk for i in range(1, 4)
    }
    response = director_client.post(reverse("director:entries", args=[tournament.pk]), bad)
    assert response.status_code == 400 and Entry.objects.count() == 1
    assert 'id="slot-4"' in response.content.decode()


def test_director_configures_starts_and_draws(director_client, members, director):
    tournament = teams_event(members, 4)
    url = reverse("director:teams", args=[tournament.pk])
    page = director_client.get(url)
    assert page.status_code == 200 and b"start-teams" in page.content
    bad = director_client.post(
        url,
        {
            "format": "swiss",
            "round_robin_method": "roman",
            "swiss_rounds": 3,
            "boards_per_match": 7,
            "vp_scale": "course25",
            "bye_vp": "12",
            "tie_breaks": "h2h,diff,quotient",
        },
    )
    assert bad.status_code == 400 and "25 PV" in bad.content.decode()
    assert team_schedule.team_event(tournament).vp_scale == "wbf20"
    ok = director_client.post(
        url,
        {
            "format": "swiss",
            "round_robin_method": "roman",
            "swiss_rounds": 2,
            "boards_per_match": 2,
            "vp_scale": "wbf20-discrete",
            "bye_vp": "12",
            "tie_breaks": "diff,quotient,h2h",
        },
    )
    assert ok.status_code == 302
    assert team_schedule.team_event(tournament).vp_scale == "wbf20-discrete"
    assert (
        director_client.post(reverse("director:teams_start", args=[tournament.pk])).status_code
        == 302
    )
    session = team_schedule.teams_session(tournament)
    assert session.is_running and TeamMatch.objects.filter(session=session).count() == 2
    page = director_client.get(url).content.decode()
    assert 'id="round-progress"' in page and "draw-force" in page
    # drawing before the round is complete is refused with a message
    director_client.post(reverse("director:teams_draw", args=[tournament.pk]))
    assert team_schedule.drawn_rounds(session) == 1
    section = session.sections.get()
    for m in TeamMatch.objects.filter(session=session):
        for table in (m.open_table, m.closed_table):
            for board in (1, 2):
                entry.submit_result(
                    user=director,
                    section=section,
                    table=table,
                    round=1,
                    board=board,
                    contract="3NT",
                    declarer="N",
                    tricks=9,
                    idempotency_key=uuid.uuid4().hex,
                )
    assert b'id="draw-next"' in director_client.get(url).content
    # the console, as for pairs, offers the draw once the round is complete
    console = reverse("director:console", args=[session.pk])
    assert b'id="console-draw"' in director_client.get(console).content
    director_client.post(reverse("director:teams_draw", args=[tournament.pk]))
    assert team_schedule.drawn_rounds(session) == 2
    page = director_client.get(console)
    assert page.status_code == 200 and b'id="console-draw"' not in page.content


def test_players_and_visitors_cannot_reach_the_teams_director_pages(client, player_client, members):
    tournament = teams_event(members, 4)
    for name in ("director:teams", "director:teams_start", "director:teams_draw"):
        url = reverse(name, args=[tournament.pk])
        assert player_client.post(url).status_code == 403
        assert player_client.get(url).status_code in (403, 405)
    client.logout()
    assert client.get(reverse("director:teams", args=[tournament.pk])).status_code == 302
    assert not team_schedule.drawn_rounds(team_schedule.teams_session(tournament))


# --- table devices --------------------------------------------------------------------------


def test_a_room_enters_its_own_boards_and_sees_the_comparison(client, members):
    tournament = teams_event(members, 4)
    session = team_events.start_teams(tournament)
    match = TeamMatch.objects.get(session=session, round=1, number=1)
    sign_in(client, session, 1)
    home = client.get(reverse("table:home"))
    html = home.content.decode()
    assert 'id="team-match-card"' in html and home.context["open_room"]
    assert home.context["team_match"] == match and not home.context["waiting_draw"]
    assert post_json(client, result_data(board=1)).status_code == 201
    stored = Result.objects.get()
    assert (stored.table, stored.ns_id, stored.ew_id) == (1, match.home_id, match.away_id)
    # another table's room: refused, nothing written
    other = TableCode.objects.get(session=session, table=2)
    response = client.post(
        reverse("table:result"), result_data(board=2), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 201  # its own board 2
    with pytest.raises(NotAllowed):
        entry.resolve_line(
            session.sections.get(),
            1,
            2,
            1,
            table_code=TableCode.objects.get(session=session, table=1),
        )
    assert Result.objects.filter(table=2).count() == 0
    # no comparison until the closed room has played board 1
    screen = client.get(reverse("table:match"))
    assert screen.status_code == 200 and screen.context["compared"] == 0
    # the saved/waiting badge has its words (Spanish, the club's language)
    assert '"all_saved": "Todos los resultados est' in screen.content.decode()
    entry.submit_result(
        table_code=other,
        round=1,
        board=1,
        contract="4S",
        declarer="E",
        tricks=10,
        idempotency_key="closed-1",
    )
    # both rooms have it, but match 2 is still playing board 1: no scores of other tables yet
    screen = client.get(reverse("table:match"))
    assert screen.context["compared"] == 0 and screen.context["in_play"]
    assert 'id="board-in-play"' in screen.content.decode()
    for table in (3, 4):
        entry.submit_result(
            table_code=TableCode.objects.get(session=session, table=table),
            round=1,
            board=1,
            contract="3NT",
            declarer="N",
            tricks=9,
            idempotency_key=f"match-2-{table}",
        )
    screen = client.get(reverse("table:match"))
    assert screen.context["compared"] == 1
    first = screen.context["boards"][0]
    # board 1 (nobody vulnerable): home +420 in the open room and +420 as EW in the closed
    assert (first["home_net"], first["home_imps"], first["away_imps"]) == (840, "13", "-13")


def test_a_device_cannot_post_for_another_tables_room(client, members):
    tournament = teams_event(members, 4)
    session = team_events.start_teams(tournament)
    sign_in(client, session, 3)
    assert post_json(client, result_data(round_=2, board=3)).status_code == 403
    assert post_json(client, result_data(board=9)).status_code == 403
    assert Result.objects.count() == 0


def test_a_swiss_table_waits_for_the_draw(client, members, director):
    tournament = teams_event(members, 4)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for m in TeamMatch.objects.filter(session=session):
        for table in (m.open_table, m.closed_table):
            for board in (1, 2):
                entry.submit_result(
                    user=director,
                    section=section,
                    table=table,
                    round=1,
                    board=board,
                    contract="3NT",
                    declarer="N",
                    tricks=9,
                    idempotency_key=uuid.uuid4().hex,
                )
    sign_in(client, session, 2)
    page = client.get(reverse("table:home"))
    assert page.context["waiting_draw"] and 'id="waiting-draw"' in page.content.decode()
    assert (page.context["tr"].round, page.context["tr"].rounds) == (1, 3)  # of the 3 planned
    assert 'http-equiv="refresh"' in page.content.decode()
    team_events.draw_next_round(tournament, user=director)
    # the refreshed page moves on to the new round by itself
    page = client.get(reverse("table:home"))
    assert not page.context["waiting_draw"] and page.context["tr"].round == 2
    assert [b["board"].number for b in page.context["boards"]] == [3, 4]
    page = client.get(reverse("table:home") + "?round=1")
    assert 'id="next-round"' in page.content.decode()


# --- public pages ---------------------------------------------------------------------------


def test_public_pages_show_standings_rounds_and_matches(client, members, director):
    tournament = teams_event(members, 4)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for m in TeamMatch.objects.filter(session=session):
        for board in (1, 2):
            entry.submit_result(
                user=director,
                section=section,
                table=m.open_table,
                round=1,
                board=board,
                contract="4S",
                declarer="N",
                tricks=10,
                idempotency_key=uuid.uuid4().hex,
            )
            entry.submit_result(
                user=director,
                section=section,
                table=m.closed_table,
                round=1,
                board=board,
                contract="3NT",
                declarer="N",
                tricks=9,
                idempotency_key=uuid.uuid4().hex,
            )
    slug = tournament.slug
    # running and not published: hidden from visitors
    assert client.get(reverse("results:teams", args=[slug])).status_code == 404
    publish.publish_provisional(tournament, user=director)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PROVISIONAL
    page = client.get(reverse("results:teams", args=[slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="standings"' in html and "Equipo 1" in html
    places = [r["place"] for r in page.context["table"].data]
    assert places[0] == 1 and len(places) == 4
    # board 1: +420 v +400 (None vul.) = 20 → 1 IMP; board 2 (NS vul.): +620 v +600 → 1 IMP
    top = page.context["table"].data[0]
    assert (top["won"], top["lost"]) == (2, 0)
    sorted_page = client.get(reverse("results:teams", args=[slug]) + "?sort=-lost")
    assert sorted_page.context["table"].data[0]["lost"] == 2
    assert (
        client.get(reverse("results:tournament", args=[slug]))
        .content.decode()
        .count("team-standings")
        == 1
    )
    schedule = client.get(reverse("results:teams_schedule", args=[slug])).content.decode()
    assert 'data-pair="1-2"' in schedule and 'data-pair="3-4"' in schedule
    rnd = client.get(reverse("results:teams_round", args=[slug, 1]))
    assert rnd.status_code == 200 and len(rnd.context["matches"]) == 2
    match = TeamMatch.objects.get(session=session, round=1, number=1)
    page = client.get(reverse("results:teams_match", args=[slug, match.pk]))
    assert page.status_code == 200
    assert [(b["number"], b["home_imps"]) for b in page.context["boards"]] == [(1, "1"), (2, "1")]
    assert client.get(reverse("results:teams_round", args=[slug, 5])).status_code == 404
    # a private tournament answers 404 to visitors
    tournament.public_results = False
    tournament.save()
    assert client.get(reverse("results:teams", args=[slug])).status_code == 404


def test_the_tournament_form_pairs_teams_with_team_scoring(director_client):
    data = {
        "name": "Equipos",
        "date": "2025-06-03",
        "venue": "",
        "event_type": "teams",
        "scoring_method": "matchpoints",
        "session_count": 1,
        "public_results": "on",
        "correction_minutes": 30,
    }
    response = director_client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 200 and "scoring_method" in response.context["form"].errors
    response = director_client.post(
        reverse("director:tournament_create"), data | {"scoring_method": "vps"}
    )
    assert response.status_code == 302
    response = director_client.post(
        reverse("director:tournament_create"),
        data | {"event_type": "pairs", "scoring_method": "vps"},
    )
    assert "scoring_method" in response.context["form"].errors


@pytest.mark.parametrize("format_", ["swiss", "round_robin"])
def test_only_a_knockout_offers_a_bracket(client, members, director, format_):
    """A Swiss or round robin is decided by its standings: no bracket link, its address not
    found; a knockout's nav links its bracket."""
    tournament = teams_event(members, 4, format=format_)
    team_events.start_teams(tournament)
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams", args=[tournament.slug])).content.decode()
    assert 'id="nav-standings"' in page and 'id="nav-bracket"' not in page
    assert client.get(reverse("results:teams_bracket", args=[tournament.slug])).status_code == 404
    knockout = teams_event(members, 4, format="knockout", boards_per_match=2)
    team_events.start_teams(knockout)
    publish.publish_provisional(knockout, user=director)
    page = client.get(reverse("results:teams", args=[knockout.slug])).content.decode()
    assert 'id="nav-bracket"' in page
    assert client.get(reverse("results:teams_bracket", args=[knockout.slug])).status_code == 200

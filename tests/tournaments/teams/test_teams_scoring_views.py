"""Teams scoring methods, the Patton evening and the triplicate over HTTP: the director's
setting, the table devices and the public pages in each unit."""

import datetime
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import EventType, Result, ScoringMethod, TableCode, TeamMatch
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import team_events, team_schedule

pytestmark = pytest.mark.django_db

SETTINGS = {
    "format": "round_robin",
    "round_robin_method": "roman",
    "swiss_rounds": 3,
    "boards_per_match": 3,
    "vp_scale": "wbf20",
    "bye_vp": "12",
    "tie_breaks": "h2h,diff,quotient",
    "scoring": "",
}


def event(members, count, **settings):
    tournament = setup.create_tournament(
        name="Liga",
        date=datetime.date(2025, 6, 3),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    for i in range(count):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    if settings:
        team_events.configure(tournament, **settings)
    return tournament


def sign_in(client, session, table):
    code = TableCode.objects.get(session=session, table=table, active=True)
    # the table card's QR link posts its token
    assert client.post(reverse("table:index"), {"token": code.token}).status_code == 302
    return client


def post_json(client, round_, board, level="4", strain="S", declarer="N", made="="):
    data = {
        "round": round_,
        "board": board,
        "level": level,
        "strain": strain,
        "double": "",
        "declarer": declarer,
        "made": made,
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": uuid.uuid4().hex,
    }
    return client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")


def test_director_sets_the_scoring_and_a_player_cannot(director_client, player, members):
    tournament = event(members, 2)
    url = reverse("director:teams", args=[tournament.pk])
    assert b'name="scoring"' in director_client.get(url).content
    assert director_client.post(url, SETTINGS | {"scoring": "bam"}).status_code == 302
    assert team_schedule.team_event(tournament).unit == "bam"
    player_client = Client()
    player_client.force_login(player)
    assert player_client.post(url, SETTINGS | {"scoring": "patton"}).status_code == 403
    assert team_schedule.team_event(tournament).scoring == "bam"
    # a Patton with two boards a match is refused with the form
    bad = director_client.post(url, SETTINGS | {"format": "patton", "boards_per_match": 2})
    assert bad.status_code == 400 and team_schedule.team_event(tournament).format == "round_robin"


@pytest.mark.parametrize(
    ("scoring", "unit", "home"),
    [
        ("", "vps", None),
        ("imps", "imps", "1"),
        ("bam", "bam", "5"),
        ("total", "total", "30"),
        ("patton", "patton", "13"),
    ],
)
def test_public_standings_and_match_in_each_unit(client, members, director, scoring, unit, home):
    """Open room +420/+620/+630, closed room +400/+620/+620: the home team nets +20, 0, +10 →
    1 IMP; board-a-match 2 + 1 + 2 = 5; total points 30; Patton 5 + 4 + 4 = 13 (C03
    l.189-193)."""
    tournament = event(members, 2, **(SETTINGS | {"scoring": scoring}))
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    match = TeamMatch.objects.get(session=session)
    for board, open_ns, closed_ns in ((1, 420, 400), (2, 620, 620), (3, 630, 620)):
        for table, ns in ((1, open_ns), (2, closed_ns)):
            entry.submit_result(
                user=director,
                section=section,
                table=table,
                round=1,
                board=board,
                contract="4S",
                declarer="N",
                tricks=10,
                ns_score=ns,
                idempotency_key=uuid.uuid4().hex,
            )
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams", args=[tournament.slug]))
    html = page.content.decode()
    assert page.status_code == 200 and f'data-unit="{unit}"' in html
    top = page.context["table"].data[0]
    assert top["entry_id"] == match.home_id
    if home is not None:
        assert top["points_text"] == home
    match_page = client.get(reverse("results:teams_match", args=[tournament.slug, match.pk]))
    assert match_page.status_code == 200
    has_points = 'class="num board-points"' in match_page.content.decode()
    assert has_points == (unit in ("bam", "total", "patton"))
    rnd = client.get(reverse("results:teams_round", args=[tournament.slug, 1]))
    assert rnd.status_code == 200 and rnd.context["unit"] == unit


def test_a_triplicate_is_played_at_the_table_devices(client, director_client, director, members):
    tournament = event(members, 3)
    url = reverse("director:teams", args=[tournament.pk])
    assert director_client.post(url, SETTINGS | {"format": "triplicate"}).status_code == 302
    assert (
        director_client.post(reverse("director:teams_start", args=[tournament.pk])).status_code
        == 302
    )
    session = team_schedule.teams_session(tournament)
    assert session.is_running and TableCode.objects.filter(session=session).count() == 3
    # Board 1 (nobody vulnerable): 4S= at table 1 (+420), 2S+2 at table 2 (+170),
    # 4S−1 at table 3 (−50): the course's comparisons give pairs 1 and 4 +16 each.
    for table, (level, made) in ((1, ("4", "=")), (2, ("2", "+2")), (3, ("4", "-1"))):
        client.logout()
        sign_in(client, session, table)
        assert post_json(client, 1, 1, level=level, made=made).status_code == 201
    assert sorted(Result.objects.values_list("table", "ns_score")) == [(1, 420), (2, 170), (3, -50)]
    screen = client.get(reverse("table:match") + "?round=1")  # table 3's device
    assert screen.status_code == 200 and screen.context["compared"] == 1
    first = screen.context["boards"][0]
    assert (first["ns_imps"], first["ew_imps"]) == ("-16", "16")  # pairs 3 and 4
    assert 'class="data match-boards triplicate-boards"' in screen.content.decode()
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams", args=[tournament.slug]))
    points = [r["points_text"] for r in page.context["table"].data]
    assert points == ["16", "16", "-32"]
    table1 = TeamMatch.objects.get(session=session, round=1, number=1)
    match = client.get(reverse("results:teams_match", args=[tournament.slug, table1.pk]))
    assert match.status_code == 200 and match.context["pairs"] == (1, 6)
    assert re.search(r'data-table="1">420<', match.content.decode())
    rnd = client.get(reverse("results:teams_round", args=[tournament.slug, 1])).content.decode()
    assert "<th>Equipo NS</th>" in rnd and "<th>Equipo EO</th>" in rnd  # not home/away

"""The course's worked teams example (C03 l.790-833) through the director's own pages, read
back on the public pages: a split score and an artificial adjusted score in one match.

Before the two adjusted boards team A (home: NS in the open room) has 23 IMPs and B 6. Board 1:
split score, A −140 and B +200 in the open room, −140 for A in the closed room → A −7, B +8.
Board 2: artificial, A average plus, B average → +3 and 0, the closed room ignored. Totals
A +13, B −9; in the 12-board column of the course's table 19 and 13 VPs. In a knockout each
board gives both teams the average: −7.5 and +1.5, and A wins by 11.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.teams.test_teams_knockout_views import SETTINGS
from tests.tournaments.teams.test_teams_views import sign_in, teams_event
from tournaments.models import ScoringMethod, TeamMatch
from tournaments.services.teams import team_schedule

pytestmark = pytest.mark.django_db

# (board, open room NS, closed room NS): the 23-6 before the adjusted boards.
PLAYED = ((3, 620, 0), (4, 420, -100), (5, 170, 400))


def run_course_match(director_client, members, **settings):
    """Set the event up, start it and enter the course's boards as the director does."""
    tournament = teams_event(members, 2)
    if settings.get("format") == "knockout":
        tournament.scoring_method = ScoringMethod.IMPS
        tournament.save(update_fields=["scoring_method"])
    url = reverse("director:teams", args=[tournament.pk])
    assert director_client.post(url, SETTINGS | settings).status_code == 302
    assert (
        director_client.post(reverse("director:teams_start", args=[tournament.pk])).status_code
        == 302
    )
    session = team_schedule.teams_session(tournament)
    section = session.sections.get()

    def line(table, board, data):
        response = director_client.post(
            reverse("director:line", args=[section.pk, 1, table, board]),
            {"reason": "", "law": ""} | data,
        )
        assert response.status_code == 302, response.content.decode()[:2000]

    def result(table, board, ns_score):
        line(
            table,
            board,
            {
                "action": "result",
                "contract": "3NT",
                "declarer": "N",
                "result": "=",
                "ns_score": str(ns_score),
            },
        )

    for board, open_ns, closed_ns in PLAYED:
        result(1, board, open_ns)
        result(2, board, closed_ns)
    line(
        1,
        1,
        {
            "action": "adjust",
            "kind": "split",
            "split_ns": "-140",
            "split_ew": "-200",
            "reason": "Información no autorizada",
            "law": "16B",
        },
    )
    result(2, 1, 140)  # closed room: −140 for A (EW), +140 for B (NS)
    line(
        1,
        2,
        {
            "action": "adjust",
            "kind": "artificial",
            "ns_side": "A+",
            "ew_side": "A",
            "reason": "Mano no jugable",
            "law": "12C2",
        },
    )
    result(2, 2, 140)  # ignored (C03 l.818)
    assert (
        director_client.post(
            reverse("director:publish_provisional", args=[tournament.pk])
        ).status_code
        == 302
    )
    return tournament, TeamMatch.objects.get(session=session)


def board_imps(page) -> list[tuple[int, str, str]]:
    return [
        (b["number"], b["home_imps"], b["away_imps"])
        for b in page.context["boards"]
        if b["compared"]
    ]


def test_course_example_in_a_vp_round_robin_through_the_pages(director_client, members):
    tournament, m = run_course_match(
        director_client, members, format="round_robin", boards_per_match=12, vp_scale="course25"
    )
    client = Client()  # a visitor
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m.pk]))
    assert board_imps(page) == [
        (1, "-7", "8"),
        (2, "3", "0"),
        (3, "12", "-12"),
        (4, "11", "-11"),
        (5, "-6", "6"),
    ]
    html = page.content.decode()
    assert '<dd class="imps">13 / -9</dd>' in html
    assert '<dd class="vps">19,00 – 13,00</dd>' in html
    screen = sign_in(Client(), m.session, m.open_table).get(reverse("table:match") + "?round=1")
    assert screen.status_code == 200 and b'id="knockout-score"' not in screen.content
    page = client.get(reverse("results:teams", args=[tournament.slug]))
    rows = page.context["table"].data
    assert [(r["place"], r["name"], r["points_value"]) for r in rows] == [
        (1, m.home.name, "19.00"),
        (2, m.away.name, "13.00"),
    ]
    assert "<strong>19,00</strong>" in page.content.decode()


def test_course_example_in_a_knockout_through_the_pages(director_client, members):
    tournament, m = run_course_match(
        director_client, members, format="knockout", boards_per_match=5
    )
    client = Client()  # a visitor
    page = client.get(reverse("results:teams_bracket", args=[tournament.slug]))
    (final,) = page.context["stages"][0]
    assert (final.a.imps, final.b.imps) == (24.5, 13.5)  # A wins by 11 (C03 l.833)
    assert final.a.through and page.context["champion"].entry_id == m.home_id
    html = page.content.decode()
    assert '<span class="num ko-score">24,50</span>' in html
    assert '<span class="num ko-score">13,50</span>' in html
    # The match page shows each team's own IMPs and the knockout score that decided it.
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m.pk]))
    assert board_imps(page)[:2] == [(1, "-7", "8"), (2, "3", "0")]
    html = page.content.decode()
    assert '<dd class="imps">13 / -9</dd>' in html
    assert '<dd class="knockout-score">24,50 – 13,50</dd>' in html
    assert '<dd class="knockout-margin">11</dd>' in html
    # The captains see the same score on their table's match screen, in either room.
    for table in (m.open_table, m.closed_table):
        device = sign_in(Client(), m.session, table)
        screen = device.get(reverse("table:match") + "?round=1").content.decode()
        assert '<dd class="knockout-score">24,50 – 13,50</dd>' in screen
        assert '<dd class="knockout-margin">11</dd>' in screen and 'id="knockout-note"' in screen

"""The charts of events a test builds for itself: none without results, and a Swiss teams
event's progress chart in each language, its running totals ending at the standings.

Apart from test_charts_pages.py, whose tests share two played events built once for the
module: these build on ``members`` and ``director``, which would meet those rows there."""

import datetime
import random

import pytest
from django.urls import reverse

from tests.tournaments.charts.test_charts_pages import LANGUAGES, _figures, _in, _numbers_are_plain
from tournaments.demo import _swiss_teams
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.teams import team_schedule, team_standings

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # the SVG drawn from the figures


def test_no_chart_without_results(client, mitchell_session, director):
    setup.finish_session(mitchell_session.session)
    tournament = mitchell_session.session.tournament
    publish.publish_final(tournament, user=director)
    html = client.get(reverse("results:section", args=[tournament.slug, 1, "A"])).content.decode()
    assert "chart-bars" not in html


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_team_progress_in_each_language(client, members, director, language):
    tournament = _swiss_teams(members, random.Random(3), datetime.date(2025, 5, 6))
    _in(client, language)
    url = reverse("results:teams", args=[tournament.slug])
    page = client.get(url)
    chart = _figures(page.content.decode())["team"]
    assert LANGUAGES[language][3] in chart
    assert chart.count("<circle") == 8  # four rounds: the team and the field's average
    _numbers_are_plain(chart)
    leader = page.context["table"].data[0]
    assert (
        page.context["chosen"]
        == min(page.context["table"].data, key=lambda r: r["position"])["entry_id"]
    )
    other = next(r for r in page.context["teams"] if r["entry_id"] != leader["entry_id"])
    chosen = client.get(url, {"team": other["entry_id"]})
    assert chosen.context["chosen"] == other["entry_id"]
    assert other["name"] in _figures(chosen.content.decode())["team"]
    # anything else than a team falls back to the leader
    assert client.get(url, {"team": "abc"}).context["chosen"] == page.context["chosen"]
    assert client.get(url, {"team": "999999"}).context["chosen"] == page.context["chosen"]


def test_running_totals_end_at_the_standings(members, director):
    tournament = _swiss_teams(members, random.Random(3), datetime.date(2025, 5, 6))
    session = team_schedule.teams_session(tournament)
    totals = team_standings.running_totals(session)
    for line in team_standings.standings(session):
        assert len(totals[line.entry_id]) == 4
        assert totals[line.entry_id][-1] == line.points
        assert totals[line.entry_id] == sorted(totals[line.entry_id])  # VPs only add up

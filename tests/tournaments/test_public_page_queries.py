"""The public pages read a fixed, small number of SQL queries whatever the event's size:
the section ranking, a teams event's standings and a player's history (at most six each,
the same for a small and a big event)."""

import datetime
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.test_tournaments_public_views import finished, section_url
from tests.tournaments.test_tournaments_teams_views import teams_event
from tournaments.models import TeamMatch
from tournaments.services import entry, publish, setup, team_events

pytestmark = pytest.mark.django_db

MAX_QUERIES = 6


def page_queries(client, url: str, rows: str) -> tuple[int, int]:
    """Queries of ``url`` with a cold cache, then warm; checks each shows ``rows`` rows."""
    assert client.get(url).status_code == 200  # a first classification happens here
    cache.clear()
    counts = []
    for _read in ("cold", "warm"):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        rows(response)
        counts.append(len(queries))
    return tuple(counts)


def test_section_ranking_reads_in_six_queries_at_any_size(client, members, movements, pairs,
                                                           director):
    counts = {}
    for tables, name in ((3, "Pequeño"), (13, "Grande")):
        tournament = setup.create_tournament(name=name, date=datetime.date(2025, 6, tables))
        session = tournament.sessions.get()
        section = setup.add_section(session)
        setup.seat_section(section, movements.mitchell(tables, 3, 2),
                           pairs(tournament, members[:4 * tables], 2 * tables))
        setup.start_session(session)
        finished(section, director, seed=tables, adjust=False)

        def rows(response, tables=tables):
            assert response.content.decode().count("<tr data-entry=") == 2 * tables

        counts[tables] = page_queries(client, section_url(tournament), rows)
    assert counts[3] == counts[13], counts
    assert max(counts[3]) <= MAX_QUERIES, counts


def played_teams(members, director, count):
    tournament = teams_event(members, count)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for m in TeamMatch.objects.filter(session=session).exclude(number=0):
        for board in (1, 2):
            for table, contract, tricks in ((m.open_table, "4S", 10), (m.closed_table, "3NT", 9)):
                entry.submit_result(user=director, section=section, table=table, round=1,
                                    board=board, contract=contract, declarer="N", tricks=tricks,
                                    idempotency_key=uuid.uuid4().hex)
    publish.publish_provisional(tournament, user=director)
    return tournament


def test_team_standings_read_in_six_queries_at_any_size(client, members, director):
    counts = {}
    for teams in (4, 14):
        tournament = played_teams(members, director, teams)

        def rows(response, teams=teams):
            assert len(response.context["table"].data) == teams

        counts[teams] = page_queries(
            client, reverse("results:teams", args=[tournament.slug]), rows)
    assert counts[4] == counts[14], counts
    assert max(counts[4]) <= MAX_QUERIES, counts


def test_player_history_reads_in_six_queries_at_any_size(client, mitchell_session,
                                                         howell_session, director, members):
    finished(mitchell_session, director)
    finished(howell_session, director, seed=8, adjust=False)
    counts = {}
    # members[0] played both events (a pair of the Howell and of the Mitchell), members[20]
    # only the Mitchell
    for member, events in ((members[20], 1), (members[0], 2)):

        def rows(response, events=events):
            assert len(response.context["history"].rows) == events

        counts[events] = page_queries(
            client, reverse("results:player", args=[member.pk]), rows)
    assert counts[1] == counts[2], counts
    assert max(counts[1]) <= MAX_QUERIES, counts

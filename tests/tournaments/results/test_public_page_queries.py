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

from tests.tournaments.results.test_public_views import finished, section_url
from tests.tournaments.teams.test_teams_views import teams_event
from tournaments.models import TeamMatch
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import team_events

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


def test_section_ranking_reads_in_six_queries_at_any_size(
    client, members, movements, pairs, director
):
    counts = {}
    for tables, name in ((3, "Pequeño"), (13, "Grande")):
        tournament = setup.create_tournament(name=name, date=datetime.date(2025, 6, tables))
        session = tournament.sessions.get()
        section = setup.add_section(session)
        setup.seat_section(
            section,
            movements.mitchell(tables, 3, 2),
            pairs(tournament, members[: 4 * tables], 2 * tables),
        )
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
                entry.submit_result(
                    user=director,
                    section=section,
                    table=table,
                    round=1,
                    board=board,
                    contract=contract,
                    declarer="N",
                    tricks=tricks,
                    idempotency_key=uuid.uuid4().hex,
                )
    publish.publish_provisional(tournament, user=director)
    return tournament


def test_team_standings_read_in_six_queries_at_any_size(client, members, director):
    counts = {}
    for teams in (4, 14):
        tournament = played_teams(members, director, teams)

        def rows(response, teams=teams):
            assert len(response.context["table"].data) == teams

        counts[teams] = page_queries(client, reverse("results:teams", args=[tournament.slug]), rows)
    assert counts[4] == counts[14], counts
    assert max(counts[4]) <= MAX_QUERIES, counts


def test_player_history_reads_in_six_queries_at_any_size(
    client, mitchell_session, howell_session, director, members
):
    finished(mitchell_session, director)
    finished(howell_session, director, seed=8, adjust=False)
    counts = {}
    # members[0] played both events (a pair of the Howell and of the Mitchell), members[20]
    # only the Mitchell
    for member, events in ((members[20], 1), (members[0], 2)):

        def rows(response, events=events):
            assert len(response.context["history"].rows) == events

        counts[events] = page_queries(client, reverse("results:player", args=[member.pk]), rows)
    assert counts[1] == counts[2], counts
    assert max(counts[1]) <= MAX_QUERIES, counts


# --- every public page ---------------------------------------------------------------------

from tests.laws.conftest import _parsed_for_db, _session_import, laws_db  # noqa: E402, F401


def public_pages(tournament, section) -> dict[str, str]:
    """One URL of each public page of a published Mitchell."""
    seat = section.seatings.order_by("entry_id").first()
    player = seat.entry.players.first()
    board = section.session.boards.order_by("number").first()
    return {
        "index": reverse("results:index"),
        "tournament": reverse("results:tournament", args=[tournament.slug]),
        "section ranking": section_url(tournament),
        "scorecard": reverse("results:scorecard", args=[tournament.slug, 1, seat.entry_id]),
        "board": reverse("results:board", args=[tournament.slug, 1, board.pool, board.number]),
        "season ranking": reverse("results:season"),
        "season, a player found": reverse("results:season") + f"?q={player.last_name}",
        "player": reverse("results:player", args=[player.pk]),
        "calendar": reverse("calendar:index"),
        "calendar event": reverse("calendar:event", args=[tournament.slug]),
        "laws": reverse("laws:index"),
        "law": reverse("laws:law", args=["es-2017", 12]),
    }


@pytest.mark.usefixtures("laws_db")
def test_every_public_page_reads_in_six_queries(
    client, mitchell_session, director, django_assert_max_num_queries
):
    """Whatever the caches hold: rendered (cold) and from the cache (warm). A season of ten
    clubs is timed by ``bench/bench_public_pages.py``; here the counts are pinned."""
    tournament, _adjusted = finished(mitchell_session, director)
    for name, url in public_pages(tournament, mitchell_session).items():
        assert client.get(url).status_code in (200, 302), name  # classifications happen here
        cache.clear()
        for read in ("cold", "warm"):
            # The scorecard with the player's analysis: 6 cold, 5 warm (the boards read with
            # the card's own results, the pair's players with the seatings; it read 8 and 7).
            most = MAX_QUERIES - 1 if name == "scorecard" and read == "warm" else MAX_QUERIES
            with django_assert_max_num_queries(most, info=f"{name} ({read})"):
                response = client.get(url)
            assert response.status_code in (200, 302), (name, read)


def test_the_freshness_of_a_session_is_read_section_by_section(db):
    """The newest result of a session is read as the first row of the index on (section,
    modified_at) of each of its sections: no aggregate over the session's results, whose
    plan depended on the planner's statistics."""
    from tournaments.models import Session
    from tournaments.services.classification.session_data import newest_changes

    sql = str(Session.objects.annotate(**newest_changes()).query).upper()
    assert "MAX(" not in sql and "ORDER BY" in sql and "LIMIT 1" in sql


def test_a_players_history_is_shown_a_page_at_a_time(
    client, mitchell_session, howell_session, director, members, monkeypatch
):
    """A career grows without end: the history shows its tournaments a page at a time."""
    from tournaments.views.public import results as views

    finished(mitchell_session, director)
    finished(howell_session, director, seed=8, adjust=False)
    monkeypatch.setattr(views, "HISTORY_PAGE_SIZE", 1)
    url = reverse("results:player", args=[members[0].pk])
    first = client.get(url)
    html = first.content.decode()
    assert html.count("<tr data-entry=") == 1 and 'id="history-pages"' in html
    assert 'id="played">2<' in html  # the summary counts every tournament
    second = client.get(url + "?page=2").content.decode()
    assert second.count("<tr data-entry=") == 1
    assert (
        first.context["page"].object_list != client.get(url + "?page=2").context["page"].object_list
    )

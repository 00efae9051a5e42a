"""The public results pages of events a test builds for itself: unpublished and provisional
results, a Howell and a pooled two-section event, Butler scoring, and a constant number of
queries on the ranking page.

Apart from test_public_views.py, whose tests share one finished Mitchell built once for the
module: these build their own events on ``members`` and ``director``, which would meet that
Mitchell's rows there."""

import datetime
import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tests.tournaments.results.public_pages import finished, ranking_rows, section_url
from tournaments.demo import play_rounds
from tournaments.models import RankingScope, ScoringMethod, StoredRanking
from tournaments.services.results import publish
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def test_unpublished_results_are_hidden_except_from_directors(client, mitchell_session, player):
    tournament = mitchell_session.session.tournament  # running, nothing published
    url = reverse("results:tournament", args=[tournament.slug])
    assert client.get(url).status_code == 404
    client.force_login(player)
    assert client.get(url).status_code == 404
    sign_in_verified(client, make_user("td", Role.DIRECTOR))
    assert client.get(url).status_code == 200


def test_provisional_results_are_marked_provisional(client, mitchell_session, director):
    tournament, _adj = finished(mitchell_session, director, final=False)
    html = client.get(section_url(tournament)).content.decode()
    assert 'data-status="provisional"' in html
    assert 'id="correction-period"' not in html


def test_howell_has_one_ranking_and_pools_rank_sections_together(
    client, howell_session, director, members, movements, pairs
):
    tournament, _adj = finished(howell_session, director, seed=3, adjust=False)
    tables = ranking_rows(client.get(section_url(tournament)))
    assert [d for d, _r in tables] == [""]
    assert len(tables[0][1]) == 7

    two = setup.create_tournament(name="Dos secciones", date=datetime.date(2025, 4, 1))
    session = two.sessions.get()
    entries = pairs(two, members[20:], 20)
    sections = []
    for i, letter in enumerate("AB"):
        section = setup.add_section(session, letter, pool="X")
        setup.seat_section(section, movements.mitchell(5, 5, 2), entries[i * 10 : i * 10 + 10])
        sections.append(section)
    setup.start_session(session)
    plans = {}
    for section in sections:
        play_rounds(section, random.Random(6), plans=plans)
    setup.finish_session(session)
    publish.publish_final(two, user=director)
    page = client.get(reverse("results:tournament", args=[two.slug])).content.decode()
    pool_url = reverse("results:pool", args=[two.slug, 1, "X"])
    assert pool_url in page
    pool_tables = ranking_rows(client.get(pool_url))
    assert [(d, len(rows)) for d, rows in pool_tables] == [("NS", 10), ("EW", 10)]
    stored = StoredRanking.objects.filter(
        session=session, scope=RankingScope.POOL, direction="NS"
    ).order_by("place", "number")
    assert [r["entry_id"] for r in pool_tables[0][1]] == [s.entry_id for s in stored]
    assert {r["section__letter"] for r in pool_tables[0][1]} == {"A", "B"}


def test_butler_ranking_shows_imps_not_percentages(client, members, movements, pairs, director):
    tournament = setup.create_tournament(
        name="Butler", date=datetime.date(2025, 5, 7), scoring_method=ScoringMethod.BUTLER
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.mitchell(5, 5, 2), pairs(tournament, members, 10))
    setup.start_session(session)
    finished(section, director, seed=4, adjust=False)
    response = client.get(section_url(tournament))
    table = response.context["tables"][0]["table"]
    names = [c.name for c in table.columns]
    assert "percentage" not in names
    assert table.columns["points"].header in ("IMPs", "IMP")
    for direction, rows in ranking_rows(response):
        stored = StoredRanking.objects.filter(section=section, direction=direction)
        assert {r["entry_id"]: r["points"] for r in rows} == {s.entry_id: s.points for s in stored}
    card = client.get(reverse("results:scorecard", args=[tournament.slug, 1, rows[0]["entry_id"]]))
    assert card.context["card"].imps


def test_ranking_page_uses_a_constant_number_of_queries(
    client, members, movements, pairs, director
):
    counts = []
    for tables, name in ((3, "Pequeño"), (13, "Grande")):
        tournament = setup.create_tournament(name=name, date=datetime.date(2025, 6, tables))
        session = tournament.sessions.get()
        section = setup.add_section(session)
        setup.seat_section(
            section,
            movements.mitchell(tables, 3, 2),
            pairs(tournament, members[: 2 * tables * 2], 2 * tables),
        )
        setup.start_session(session)
        finished(section, director, seed=tables, adjust=False)
        url = section_url(tournament)
        client.get(url)  # any re-classification happens here, not in the measured requests
        cache.clear()
        measured = []
        for _read in ("rendered", "from the cache"):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.content.decode().count("<tr data-entry=") == 2 * tables
            measured.append(len(queries))
        counts.append(tuple(measured))
    assert counts[0] == counts[1], counts
    assert counts[0][0] <= 6 and counts[0][1] < counts[0][0]

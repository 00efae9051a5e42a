"""The public pages of an individual event: one ranking with a player column, a player's
scorecard with partner and opponents, the traveller's four players a line.

The individual of test_individual_views.py, every round played and published, is built once for
the module (tests/module_rows.py), each test in a savepoint of it."""

import random

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import make_members
from tests.tournaments.setup.test_individual_views import build_running
from tournaments.demo import play_rounds
from tournaments.models import Seating, Section
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.tables import IndividualRankingTable

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _published_rows(django_db_setup, django_db_blocker):
    """``published``, built once for the module."""
    with module_rows(django_db_blocker):
        running = build_running(make_members())
        director = make_user("dir", Role.DIRECTOR)
        play_rounds(running, random.Random(5))
        setup.finish_session(running.session)
        publish.publish_final(running.session.tournament, user=director)
        yield running.pk


@pytest.fixture
def director(_published_rows, db):
    """The director (``director``) who published the module's individual."""
    return User.objects.get(username="dir")


@pytest.fixture
def published(_published_rows, db):
    """The individual, every round played, finished and published final; read afresh."""
    return Section.objects.get(pk=_published_rows)


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

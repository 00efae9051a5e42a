"""The live ranking answers 304 to a visitor who already holds its current version (ETag),
and the full page again as soon as anything it shows changes."""

import datetime
import random

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.results.test_public_views import finished, section_url
from tournaments.demo import play_rounds
from tournaments.models import Result, ResultStatus
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(mitchell_session, director):
    tournament, _adjusted = finished(mitchell_session, director, final=False)
    return mitchell_session, tournament


def test_an_unchanged_ranking_is_answered_304_without_a_body(client, published):
    _section, tournament = published
    url = section_url(tournament)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    assert len(queries) <= 2  # the session (with who may see it) and its newest change
    # an ETag of another page, or none, gets the page
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == 200


def test_a_new_ranking_version_sends_the_page_again(client, published, director):
    section, tournament = published
    url = section_url(tournament)
    etag = client.get(url)["ETag"]
    row = Result.objects.filter(
        section=section, status=ResultStatus.OK, adjustment__isnull=True
    ).first()
    corrections.correct_result(
        row, user=director, contract="7NT", declarer="N", tricks=13, reason="Tecleado mal"
    )
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_language_sort_and_visitor_are_part_of_the_etag(client, published, player):
    section, tournament = published
    url = section_url(tournament)
    etag = client.get(url)["ETag"]
    # another sort of the table is another page
    assert client.get(url + "?ns-sort=-points", HTTP_IF_NONE_MATCH=etag).status_code == 200
    # the visitor switches language: the page is sent again, in that language
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert english.status_code == 200 and english["ETag"] != etag
    # signing in changes the menu: the page is sent again
    client.force_login(player)
    assert client.get(url, HTTP_IF_NONE_MATCH=english["ETag"]).status_code == 200


def test_the_pool_ranking_is_conditional_too(client, members, movements, pairs, director):
    tournament = setup.create_tournament(name="Dos secciones", date=datetime.date(2025, 7, 1))
    session = tournament.sessions.get()
    entries = pairs(tournament, members[:24], 12)
    sections = []
    for letter, part in (("A", entries[:6]), ("B", entries[6:])):
        section = setup.add_section(session, letter, pool="A")
        setup.seat_section(section, movements.mitchell(3, 3, 2), part)
        sections.append(section)
    setup.start_session(session)
    for section in sections:
        play_rounds(section, random.Random(section.pk))
    publish.publish_provisional(tournament, user=director)
    url = reverse("results:pool", args=[tournament.slug, 1, "A"])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # the section's page is another page
    assert client.get(section_url(tournament), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_only_a_session_being_played_polls_its_ranking(
    client, mitchell_session, director, settings
):
    settings.LIVE_RANKING_POLL_SECONDS = 7
    play_rounds(mitchell_session, random.Random(2), rounds=2)
    tournament = mitchell_session.session.tournament
    publish.publish_provisional(tournament, user=director)
    url = section_url(tournament)
    live = client.get(url).content.decode()
    assert 'data-poll="7"' in live and 'hx-trigger="every 7s"' in live
    assert f'hx-get="{url}"' in live and 'hx-select="#live-ranking"' in live
    setup.finish_session(mitchell_session.session)
    done = client.get(url).content.decode()
    assert 'id="live-ranking"' in done and "data-poll" not in done and "every 7s" not in done

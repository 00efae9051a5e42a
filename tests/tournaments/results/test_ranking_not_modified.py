"""The live ranking answers 304 to a visitor who already holds its current version (ETag),
and the full page again as soon as anything it shows changes.

Tonight's Mitchell, played and published as provisional, is built once for the module
(tests/module_rows.py), each test in a savepoint of it; the tests that play their own
tournament are in test_ranking_pool_and_poll.py."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_mitchell_session, make_members
from tests.tournaments.results.public_pages import finished, section_url
from tournaments.models import Result, ResultStatus, Section
from tournaments.services.running import corrections

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _published_rows(django_db_setup, django_db_blocker):
    """``members``, the director and ``published``, built once for the module."""
    with module_rows(django_db_blocker):
        section = build_mitchell_session(make_members())
        finished(section, make_user("dir", Role.DIRECTOR), final=False)
        yield section.pk


@pytest.fixture
def director(_published_rows, db):
    """The director (``director``) who published the module's Mitchell."""
    return User.objects.get(username="dir")


@pytest.fixture
def published(_published_rows, db):
    """The Mitchell, finished and published as provisional, and its tournament; read afresh."""
    section = Section.objects.get(pk=_published_rows)
    return section, section.session.tournament


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

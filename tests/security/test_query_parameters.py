"""Query and form parameters that are not numbers: the page's default or a 404, never a 500
(``?pair=abc`` was a NoReverseMatch, ``?season=abc`` a ValueError inside the ORM)."""

import pytest
from django.db import connection
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_mitchell_session, make_members
from tests.tournaments.results.public_pages import finished
from tournaments.models import Result, Section

pytestmark = pytest.mark.django_db
JUNK = ["abc", "1e3", "-1", "99999999999999999999999", "<script>", "١٢", "1 OR 1=1", ""]


@pytest.fixture(scope="class")
def finished_mitchell(django_db_setup, django_db_blocker):
    """``mitchell_session`` played, finished and published by ``director``, built once for
    the class (each case rolls back to it): playing it was most of each case's time. A
    class's, not the module's: the tests after it build a running Mitchell of their own."""
    with module_rows(django_db_blocker):
        section = build_mitchell_session(make_members())
        finished(section, make_user("dir", Role.DIRECTOR))
        connection.check_constraints()  # once, not again at each case's teardown
        yield section.pk


class TestBoardPage:
    @pytest.mark.parametrize("junk", JUNK)
    def test_a_board_page_ignores_a_pair_that_is_not_a_number(
        self, client, finished_mitchell, junk
    ):
        section = Section.objects.select_related("session__tournament").get(pk=finished_mitchell)
        tournament = section.session.tournament
        url = reverse("results:board", args=[tournament.slug, 1, section.pool, 1])
        response = client.get(url, {"pair": junk})
        assert response.status_code == 200
        assert response.context["highlight"] == ""
        assert "<script>" not in response.content.decode()
        pair = Result.objects.filter(board__number=1).first().ns_id
        assert client.get(url, {"pair": pair}).context["highlight"] == str(pair)


@pytest.mark.parametrize("junk", JUNK)
def test_season_pages_fall_back_to_the_current_season(secretary_client, junk):
    for name in ("clubsite:fee_schedule", "uploads:licences"):
        assert secretary_client.get(reverse(name), {"season": junk}).status_code == 200, name


def test_a_posted_season_that_is_not_a_number_is_a_404(secretary_client, demo_club):
    from clubsite.models import Member

    member = Member.objects.first()
    response = secretary_client.post(
        reverse("clubsite:licence_renew", args=[member.pk]), {"season": "abc"}
    )
    assert response.status_code == 302  # the current season, as with no season at all
    response = secretary_client.post(
        reverse("clubsite:licences_renew"), {"season": "abc", "select": ["x", "1e5"]}
    )
    assert response.status_code == 404


def test_confirm_goes_back_only_to_this_site(director_client, director, mitchell_session):
    from tournaments.services.table import entry

    row = entry.submit_result(
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key="k1",
        user=director,
        section=mitchell_session,
        table=1,
    ).result
    response = director_client.post(
        reverse("director:confirm", args=[row.pk]), {"next": "https://evil.example/"}
    )
    assert response.status_code == 302 and "evil" not in response["Location"]
    response = director_client.post(
        reverse("director:confirm", args=[row.pk]), {"next": "4,5 evil"}
    )  # was looked up as a view name: 500
    assert response.status_code == 302
    response = director_client.post(
        reverse("director:confirm", args=[row.pk]), {"next": "/results/"}
    )
    assert response["Location"] == "/results/"


@pytest.mark.parametrize(
    "params",
    [
        {"q": "a\x00b"},
        {"q": "x" * 5000},
        {"q": "\x1b[31m"},
        {"q": "ley", "edition": "\x00"},
        {"edition": "x" * 500},
    ],
)
def test_law_search_takes_any_query_without_a_server_error(client, params):
    """PostgreSQL refuses NUL in a query's text: it was a 500 there."""
    response = client.get(reverse("laws:search"), params)
    assert response.status_code in (200, 404)


def test_the_search_query_keeps_printable_text_only():
    from laws.search import MAX_QUERY, clean_query

    assert clean_query(" ley\x00 12\x1b ") == "ley 12"
    assert len(clean_query("x" * 5000)) == MAX_QUERY


def test_huge_numbers_in_director_forms_are_form_errors(director_client, mitchell_session):
    """A board offset or penalty board beyond any integer column was an overflow (500)."""
    from tournaments.models import Penalty, Section

    session = mitchell_session.session
    sections = Section.objects.count()
    response = director_client.post(
        reverse("director:section_add", args=[session.pk]),
        {"letter": "B", "board_offset": "9" * 25},
    )
    assert response.status_code < 500 and Section.objects.count() == sections
    entry = mitchell_session.seatings.first().entry
    response = director_client.post(
        reverse("director:penalties", args=[session.pk]),
        {"entry": entry.pk, "fraction_of_top": "0.25", "board": "9" * 25, "reason": "x"},
    )
    assert response.status_code < 500 and not Penalty.objects.exists()

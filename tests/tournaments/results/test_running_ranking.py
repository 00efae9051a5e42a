"""The running ranking with the last rounds hidden (``services.results.running_ranking``): the
same as classifying the session with those rounds' results removed, and the one ranking the
room screen and the players' pages show, where the tournament lets players follow it.

Tonight's Mitchell with five rounds played is built once for the module (tests/module_rows.py),
each test in a savepoint of it; the pages about boards with every round played are in
test_running_ranking_boards.py, the tests that play their own rounds in
test_running_ranking_followed.py."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from tests.module_rows import module_rows
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import build_mitchell_session, make_members
from tournaments.demo import play_rounds
from tournaments.models import Result, Section, StoredMark, StoredRanking
from tournaments.services.classification.classify import classify_session
from tournaments.services.results import publish, running_ranking
from tournaments.services.running import room_clock, room_screen
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def figures(rows):
    return {(r["scope"], r["entry_id"]): (r["place"], r["percentage"], r["points"]) for r in rows}


def stored_figures(session):
    return figures(
        StoredRanking.objects.filter(session=session).values(
            "scope", "entry_id", "place", "percentage", "points"
        )
    )


@pytest.fixture(scope="module")
def _five_rounds_rows(django_db_setup, django_db_blocker):
    """``five_rounds``, built once for the module."""
    with module_rows(django_db_blocker):
        section = build_mitchell_session(make_members())
        play_rounds(section, random.Random(7), rounds=5)
        yield section.pk


@pytest.fixture
def five_rounds(_five_rounds_rows, db):
    """Tonight's 7-round Mitchell with rounds 1 to 5 played: the room is on round 6. Read
    afresh."""
    return Section.objects.get(pk=_five_rounds_rows)


def test_hidden_rounds_rank_as_if_only_the_earlier_rounds_were_entered(five_rounds):
    section = five_rounds
    session = section.session
    room_screen.set_hidden_rounds(session, 2)
    session.refresh_from_db()
    ranking = running_ranking.running_ranking(session)
    assert (ranking.hidden, ranking.through) == (2, 4)  # round 6 minus two
    got, marks = figures(ranking.rows), dict(ranking.marks)
    assert got != stored_figures(session)  # hiding round 5 changed the ranking
    # the same results with round 5 removed, classified as every ranking is
    Result.objects.filter(section=section, round__gt=4).delete()
    classify_session(session)
    assert got == stored_figures(session)
    assert marks == {
        (m.entry_id, m.board_number): (m.mark, m.percentage)
        for m in StoredMark.objects.filter(session=session)
    }


def test_the_directors_clock_names_the_round_being_played(five_rounds):
    session = five_rounds.session
    session.refresh_from_db()
    room_screen.set_hidden_rounds(session, 1)
    assert running_ranking.hidden_through(session) == (1, 5)  # the room is on round 6
    room_clock.start_round(session, 7, minutes=15)  # the director says round 7 is played
    assert running_ranking.hidden_through(session) == (1, 6)


def test_nothing_is_hidden_by_default_or_once_the_session_is_finished(five_rounds):
    session = five_rounds.session
    session.refresh_from_db()
    ranking = running_ranking.running_ranking(session)
    assert ranking.through is None and figures(ranking.rows) == stored_figures(session)
    room_screen.set_hidden_rounds(session, 6)  # every round played: no ranking yet
    session.refresh_from_db()
    assert not running_ranking.running_ranking(session).shown
    setup.finish_session(session)
    session.refresh_from_db()
    assert running_ranking.running_ranking(session).through is None


def test_hiding_more_rounds_than_the_session_has_is_refused(five_rounds):
    from tournaments.services.errors import TournamentError

    with pytest.raises(TournamentError):
        room_screen.set_hidden_rounds(five_rounds.session, 8)


# --- the players' pages ---------------------------------------------------------------------


def section_page(session):
    return reverse("results:section", args=[session.tournament.slug, session.number, "A"])


def test_players_see_nothing_of_the_running_ranking_unless_the_club_allows_it(
    five_rounds, player, director
):
    anonymous, player_client = Client(), Client()
    player_client.force_login(player)
    director_client = sign_in_verified(Client(), director)
    session = five_rounds.session
    tournament = session.tournament
    url = section_page(session)
    assert anonymous.get(url).status_code == 404  # being played, not published: not there
    assert director_client.get(url).status_code == 200  # the director sees it all along
    publish.publish_provisional(tournament, user=director)
    for visitor in (anonymous, player_client):
        page = visitor.get(url)
        assert page.status_code == 200
        assert page.context["tables_html"] is None
        assert b'id="ranking-held"' in page.content
        assert b'class="ranking' not in page.content.split(b'id="ranking-held"')[1][:400]
    assert director_client.get(url).context["tables_html"]
    entry = StoredRanking.objects.filter(session=session).first().entry_id
    card = player_client.get(
        reverse("results:scorecard", args=[tournament.slug, 1, entry])
    ).context["card"]
    assert card.ranking is None and card.marks_total is None
    assert all(row["mark"] is None for row in card.rows)
    setup.finish_session(session)
    assert player_client.get(url).context["tables_html"]  # the session is over: shown


def test_the_player_page_shows_no_place_of_an_event_being_played(five_rounds, client):
    from tournaments.services.results import player_history

    session = five_rounds.session
    room_screen.set_live_ranking(session.tournament, True)
    seat = session.seatings.select_related("entry").first()
    member = seat.entry.players.first()
    history = player_history.player_history(member, None)
    (row,) = [r for r in history.rows if r["tournament"].pk == session.tournament_id]
    assert row["tournament"].in_progress and row["percentage"] is None and not row["place_label"]

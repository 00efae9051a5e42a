"""The running ranking with the last rounds hidden (``services.results.running_ranking``): the
same as classifying the session with those rounds' results removed, and the one ranking the
room screen and the players' pages show, where the tournament lets players follow it."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from tests.signed_in import sign_in_verified
from tournaments.demo import play_rounds
from tournaments.models import Result, StoredMark, StoredRanking
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


@pytest.fixture
def five_rounds(mitchell_session):
    """Tonight's 7-round Mitchell with rounds 1 to 5 played: the room is on round 6."""
    play_rounds(mitchell_session, random.Random(7), rounds=5)
    return mitchell_session


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


def test_where_players_follow_it_they_see_the_same_ranking_as_the_room(mitchell_session, client):
    """Every round played, the last two hidden: the page and a scorecard show the ranking
    after round 5, as the room screen does (every board has been played by every table, so
    the scorecard's marks are not held back as boards still in play)."""
    play_rounds(mitchell_session, random.Random(7))
    session = mitchell_session.session
    tournament = session.tournament
    room_screen.set_live_ranking(tournament, True)
    room_screen.set_hidden_rounds(session, 2)
    session.refresh_from_db()
    page = client.get(section_page(session))  # anyone: the tournament's results are public
    assert page.status_code == 200
    assert page.context["ranking_after"] == 5 and b'id="ranking-after"' in page.content
    shown = {
        (item["direction"], row.record["entry_id"]): row.record["percentage"]
        for item in page.context["tables"]
        for row in item["table"].rows
    }
    room = running_ranking.running_ranking(session)
    assert shown == {
        (r["direction"], r["entry_id"]): r["percentage"]
        for r in room.rows
        if r["scope"] == "section"
    }
    assert shown != {
        (r.direction, r.entry_id): r.percentage
        for r in StoredRanking.objects.filter(session=session, scope="section")
    }
    # a scorecard: the marks of rounds 1-5 as that ranking has them, the last two held back
    line = next(r for r in room.rows if r["scope"] == "section")
    scorecard = client.get(
        reverse("results:scorecard", args=[tournament.slug, 1, line["entry_id"]])
    )
    card = scorecard.context["card"]
    # the player's own analysis leaves the hidden rounds out too (no field place or %)
    analysed = {b.board for b in scorecard.context["analysis"].boards}
    assert analysed == {row["board"] for row in card.rows if row["round"] <= 5}
    assert card.ranking["place"] == line["place"]
    assert card.ranking["percentage"] == line["percentage"]
    rounds = {row["round"] for row in card.rows}
    assert rounds == set(range(1, 8))
    for row in card.rows:
        if row["round"] > 5:
            assert row["held"] and row["mark"] is None
        else:
            assert not row["held"]
            assert row["mark"] == room.marks[(line["entry_id"], row["board"])][0]
    assert card.marks_total == sum(row["mark"] or 0 for row in card.rows) == line["points"]


def test_the_player_page_shows_no_place_of_an_event_being_played(five_rounds, client):
    from tournaments.services.results import player_history

    session = five_rounds.session
    room_screen.set_live_ranking(session.tournament, True)
    seat = session.seatings.select_related("entry").first()
    member = seat.entry.players.first()
    history = player_history.player_history(member, None)
    (row,) = [r for r in history.rows if r["tournament"].pk == session.tournament_id]
    assert row["tournament"].in_progress and row["percentage"] is None and not row["place_label"]


# --- what the pages about boards show while rounds are hidden -------------------------------


@pytest.fixture
def hidden_after_five(mitchell_session):
    """Every round played, players following the ranking, the last two rounds hidden: the
    ranking counts rounds 1 to 5."""
    play_rounds(mitchell_session, random.Random(7))
    session = mitchell_session.session
    classify_session(session)
    room_screen.set_live_ranking(session.tournament, True)
    room_screen.set_hidden_rounds(session, 2)
    session.refresh_from_db()
    return session


def board_page(session, number, client):
    section = session.sections.get()
    url = reverse("results:board", args=[session.tournament.slug, 1, section.pool, number])
    return client.get(url)


def test_a_traveller_shows_no_mark_of_the_hidden_rounds(hidden_after_five, client):
    session = hidden_after_five
    room = running_ranking.running_ranking(session)
    assert room.through == 5
    stored = {
        (m.entry_id, m.board_number): m.mark for m in StoredMark.objects.filter(session=session)
    }
    seen_held = seen_counted = 0
    for number in (1, 6, 11):
        page = board_page(session, number, client)
        assert page.status_code == 200
        data = page.context["data"]
        rounds = {row["round"] for row in data.rows}
        assert rounds & {6, 7} and rounds & set(range(1, 6))  # a Mitchell's board moves
        html = page.content.decode()
        assert 'id="traveller-held"' in html and 'class="num held"' in html
        for row in data.rows:
            if row["round"] > 5:
                seen_held += 1
                assert row["held"] and row["ns_mark"] is row["ew_mark"] is None
            else:
                seen_counted += 1
                # the ranking after round 5's marks, not the stored ones (all rounds)
                assert row["ns_mark"] == room.marks[(row["ns_id"], number)][0]
                assert row["ew_mark"] == room.marks[(row["ew_id"], number)][0]
        # no mark of a hidden round reaches the page's frequencies either
        held_scores = {r["ns_score"] for r in data.rows if r["held"]}
        counted_scores = {r["ns_score"] for r in data.rows if not r["held"]}
        for f in data.frequencies:
            if f["score"] in held_scores - counted_scores:
                assert f["ns_mark"] is f["ew_mark"] is None
    assert seen_held and seen_counted
    # the stored marks differ from the ranking after round 5's somewhere: the test can fail
    assert any(
        stored.get(key) not in (None, room.marks[key][0])
        for key in {
            (r.ns_id, r.board.number)
            for r in Result.objects.filter(section__session=session, round__lte=5)
        }
    )


def test_once_the_director_shows_the_rounds_the_traveller_has_every_mark(hidden_after_five, client):
    session = hidden_after_five
    room_screen.set_hidden_rounds(session, 0)
    data = board_page(session, 1, client).context["data"]
    assert all(row["ns_mark"] is not None and not row.get("held") for row in data.rows)


def test_the_analysis_compares_with_the_tables_of_the_counted_rounds(hidden_after_five, client):
    session = hidden_after_five
    line = next(r for r in running_ranking.running_ranking(session).rows)
    page = client.get(
        reverse("results:scorecard", args=[session.tournament.slug, 1, line["entry_id"]])
    )
    for board in page.context["analysis"].boards:
        counted = Result.objects.filter(
            section__session=session, board__number=board.board, round__lte=5
        ).count()
        assert board.rank is not None and board.rank.of == counted < 7


def test_the_hands_file_carries_no_ranking_or_mark_while_rounds_are_hidden(
    hidden_after_five, client
):
    from tournaments.exports.deals import random_deal
    from tournaments.models import Board

    session = hidden_after_five
    for board in Board.objects.filter(session=session):
        board.deal = random_deal(random.Random(board.number))
        board.save(update_fields=["deal"])
    url = reverse("results:hands", args=[session.tournament.slug, 1])
    text = client.get(url).content.decode()
    assert "[ScoreTable" in text and "[TotalScoreTable" not in text
    room_screen.set_hidden_rounds(session, 0)
    assert "[TotalScoreTable" in client.get(url).content.decode()


# --- a teams event --------------------------------------------------------------------------


def test_a_teams_event_hides_no_rounds_and_the_director_page_says_so(members, director):
    from tests.tournaments.teams.test_teams_views import teams_event
    from tournaments.services.errors import TournamentError
    from tournaments.services.teams import team_events

    session = team_events.start_teams(teams_event(members, 4))
    assert not running_ranking.hides_rounds(session)
    with pytest.raises(TournamentError):
        room_screen.set_hidden_rounds(session, 1)
    room_screen.set_hidden_rounds(session, 0)  # nothing hidden: allowed
    page = sign_in_verified(Client(), director).get(reverse("director:room", args=[session.pk]))
    html = page.content.decode()
    assert 'id="room-no-hiding"' in html and 'id="hidden-rounds-form"' not in html

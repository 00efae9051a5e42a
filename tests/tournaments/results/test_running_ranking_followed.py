"""Where players follow the running ranking they see the room's, and a teams event hides no
rounds; apart from test_running_ranking.py's shared rows, each test builds its own."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from tests.signed_in import sign_in_verified
from tournaments.demo import play_rounds
from tournaments.models import StoredRanking
from tournaments.services.results import running_ranking
from tournaments.services.running import room_screen

pytestmark = pytest.mark.django_db


def section_page(session):
    return reverse("results:section", args=[session.tournament.slug, session.number, "A"])


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

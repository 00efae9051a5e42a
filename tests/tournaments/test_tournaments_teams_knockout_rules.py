"""Knockout rules that span several matches or settings: each match's own boards, the
placings, boards not played, and a tie rule changed after the start."""

import pytest
from django.urls import reverse

from tests.tournaments.test_tournaments_teams_knockout import knockout_event, match, play_boards
from tournaments.models import RankingScope, StoredRanking, TeamMatch
from tournaments.services import classification, knockout, publish, teams

pytestmark = pytest.mark.django_db


def test_tie_break_boards_show_on_the_tied_match_only(members, director, client):
    """Match 2 of stage 1 is tied and plays boards 5-6 at its own two tables: its page lists
    them, match 1's page does not."""
    tournament = knockout_event(members, 4, boards=2, tie_boards=2)
    session = teams.start_teams(tournament)
    m1, m2 = match(session, 1, 1), match(session, 1, 2)
    play_boards(session, director, m1, {1: (420, 170), 2: (420, 420)})
    play_boards(session, director, m2, {1: (420, 170), 2: (170, 420)})
    assert knockout.add_tie_segment(tournament, m2.pk, user=director) == [5, 6]
    m2 = play_boards(session, director, m2, {5: (620, 170), 6: (420, 420)})
    assert (m2.margin, m2.winner_id, m2.boards_played) == (10, m2.home_id, 4)
    assert [b.number for b in teams.match_boards(m1)] == [1, 2]
    lines = teams.match_boards(m2)
    assert [(b.number, b.home_imps) for b in lines] == [(1, 6), (2, -6), (5, 10), (6, 0)]
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m1.pk]))
    assert 'data-board="5"' not in page.content.decode()
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m2.pk]))
    assert [b["number"] for b in page.context["boards"] if b["compared"]] == [1, 2, 5, 6]
    # the stored IMPs count its tie-break boards too
    assert TeamMatch.objects.get(pk=m2.pk).home_won == 16


def stages_played(session, director, results):
    """``results[stage] = {match number: {board: (open NS, closed NS)}}``; draws each next
    stage once the stage is decided."""
    tournament = session.tournament
    for stage, matches in sorted(results.items()):
        for number, boards in matches.items():
            play_boards(session, director, match(session, stage, number), boards)
        classification.ensure_current(session)
        if stage < session.rounds:
            knockout.draw_next_stage(tournament, user=director)
    return session



def test_a_knockout_is_ranked_by_the_stage_each_team_reached(members, director, client):
    """Team 2 wins its semi-final by 24 IMPs and loses the final by 1: more IMPs than the cup
    winner, still second. The losing semi-finalists share third place (no play-off), the
    IMPs only ordering them on the page."""
    tournament = knockout_event(members, 4, boards=2)
    session = teams.start_teams(tournament)
    stages_played(session, director, {1: {1: {1: (420, 170), 2: (420, 420)},  # 1 v 4: +6
                                          2: {1: (620, -100), 2: (620, -100)}}})  # 2 v 3: +24
    assert placings(session) == [(1, True, 2, 24), (1, True, 1, 6),  # both still in
                                 (3, True, 4, -6), (3, True, 3, -24)]
    stages_played(session, director, {2: {1: {3: (450, 420), 4: (420, 420)}}})  # 1 v 2: +1
    assert placings(session) == [(1, False, 1, 7), (2, False, 2, 23),
                                 (3, True, 4, -6), (3, True, 3, -24)]
    ranking = StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    numbers = teams.numbers_of(session)
    assert sorted((r.place, numbers[r.entry_id]) for r in ranking) == [
        (1, 1), (2, 2), (3, 3), (3, 4)]
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams", args=[tournament.slug]))
    assert [(r["place_label"], r["number"]) for r in page.context["table"].data] == [
        ("1", 1), ("2", 2), ("3=", 4), ("3=", 3)]
    assert 'id="knockout-places"' in page.content.decode()


def test_byes_and_earlier_stages_place_behind_later_ones(members, director):
    """Six teams in an eight-place bracket: the two first-stage losers share fifth place."""
    tournament = knockout_event(members, 6, boards=1)
    session = teams.start_teams(tournament)
    def win(board):  # the home team wins stage ``board``'s one board
        return {board: (420, 170)}

    stages_played(session, director, {1: {1: win(1), 2: win(1)}, 2: {1: win(2), 2: win(2)},
                                      3: {1: win(3)}})
    assert [(place, tied) for place, tied, _n, _imps in placings(session)] == [
        (1, False), (2, False), (3, True), (3, True), (5, True), (5, True)]


def placings(session):
    return [(line.place, line.tied, line.number, line.points)
            for line in teams.standings(session)]

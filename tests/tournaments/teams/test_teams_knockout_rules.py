"""Knockout rules that span several matches or settings: each match's own boards, the
placings, boards not played, and a tie rule changed after the start."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.teams.test_teams import enter
from tests.tournaments.teams.test_teams_knockout import knockout_event, match, play_boards
from tests.tournaments.teams.test_teams_views import sign_in
from tournaments.models import RankingScope, StoredRanking, TeamMatch
from tournaments.services.classification import classify as classification
from tournaments.services.errors import TournamentError
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.teams import (
    knockout,
    knockout_bracket,
    team_events,
    team_matches,
    team_schedule,
    team_standings,
)

pytestmark = pytest.mark.django_db


def test_tie_break_boards_show_on_the_tied_match_only(members, director, client):
    """Match 2 of stage 1 is tied and plays boards 5-6 at its own two tables: its page lists
    them, match 1's page does not."""
    tournament = knockout_event(members, 4, boards=2, tie_boards=2)
    session = team_events.start_teams(tournament)
    m1, m2 = match(session, 1, 1), match(session, 1, 2)
    play_boards(session, director, m1, {1: (420, 170), 2: (420, 420)})
    play_boards(session, director, m2, {1: (420, 170), 2: (170, 420)})
    assert knockout.add_tie_segment(tournament, m2.pk, user=director) == [5, 6]
    m2 = play_boards(session, director, m2, {5: (620, 170), 6: (420, 420)})
    assert (m2.margin, m2.winner_id, m2.boards_played) == (10, m2.home_id, 4)
    assert [b.number for b in team_matches.match_boards(m1)] == [1, 2]
    lines = team_matches.match_boards(m2)
    assert [(b.number, b.home_imps) for b in lines] == [(1, 6), (2, -6), (5, 10), (6, 0)]
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m1.pk]))
    assert 'data-board="5"' not in page.content.decode()
    page = client.get(reverse("results:teams_match", args=[tournament.slug, m2.pk]))
    assert [b["number"] for b in page.context["boards"] if b["compared"]] == [1, 2, 5, 6]
    # the stored IMPs count its tie-break boards too
    assert TeamMatch.objects.get(pk=m2.pk).home_won == 16
    # The match screen of match 2's open room (table 3) compares the tie-break boards.
    device = sign_in(Client(), session, 3)
    page = device.get(reverse("table:match") + "?round=1")
    assert [b["number"] for b in page.context["boards"] if b["compared"]] == [1, 2, 5, 6]
    device = sign_in(Client(), session, 1)
    page = device.get(reverse("table:match") + "?round=1")
    assert [b["number"] for b in page.context["boards"]] == [1, 2]


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
    session = team_events.start_teams(tournament)
    stages_played(
        session,
        director,
        {
            1: {
                1: {1: (420, 170), 2: (420, 420)},  # 1 v 4: +6
                2: {1: (620, -100), 2: (620, -100)},
            }
        },
    )  # 2 v 3: +24
    assert placings(session) == [
        (1, True, 2, 24),
        (1, True, 1, 6),  # both still in
        (3, True, 4, -6),
        (3, True, 3, -24),
    ]
    stages_played(session, director, {2: {1: {3: (450, 420), 4: (420, 420)}}})  # 1 v 2: +1
    assert placings(session) == [
        (1, False, 1, 7),
        (2, False, 2, 23),
        (3, True, 4, -6),
        (3, True, 3, -24),
    ]
    ranking = StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    numbers = team_schedule.numbers_of(session)
    assert sorted((r.place, numbers[r.entry_id]) for r in ranking) == [
        (1, 1),
        (2, 2),
        (3, 3),
        (3, 4),
    ]
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams", args=[tournament.slug]))
    assert [(r["place_label"], r["number"]) for r in page.context["table"].data] == [
        ("1", 1),
        ("2", 2),
        ("3=", 4),
        ("3=", 3),
    ]
    assert 'id="knockout-places"' in page.content.decode()


def test_byes_and_earlier_stages_place_behind_later_ones(members, director):
    """Six teams in an eight-place bracket: the two first-stage losers share fifth place."""
    tournament = knockout_event(members, 6, boards=1)
    session = team_events.start_teams(tournament)

    def win(board):  # the home team wins stage ``board``'s one board
        return {board: (420, 170)}

    stages_played(
        session, director, {1: {1: win(1), 2: win(1)}, 2: {1: win(2), 2: win(2)}, 3: {1: win(3)}}
    )
    assert [(place, tied) for place, tied, _n, _imps in placings(session)] == [
        (1, False),
        (2, False),
        (3, True),
        (3, True),
        (5, True),
        (5, True),
    ]


def placings(session):
    return [
        (line.place, line.tied, line.number, line.points)
        for line in team_standings.standings(session)
    ]


def not_played(session, director, m, board, reason="justified"):
    """The director marks the closed room's line of ``board`` not played."""
    corrections.adjust_score(
        user=director,
        section=session.sections.get(),
        round=m.round,
        table=m.closed_table,
        board=board,
        adjustment={"kind": "not_played", "reason": reason},
        reason="Sin tiempo",
        law="12C2",
    )
    classification.ensure_current(session)
    m.refresh_from_db()
    return m


def test_a_board_not_played_counts_as_compared_and_the_match_is_decided(members, director):
    """Board 2 is not played in the closed room through no one's fault: 0 IMPs to each team
    (an average, Law 12C2), so the home team's 6 IMPs on board 1 take it through."""
    tournament = knockout_event(members, 4, boards=2)
    session = team_events.start_teams(tournament)
    m1, m2 = match(session, 1, 1), match(session, 1, 2)
    play_boards(session, director, m1, {1: (420, 170)})
    enter(session.sections.get(), director, 1, m1.open_table, 2, 420)
    m1 = not_played(session, director, m1, 2)
    assert (m1.boards_played, m1.margin, m1.winner_id) == (2, 6, m1.home_id)
    assert [(b.number, b.home_imps, b.away_imps) for b in team_matches.match_boards(m1)] == [
        (1, 6, -6),
        (2, 0, 0),
    ]
    assert team_schedule.progress(session)[0].results == 4
    # Match 2 is level with a board not played: tied, so the tie-break is open to it.
    play_boards(session, director, m2, {1: (420, 420)})
    enter(session.sections.get(), director, 1, m2.open_table, 2, 620)  # ignored (C03 l.818)
    m2 = not_played(session, director, m2, 2)
    assert (m2.boards_played, m2.margin, m2.winner_id) == (2, 0, None) and knockout_bracket.is_tied(
        m2
    )
    assert knockout.add_tie_segment(tournament, m2.pk, user=director) == [5, 6]
    play_boards(session, director, m2, {5: (170, 420), 6: (420, 420)})
    assert knockout.can_draw_stage(session)
    assert knockout.draw_next_stage(tournament, user=director) == 2


@pytest.mark.parametrize(("reason", "imps"), [("player_fault", -3), ("organisation", 3)])
def test_a_board_not_played_by_a_sides_fault_is_scored_as_an_artificial_score(
    members, director, reason, imps
):
    """The line names no side, so both pairs at the table get the same average minus (the
    players' fault) or average plus (the organisation's), ±3 IMPs as for A−/A+ (C03 l.814)."""
    tournament = knockout_event(members, 2, boards=1)
    session = team_events.start_teams(tournament)
    m = match(session, 1, 1)
    enter(session.sections.get(), director, 1, m.open_table, 1, 420)
    m = not_played(session, director, m, 1, reason)
    assert [(b.home_imps, b.away_imps) for b in team_matches.match_boards(m)] == [(imps, imps)]
    assert (m.boards_played, m.margin) == (1, 0)


def test_changing_the_tie_rule_after_the_start_rescores_who_went_through(members, director):
    tournament = knockout_event(members, 2, boards=2, tie="extra_boards")
    session = team_events.start_teams(tournament)
    m = play_boards(session, director, match(session, 1, 1), {1: (420, 170), 2: (170, 420)})
    assert (m.margin, m.winner_id) == (0, None)
    team_events.configure(tournament, knockout_tie="higher_seed")
    m.refresh_from_db()
    assert (m.winner_id, m.decided_by) == (m.home_id, "higher_seed")
    assert [line.place for line in team_standings.standings(session)] == [1, 2]
    team_events.configure(tournament, knockout_tie="extra_boards")
    m.refresh_from_db()
    assert (m.winner_id, m.decided_by) == (None, "") and knockout_bracket.is_tied(m)


def test_the_tie_rule_is_fixed_once_a_tie_it_decided_is_in_the_next_stage(members, director):
    tournament = knockout_event(members, 4, boards=1, tie="higher_seed")
    session = team_events.start_teams(tournament)
    stages_played(session, director, {1: {1: {1: (420, 420)}, 2: {1: (420, 170)}}})
    with pytest.raises(TournamentError):
        team_events.configure(tournament, knockout_tie="extra_boards")
    assert team_schedule.team_event(tournament).knockout_tie == "higher_seed"
    assert match(session, 1, 1).decided_by == "higher_seed"

"""Shared by the line-up tests: a started round robin of teams of six, seating a team, and
playing a board in one room."""

import datetime
import uuid

from tournaments.models import EventType, ScoringMethod, TeamMatch
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import lineups, team_events, team_schedule


def teams_of_six(members, boards=20, count=4):
    """A round robin of ``count`` teams of six players (player 1 the captain), started."""
    tournament = setup.create_tournament(
        name="Liga",
        date=datetime.date(2025, 6, 3),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(tournament, format="round_robin", boards_per_match=boards)
    squads = [members[6 * i : 6 * i + 6] for i in range(count)]
    for i, squad in enumerate(squads):
        registration.register_entry(tournament, squad, name=f"Equipo {i + 1}")
    session = team_events.start_teams(tournament)
    match = TeamMatch.objects.select_related("home", "away", "session").get(
        session=session, round=1, number=1
    )
    by_team = {e.pk: s for e, s in zip(team_schedule.teams_of(tournament), squads, strict=True)}
    return match, by_team[match.home_id], by_team[match.away_id]


def seat(match, team, half, players, **kwargs):
    return lineups.set_lineup(match, team, half, players[:2], players[2:], **kwargs)


def play_board(match, director, board, table=None):
    entry.submit_result(
        user=director,
        section=match.session.sections.get(),
        table=table or match.open_table,
        round=match.round,
        board=board,
        contract="3NT",
        declarer="N",
        tricks=9,
        idempotency_key=uuid.uuid4().hex,
    )

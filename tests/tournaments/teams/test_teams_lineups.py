"""Team line-ups through the services: the course's seating rules for a match's halves
(C03 l.130-136 and l.287-309, "Art. 112"), substitutions logged with who, when and why."""

import pytest

from tests.tournaments.support.team_lineups import play_board, seat, teams_of_six
from tournaments.models import AuditAction, AuditEntry, TableCode, TeamLineup
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.teams import lineups

pytestmark = pytest.mark.django_db


def test_a_match_over_16_boards_has_two_halves_and_up_to_16_one(members):
    """C03 l.136: "Los match a más de 16 manos se juegan a dos tiempos"."""
    match, home, _away = teams_of_six(members, boards=20)
    assert lineups.match_halves(match) == [list(range(1, 11)), list(range(11, 21))]
    short, home16, _ = teams_of_six(members[24:], boards=16, count=2)
    assert lineups.match_halves(short) == [list(range(1, 17))]
    with pytest.raises(TournamentError):
        seat(short, short.home, 2, home16[:4])


def test_default_line_up_is_the_registration_order_captain_first(members):
    match, home, away = teams_of_six(members)
    open_, closed = lineups.lineup_for(match, match.home, 1)
    assert open_ == [home[0].pk, home[1].pk] and closed == [home[2].pk, home[3].pk]


def test_any_four_different_players_of_the_team_may_sit(members, director):
    """C03 l.132-134: a team of 4 to 6; its four players form two pairs, one per room."""
    match, home, away = teams_of_six(members)
    row = seat(match, match.home, 1, [home[4], home[5], home[0], home[1]], user=director)
    assert (row.open_pair, row.closed_pair) == ((home[4].pk, home[5].pk), (home[0].pk, home[1].pk))
    assert row.entered_by == director and row.entered_at is not None
    half = lineups.seating(match)[0]
    # the home team NS in the open room and EW in the closed room (l.291)
    assert half.open.ns == [home[4].full_name, home[5].full_name]
    assert half.closed.ew == [home[0].full_name, home[1].full_name]
    assert half.home_named and not half.away_named


@pytest.mark.parametrize(
    "pick",
    [
        lambda home, away: [home[0], home[1], home[1], home[2]],  # the same player twice
        lambda home, away: [home[0], home[1], away[0], away[1]],  # players of the other team
    ],
)
def test_a_line_up_of_other_than_four_players_of_the_team_is_refused(members, pick):
    match, home, away = teams_of_six(members)
    with pytest.raises(TournamentError):
        seat(match, match.home, 1, pick(home, away))
    assert not TeamLineup.objects.exists()


def test_second_half_proposal_keeps_the_home_team_and_swaps_the_visitors(members):
    """C03 l.297 (home pairs stay in their room) and l.303 (the visitors sit so that no pair
    meets a pair it already met): with both visiting pairs continuing they swap rooms."""
    match, home, away = teams_of_six(members)
    open_, closed = lineups.lineup_for(match, match.away, 2)
    assert set(open_) == {away[2].pk, away[3].pk} and set(closed) == {away[0].pk, away[1].pk}
    assert lineups.lineup_for(match, match.home, 2) == lineups.lineup_for(match, match.home, 1)


def test_a_continuing_home_pair_may_not_change_room(members):
    """C03 l.297: "cualquier pareja del equipo receptor que continúe jugando seguirá en la sala
    en que había estado jugando"."""
    match, home, away = teams_of_six(members)
    seat(match, match.home, 1, home[:4])
    with pytest.raises(TournamentError, match="sigue en la sala en que jugó el primero"):
        seat(match, match.home, 2, [home[2], home[3], home[0], home[1]])


def test_visitors_may_not_meet_a_pair_they_met_in_the_first_half(members):
    """C03 l.303: "ninguna pareja juegue contra una con quien ya hubiese jugado"."""
    match, home, away = teams_of_six(members)
    seat(match, match.away, 1, away[:4])
    with pytest.raises(
        TournamentError, match="ninguna pareja puede jugar contra una con la que ya haya jugado"
    ):
        seat(match, match.away, 2, away[:4])
    seat(match, match.away, 2, [away[2], away[3], away[0], away[1]])  # rooms swapped: accepted


def test_a_substitute_pair_takes_the_room_of_the_pair_it_replaces(members, director):
    """C03 l.301: the substitute pair for the second half sits where the pair it replaces
    sat; the substitution is logged with who, when and why."""
    match, home, away = teams_of_six(members)
    seat(match, match.home, 1, home[:4])
    seat(
        match, match.home, 2, [home[0], home[1], home[4], home[5]], user=director, reason="Descanso"
    )
    log = AuditEntry.objects.get(action=AuditAction.SUBSTITUTE)
    assert log.user == director and log.reason == "Descanso" and log.at is not None
    assert log.after["players"] == [home[4].full_name, home[5].full_name]
    assert sorted(log.before["players"]) == sorted([home[2].full_name, home[3].full_name])
    subs = lineups.substitutions(match)
    assert [(s.half, s.team, s.during) for s in subs] == [(2, str(match.home), False)]
    # the visitors still sit by the rule: their proposal swaps rooms against the new pair
    open_, _closed = lineups.lineup_for(match, match.away, 2)
    assert set(open_) == {away[2].pk, away[3].pk}


def test_a_change_of_partners_makes_new_pairs_who_may_meet_anyone(members):
    """C03 l.299: "Todo cambio entre compañeros crea una nueva pareja"."""
    match, home, away = teams_of_six(members)
    seat(match, match.away, 1, away[:4])
    seat(match, match.away, 2, [away[0], away[2], away[1], away[3]])
    assert TeamLineup.objects.filter(half=2).count() == 1
    assert not lineups.substitutions(match)  # the same four players: nobody came in


def test_the_home_team_may_not_break_a_second_half_the_visitors_already_sat(members):
    """l.303 holds whichever team names last: a seated second half is checked again."""
    match, home, away = teams_of_six(members)
    seat(match, match.away, 2, [away[2], away[3], away[0], away[1]])
    # home pair 3-4 taking the open room would be a continuing pair changing room
    with pytest.raises(TournamentError, match="sigue en la sala en que jugó el primero"):
        seat(match, match.home, 2, [home[2], home[3], home[4], home[5]])
    # a first half that the seated second half would repeat is refused too
    with pytest.raises(
        TournamentError, match="ninguna pareja puede jugar contra una con la que ya haya jugado"
    ):
        seat(match, match.away, 1, [away[2], away[3], away[0], away[1]])


def test_replacing_a_player_during_a_half_needs_the_director_and_a_reason(members, director):
    """C03 l.305: other changes only with the director's leave, "en casos de enfermedad u
    otros justificados"; l.136: the seats are fixed for the half."""
    match, home, away = teams_of_six(members)
    seat(match, match.home, 1, home[:4], user=director)
    play_board(match, director, 1)
    device = TableCode.objects.get(
        section__session=match.session, table=match.open_table, active=True
    )
    replaced = [home[0], home[4], home[2], home[3]]
    with pytest.raises(NotAllowed):
        seat(match, match.home, 1, replaced, table_code=device)
    with pytest.raises(NotAllowed):  # a device may not move players either
        seat(match, match.home, 1, [home[1], home[0], home[2], home[3]], table_code=device)
    with pytest.raises(TournamentError, match="otra causa justificada"):
        seat(match, match.home, 1, replaced, user=director)
    seat(match, match.home, 1, replaced, user=director, reason="Enfermedad")
    [sub] = lineups.substitutions(match)
    assert sub.during and sub.reason == "Enfermedad" and sub.joining == [home[4].full_name]
    change = AuditEntry.objects.get(action=AuditAction.LINEUP)
    assert change.before["open"] == [home[0].full_name, home[1].full_name]
    assert change.after["open"] == [home[0].full_name, home[4].full_name]


def test_a_device_seats_only_its_own_match_before_play(members):
    match, home, away = teams_of_six(members)
    other = TableCode.objects.get(section__session=match.session, table=3, active=True)
    with pytest.raises(NotAllowed):
        seat(match, match.home, 1, home[:4], table_code=other)
    own = TableCode.objects.get(
        section__session=match.session, table=match.closed_table, active=True
    )
    row = seat(match, match.away, 1, away[:4], table_code=own)
    assert row.table_code == own and row.entered_by is None


def test_at_the_table_the_visitors_name_first_then_in_the_second_half_the_home_team(members):
    """The course: the home team sits its players after the visitors in the first half; in
    the second half the home team names first and the visitors sit after it."""
    match, home, away = teams_of_six(members)
    device = TableCode.objects.get(
        section__session=match.session, table=match.open_table, active=True
    )
    assert lineups.names_first(match, 1) == match.away
    assert lineups.names_first(match, 2) == match.home
    with pytest.raises(TournamentError, match="el equipo visitante nombra primero"):
        seat(match, match.home, 1, home[:4], table_code=device)
    assert lineups.waits_for(match, match.home, 1) == match.away
    seat(match, match.away, 1, away[:4], table_code=device)
    assert lineups.waits_for(match, match.home, 1) is None
    seat(match, match.home, 1, home[:4], table_code=device)
    with pytest.raises(TournamentError, match="el equipo local nombra primero"):
        seat(match, match.away, 2, [away[2], away[3], away[0], away[1]], table_code=device)
    seat(match, match.home, 2, home[:4], table_code=device)
    seat(match, match.away, 2, [away[2], away[3], away[0], away[1]], table_code=device)
    assert TeamLineup.objects.count() == 4


def test_the_director_may_name_either_team_in_any_order(members, director):
    match, home, away = teams_of_six(members)
    seat(match, match.home, 1, home[:4], user=director)
    seat(match, match.away, 2, [away[2], away[3], away[0], away[1]], user=director)
    assert TeamLineup.objects.count() == 2

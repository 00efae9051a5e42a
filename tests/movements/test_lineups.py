"""The course's seating rules for team matches (C03 l.130-134, l.287-309)."""

from collections import Counter

import pytest

from tournaments.movements.lineups import (
    LineupError,
    TeamLineup,
    check_second_half,
    check_team,
    default_lineup,
    halves,
    propose_second_half,
)
from tournaments.movements.teams import round_robin

HOME = ["h1", "h2", "h3", "h4", "h5", "h6"]
AWAY = ["a1", "a2", "a3", "a4"]


def test_halves_only_over_16_boards():
    assert halves(16) == [range(1, 17)]
    assert halves(8) == [range(1, 9)]
    assert halves(24) == [range(1, 13), range(13, 25)]
    assert halves(17) == [range(1, 10), range(10, 18)]


def test_default_is_players_1_2_open_3_4_closed():
    lineup = default_lineup(HOME)
    assert lineup.open == frozenset({"h1", "h2"}) and lineup.closed == frozenset({"h3", "h4"})
    with pytest.raises(LineupError):
        default_lineup(HOME[:3])


def test_team_lineup_needs_four_different_players_of_the_team():
    check_team(TeamLineup.of(["h5", "h6"], ["h1", "h2"]), HOME)
    with pytest.raises(LineupError):
        check_team(TeamLineup.of(["h1", "h2"], ["h2", "h3"]), HOME)
    with pytest.raises(LineupError):
        check_team(TeamLineup.of(["h1", "h2"], ["a1", "a2"]), HOME)


def test_second_half_visitors_swap_rooms():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    home2, away2 = propose_second_half(home, away)
    assert home2 == home  # continuing home pairs keep their rooms
    assert away2 == away.swapped()


def test_substitute_home_pair_takes_the_room_it_replaces():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    sub = TeamLineup.of(["h1", "h2"], ["h5", "h6"])  # h5-h6 replace h3-h4 in the closed room
    home2, away2 = propose_second_half(home, away, home=sub)
    check_second_half(home, away, home2, away2)
    assert home2.closed == frozenset({"h5", "h6"}) and away2 == away.swapped()


def test_pairs_meeting_again_is_refused():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    with pytest.raises(LineupError) as err:
        check_second_half(home, away, home, away)
    assert err.value.code == "pairs_meet_again"


def test_a_continuing_home_pair_may_not_change_room():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    with pytest.raises(LineupError) as err:
        check_second_half(home, away, home.swapped(), away)
    assert err.value.code == "home_pair_changed_room"


def test_proposal_refuses_a_home_pair_changing_room_as_such():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    with pytest.raises(LineupError) as err:
        propose_second_half(home, away, home=TeamLineup.of(["h3", "h4"], ["h5", "h6"]))
    assert err.value.code == "home_pair_changed_room"


def test_new_partnership_is_a_new_pair():
    home, away = default_lineup(HOME), default_lineup(AWAY)
    reformed = TeamLineup.of(["a1", "a3"], ["a2", "a4"])  # "todo cambio ... crea una nueva pareja"
    home2, away2 = propose_second_half(home, away, away_pairs=reformed)
    check_second_half(home, away, home2, away2)


@pytest.mark.parametrize("teams", range(4, 11))
def test_inverse_square_gives_each_team_home_in_about_half_its_matches(teams):
    """M4 (Art. 112: "se asignará a cada equipo para la mitad aproximadamente")."""
    schedule = round_robin(teams, method="inverse")
    home, played = Counter(), Counter()
    for rnd in schedule.rounds:
        for m in rnd.matches:
            if m.away:
                home[m.home] += 1
                played.update([m.home, m.away])
    assert len(played) == teams
    for team, n in played.items():
        assert abs(home[team] - n / 2) <= 1, (team, home[team], n)

"""What the room screen says when a round ends (``movements.instructions``): a Mitchell in one
line, a Howell pair by pair, sit-outs, the skip, the twin table and the arrow switch."""

import pytest

from tournaments.movements import Movement, howell, individual, mitchell
from tournaments.movements.instructions import (
    BoardMove,
    LineSteps,
    Place,
    places,
    round_change,
    table_step,
)


def stored(movement) -> Movement:
    """As the site reads it back: through the stored dict."""
    return Movement.from_dict(movement.to_dict())


@pytest.mark.parametrize(
    ("now", "nxt", "tables", "step"),
    [(3, 4, 5, 1), (5, 1, 5, 1), (1, 5, 5, -1), (2, 2, 7, 0), (1, 3, 4, 2), (6, 4, 7, -2)],
)
def test_tables_count_round_the_room_the_short_way(now, nxt, tables, step):
    assert table_step(now, nxt, tables) == step


def test_a_mitchell_is_one_line_every_round():
    movement = stored(mitchell(7, 7, 2))
    for r in range(1, 7):
        change = round_change(movement, r)
        assert change.steps == LineSteps(ns=0, ew=1, boards=-1, switch=False), r
        assert change.other_boards == ()
        assert change.sitting_out == ()
    assert round_change(movement, 7) is None  # the last round: nothing follows
    assert round_change(movement, 9) is None


def test_each_pair_goes_where_round_r_plus_1_seats_it():
    """Checked against the movement's own seating, pair by pair and set by set."""
    movement = stored(mitchell(5, 5, 3))
    change = round_change(movement, 2)
    second, third = places(movement.rounds[1]), places(movement.rounds[2])
    assert {m.contestant for m in change.moves} == set(second)
    for move in change.moves:
        assert move.now == second[move.contestant] and move.next == third[move.contestant]
        if str(move.contestant).endswith("NS"):
            assert move.stays
        else:
            assert move.next.table == move.now.table % 5 + 1  # up one, table 5 to table 1
    for boards in change.boards:
        (now,), (nxt,) = boards.now, boards.next
        assert nxt == (now - 2) % 5 + 1  # down one, table 1 to table 5


def test_the_skip_moves_ew_up_two_once():
    movement = stored(mitchell(6, 5, 2))  # even: after round 3 EW skip a table
    steps = [round_change(movement, r).steps for r in range(1, 5)]
    assert [s.ew for s in steps] == [1, 1, 2, 1]
    assert {s.ns for s in steps} == {0} and {s.boards for s in steps} == {-1}


def test_a_half_table_sits_one_ew_pair_out_and_the_rule_still_holds():
    """Nine pairs on five tables: NS 5 is nobody, so whoever reaches table 5 sits out, and
    the boards waiting at table 5 go on down to table 4."""
    movement = stored(mitchell(5, 5, 3, pairs=9))
    change = round_change(movement, 1)
    assert change.steps == LineSteps(0, 1, -1, False)
    assert change.other_boards == ()
    assert change.sitting_out == ("4EW",)  # at table 4 now, table 5 next: nobody there
    out = next(m for m in change.moves if m.contestant == "4EW")
    assert out.now == Place(4, "EW") and out.next is None
    back = next(m for m in change.moves if m.contestant == "5EW")
    assert back.now is None and back.next == Place(1, "EW")  # back in, at table 1
    relay = next(b for b in change.boards if b.now == ())
    assert relay.next == (4,)  # the half table's boards go to table 4


def test_the_twin_tables_relay_stand_is_named_apart():
    """Four tables with the twin table: tables 1 and 4 share a set, and a set rests on a
    stand between tables 2 and 3; the rest moves down one."""
    movement = stored(mitchell(4, 4, 2, even="twin"))
    change = round_change(movement, 1)
    assert change.steps == LineSteps(0, 1, -1, False)
    assert set(change.other_boards) == {
        BoardMove((5, 6), (), (2,)),  # from the stand to table 2
        BoardMove((7, 8), (3,), ()),  # from table 3 to the stand
    }


def test_the_arrow_switch_is_said():
    movement = stored(mitchell(6, 5, 2, arrow_switch=[5]))
    assert round_change(movement, 4).steps.switch is True
    assert round_change(movement, 3).steps.switch is False


def test_a_howell_has_no_one_line_and_every_pair_is_listed():
    movement = stored(howell(4, 2))
    change = round_change(movement, 3)
    assert change.steps is None
    assert len(change.moves) == 8 and change.sitting_out == ()
    fourth = places(movement.rounds[3])
    assert {m.contestant: m.next for m in change.moves} == fourth
    for boards in change.boards:  # each set to the table round 4 plays it at, or to rest
        for table in boards.next:
            assert movement.at(4, table).boards == boards.boards
        for table in boards.now:
            assert movement.at(3, table).boards == boards.boards


def test_a_howell_sit_out():
    """Seven pairs: the phantom's opponent sits out, and comes back the next round."""
    movement = stored(howell(pairs=7, boards_per_round=3))
    change = round_change(movement, 1)
    assert change.steps is None
    (out,) = change.sitting_out
    assert out == movement.rounds[1].sitout[0]
    came_back = next(m for m in change.moves if m.contestant == movement.rounds[0].sitout[0])
    assert came_back.now is None and came_back.next is not None
    assert 8 not in {m.contestant for m in change.moves}  # the phantom is nobody


def test_an_individual_lists_each_player_and_seat():
    movement = stored(individual(8))
    change = round_change(movement, 1)
    assert change.steps is None
    assert {m.next.seat for m in change.moves} == {"north", "south", "east", "west"}


def test_an_absent_contestant_is_nobody_and_their_opponent_sits_out():
    """A card that seats the phantom at a table (pair 8 of seven pairs): that table is
    empty, and the pair drawn against 8 sits out."""
    movement = stored(howell(4, 2))
    change = round_change(movement, 1, absent={8})
    assert 8 not in {m.contestant for m in change.moves}
    opponent = next(t for t in movement.rounds[1].tables if 8 in (t.ns, t.ew))
    (out,) = change.sitting_out
    assert out == ({opponent.ns, opponent.ew} - {8}).pop()
    assert all(opponent.table not in b.next for b in change.boards)  # nobody plays there

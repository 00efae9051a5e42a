"""A table posts only for rounds it has reached, and a board shows once every table due to
play it has played it in its round (``services.play_order``, ``services.board_visibility``).

The rule is checked pure over generated movements (Mitchell, Howell, individual, teams) with
tables playing in any interleaving and results stored ahead of play; then through the table's
HTTP endpoint, where every device's post for a later round is refused and stores nothing.
"""

import random
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.conftest import mitchell_dict, play_rounds_before
from tests.tournaments.results.test_board_visibility import (
    assert_hidden,
    assert_shown,
    board_html,
    publish_provisional,
    running,
)
from tournaments.models import Result, TableCode
from tournaments.movements import howell, individual, mitchell, round_robin
from tournaments.services.results.board_visibility import (
    SectionPlan,
    boards_complete,
    complete_boards,
    scheduled_plays,
)
from tournaments.services.setup import plan
from tournaments.services.table import entry, play_order
from tournaments.services.teams.team_schedule import teams_movement

MOVEMENTS = {
    "mitchell-5": lambda: mitchell(5, boards_per_round=2).to_dict(),
    "mitchell-6-relay": lambda: mitchell(6, boards_per_round=2, even="twin").to_dict(),
    "mitchell-4-skip": lambda: mitchell(4, boards_per_round=3).to_dict(),
    "howell-7-phantom": lambda: howell(pairs=7, boards_per_round=2).to_dict(),
    "howell-10": lambda: howell(pairs=10, boards_per_round=2).to_dict(),
    "individual-8": lambda: individual(8, boards_per_round=2).to_dict(),
    "individual-12": lambda: individual(12, boards_per_round=1).to_dict(),
    "teams-round-robin-5": lambda: teams_dict(5, 3),
    "teams-round-robin-6": lambda: teams_dict(6, 2),
}


def teams_dict(teams: int, boards: int) -> dict:
    """A teams event's stored movement (both rooms of each match), as the event stores it."""
    schedule = round_robin(teams)
    return teams_movement(
        [(r.round, [(m.home, m.away) for m in r.matches], r.bye) for r in schedule.rounds],
        boards,
        teams,
    )


def everyone_seated(movement: dict) -> set[tuple[int, int, str]]:
    """Every place of the movement taken, but a phantom's (its opponents sit out)."""
    return {
        (1, number, line)
        for number, line in plan.pair_numbers(movement)
        if not plan.is_phantom(movement, number, line or "EW")
    }


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(MOVEMENTS)), seed=st.integers(0, 2**32 - 1), ahead=st.integers(0, 6)
)
def test_a_table_reaches_its_rounds_in_order_and_a_board_shows_only_when_played(name, seed, ahead):
    """Tables play their rounds in order in a random interleaving; before each post, a
    device tries every later round: only its current round (and the ones before) are open.
    Lines stored ahead of play (``ahead`` of them, as a director could) never make a board
    show; a board shows exactly when every table due to play it has played it."""
    rng = random.Random(seed)
    movement = MOVEMENTS[name]()
    sections = [SectionPlan(1, "A", 0, movement)]
    seated = everyone_seated(movement)
    scheduled = scheduled_plays(sections, seated)
    directional = plan.is_directional(movement)

    def taken(number, line):
        return number is not None and (1, number, line if directional else "") in seated

    rounds = play_order.played_rounds(movement, 0, taken)
    assert rounds, name
    todo = {
        table: [(r, list(boards)) for r, boards in sorted(played)]
        for table, played in rounds.items()
    }
    for work in todo.values():
        for _r, boards in work:
            rng.shuffle(boards)
    every_slot = [(t, r, b) for t, played in rounds.items() for r, bs in played for b in bs]
    early = rng.sample(every_slot, min(ahead, len(every_slot)))
    played: list[tuple[int, int, int, int]] = []  # posted in play, by the tables
    stored_ahead = [(1, r, t, b) for t, r, b in early]
    while any(todo.values()):
        table = rng.choice([t for t, work in todo.items() if work])
        current = todo[table][0][0]
        lines_here = {(r, b) for _s, r, t, b in played if t == table}
        opened = play_order.open_rounds(rounds[table], lines_here)
        assert {r for r, _b in rounds[table] if r <= current} == opened, (name, table)
        rnd, boards = todo[table][0]
        played.append((1, rnd, table, boards.pop()))
        if not boards:
            todo[table].pop(0)
        # Only the tables' own lines: a board shows once every scheduled play is among them.
        only_played = shown_boards(sections, seated, scheduled, played)
        assert only_played == {
            board
            for board, plays in scheduled.items()
            if plays <= plays_of(played).get(board, set())
        }, name
        # With lines stored ahead of play: a line counts only in a round open at its table.
        lines = played + [a for a in stored_ahead if a not in played]
        shown = shown_boards(sections, seated, scheduled, lines)
        assert shown >= only_played
        counted = [
            (s, r, t, b)
            for s, r, t, b in lines
            if opens(rounds[t], {(r2, b2) for _s, r2, t2, b2 in lines if t2 == t}, r)
        ]
        assert shown == {
            board
            for board, plays in scheduled.items()
            if plays <= plays_of(counted).get(board, set())
        }, name
    assert complete_boards(
        scheduled, play_order.open_lines(sections, seated, played), {1: "A"}
    ) == frozenset(scheduled)


def shown_boards(sections, seated, scheduled, lines) -> frozenset:
    return complete_boards(scheduled, play_order.open_lines(sections, seated, lines), {1: "A"})


def plays_of(lines) -> dict:
    out: dict = {}
    for s, r, t, b in lines:
        out.setdefault(("A", b), set()).add((s, r, t))
    return out


def opens(rounds, stored, rnd) -> bool:
    """The rule as the issue words it, for one round: the table's first round, or one whose
    previous round at the table has every board stored."""
    ordered = sorted(rounds)
    index = [r for r, _b in ordered].index(rnd)
    return index == 0 or all((ordered[index - 1][0], b) in stored for b in ordered[index - 1][1])


def test_a_round_the_table_sits_out_is_passed_over():
    """Howell for seven pairs: the phantom's table plays nothing in some rounds; the round
    after opens once the round before the sit-out is complete."""
    rounds = [(1, (1, 2)), (3, (5, 6))]  # the table sits out round 2
    assert play_order.open_rounds(rounds, set()) == {1}
    assert play_order.open_rounds(rounds, {(1, 1)}) == {1}
    assert play_order.open_rounds(rounds, {(1, 1), (1, 2)}) == {1, 3}


def test_a_late_board_keeps_the_next_round_closed_until_its_line_is_stored():
    rounds = [(1, (1, 2)), (2, (3, 4)), (3, (5, 6))]
    stored = {(1, 1), (1, 2), (2, 3)}  # board 4 of round 2 not played yet
    assert play_order.open_rounds(rounds, stored) == {1, 2}
    # the director's line for it (a late-play result, an adjusted score, "not played")
    assert play_order.open_rounds(rounds, stored | {(2, 4)}) == {1, 2, 3}
    # a line deleted later leaves its round open, and the round after it too
    assert play_order.open_rounds(rounds, stored | {(2, 4)} - {(1, 1)}) == {1, 2, 3}


# --- through the database and HTTP --------------------------------------------------------


def device(section, table: int) -> Client:
    table_code = TableCode.objects.get(section=section, table=table, active=True)
    client = Client()
    response = client.post(
        reverse("table:index"), {"table": table_code.label, "code": table_code.code}
    )
    assert response.status_code == 302
    return client


def post(client, rnd: int, board: int, key: str | None = None, **fields):
    data = {
        "round": rnd,
        "board": board,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": key or uuid.uuid4().hex,
    } | fields
    return client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")


def boards_of(section, rnd: int, table: int) -> list[int]:
    return [b + section.board_offset for b in plan.slot_for(section.movement, rnd, table).boards]


def test_every_device_posting_for_a_later_round_is_refused_and_stores_nothing(mitchell_session):
    """The held-out probe: each of the seven tables, in round 1, posts for every later round."""
    section = mitchell_session
    for table in range(1, 8):
        client = device(section, table)
        for rnd in range(2, 8):
            for board in boards_of(section, rnd, table):
                answer = post(client, rnd, board)
                assert answer.status_code == 409, (table, rnd, board)
                assert answer.json()["outcome"] == "round_not_open"
                assert (
                    f"Round {rnd}" in answer.json()["error"]
                    or "ronda" in answer.json()["error"].lower()
                )
    assert Result.objects.count() == 0


def test_the_next_round_opens_when_the_round_before_is_complete(mitchell_session):
    section = mitchell_session
    client = device(section, 1)
    first, second = boards_of(section, 1, 1)
    assert post(client, 1, first).status_code == 201
    assert post(client, 2, boards_of(section, 2, 1)[0]).status_code == 409  # round 1 half done
    assert post(client, 1, second).status_code == 201
    assert post(client, 2, boards_of(section, 2, 1)[0]).status_code == 201
    assert post(client, 4, boards_of(section, 4, 1)[0]).status_code == 409  # skipping round 3
    assert Result.objects.count() == 3


def test_a_replay_of_a_stored_result_still_gets_its_answer(mitchell_session, director):
    """The director deletes a round-1 line after round 2 was stored: the device's resend of
    its round-2 result is a duplicate, not a refusal (it must not stay waiting for ever)."""
    section = mitchell_session
    client = device(section, 1)
    for board in boards_of(section, 1, 1):
        assert post(client, 1, board).status_code == 201
    key = uuid.uuid4().hex
    board_2 = boards_of(section, 2, 1)[0]
    assert post(client, 2, board_2, key).status_code == 201
    Result.objects.filter(round=1, table=1).first().delete()
    again = post(client, 2, board_2, key)
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    assert post(client, 2, boards_of(section, 2, 1)[1]).status_code == 409


def test_the_board_form_without_javascript_shows_the_refusal_and_keeps_what_was_typed(
    mitchell_session,
):
    section = mitchell_session
    client = device(section, 1)
    board = boards_of(section, 3, 1)[0]
    data = {
        "round": 3,
        "board": board,
        "level": "4",
        "strain": "H",
        "double": "",
        "declarer": "E",
        "made": "-1",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": uuid.uuid4().hex,
    }
    response = client.post(reverse("table:board", args=[3, board]), data)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Ronda 3" in html or "Round 3" in html
    assert (
        'value="H" checked' in html.replace("\n", " ")
        or response.context["form"]["strain"].value() == "H"
    )
    assert Result.objects.count() == 0


def test_a_deal_stays_hidden_until_its_last_table_played_it_in_its_round(members, director):
    """The issue's case: a table in round 4 tries its round-5 board 1; every other table plays
    board 1; the public board page hides the deal (and the slam) until that table has played
    it in its round 5, even with its line stored ahead of play by the director."""
    section = running(members, mitchell_dict(7, 7, 2), 14)
    session = section.session
    plays = sorted((s.round, s.table) for s in plan.slots(section.movement) if 1 in s.boards)
    late, rnd_1 = next((t, r) for r, t in plays if r == 5)  # board 1 reaches it in round 5
    play_rounds_before(section, late, 4, director)
    client = device(section, late)
    assert post(client, 5, 1).status_code == 409
    assert Result.objects.filter(table=late, board__number=1).count() == 0
    for rnd, table in plays:
        if table != late:
            play_rounds_before(section, table, rnd, director)
            contract = ("6NT", 12) if rnd == plays[0][0] else ("1NT", 7)
            entry.submit_result(
                user=director,
                section=section,
                table=table,
                round=rnd,
                board=1,
                contract=contract[0],
                declarer="N",
                tricks=contract[1],
                idempotency_key=f"t{table}",
            )
    entry.submit_result(
        user=director,
        section=section,
        table=late,
        round=5,
        board=1,
        contract="3NT",
        declarer="S",
        tricks=9,
        idempotency_key="ahead",
    )
    publish_provisional(section, director)
    assert (section.pool, 1) not in boards_complete(session)
    assert_hidden(board_html(Client(), section))
    # the table plays its round 4: round 5 opens, its line counts, the deal shows
    for board in boards_of(section, 4, late):
        assert post(client, 4, board).status_code == 201
    assert (section.pool, 1) in boards_complete(session)
    assert_shown(board_html(Client(), section))


@pytest.mark.parametrize("name", ["howell-7-phantom", "individual-8", "teams-round-robin-5"])
def test_the_database_check_agrees_with_the_pure_rule(name):
    """``refuse_unreached_round`` (the post's query) against ``open_rounds`` on the same
    lines, over every table and round, for movements with sit-outs, four players or rooms."""
    movement = MOVEMENTS[name]()
    rng = random.Random(7)
    seated = everyone_seated(movement)
    directional = plan.is_directional(movement)
    rounds = play_order.played_rounds(
        movement, 0, lambda n, line: n is not None and (1, n, line if directional else "") in seated
    )
    for table, played in rounds.items():
        stored = {(r, b) for r, bs in played for b in bs if rng.random() < 0.7}
        opened = play_order.open_rounds(played, stored)
        for rnd, _boards in played:
            assert _db_open(movement, table, rnd, stored, seated) == (rnd in opened), (
                name,
                table,
                rnd,
            )


def _db_open(movement, table, rnd, stored, seated) -> bool:
    """``refuse_unreached_round`` with its two queries answered from ``stored``/``seated``."""
    from unittest import mock

    section = mock.Mock(movement=movement, board_offset=0)
    rows = [(r, b) for r, b in stored if r < rnd]
    results = mock.Mock()
    results.filter.return_value.order_by.return_value.values_list.return_value = rows
    seats = {(n, line) for _s, n, line in seated}
    with (
        mock.patch.object(play_order, "Result", mock.Mock(objects=results)),
        mock.patch.object(play_order, "_active_seats", return_value=seats),
    ):
        try:
            play_order.refuse_unreached_round(section, table, rnd)
        except play_order.RoundNotOpen:
            return False
    return True

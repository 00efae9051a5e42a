"""The board state stored on each result: it follows every way a result and its audit trail
change, the rule works it out again from the row and its trail alone, and the console's grid
reads it per table and board of a round.

Tonight's running Mitchell is built once for the module
(tests/module_rows.py), each test in a savepoint of it."""

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.conftest import shared_mitchell
from tests.tournaments.table.test_table_corrections import code, saved
from tournaments.models import AuditAction, AuditEntry, BoardState, Result
from tournaments.services.running import board_grid, corrections
from tournaments.services.table import board_states, entry, table_corrections

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def derived() -> dict[int, str]:
    """Every result's state worked out from its trail, as before it was stored."""
    return board_states.from_trails(Result.objects.all())


def stored() -> dict[int, str]:
    return dict(Result.objects.values_list("pk", "board_state"))


def test_the_stored_state_follows_every_change(mitchell_session, director):
    table_code = code(mitchell_session, 1)
    entered = saved(mitchell_session, board=1)
    confirmed = entry.confirm_result(saved(mitchell_session, board=2), table_code=table_code)
    disputed = saved(mitchell_session, table=2, board=3)
    table_corrections.dispute_at_table(
        disputed, table_code=code(mitchell_session, 2), reason="Fueron 9 bazas"
    )
    kept = saved(mitchell_session, table=2, board=4)
    table_corrections.dispute_at_table(kept, table_code=code(mitchell_session, 2), reason="No")
    table_corrections.keep_disputed(kept, user=director, reason="Las bazas están bien")
    fixed = saved(mitchell_session, table=3, board=5)
    corrections.correct_result(
        fixed, user=director, contract="3N", declarer="S", tricks=9, reason="Planilla"
    )
    adjusted = corrections.adjust_score(
        user=director,
        section=mitchell_session,
        round=1,
        table=3,
        board=6,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Tarde",
        law="12C2",
    )
    expected = {
        entered.pk: BoardState.ENTERED,
        confirmed.pk: BoardState.CONFIRMED,
        disputed.pk: BoardState.DISPUTED,
        kept.pk: BoardState.CONFIRMED,
        fixed.pk: BoardState.CORRECTED,
    }
    assert {pk: stored()[pk] for pk in expected} == expected
    assert Result.objects.get(pk=adjusted.pk).board_state == BoardState.CORRECTED
    assert stored() == derived()
    # reading states needs no query: they are on the rows
    rows, expected = list(Result.objects.all()), stored()
    with CaptureQueriesContext(connection) as queries:
        assert table_corrections.states(rows) == expected
    assert len(queries) == 0


def test_the_rule_works_each_state_out_again_from_the_trail(mitchell_session, director):
    disputed = saved(mitchell_session, table=2, board=3)
    table_corrections.dispute_at_table(
        disputed, table_code=code(mitchell_session, 2), reason="Fueron 9 bazas"
    )
    fixed = saved(mitchell_session, table=3, board=5)
    corrections.correct_result(
        fixed, user=director, contract="3N", declarer="S", tricks=9, reason="Planilla"
    )
    plain = entry.confirm_result(
        saved(mitchell_session, board=2), table_code=code(mitchell_session, 1)
    )
    before = stored()
    # the stored states forgotten: the row's own fields and its trail still give each one
    Result.objects.update(board_state=BoardState.ENTERED)
    assert derived() == before
    assert (before[plain.pk], before[disputed.pk], before[fixed.pk]) == (
        BoardState.CONFIRMED,
        BoardState.DISPUTED,
        BoardState.CORRECTED,
    )


def test_an_imported_row_starts_from_its_own_fields():
    assert Result(adjustment={"kind": "artificial"}).fresh_state() == BoardState.CORRECTED
    assert Result(confirmed=True).fresh_state() == BoardState.CONFIRMED
    assert Result().fresh_state() == BoardState.ENTERED


def test_the_grid_shows_each_table_and_board_of_a_round(mitchell_session, director):
    section = mitchell_session
    session = section.session
    empty = board_grid.board_grid(session)
    assert empty.round == 1 and empty.rounds == tuple(range(1, 8))
    assert len(empty.rows) == 7 and all(len(r.cells) == 2 for r in empty.rows)
    assert empty.counts["missing"] == 14
    row = saved(section, table=1, round_=1, board=1)
    table_corrections.dispute_at_table(row, table_code=code(section, 1), reason="No")
    # table 2 plays round 1, then the first board of its round 2 (the round opens then)
    for board in section.movement["rounds"][0]["tables"][1]["boards"]:
        saved(section, table=2, round_=1, board=board)
    later = saved(
        section, table=2, round_=2, board=section.movement["rounds"][1]["tables"][1]["boards"][0]
    )
    # six of seven tables are still on round 1: the grid stays there (issue #35)
    assert board_grid.board_grid(session).round == 1
    grid = board_grid.board_grid(session, 2)
    assert grid.round == 2
    (first,) = [c for r in grid.rows if r.table == 2 for c in r.cells if c.state != "missing"]
    assert (first.board, first.state) == (later.board.number, BoardState.ENTERED)
    one = board_grid.board_grid(session, 1)
    cells = {(r.table, c.board): c.state for r in one.rows for c in r.cells}
    assert cells[(1, 1)] == BoardState.DISPUTED and cells[(1, 2)] == "missing"
    assert one.counts[BoardState.DISPUTED] == 1 and one.counts["missing"] == 11
    assert board_grid.board_grid(session, 99).round == 1  # no such round: the current one


@pytest.mark.parametrize(
    "language, word", [("es", "Rechazado"), ("pt", "Contestado"), ("en", "Disputed")]
)
def test_the_console_draws_the_grid(director_client, mitchell_session, language, word):
    section = mitchell_session
    row = saved(section, table=1, round_=1, board=1)
    table_corrections.dispute_at_table(row, table_code=code(section, 1), reason="No")
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("director:console", args=[section.session.pk])
    html = director_client.get(url).content.decode()
    assert 'id="board-state-grid"' in html
    assert html.count('class="board-cell state-') == 14
    assert 'data-board="1" data-state="disputed"' in html and word in html
    assert reverse("director:line", args=[section.pk, 1, 1, 1]) in html
    # another round, and a round that is not one
    assert 'data-round="3"' in director_client.get(url, {"round": 3}).content.decode()
    assert 'data-round="1"' in director_client.get(url, {"round": "x"}).content.decode()
    polled = director_client.get(url, {"round": 3}, HTTP_HX_REQUEST="true").content.decode()
    assert "?round=3" in polled and 'data-round="3"' in polled


def test_audit_entries_of_other_kinds_leave_the_state(mitchell_session, director):
    row = saved(mitchell_session)
    AuditEntry.objects.create(
        tournament_id=mitchell_session.session.tournament_id,
        session=mitchell_session.session,
        result=row,
        action=AuditAction.PENALTY,
        user=director,
    )
    assert Result.objects.get(pk=row.pk).board_state == BoardState.ENTERED


def test_the_grid_opens_on_the_round_most_tables_are_on(mitchell_session):
    """Issue #35: three of four tables still on round 2 and one on round 3 showed round 3."""
    section = mitchell_session
    rounds = section.movement["rounds"]

    def play(table, round_):
        for board in rounds[round_ - 1]["tables"][table - 1]["boards"]:
            saved(section, table=table, round_=round_, board=board)

    for table in range(1, 8):
        play(table, 1)
    assert board_grid.board_grid(section.session).round == 2  # round 1 done everywhere
    for table in (1, 2):
        play(table, 2)
    saved(section, table=1, round_=3, board=rounds[2]["tables"][0]["boards"][0])
    # tables 1 and 2 are on round 3, tables 3 to 7 still on round 2
    assert board_grid.board_grid(section.session).round == 2
    for table in range(3, 8):
        play(table, 2)
    assert board_grid.board_grid(section.session).round == 3


def test_a_tie_opens_the_lowest_of_the_tied_rounds(mitchell_session):
    section = mitchell_session
    rounds = section.movement["rounds"]

    def play(table, round_):
        for board in rounds[round_ - 1]["tables"][table - 1]["boards"]:
            saved(section, table=table, round_=round_, board=board)

    for table in range(1, 7):  # table 7 still on round 1
        play(table, 1)
    for table in (1, 2, 3):  # tables 1-3 on round 3, tables 4-6 on round 2
        play(table, 2)
    assert board_grid.board_grid(section.session).round == 2

"""Table posts of the same board on different lines do not wait for each other: the line
lock is a line's (PostgreSQL). The test holds a lock in another thread's transaction, so it
commits its own rows, apart from test_live_round_done.py's shared ones."""

import threading

import pytest
from django.db import connection, transaction

from clubsite.tenancy import thread_in_scope
from tests.tournaments.conftest import play_rounds_before
from tests.tournaments.table.test_live_round_done import lines
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.table import entry, line_write


@pytest.mark.django_db(transaction=True)
def test_posts_of_one_board_at_other_tables_do_not_wait_for_each_other(mitchell_session, director):
    if connection.vendor != "postgresql":
        pytest.skip("the line lock is PostgreSQL's (SQLite writes one at a time)")
    section = mitchell_session
    by_board: dict[int, list] = {}
    for rnd in (1, 2, 3):
        for table, board in lines(section, rnd):
            by_board.setdefault(board, []).append((rnd, table))
    board, played = next((b, p) for b, p in by_board.items() if len(p) >= 2)
    (held_round, held_table), (other_round, other_table) = played[:2]
    held = entry.resolve_line(section, held_round, held_table, board)
    play_rounds_before(section, other_table, other_round, director)  # its round is open
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:  # another table's post of the same board, still in its transaction
        try:
            with transaction.atomic():
                line_write.lock_line(held)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    holder = thread_in_scope(hold)
    holder.start()
    try:
        assert locked.wait(30)
        with connection.cursor() as cursor:  # waiting for that post would fail, not hang
            cursor.execute("SET lock_timeout = '3s'")
        code = TableCode.objects.get(section=section, table=other_table, active=True)
        outcome = entry.submit_result(
            table_code=code,
            round=other_round,
            board=board,
            contract="3NT",
            declarer="N",
            tricks=9,
            idempotency_key="other-table",
        )
        assert outcome.outcome == "created"
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert Result.objects.filter(board__number=board, status=ResultStatus.OK).count() == 1

"""Issue 20: the result that completes its section's round asks for the classification at
once (not at the window's end), once; the others leave it to the window. And table posts of
the same board on different lines no longer wait for each other (PostgreSQL), in
test_line_lock.py: that test commits, and cannot run inside this module's shared rows.

Tonight's Mitchell after two rounds (``shown``) is built once for the module
(tests/module_rows.py), each test in a savepoint of it."""

import random
import uuid

import pytest

from tests.tournaments.conftest import shared_shown
from tournaments.demo import play_rounds
from tournaments.models import Entry, EntryStatus, Result, ResultStatus, Seating, TableCode
from tournaments.services.table import entry, round_done

shown = shared_shown()


def lines(section, round_number):
    rnd = section.movement["rounds"][round_number - 1]
    return [(int(t["table"]), b + section.board_offset) for t in rnd["tables"] for b in t["boards"]]


def post(section, round_number, table, board, capture, key=None):
    code = TableCode.objects.get(section=section, table=table, active=True)
    with capture(execute=True):
        return entry.submit_result(
            table_code=code,
            round=round_number,
            board=board,
            contract="3NT",
            declarer="N",
            tricks=9,
            idempotency_key=key or uuid.uuid4().hex,
        )


@pytest.mark.django_db
def test_the_post_that_completes_a_round_asks_for_a_classification_now(
    shown, broker, django_capture_on_commit_callbacks
):
    pending = lines(shown, 3)
    for table, board in pending[:-1]:
        assert post(shown, 3, table, board, django_capture_on_commit_callbacks).stored
    assert [countdown for _args, countdown in broker] == [5]  # the window's, nothing now
    last = post(shown, 3, *pending[-1], django_capture_on_commit_callbacks)
    assert last.outcome == "created"
    assert [countdown for _args, countdown in broker] == [5, None]
    assert broker[1][0][0] == shown.session_id
    # the round's last result sent again (a lost answer) asks for nothing more
    assert (
        post(
            shown,
            3,
            *pending[-1],
            django_capture_on_commit_callbacks,
            key=last.result.idempotency_key,
        ).outcome
        == "duplicate"
    )
    assert len(broker) == 2


@pytest.mark.django_db
def test_a_round_completes_once_even_when_two_tables_see_it(
    shown, broker, django_capture_on_commit_callbacks
):
    for table, board in lines(shown, 3):
        post(shown, 3, table, board, django_capture_on_commit_callbacks)
    assert [countdown for _args, countdown in broker].count(None) == 1
    # a second table finishing together with the last one sees the round complete too
    from tournaments.services.classification import reclassification

    assert reclassification.classify_round_now(shown.session_id, shown.pk, 3) is False
    assert [countdown for _args, countdown in broker].count(None) == 1


@pytest.mark.django_db
def test_a_withdrawn_pairs_table_is_not_waited_for(shown):
    full, tables = round_done.expected_lines(shown, 4)
    assert full == len(lines(shown, 4))
    assert tables == len(shown.movement["rounds"][3]["tables"])
    slot = shown.movement["rounds"][3]["tables"][0]
    seated = Seating.objects.get(section=shown, number=slot["ns"], direction="NS").entry_id
    Entry.objects.filter(pk=seated).update(status=EntryStatus.WITHDRAWN)
    round_done.forget()
    assert round_done.expected_lines(shown, 4) == (full - len(slot["boards"]), tables - 1)
    play_rounds(shown, random.Random(4), rounds=4)
    assert round_done.completes_round(shown, 4)
    assert not round_done.completes_round(shown, 5)


@pytest.mark.django_db
def test_the_count_under_the_lock_decides_without_counting_again(shown, django_assert_num_queries):
    expected, tables = round_done.expected_lines(shown, 3)  # known to the process from now on
    assert expected > tables + 3  # two boards a round: the margin leaves room to decide
    with django_assert_num_queries(0):
        assert round_done.completes_round(shown, 3, stored_before=expected - 1)
        assert not round_done.completes_round(shown, 3, stored_before=0)
    with django_assert_num_queries(1):  # posts may be in flight: the stored rows decide
        assert not round_done.completes_round(shown, 3, stored_before=expected - 2)


@pytest.mark.django_db
def test_every_table_posting_at_once_still_completes_the_round(shown):
    """Each table's last post saw the others' rows still in flight (a round's end with every
    table posting together): once they are all committed, the last to count sees the round
    complete, however many tables there are."""
    expected, tables = round_done.expected_lines(shown, 3)
    assert tables > 5  # more tables than a fixed margin of four posts in flight
    play_rounds(shown, random.Random(8), rounds=3)
    assert Result.objects.filter(section=shown, round=3, status=ResultStatus.OK).count() == expected
    # a post that saw one result of every other table missing
    assert round_done.completes_round(shown, 3, stored_before=expected - tables)

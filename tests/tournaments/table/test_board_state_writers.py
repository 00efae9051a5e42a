"""Every writer of a result settles its stored board state with its own write
(``board_states.settle``): after each one, every result's stored state equals the state worked
out again from its whole trail, and the state is the one the writer's action leads to. A
writer that forgot to settle it leaves a stale state and fails here by name.

Tonight's running Mitchell is built once for the module
(tests/module_rows.py), each test in a savepoint of it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import shared_mitchell
from tests.tournaments.table.test_table_corrections import code, saved
from tournaments.models import BoardState, Result
from tournaments.services.running import corrections
from tournaments.services.table import board_states, entry, revisions, table_corrections

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


ENTERED, CONFIRMED = BoardState.ENTERED, BoardState.CONFIRMED
DISPUTED, CORRECTED = BoardState.DISPUTED, BoardState.CORRECTED


def disputed(section, table=2, board=3):
    row = saved(section, table=table, board=board)
    table_corrections.dispute_at_table(row, table_code=code(section, table), reason="No")
    return row


def conflicting(section, row):
    """A second post of ``row``'s line, with another key and another result."""
    return entry.submit_result(
        table_code=code(section, row.table),
        round=row.round,
        board=row.board.number,
        contract="3N",
        declarer="S",
        tricks=9,
        idempotency_key="other",
    ).result


def director_entry(s, d):
    return entry.submit_result(
        user=d,
        section=s,
        table=1,
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key="d-1",
    ).result


def director_confirms_a_dispute(s, d):
    return entry.confirm_result(disputed(s), user=d)


def table_correction(s, d):
    return table_corrections.correct_at_table(
        saved(s), table_code=code(s, 1), contract="4S", declarer="N", tricks=11
    )


def dispute_kept(s, d):
    return table_corrections.keep_disputed(disputed(s), user=d, reason="Bien")


def correction_of_a_dispute(s, d):
    return corrections.correct_result(
        disputed(s), user=d, contract="3N", declarer="S", tricks=9, reason="Planilla"
    )


def adjusted_line(s, d, table=2, board=3):
    return corrections.adjust_score(
        user=d,
        section=s,
        round=1,
        table=table,
        board=board,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Tarde",
        law="12C2",
    )


def adjusted_dispute(s, d):
    disputed(s)
    return adjusted_line(s, d)


def removed_dispute(s, d):
    row = disputed(s)
    corrections.remove_result(row, user=d, reason="Otras parejas")
    return row


def conflict_kept(s, d):
    return corrections.resolve_conflict(
        conflicting(s, disputed(s)), user=d, keep_new=True, reason="La nueva"
    )


def conflict_dropped(s, d):
    return corrections.resolve_conflict(
        conflicting(s, disputed(s)), user=d, keep_new=False, reason="La de antes"
    )


def correction_kept_aside(s, d):
    row = saved(s)
    seen = revisions.revision(row)
    corrections.correct_result(
        row, user=d, contract="4S", declarer="N", tricks=11, reason="Una más", revision=seen
    )
    with pytest.raises(revisions.StaleRevision) as refused:
        corrections.correct_result(
            row, user=d, contract="3N", declarer="S", tricks=9, reason="Otra", revision=seen
        )
    return refused.value.kept


WRITERS = [  # (the writer, the state of the row it returns)
    pytest.param(lambda s, d: saved(s), ENTERED, id="table_post"),
    pytest.param(director_entry, CONFIRMED, id="director_entry"),
    pytest.param(lambda s, d: conflicting(s, saved(s)), ENTERED, id="conflicting_post"),
    pytest.param(
        lambda s, d: entry.confirm_result(saved(s), table_code=code(s, 1)),
        CONFIRMED,
        id="table_confirmation",
    ),
    pytest.param(
        lambda s, d: entry.confirm_result(saved(s), user=d), CONFIRMED, id="director_confirmation"
    ),
    pytest.param(director_confirms_a_dispute, CONFIRMED, id="director_confirms_a_dispute"),
    pytest.param(table_correction, ENTERED, id="table_correction"),
    pytest.param(lambda s, d: disputed(s), DISPUTED, id="dispute"),
    pytest.param(dispute_kept, CONFIRMED, id="dispute_kept"),
    pytest.param(correction_of_a_dispute, CORRECTED, id="correction_of_a_dispute"),
    pytest.param(
        lambda s, d: adjusted_line(s, d, table=3, board=6), CORRECTED, id="adjusted_empty_line"
    ),
    pytest.param(adjusted_dispute, CORRECTED, id="adjusted_dispute"),
    pytest.param(removed_dispute, ENTERED, id="removed_dispute"),
    pytest.param(conflict_kept, CONFIRMED, id="conflict_kept"),
    # the ruling closes the dispute on the row it keeps
    pytest.param(conflict_dropped, ENTERED, id="conflict_dropped"),
    pytest.param(correction_kept_aside, ENTERED, id="correction_kept_aside"),
]


@pytest.mark.parametrize("write, state", WRITERS)
def test_each_writer_leaves_every_stored_state_current(mitchell_session, director, write, state):
    row = write(mitchell_session, director)
    rows = list(Result.objects.all())
    assert {r.pk: r.board_state for r in rows} == board_states.from_trails(rows)
    assert Result.objects.get(pk=row.pk).board_state == state


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def test_a_confirmation_and_a_correction_write_the_state_with_the_result(
    mitchell_session, director
):
    """Savepoint, locked read, one UPDATE, release: no receiver reading the row and its trail
    again after each save (7 and 10 queries while they did)."""
    table_code, row, other = (
        code(mitchell_session, 1),
        saved(mitchell_session),
        saved(mitchell_session, table=2, board=3),
    )
    assert queries(lambda: entry.confirm_result(row, table_code=table_code)) == 4
    # ... and the director's correction adds only its audit entry
    assert (
        queries(
            lambda: corrections.correct_result(
                other, user=director, contract="3N", declarer="S", tricks=9, reason="Planilla"
            )
        )
        == 5
    )
    assert table_corrections.state_of(row) == CONFIRMED
    assert table_corrections.state_of(other) == CORRECTED


def test_a_disputed_row_reads_its_trail_once(mitchell_session, director):
    """A stored dispute may hide an earlier director's change: settling it reads the trail."""
    row = disputed(mitchell_session)
    assert queries(lambda: table_corrections.keep_disputed(row, user=director, reason="Bien")) == 7

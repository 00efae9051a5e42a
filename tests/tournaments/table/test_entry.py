"""Writing results: once per key and per line, conflicts to the director, table-code scope.

Tonight's running Mitchell and its members are built once for the module
(tests/module_rows.py), each test in a savepoint of it."""

import pytest

from tests.tournaments.conftest import shared_mitchell
from tournaments.models import AuditAction, AuditEntry, Result, ResultStatus, TableCode
from tournaments.services.errors import InvalidResult, NotAllowed
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


def post(section, table, round_, board, key, contract="4S", declarer="N", tricks=10, **kw):
    return entry.submit_result(
        table_code=code(section, table),
        round=round_,
        board=board,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        idempotency_key=key,
        **kw,
    )


def test_result_is_scored_and_stored(mitchell_session):
    # Table 1, round 1 plays boards 1-2; board 1 nobody vulnerable: 4♠ N making = +420.
    sub = post(mitchell_session, 1, 1, 1, "k1", lead="♥10")
    assert sub.outcome == "created"
    row = sub.result
    assert (row.contract, row.declarer, row.tricks, row.ns_score, row.lead) == (
        "4S",
        "N",
        10,
        420,
        "HT",
    )
    assert row.ns.seatings.get().label == "1NS" and row.ew.seatings.get().label == "1EW"
    assert not row.confirmed  # the opponents confirm with a second tap
    entry.confirm_result(row, table_code=code(mitchell_session, 1))
    row.refresh_from_db()
    assert row.confirmed


def test_same_key_twice_stores_once(mitchell_session):
    first = post(mitchell_session, 1, 1, 1, "same-key")
    again = post(mitchell_session, 1, 1, 1, "same-key")
    assert again.outcome == "duplicate" and again.result.pk == first.result.pk
    assert Result.objects.count() == 1


def test_two_devices_same_content_store_once(mitchell_session):
    first = post(mitchell_session, 1, 1, 1, "tablet")
    second = post(mitchell_session, 1, 1, 1, "phone", lead="SA")
    assert second.outcome == "duplicate" and second.result.pk == first.result.pk
    assert Result.objects.count() == 1


def test_different_content_goes_to_the_director(mitchell_session, director):
    first = post(mitchell_session, 1, 1, 1, "tablet")
    clash = post(mitchell_session, 1, 1, 1, "phone", tricks=9)
    assert clash.outcome == "conflict"
    first.result.refresh_from_db()
    assert first.result.status == ResultStatus.OK and first.result.ns_score == 420
    assert clash.result.status == ResultStatus.CONFLICT
    assert clash.result.conflicts_with_id == first.result.pk
    # the same conflicting result sent again is not stored twice
    assert post(mitchell_session, 1, 1, 1, "phone-2", tricks=9).result.pk == clash.result.pk
    assert Result.objects.count() == 2
    assert AuditEntry.objects.filter(action=AuditAction.CONFLICT).count() == 1
    kept = corrections.resolve_conflict(
        clash.result, user=director, keep_new=True, reason="Los jugadores confirman 9 bazas"
    )
    assert kept.pk == clash.result.pk and kept.status == ResultStatus.OK
    first.result.refresh_from_db()
    assert first.result.status == ResultStatus.SUPERSEDED


def test_table_code_scope(mitchell_session, members, movements, pairs):
    section = mitchell_session
    # another table's board in this round (table 2 plays boards 3-4 in round 1)
    with pytest.raises(NotAllowed):
        post(section, 1, 1, 3, "k-other-board")
    # a board of this table but not in that round (table 1 plays 3-4 in round 2)
    with pytest.raises(NotAllowed):
        post(section, 1, 1, 4, "k-wrong-round")
    # pretending to be another table
    with pytest.raises(NotAllowed):
        entry.submit_result(
            table_code=code(section, 1),
            table=2,
            round=1,
            board=3,
            contract="3NT",
            declarer="S",
            tricks=9,
            idempotency_key="k-t2",
        )
    # a code of another session
    other = setup.create_tournament(name="Otro", date=section.session.tournament.date)
    other_section = setup.add_section(other.sessions.get())
    setup.seat_section(other_section, movements.mitchell(7, 7, 2), pairs(other, members[30:], 14))
    setup.start_session(other_section.session)
    with pytest.raises(NotAllowed):
        entry.submit_result(
            table_code=code(other_section, 1),
            section=section,
            round=1,
            board=1,
            contract="3NT",
            declarer="S",
            tricks=9,
            idempotency_key="k-other-session",
        )
    # a session no longer in play
    table_code = code(section, 1)
    setup.finish_session(section.session)
    table_code.refresh_from_db()
    with pytest.raises(NotAllowed):
        entry.submit_result(
            table_code=table_code,
            section=section,
            round=1,
            board=1,
            contract="3NT",
            declarer="S",
            tricks=9,
            idempotency_key="k-finished",
        )
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    ("contract", "declarer", "tricks", "field"),
    [
        ("8S", "N", 10, "contract"),
        ("4S", "", 10, "declarer"),
        ("4S", "N", 14, "tricks"),
        ("4S", "N", None, "tricks"),
    ],
)
def test_invalid_results_are_refused(mitchell_session, contract, declarer, tricks, field):
    with pytest.raises(InvalidResult) as error:
        post(mitchell_session, 1, 1, 1, "bad", contract=contract, declarer=declarer, tricks=tricks)
    assert error.value.field == field


def test_passed_out_board(mitchell_session):
    row = post(mitchell_session, 1, 1, 1, "pass", contract="paso", declarer="", tricks=None).result
    assert (row.contract, row.ns_score) == ("PASS", 0)


def test_director_corrections_are_audited(mitchell_session, director):
    row = post(mitchell_session, 1, 1, 1, "k").result
    corrections.correct_result(
        row,
        user=director,
        contract="4SX",
        declarer="N",
        tricks=9,
        reason="Error al anotar",
        law="79A",
    )
    row.refresh_from_db()
    assert (row.contract, row.ns_score) == ("4SX", -100)
    audit = AuditEntry.objects.get(action=AuditAction.CORRECTED)
    assert audit.user == director and audit.law == "79A" and audit.reason == "Error al anotar"
    assert audit.before["ns_score"] == 420 and audit.after["ns_score"] == -100
    assert not audit.override
    with pytest.raises(InvalidResult):
        corrections.correct_result(
            row, user=director, contract="3NT", declarer="S", tricks=9, reason=""
        )


@pytest.mark.parametrize(
    "adjustment",
    [
        {"kind": "artificial", "ns": 60, "ew": 40},
        {"kind": "artificial", "ns": "A+", "ew": "A-"},
        {"kind": "artificial", "ns": 50, "ew": 50},
        {"kind": "split", "ns_score": 420, "ew_score": 450},
        {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]},
        {"kind": "not_played", "reason": "player_fault"},
    ],
)
def test_adjusted_scores_are_audited(mitchell_session, director, adjustment):
    row = corrections.adjust_score(
        user=director,
        section=mitchell_session,
        round=1,
        table=1,
        board=2,
        adjustment=adjustment,
        reason="Ley aplicada",
        law="12C",
    )
    assert row.adjustment == adjustment and row.status == ResultStatus.OK
    audit = AuditEntry.objects.get(action=AuditAction.ADJUSTED)
    assert audit.before is None and audit.after["adjustment"] == adjustment


def test_malformed_adjustments_are_refused(mitchell_session, director):
    for bad in (
        {"kind": "artificial", "ns": 120, "ew": 40},
        {"kind": "split"},
        {"kind": "weighted", "outcomes": [[30, 420], [60, -50]]},
        {"kind": "magic"},
        {"kind": "fouled"},
    ):
        with pytest.raises(InvalidResult):
            corrections.adjust_score(
                user=director,
                section=mitchell_session,
                round=1,
                table=1,
                board=2,
                adjustment=bad,
                reason="x",
            )
    assert Result.objects.count() == 0


def test_fouled_board_keeps_the_real_result(mitchell_session, director):
    post(mitchell_session, 1, 1, 1, "k")
    row = corrections.adjust_score(
        user=director,
        section=mitchell_session,
        round=1,
        table=1,
        board=1,
        adjustment={"kind": "fouled", "group": "2"},
        reason="Mano cambiada",
        law="87",
    )
    assert row.ns_score == 420 and Result.objects.count() == 1


def test_penalty_is_audited(mitchell_session, director):
    entry_ = mitchell_session.seatings.get(number=2, direction="EW").entry
    corrections.add_penalty(
        user=director,
        entry=entry_,
        session=mitchell_session.session,
        fraction_of_top="0.25",
        reason="Tardanza",
        law="90",
    )
    assert AuditEntry.objects.get(action=AuditAction.PENALTY).after["fraction_of_top"] == "0.25"

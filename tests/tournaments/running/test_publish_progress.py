"""Publication and the Law 79C correction period; what the live console reports."""

import datetime
import random

import pytest
from django.utils import timezone

from tournaments.demo import play_rounds
from tournaments.models import AuditAction, AuditEntry, Result, TableCode, TournamentStatus
from tournaments.services.errors import CorrectionPeriodOver, TournamentError
from tournaments.services.results import publish
from tournaments.services.running import corrections, progress
from tournaments.services.setup import events as setup
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


def test_final_publication_and_correction_period(mitchell_session, director):
    section = mitchell_session
    tournament = section.session.tournament
    play_rounds(section, random.Random(11))
    with pytest.raises(TournamentError):
        publish.publish_final(tournament, user=director)  # the session is still in play
    publish.publish_provisional(tournament, user=director)
    assert tournament.status == TournamentStatus.PROVISIONAL
    setup.finish_session(section.session)
    published = timezone.now() - datetime.timedelta(minutes=10)
    publish.publish_final(tournament, user=director, at=published)
    tournament.refresh_from_db()
    assert tournament.correction_period_ends == published + datetime.timedelta(minutes=30)
    row = Result.objects.first()
    corrections.correct_result(
        row, user=director, contract="2H", declarer="E", tricks=8, reason="Dentro del plazo"
    )
    # the period ends
    tournament.published_at = timezone.now() - datetime.timedelta(minutes=31)
    tournament.save()
    row.refresh_from_db()
    with pytest.raises(CorrectionPeriodOver):
        corrections.correct_result(
            row, user=director, contract="3H", declarer="E", tricks=9, reason="Fuera de plazo"
        )
    corrections.correct_result(
        row,
        user=director,
        contract="3H",
        declarer="E",
        tricks=9,
        reason="Error de cómputo (Ley 79C2)",
        law="79C2",
        override=True,
    )
    audits = list(AuditEntry.objects.filter(action=AuditAction.CORRECTED).order_by("at", "id"))
    assert [a.override for a in audits] == [False, True]
    with pytest.raises(CorrectionPeriodOver):
        corrections.adjust_score(
            user=director,
            section=section,
            round=1,
            table=1,
            board=1,
            adjustment={"kind": "artificial", "ns": 50, "ew": 50},
            reason="x",
        )


def test_progress_reports_done_missing_and_conflicts(mitchell_session):
    section = mitchell_session
    play_rounds(section, random.Random(12), rounds=2)
    Result.objects.filter(section=section, round=2, table=3).delete()
    code = TableCode.objects.get(section=section, table=1)
    stored = Result.objects.get(section=section, round=1, table=1, board__number=1)
    entry.submit_result(
        table_code=code,
        round=1,
        board=1,
        contract="7NT",
        declarer="N",
        tricks=13 if stored.contract != "7NT" else 12,
        idempotency_key="clash",
    )
    state = progress.session_progress(section.session)
    table3 = next(t for t in state.tables if t.table == 3)
    assert table3.rounds_done == 1
    assert [(m.round, m.table) for m in state.missing if m.round <= 2] == [(2, 3), (2, 3)]
    assert len(state.missing) == 7 * 5 * 2 + 2
    assert len(state.conflicts) == 1
    assert not state.complete


def test_suspicious_results():
    rows = []
    for i, (contract, declarer, tricks, score) in enumerate(
        [
            ("4S", "N", 10, 420),
            ("4S", "N", 10, 420),
            ("4S", "N", 11, 450),
            ("4S", "S", 10, 420),
            ("4S", "E", 10, -420),  # played from the other side: the classic slip
            ("4SX", "N", 4, -1400),  # six down doubled, far from everything
            ("4S", "N", 10, 450),  # the director's number, not the contract's
        ]
    ):
        rows.append(
            {
                "id": i,
                "section_id": 1,
                "board__number": 1,
                "round": 1,
                "table": i + 1,
                "contract": contract,
                "declarer": declarer,
                "tricks": tricks,
                "ns_score": score,
                "adjustment": None,
            }
        )
    found = {
        (s.result_id, s.kind)
        for s in progress.find_suspicious(rows, {1: "A"}, {1: "A"}, {("A", 1): None})
    }
    assert (4, "declarer_side") in found
    assert (5, "outlier") in found and (5, "many_down") in found
    assert (6, "incongruent") in found
    assert not {k for k in found if k[0] in (0, 1, 2, 3)}

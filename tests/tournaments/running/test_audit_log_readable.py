"""The audit trail as people read it: words instead of codes, filters by session, table,
person and kind, pages beyond the first (no cap), and a CSV that follows the filter."""

import csv
import io
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.models import AuditAction, AuditEntry, Session, TableCode
from tournaments.services.running import audit_log, corrections
from tournaments.services.table import entry, table_corrections

pytestmark = pytest.mark.django_db


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


def post(section, table=1, round_=1, board=1, tricks=10):
    return entry.submit_result(
        table_code=code(section, table),
        round=round_,
        board=board,
        contract="4S",
        declarer="N",
        tricks=tricks,
        idempotency_key=uuid.uuid4().hex,
    ).result


def csv_rows(response):
    text = response.content.decode("utf-8").lstrip("\ufeff")
    return list(csv.reader(io.StringIO(text), delimiter=";"))[1:]


@pytest.mark.parametrize(
    "language,contract,declarer,lead,yes",
    [
        ("es", "4♠X", "O", "♥10", "sí"),
        ("pt", "4♠X", "O", "♥10", "sim"),
        ("en", "4♠X", "W", "♥10", "yes"),
    ],
)
def test_values_read_as_the_club_writes_them(language, contract, declarer, lead, yes):
    with translation.override(language):
        assert audit_log.readable("contract", "4SX") == contract
        assert audit_log.readable("declarer", "W") == declarer
        assert audit_log.readable("lead", "HT") == lead
        assert audit_log.readable("confirmed", True) == yes
        assert audit_log.readable("tricks", None) == "—"
        assert audit_log.readable("contract", "3NT") == f"3{translation.gettext('NT')}"


def test_changes_are_the_changed_fields_in_words(mitchell_session, director):
    row = post(mitchell_session)
    corrections.correct_result(
        row, user=director, contract="4S", declarer="N", tricks=11, reason="Traveller"
    )
    item = AuditEntry.objects.get(action=AuditAction.CORRECTED)
    with translation.override("en"):
        changed = dict((k, (a, b)) for k, a, b in audit_log.changes(item))
        assert changed["Tricks"] == ("10", "11") and changed["NS score"] == ("420", "450")
        assert "Contract" not in changed  # unchanged fields are left out
        assert audit_log.who(item) == (director.get_full_name() or director.username)


def test_filters_and_pages_on_the_page(director_client, mitchell_session, director):
    tournament = mitchell_session.session.tournament
    row1 = post(mitchell_session, table=1)
    row2 = post(mitchell_session, table=2, board=3)
    corrections.correct_result(
        row1, user=director, contract="4S", declarer="N", tricks=11, reason="T1"
    )
    corrections.correct_result(
        row2, user=director, contract="4S", declarer="N", tricks=9, reason="T2"
    )
    row3 = post(mitchell_session, table=1, board=2)
    table_corrections.dispute_at_table(row3, table_code=code(mitchell_session, 1), reason="Mal")
    other = Session.objects.create(tournament=tournament, number=2)
    # 130 entries on session 2: more than two pages, and no cap
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                tournament=tournament,
                session=other,
                action=AuditAction.MOVEMENT,
                user=director,
                after={"n": i},
            )
            for i in range(130)
        ]
    )
    url = reverse("director:audit", args=[tournament.pk])

    def shown(**params):
        response = director_client.get(url, params)
        assert response.status_code == 200
        return response.context["page"]

    assert shown().paginator.count == 133
    assert shown(page=3).object_list and len(shown(page=3).object_list) == 33
    assert shown(session=mitchell_session.session_id).paginator.count == 3
    assert shown(session=other.pk).paginator.count == 130
    assert {e.result_id for e in shown(table="A1").object_list} == {row1.pk, row3.pk}
    assert {e.result_id for e in shown(table="2").object_list} == {row2.pk}
    assert shown(kind=AuditAction.DISPUTED).paginator.count == 1
    by_person = shown(person=director.pk, session=mitchell_session.session_id)
    assert by_person.paginator.count == 2
    # a table that is no table: said so, and nothing is hidden by it
    bad = director_client.get(url, {"table": "mesa; drop"})
    assert bad.status_code == 200 and bad.context["filter"].form.errors["table"]
    # the page reads as people write: the table device's dispute, local words
    html = director_client.get(url, {"kind": AuditAction.DISPUTED}).content.decode()
    assert "A1" in html and "Mal" in html
    assert f'href="/director/{tournament.pk}/audit/csv/?kind=disputed"' in html


def test_the_csv_follows_the_filter(director_client, mitchell_session, director):
    tournament = mitchell_session.session.tournament
    row1 = post(mitchell_session, table=1)
    row2 = post(mitchell_session, table=2, board=3)
    for row in (row1, row2):
        corrections.correct_result(
            row, user=director, contract="4S", declarer="N", tricks=11, reason="x"
        )
    url = reverse("director:audit_csv", args=[tournament.pk])
    assert len(csv_rows(director_client.get(url))) == 2
    only_a2 = csv_rows(director_client.get(url, {"table": "A2", "session": ""}))
    assert len(only_a2) == 1 and only_a2[0][5] == "A2"
    assert csv_rows(director_client.get(url, {"kind": AuditAction.PENALTY})) == []


def test_the_filters_are_the_directors(mitchell_session):
    url = reverse("director:audit", args=[mitchell_session.session.tournament.pk])
    response = Client().get(url, {"kind": "corrected"})
    assert response.status_code == 302

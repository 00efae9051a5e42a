"""Nobody overwrites a result they did not see: a director's change carries the revision of
the line it was based on, and a stale one is refused with the current value, nothing
overwritten, a refused correction kept as a conflict on the console
(``services/revisions.py``). The same over HTTP with two directors posting at once, and a
table posting while a director corrects, on PostgreSQL with a live worker: tests/faults/."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tournaments.models import AuditAction, AuditEntry, Result, ResultStatus, TableCode
from tournaments.services.running import corrections
from tournaments.services.table import entry, revisions

pytestmark = pytest.mark.django_db


def enter(section, table=1, board=1, contract="4S", tricks=10, key="k-1"):
    code = TableCode.objects.get(section=section, table=table, active=True)
    return entry.submit_result(
        round=1,
        board=board,
        contract=contract,
        declarer="N",
        tricks=tricks,
        table_code=code,
        idempotency_key=key,
    ).result


@pytest.fixture
def two_directors(db):
    return make_user("ana", Role.DIRECTOR), make_user("bruno", Role.DIRECTOR)


def test_the_second_of_two_corrections_from_one_revision_is_kept_aside(
    mitchell_session, two_directors
):
    ana, bruno = two_directors
    row = enter(mitchell_session)
    seen = revisions.revision(row)
    assert seen and revisions.revision(None) == ""
    corrections.correct_result(
        row, user=ana, contract="4S", declarer="N", tricks=11, reason="Una baza más", revision=seen
    )
    with pytest.raises(revisions.StaleRevision) as refused:
        corrections.correct_result(
            row,
            user=bruno,
            contract="3NT",
            declarer="S",
            tricks=9,
            reason="Otro contrato",
            revision=seen,
        )
    row.refresh_from_db()
    assert (row.contract, row.tricks, row.ns_score) == ("4S", 11, 450)  # Ana's, untouched
    message = refused.value.message
    assert "ana" in message and "450" in message and "4♠" in message
    kept = refused.value.kept
    assert kept.status == ResultStatus.CONFLICT and kept.conflicts_with_id == row.pk
    assert (kept.contract, kept.declarer, kept.tricks, kept.ns_score) == ("3NT", "S", 9, 400)
    assert kept.entered_by == bruno and kept.reason == "Otro contrato"
    assert AuditEntry.objects.filter(result=kept, action=AuditAction.CONFLICT, user=bruno).exists()
    # Bruno, having seen Ana's, may still correct it: from the current revision.
    corrections.correct_result(
        row,
        user=bruno,
        contract="4S",
        declarer="N",
        tricks=10,
        reason="Al final, cumplido",
        revision=revisions.revision(row),
    )
    row.refresh_from_db()
    assert row.ns_score == 420
    # Or keep his refused correction from the console.
    corrections.resolve_conflict(kept, user=bruno, keep_new=True, reason="Era el bueno")
    assert (
        Result.objects.get(
            section=mitchell_session, round=1, board__number=1, table=1, status=ResultStatus.OK
        ).ns_score
        == 400
    )


def test_stale_removals_and_adjustments_change_nothing(mitchell_session, two_directors):
    ana, bruno = two_directors
    row = enter(mitchell_session)
    seen = revisions.revision(row)
    corrections.correct_result(
        row, user=ana, contract="4S", declarer="N", tricks=9, reason="Multa", revision=seen
    )
    with pytest.raises(revisions.StaleRevision):
        corrections.remove_result(row, user=bruno, reason="Pareja equivocada", revision=seen)
    with pytest.raises(revisions.StaleRevision):
        corrections.adjust_score(
            user=bruno,
            section=mitchell_session,
            round=1,
            table=1,
            board=1,
            adjustment={"kind": "artificial", "ns": "60", "ew": "40"},
            reason="Tarde",
            revision=seen,
        )
    row.refresh_from_db()
    assert row.status == ResultStatus.OK and row.ns_score == -50 and not row.adjustment
    assert not Result.objects.filter(status=ResultStatus.CONFLICT).exists()
    # Based on "no result" while a table has since entered one: refused too.
    other = enter(mitchell_session, table=2, board=3, key="k-2")
    with pytest.raises(revisions.StaleRevision):
        corrections.adjust_score(
            user=bruno,
            section=mitchell_session,
            round=1,
            table=2,
            board=3,
            adjustment={"kind": "artificial", "ns": "60", "ew": "40"},
            reason="Tarde",
            revision="",
        )
    other.refresh_from_db()
    assert not other.adjustment


def revision_on(page: str, form_id: str) -> str:
    form = page[page.index(f'id="{form_id}"') :]
    return re.search(r'name="revision" value="([^"]*)"', form).group(1)


def test_two_directors_at_the_line_page(mitchell_session, two_directors):
    ana, bruno = two_directors
    row = enter(mitchell_session)
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    pages = {}
    for user in (ana, bruno):
        client = Client()
        sign_in_verified(client, user)
        pages[user.username] = client, client.get(url).content.decode()
    assert revision_on(pages["ana"][1], "result-form") == revisions.revision(row)
    assert revision_on(pages["bruno"][1], "remove-form") == revisions.revision(row)
    form = {
        "action": "result",
        "contract": "4S",
        "declarer": "N",
        "result": "+1",
        "reason": "Una baza más",
    }
    client, page = pages["ana"]
    assert (
        client.post(url, form | {"revision": revision_on(page, "result-form")}).status_code == 302
    )
    client, page = pages["bruno"]
    response = client.post(
        url,
        form
        | {"result": "-1", "reason": "Una menos", "revision": revision_on(page, "result-form")},
        follow=True,
    )
    html = response.content.decode()
    assert "ana cambió este resultado" in html and "NS 450" in html  # Spanish by default
    assert "consola" in html
    row.refresh_from_db()
    assert row.ns_score == 450
    kept = Result.objects.get(status=ResultStatus.CONFLICT)
    assert kept.ns_score == -50 and kept.entered_by == bruno
    # The page Bruno is sent back to shows the current revision, and the conflict.
    assert revision_on(html, "result-form") == revisions.revision(row)
    console = client.get(
        reverse("director:console", args=[mitchell_session.session_id])
    ).content.decode()
    assert reverse("director:line", args=[mitchell_session.pk, 1, 1, 1]) in console
    # A removal from the page Bruno first saw: refused, the result stays.
    response = client.post(
        url,
        {
            "action": "remove",
            "reason": "Pareja equivocada",
            "revision": revision_on(page, "remove-form"),
        },
        follow=True,
    )
    assert "No se ha cambiado nada" in response.content.decode()
    row.refresh_from_db()
    assert row.status == ResultStatus.OK


def test_a_table_posting_while_the_director_corrects_is_kept_as_a_conflict(
    mitchell_session, two_directors
):
    ana, _ = two_directors
    row = enter(mitchell_session)
    seen = revisions.revision(row)
    # The table sends another result for its line meanwhile (a new key): a conflict.
    posted = enter(mitchell_session, tricks=9, key="k-again")
    assert posted.status == ResultStatus.CONFLICT
    corrections.correct_result(
        row, user=ana, contract="4S", declarer="N", tricks=11, reason="Una baza más", revision=seen
    )
    row.refresh_from_db()
    posted.refresh_from_db()
    assert row.ns_score == 450  # the director's correction
    assert posted.status == ResultStatus.CONFLICT and posted.ns_score == -50  # not lost

"""Correct at the table: the table fixes its result before the opponents confirm, the
opponents reject it with a reason, the director settles it; each board shows its state."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.table.test_table_views import post_json, result_data, sign_in
from tournaments.models import AuditAction, AuditEntry, Result, TableCode
from tournaments.services.errors import InvalidResult, NotAllowed
from tournaments.services.running import corrections
from tournaments.services.table import entry, table_corrections
from tournaments.services.table.table_corrections import CONFIRMED, CORRECTED, DISPUTED, ENTERED

pytestmark = pytest.mark.django_db


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


def saved(section, table=1, round_=1, board=1, contract="4S", tricks=10, declarer="N"):
    return entry.submit_result(
        table_code=code(section, table),
        round=round_,
        board=board,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        idempotency_key=f"k-{table}-{round_}-{board}",
    ).result


# --- services -----------------------------------------------------------------------------


def test_the_table_corrects_its_result_before_the_opponents_confirm(mitchell_session):
    row = saved(mitchell_session)
    assert table_corrections.state_of(row) == ENTERED
    fixed = table_corrections.correct_at_table(
        row, table_code=code(mitchell_session, 1), contract="4S", declarer="N", tricks=11, lead="HK"
    )
    assert (fixed.tricks, fixed.ns_score, fixed.lead) == (11, 450, "HK")
    assert table_corrections.state_of(fixed) == ENTERED  # still waits for the opponents
    trail = AuditEntry.objects.get(result=row, action=AuditAction.TABLE_EDIT)
    assert trail.before["tricks"] == 10 and trail.after["tricks"] == 11
    assert trail.table_code == code(mitchell_session, 1) and trail.user is None
    # the same correction sent again (a resent queue) changes nothing
    table_corrections.correct_at_table(
        row, table_code=code(mitchell_session, 1), contract="4S", declarer="N", tricks=11, lead="HK"
    )
    assert AuditEntry.objects.filter(result=row, action=AuditAction.TABLE_EDIT).count() == 1


def test_no_correction_once_confirmed_disputed_or_touched_by_the_director(
    mitchell_session, director
):
    table_code = code(mitchell_session, 1)
    row = saved(mitchell_session)
    row = entry.confirm_result(row, table_code=table_code)
    assert table_corrections.state_of(row) == CONFIRMED
    with pytest.raises(NotAllowed):
        table_corrections.correct_at_table(
            row, table_code=table_code, contract="3N", declarer="S", tricks=9
        )
    # the correction already applied, replayed after the confirmation: no error, no change
    same = table_corrections.correct_at_table(
        row, table_code=table_code, contract="4S", declarer="N", tricks=10
    )
    assert same.contract == "4S"

    other = saved(mitchell_session, board=2)
    table_corrections.dispute_at_table(other, table_code=table_code, reason="Era 4♠ +1")
    with pytest.raises(NotAllowed):
        table_corrections.correct_at_table(
            other, table_code=table_code, contract="4S", declarer="N", tricks=11
        )

    third = saved(mitchell_session, table=2, round_=1, board=3)
    corrections.correct_result(
        third, user=director, contract="4S", declarer="N", tricks=8, reason="Traveller"
    )
    assert table_corrections.state_of(third) == CORRECTED
    with pytest.raises(NotAllowed):
        table_corrections.correct_at_table(
            third, table_code=code(mitchell_session, 2), contract="4S", declarer="N", tricks=9
        )


def test_a_device_acts_only_on_its_own_tables_lines(mitchell_session):
    row = saved(mitchell_session, table=1)
    other_table = code(mitchell_session, 2)
    with pytest.raises(NotAllowed):
        table_corrections.correct_at_table(
            row, table_code=other_table, contract="3N", declarer="S", tricks=9
        )
    with pytest.raises(NotAllowed):
        table_corrections.dispute_at_table(row, table_code=other_table, reason="No")
    row.refresh_from_db()
    assert row.contract == "4S" and table_corrections.state_of(row) == ENTERED


def test_the_opponents_reject_and_the_director_keeps_it(mitchell_session, director):
    table_code = code(mitchell_session, 1)
    row = saved(mitchell_session)
    with pytest.raises(InvalidResult):
        table_corrections.dispute_at_table(row, table_code=table_code, reason="   ")
    with pytest.raises(InvalidResult):
        table_corrections.dispute_at_table(row, table_code=table_code, reason="x" * 501)
    table_corrections.dispute_at_table(row, table_code=table_code, reason=" Hicieron 10 ")
    assert table_corrections.state_of(row) == DISPUTED
    assert table_corrections.dispute_reason(row) == "Hicieron 10"
    assert table_corrections.open_disputes(mitchell_session.session) == [row]
    assert not table_corrections.may_confirm(row)
    # sent twice: one dispute
    table_corrections.dispute_at_table(row, table_code=table_code, reason="Hicieron 10")
    assert AuditEntry.objects.filter(result=row, action=AuditAction.DISPUTED).count() == 1
    with pytest.raises(InvalidResult):
        table_corrections.keep_disputed(row, user=director, reason="")
    table_corrections.keep_disputed(row, user=director, reason="Checked with both pairs")
    row.refresh_from_db()
    assert row.confirmed and table_corrections.state_of(row) == CONFIRMED
    assert table_corrections.open_disputes(mitchell_session.session) == []
    # the director has ruled: the table can reject it no more
    with pytest.raises(NotAllowed):
        table_corrections.dispute_at_table(row, table_code=table_code, reason="Otra vez")


def test_the_director_correcting_a_disputed_result_settles_it(mitchell_session, director):
    row = saved(mitchell_session)
    table_corrections.dispute_at_table(
        row, table_code=code(mitchell_session, 1), reason="Fue 4♠ −1"
    )
    corrections.correct_result(
        row, user=director, contract="4S", declarer="N", tricks=9, reason="Dispute at the table"
    )
    assert table_corrections.state_of(row) == CORRECTED
    assert table_corrections.open_disputes(mitchell_session.session) == []
    with pytest.raises(InvalidResult):
        table_corrections.keep_disputed(row, user=director, reason="late")


def test_without_opponent_confirmation_the_opponents_may_still_reject(mitchell_session):
    tournament = mitchell_session.session.tournament
    tournament.opponent_confirmation = False
    tournament.save(update_fields=["opponent_confirmation"])
    row = saved(mitchell_session)
    assert table_corrections.state_of(row) == CONFIRMED
    choices = table_corrections.table_choices(row)
    assert choices["can_dispute"] and not choices["can_correct"]
    table_corrections.dispute_at_table(row, table_code=code(mitchell_session, 1), reason="No")
    assert table_corrections.state_of(row) == DISPUTED


# --- over HTTP: the table's board page, the JSON queue, the director's console ---------------


def test_board_page_offers_correct_and_reject_and_shows_the_state(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    post_json(client, result_data())
    page = client.get(reverse("table:board", args=[1, 1]))
    html = page.content.decode()
    row = Result.objects.get(table=1)
    assert 'id="board-state" data-state="entered"' in html
    assert 'id="correct-form"' in html and 'id="dispute-form"' in html
    assert 'id="confirm-button"' in html
    # the correction pad shows what is saved: 4♠ N =
    form = page.context["correct_form"]
    assert (form.initial["level"], form.initial["strain"], form.initial["made"]) == ("4", "S", "=")
    response = client.post(
        reverse("table:correct", args=[row.pk]),
        result_data(made="+1"),
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200 and response.json()["ns_score"] == 450
    assert response.json()["state"] == ENTERED
    # a correction that is no result is refused, nothing changes
    bad = client.post(
        reverse("table:correct", args=[row.pk]),
        result_data(made="+7"),
        HTTP_ACCEPT="application/json",
    )
    assert bad.status_code == 400 and "made" in bad.json()["errors"]
    row.refresh_from_db()
    assert row.tricks == 11
    # the opponents reject it
    empty = client.post(
        reverse("table:dispute", args=[row.pk]), {"reason": ""}, HTTP_ACCEPT="application/json"
    )
    assert empty.status_code == 400 and empty.json()["errors"]["reason"]
    rejected = client.post(
        reverse("table:dispute", args=[row.pk]), {"reason": "El muerto no estaba en la mesa"}
    )
    assert rejected.status_code == 302
    html = client.get(reverse("table:board", args=[1, 1])).content.decode()
    assert 'data-state="disputed"' in html and "El muerto no estaba en la mesa" in html
    assert 'id="confirm-button"' not in html and 'id="correct-form"' not in html
    assert 'id="next-board"' in html or 'id="round-link"' in html  # play goes on
    # a confirm queued before the rejection arrives after it: refused, not confirmed
    assert client.post(reverse("table:confirm", args=[row.pk])).status_code == 403
    row.refresh_from_db()
    assert not row.confirmed


def test_another_tables_device_is_refused_over_http(mitchell_session):
    own, other = Client(), Client()
    sign_in(own, mitchell_session, 1)
    sign_in(other, mitchell_session, 2)
    post_json(own, result_data())
    row = Result.objects.get(table=1)
    for name, data in (
        ("table:correct", result_data(made="+1")),
        ("table:dispute", {"reason": "no"}),
    ):
        response = other.post(reverse(name, args=[row.pk]), data, HTTP_ACCEPT="application/json")
        assert response.status_code == 403, name
    row.refresh_from_db()
    assert row.tricks == 10 and table_corrections.state_of(row) == ENTERED


def test_console_lists_the_dispute_and_the_director_keeps_it(
    director_client, mitchell_session, director
):
    client = Client()  # the table's device; director_client is the director's browser
    sign_in(client, mitchell_session, 1)
    post_json(client, result_data())
    row = Result.objects.get(table=1)
    client.post(reverse("table:dispute", args=[row.pk]), {"reason": "Fueron 11 bazas"})
    console = director_client.get(reverse("director:console", args=[mitchell_session.session_id]))
    html = console.content.decode()
    assert 'class="dispute"' in html and "Fueron 11 bazas" in html
    line = director_client.get(reverse("director:line", args=[mitchell_session.pk, 1, 1, 1]))
    assert 'id="dispute"' in line.content.decode() and line.context["dispute"] == "Fueron 11 bazas"
    director_client.post(
        reverse("director:keep_disputed", args=[row.pk]), {"reason": "Both pairs agree"}
    )
    row.refresh_from_db()
    assert table_corrections.state_of(row) == CONFIRMED
    html = director_client.get(
        reverse("director:console", args=[mitchell_session.session_id])
    ).content.decode()
    assert 'class="dispute"' not in html
    page = client.get(reverse("table:board", args=[1, 1])).content.decode()
    assert 'data-state="confirmed"' in page and 'id="dispute-form"' not in page

"""An idempotency key belongs to one device: another table's equal key is another result.

A key used to be unique over the whole site, so table A2 posting with a key A1 had used was
answered "duplicate" and its result dropped. Keys are now unique per section, table and
device (table code, or the director); a replay gets the stored line back, and the same key
with a different result from the same device is a 409, with nothing overwritten.
"""

import pytest
from django.urls import reverse

from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.errors import KeyReused
from tournaments.services.running import corrections
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


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


def test_two_tables_with_the_same_key_both_store(mitchell_session):
    a1 = post(mitchell_session, 1, 1, 1, "k-7")
    a2 = post(mitchell_session, 2, 1, 3, "k-7", contract="3NT", declarer="S", tricks=9)
    assert (a1.outcome, a2.outcome) == ("created", "created")
    assert a1.result.pk != a2.result.pk
    assert Result.objects.filter(idempotency_key="k-7").count() == 2
    assert Result.objects.get(table=2).contract == "3NT"


def test_director_and_table_keys_do_not_collide(mitchell_session, director):
    post(mitchell_session, 1, 1, 1, "same")
    by_director = entry.submit_result(
        user=director,
        section=mitchell_session,
        table=2,
        round=1,
        board=3,
        contract="2H",
        declarer="E",
        tricks=8,
        idempotency_key="same",
    )
    assert by_director.outcome == "created" and by_director.result.table == 2


def test_replay_returns_the_stored_result(mitchell_session):
    first = post(mitchell_session, 1, 1, 1, "again", lead="♥10")
    again = post(mitchell_session, 1, 1, 1, "again", lead="♥10")
    assert again.outcome == "duplicate" and again.result.pk == first.result.pk
    assert Result.objects.count() == 1


def test_same_key_different_content_is_refused_and_nothing_overwritten(mitchell_session):
    first = post(mitchell_session, 1, 1, 1, "k")
    with pytest.raises(KeyReused):
        post(mitchell_session, 1, 1, 1, "k", tricks=9)
    with pytest.raises(KeyReused):  # the same key for another board of this table
        post(mitchell_session, 1, 1, 2, "k")
    assert Result.objects.count() == 1
    first.result.refresh_from_db()
    assert (first.result.tricks, first.result.ns_score) == (10, 420)


def test_replay_after_a_director_correction_is_still_a_duplicate(mitchell_session, director):
    """The device resends what it first sent; the director changed the row meanwhile."""
    first = post(mitchell_session, 1, 1, 1, "k")
    corrections.correct_result(
        first.result, user=director, contract="4S", declarer="N", tricks=11, reason="Scorer's slip"
    )
    again = post(mitchell_session, 1, 1, 1, "k")
    assert again.outcome == "duplicate" and again.result.tricks == 11


# --- over HTTP -------------------------------------------------------------------------------


def sign_in(client, section, table):
    table_code = code(section, table)
    response = client.post(
        reverse("table:index"), {"table": table_code.label, "code": table_code.code}
    )
    assert response.status_code == 302
    return client


def data(round_=1, board=1, key="key-1", made="="):
    return {
        "round": round_,
        "board": board,
        "level": "4",
        "strain": "S",
        "double": "",
        "declarer": "N",
        "made": made,
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": key,
    }


def post_json(client, payload):
    return client.post(reverse("table:result"), payload, HTTP_ACCEPT="application/json")


def test_replay_over_http_answers_the_stored_line(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    assert post_json(client, data()).status_code == 201
    answer = post_json(client, data())
    assert answer.status_code == 200
    body = answer.json()
    assert body["outcome"] == "duplicate"
    stored = body["stored"]
    assert (stored["contract"], stored["declarer"], stored["tricks"], stored["ns_score"]) == (
        "4S",
        "N",
        10,
        420,
    )
    assert stored["entered_by"] == "A1" and stored["entered_at"]


def test_clash_over_http_is_a_409(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    assert post_json(client, data()).status_code == 201
    answer = post_json(client, data(made="-1"))
    assert answer.status_code == 409
    assert answer.json()["outcome"] == "key_reused"
    assert answer.json()["error"]
    assert Result.objects.get().tricks == 10
    assert Result.objects.filter(status=ResultStatus.CONFLICT).count() == 0


def test_clash_on_the_plain_form_is_a_409(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    url = reverse("table:board", kwargs={"round": 1, "board": 1})
    assert client.post(url, data()).status_code == 302
    response = client.post(url, data(made="-1"))
    assert response.status_code == 409
    assert Result.objects.get().tricks == 10

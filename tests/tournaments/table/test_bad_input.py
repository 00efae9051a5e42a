"""Hostile bodies and impossible scores on the table API and the director's line: each a
400 with a translated message and nothing stored (each was a 500 or a stored typo).

Tonight's running Mitchell is built once for the module
(tests/module_rows.py), each test in a savepoint of it."""

import json
import uuid

import pytest
from django.urls import reverse

from tests.tournaments.conftest import shared_mitchell
from tests.tournaments.table.test_table_views import result_data, sign_in
from tournaments.models import AuditEntry, Result
from tournaments.scoring import LEGAL_NS_SCORES, is_legal_score
from tournaments.services.errors import InvalidResult
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def post_raw(client, body: bytes | str):
    return client.generic(
        "POST",
        reverse("table:result"),
        body,
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,  # RecursionError in json.loads
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        json.dumps(result_data() | {"idempotency_key": "\ud800"}),  # a lone surrogate value
        '{"\\ud800": 1, "round": 1}',  # lone surrogate key
        '{"round": NaN, "board": 1}',
        '{"round": Infinity, "board": 1}',
        '{"round": 1' + "0" * 5000 + ', "board": 1}',  # beyond int's digit limit
        '{"round": ' + "9" * 30 + ', "board": 1, "level": "PASS", "idempotency_key": "k"}',
        '{"x": "' + "a" * 70_000 + '"}',  # over the size cap
        "\xff\xfe",
        "[1, 2]",
    ],
)
def test_hostile_json_bodies_are_a_400_with_a_message(client, mitchell_session, body):
    sign_in(client, mitchell_session, 1)
    body = body.encode("latin-1") if body == "\xff\xfe" else body.encode()  # json.dumps escapes
    response = post_raw(client, body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors and all(isinstance(m, str) and m for ms in errors.values() for m in ms)
    assert not Result.objects.exists()


def test_the_refusal_is_translated(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    response = post_raw(client, "[" * 1000)
    assert response.json()["errors"]["__all__"] == ["La petición está anidada demasiado."]


def test_a_lone_surrogate_in_the_key_is_refused_not_stored(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    body = json.dumps(result_data()).replace('"idempotency_key": "', '"idempotency_key": "\\ud800')
    assert post_raw(client, body).status_code == 400
    assert not Result.objects.exists()


def test_a_plain_json_result_still_saves(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    response = post_raw(client, json.dumps(result_data()))
    assert response.status_code == 201 and response.json()["ns_score"] == 420


# --- scores no contract makes ---------------------------------------------------------------


def test_the_core_knows_every_legal_score():
    assert {0, 50, -50, 420, -420, 7600, -7600, 2980, 1430} <= LEGAL_NS_SCORES
    assert not any(is_legal_score(s) for s in (421, 4200, 10**20, 7610, True, "420"))


def test_the_director_cannot_type_a_score_no_contract_makes(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    for score in ("4200", "421", str(10**30), "9" * 25):
        response = director_client.post(
            url,
            {
                "action": "result",
                "contract": "4S",
                "declarer": "N",
                "result": "=",
                "ns_score": score,
                "reason": "x",
            },
        )
        assert response.status_code == 400, score
        assert not Result.objects.exists()
    html = director_client.post(
        url,
        {"action": "result", "contract": "4S", "declarer": "N", "result": "=", "ns_score": "4200"},
    ).content.decode()
    assert "no es un resultado que pueda dar ningún contrato" in html
    response = director_client.post(
        url,
        {"action": "result", "contract": "4S", "declarer": "N", "result": "=", "ns_score": "450"},
    )
    assert response.status_code == 302
    assert Result.objects.get().ns_score == 450


def test_a_split_score_must_be_a_legal_score(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    for ns, ew in (("420", "99999999999999999999"), ("4200", "450"), ("-7610", "0")):
        response = director_client.post(
            url,
            {
                "action": "adjust",
                "kind": "split",
                "split_ns": ns,
                "split_ew": ew,
                "reason": "x",
                "law": "12C1e",
            },
        )
        assert response.status_code == 400, (ns, ew)
    assert not Result.objects.exists() and not AuditEntry.objects.exists()


def test_the_service_refuses_an_illegal_score_from_any_caller(director, mitchell_session):
    with pytest.raises(InvalidResult):
        entry.submit_result(
            round=1,
            board=1,
            contract="4S",
            declarer="N",
            tricks=10,
            idempotency_key=uuid.uuid4().hex,
            user=director,
            section=mitchell_session,
            table=1,
            ns_score=10**40,
        )
    assert not Result.objects.exists()


def test_a_table_device_cannot_post_a_score_only_a_contract(client, mitchell_session):
    """The device's score is always Law 77's for the contract it posts: a posted ns_score is
    not read, and the service refuses one from a device."""
    sign_in(client, mitchell_session, 1)
    response = post_raw(client, json.dumps(result_data() | {"ns_score": 10**40}))
    assert response.status_code == 201 and Result.objects.get().ns_score == 420
    from tournaments.models import TableCode
    from tournaments.services.errors import NotAllowed

    code = TableCode.objects.get(section=mitchell_session, table=1, active=True)
    with pytest.raises(NotAllowed):
        entry.submit_result(
            round=1,
            board=2,
            contract="4S",
            declarer="N",
            tricks=10,
            idempotency_key="k2",
            table_code=code,
            ns_score=7600,
        )
    assert Result.objects.count() == 1

"""Duplicate submissions at the same instant store one result: both try the one INSERT of a
first post, the unique constraints refuse the loser, whose retry takes the line's lock
(PostgreSQL; SQLite writes one at a time) and finds the winner's row."""

import threading

import pytest
from django.db import connection

from clubsite.tenancy import thread_in_scope
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.table import entry


def race(section, keys, tricks=(10, 10)):
    code = TableCode.objects.get(section=section, table=1, active=True)
    barrier = threading.Barrier(len(keys))
    outcomes, errors = [], []

    def post(key, won):
        try:
            barrier.wait()
            outcomes.append(
                entry.submit_result(
                    table_code=code,
                    round=1,
                    board=1,
                    contract="4S",
                    declarer="N",
                    tricks=won,
                    idempotency_key=key,
                ).outcome
            )
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [thread_in_scope(post, args=(k, t)) for k, t in zip(keys, tricks, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    return sorted(outcomes)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("keys", [("tablet", "phone"), ("same", "same")])
def test_two_devices_at_once_store_one_result(mitchell_session, keys):
    for attempt in range(5):
        Result.objects.all().delete()
        outcomes = race(mitchell_session, [f"{k}-{attempt}" for k in keys])
        assert outcomes == ["created", "duplicate"]
        assert Result.objects.filter(status=ResultStatus.OK).count() == 1
        assert Result.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_different_results_at_once_make_one_conflict(mitchell_session):
    outcomes = race(mitchell_session, ["a", "b"], tricks=(10, 9))
    assert outcomes == ["conflict", "created"]
    assert Result.objects.filter(status=ResultStatus.OK).count() == 1
    assert Result.objects.filter(status=ResultStatus.CONFLICT).count() == 1

"""A real worker killed mid-upload: the task is redone and the federation files it once.

Apart from test_uploads.py, whose tests share rows built once for the module inside a
transaction: this test's worker processes must read committed rows."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tournaments.conftest import build_demo_events
from tournaments import jobs
from tournaments.models import Tournament
from tournaments.models.uploads import Upload, UploadState

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def mitchell(transactional_db):
    """The demo club's Tuesday Mitchell, built (and committed) for this test."""
    build_demo_events("martes")
    return Tournament.objects.get(name="Torneo de los martes")


WORKER = (
    "import django, sys; django.setup(); import tournaments.jobs; "
    "from clubsite.celery import app; "
    "app.conf.broker_transport_options = {'visibility_timeout': 3, "
    "'unacked_restore_throttle': 1}; "
    "app.worker_main(['worker', '--pool=solo', '--concurrency=1', '-l', 'warning', "
    "'--without-gossip', '--without-mingle', '--without-heartbeat', "
    "'-n', __import__('os').environ['WORKER_NODE']])"
)


def start_worker(env):
    return subprocess.Popen(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=env, start_new_session=True
    )


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_upload_is_redone_and_files_once(
    celery_worker_process, fed, endpoint, mitchell
):
    """The fake federation holds the first request until the worker is SIGKILLed; acks_late
    puts the task back, a restarted worker sends again with the same Idempotency-Key, the
    federation answers with its first receipt, and our upload ends *sent* once."""

    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "FEDERATION_ALLOW_HTTP": "1",
        "FEDERATION_ALLOW_PRIVATE": "1",
        "WORKER_NODE": celery_worker_process.node,
    }  # answers the fixture's pings
    celery_worker_process.process.terminate()  # the fixture's worker cannot see jobs.py yet
    celery_worker_process.process.wait(timeout=30)
    celery_worker_process.purge()
    fed.script = ["hold"]
    first = start_worker(env)
    try:
        _wait_for(celery_worker_process.ping)
        made, created = jobs.request_upload(endpoint, tournament=mitchell)
        assert created
        assert fed.arrived.wait(60), "the worker never sent the upload"
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        fed.release.set()
        made.refresh_from_db()
        assert made.state == UploadState.SENDING
        second = start_worker(env)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                made.refresh_from_db()
                if made.state == UploadState.SENT:
                    break
                time.sleep(0.5)
            assert made.state == UploadState.SENT
            assert len(fed.filed) == 1 and len(fed.requests) == 2
            assert {r["key"] for r in fed.requests} == {str(made.upload_id)}
            attempts = list(made.attempts.all())
            assert attempts[0].http_status is None and attempts[-1].http_status == 201
            assert Upload.objects.count() == 1
        finally:
            os.killpg(second.pid, signal.SIGTERM)
            second.wait(timeout=30)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def _wait_for(ping, seconds: int = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ping():
            return
    raise AssertionError("the worker did not answer")

"""Federation uploads against a fake federation on 127.0.0.1: retries, time-outs, refusals,
idempotency, licence batches, the secretary's page, and a worker killed mid-upload."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import include, path, reverse

import clubsite.urls
from clubsite.models import Licence, LicenceStatus, Member, Season
from tests.support_fake_federation import FakeFederation
from tournaments import demo, jobs
from tournaments.exports.licences import licence_batch
from tournaments.models import Tournament
from tournaments.models.uploads import (
    AuthKind,
    FederationEndpoint,
    FileFormat,
    PostMode,
    Upload,
    UploadState,
)

ROOT = Path(__file__).resolve().parents[3]
_mounted = any(getattr(p, "namespace", None) == "uploads" for p in clubsite.urls.urlpatterns)
urlpatterns = list(clubsite.urls.urlpatterns) + (
    [] if _mounted else [path("club/uploads/", include(("tournaments.urls.uploads", "uploads")))]
)
pytestmark = pytest.mark.urls(__name__)


@pytest.fixture
def fed(settings):
    """The fake federation listens on 127.0.0.1 over plain http: allowed for these tests
    only (production refuses both, see tests/tournaments/exports/test_federation_address.py)."""
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True
    server = FakeFederation().start()
    yield server
    server.stop()


@pytest.fixture
def mitchell(demo_club, monkeypatch, movements):
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("martes",))
    return Tournament.objects.get(name="Torneo de los martes")


@pytest.fixture
def endpoint(fed, db, settings):
    settings.UPLOAD_RETRY_BASE_SECONDS = 0
    return FederationEndpoint.objects.create(
        name="AEB resultados",
        url=fed.url,
        auth=AuthKind.TOKEN,
        secret="s3cret",
        file_format=FileFormat.USEBIO,
        mode=PostMode.FORM,
        timeout=1,
        max_retries=3,
    )


@pytest.fixture
def upload(django_capture_on_commit_callbacks):
    def run(endpoint, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            made, created = jobs.request_upload(endpoint, **kwargs)
        made.refresh_from_db()
        return made, created

    return run


@pytest.mark.django_db
def test_results_reach_the_federation_once_with_their_upload_id(fed, endpoint, mitchell, upload):
    sent, created = upload(endpoint, tournament=mitchell)
    assert created and sent.state == UploadState.SENT and sent.response_status == 201
    assert len(fed.requests) == 1 and len(fed.filed) == 1
    request = fed.requests[0]
    assert request["key"] == str(sent.upload_id)
    assert request["headers"]["Authorization"] == "Bearer s3cret"
    assert f'name="upload_id"\r\n\r\n{sent.upload_id}'.encode() in request["body"]
    assert sent.content.encode() in request["body"] and b"<USEBIO" in request["body"]
    assert [a.http_status for a in sent.attempts.all()] == [201]
    again, created = upload(endpoint, tournament=mitchell)
    assert not created and again.pk == sent.pk and len(fed.requests) == 1


@pytest.mark.django_db
def test_a_failure_is_retried_with_the_same_id(fed, endpoint, mitchell, upload):
    fed.script = ["fail", "fail"]
    sent, _created = upload(endpoint, tournament=mitchell)
    assert sent.state == UploadState.SENT
    assert [a.http_status for a in sent.attempts.all()] == [500, 500, 201]
    assert {r["key"] for r in fed.requests} == {str(sent.upload_id)} and len(fed.filed) == 1


@pytest.mark.django_db
def test_a_timeout_is_retried_and_the_federation_files_it_once(fed, endpoint, mitchell, upload):
    fed.script, fed.slow_seconds = ["slow"], 2.5
    sent, _created = upload(endpoint, tournament=mitchell)
    attempts = list(sent.attempts.all())
    assert sent.state == UploadState.SENT
    assert attempts[0].http_status is None and "timed out" in attempts[0].error
    assert attempts[-1].http_status == 201
    assert len(fed.requests) == 2 and len(fed.filed) == 1  # the retry got the original answer
    assert json.loads(attempts[-1].response)["receipt"] == "R-0001"


@pytest.mark.django_db
def test_gives_up_after_max_retries_then_the_secretary_retries(
    fed, endpoint, mitchell, upload, django_capture_on_commit_callbacks
):
    fed.script = ["fail"] * 4
    failed, _created = upload(endpoint, tournament=mitchell)
    assert failed.state == UploadState.FAILED and failed.attempts.count() == 4
    assert "500" in failed.error
    with django_capture_on_commit_callbacks(execute=True):
        jobs.retry_upload(failed)
    failed.refresh_from_db()
    assert failed.state == UploadState.SENT and failed.attempts.count() == 5
    assert len(fed.filed) == 1


def test_retry_delays_double_from_the_base_up_to_an_hour(settings):
    from tournaments.jobs import backoff

    settings.UPLOAD_RETRY_BASE_SECONDS = 30
    delays = [backoff(n) for n in range(10)]
    assert delays[:4] == [30, 60, 120, 240]
    capped = delays.index(3600)
    assert all(
        later == 2 * earlier
        for earlier, later in zip(delays[: capped - 1], delays[1:capped], strict=True)
    )
    assert delays[capped - 1] < 3600 <= 2 * delays[capped - 1]
    assert set(delays[capped:]) == {3600}  # never longer than an hour, however many retries
    settings.UPLOAD_RETRY_BASE_SECONDS = 5
    assert [backoff(n) for n in range(3)] == [5, 10, 20]


@pytest.mark.django_db
def test_a_failed_send_through_a_broker_is_retried_after_the_back_off(
    fed, endpoint, mitchell, django_capture_on_commit_callbacks, settings, monkeypatch
):
    """With a broker the task hands its retry to Celery, counting down the back-off of the
    retries so far (eagerly, in the other tests, the retry runs at once)."""
    from tournaments import jobs

    settings.UPLOAD_RETRY_BASE_SECONDS = 30
    with django_capture_on_commit_callbacks(execute=False):  # queued, not sent yet
        queued, _created = jobs.request_upload(endpoint, tournament=mitchell)

    class Retry(Exception):
        pass

    asked = []

    def retry(**kwargs):
        asked.append(kwargs)
        return Retry()

    monkeypatch.setattr(jobs.send_upload, "retry", retry)
    for retries in range(3):
        fed.script = ["fail"]
        jobs.send_upload.push_request(retries=retries, is_eager=False)
        try:
            with pytest.raises(Retry):
                jobs.send_upload.run(queued.pk)
        finally:
            jobs.send_upload.pop_request()
        queued.refresh_from_db()
        assert queued.state == UploadState.QUEUED
    assert [a["countdown"] for a in asked] == [30, 60, 120]
    assert {a["max_retries"] for a in asked} == {endpoint.max_retries}


@pytest.mark.django_db
def test_a_refusal_is_not_retried(fed, endpoint, mitchell, upload):
    fed.script = ["refuse"]
    refused, _created = upload(endpoint, tournament=mitchell)
    assert refused.state == UploadState.FAILED and refused.attempts.count() == 1
    assert refused.response_status == 422 and "unknown club" in refused.attempts.get().response


@pytest.mark.django_db
def test_unreachable_federation_fails_clearly(endpoint, mitchell, upload):
    endpoint.url, endpoint.max_retries = "http://127.0.0.1:9/upload", 1
    endpoint.save()
    failed, _created = upload(endpoint, tournament=mitchell)
    assert failed.state == UploadState.FAILED and failed.attempts.count() == 2
    assert failed.error and failed.attempts.first().http_status is None


@pytest.mark.django_db
def test_json_mode_with_basic_credentials_and_pbn(fed, endpoint, mitchell, upload):
    endpoint.mode, endpoint.auth, endpoint.username = PostMode.JSON, AuthKind.BASIC, "club"
    endpoint.file_format = FileFormat.PBN
    endpoint.save()
    sent, _created = upload(endpoint, tournament=mitchell)
    body = json.loads(fed.requests[0]["body"])
    assert body["upload_id"] == str(sent.upload_id) and body["format"] == "pbn"
    assert body["content"] == sent.content and "[ScoreTable" in body["content"]
    assert fed.requests[0]["headers"]["Authorization"].startswith("Basic ")


@pytest.mark.django_db
def test_a_correction_is_a_new_upload(fed, endpoint, mitchell, upload):
    from tournaments.models import Result
    from tournaments.services.running import corrections

    first, _created = upload(endpoint, tournament=mitchell)
    row = Result.objects.filter(section__session__tournament=mitchell).first()
    corrections.correct_result(
        row, user=None, contract="3NT", declarer="N", tricks=7, reason="Corrección", override=True
    )
    second, created = upload(endpoint, tournament=mitchell)
    assert created and second.upload_id != first.upload_id
    assert second.results_version != first.results_version and len(fed.filed) == 2


@pytest.mark.django_db
def test_licence_batch_is_formula_safe_and_uploadable(fed, endpoint, demo_club, upload):
    season = Season.current()
    member = Member.objects.create(
        first_name="=cmd|' /C calc'!A0", last_name="Pérez", licence_number="L-77"
    )
    Licence.objects.update_or_create(
        member=member,
        season=season,
        defaults={"federation": "AEB", "status": LicenceStatus.REQUESTED},
    )
    name, text = licence_batch(season)
    requested = Licence.objects.filter(season=season, status=LicenceStatus.REQUESTED).count()
    assert len(text.strip().splitlines()) == requested + 1
    assert "'=cmd" in text and ",=cmd" not in text
    endpoint.file_format = FileFormat.LICENCE_CSV
    endpoint.save()
    sent, _created = upload(endpoint, season=season)
    assert sent.state == UploadState.SENT and sent.file_name == name
    assert b"L-77" in fed.requests[0]["body"]


@pytest.mark.django_db
def test_the_secretarys_page(
    fed, endpoint, mitchell, secretary_client, player, django_capture_on_commit_callbacks
):
    fed.script = ["fail"] * 4
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary_client.post(
            reverse("uploads:send"), {"endpoint": endpoint.pk, "tournament": mitchell.pk}
        )
    assert response.status_code == 302
    failed = Upload.objects.get()
    assert failed.state == UploadState.FAILED
    page = secretary_client.get(reverse("uploads:index")).content.decode()
    assert f'id="upload-{failed.upload_id}" data-state="failed"' in page
    assert page.count("<tr><td>") >= 4 and "retry" in page
    download = secretary_client.get(reverse("uploads:download", args=[failed.upload_id]))
    assert download.content.decode() == failed.content
    assert failed.file_name in download["Content-Disposition"]
    with django_capture_on_commit_callbacks(execute=True):
        secretary_client.post(reverse("uploads:retry", args=[failed.upload_id]))
    failed.refresh_from_db()
    assert failed.state == UploadState.SENT
    other = Client()
    other.force_login(player)
    assert other.get(reverse("uploads:index")).status_code == 403
    response = secretary_client.post(
        reverse("uploads:endpoint_new"),
        {
            "name": "FPB",
            "federation": "FPB",
            "url": "not a url",
            "file_format": "usebio",
            "mode": "form",
            "auth": "none",
            "timeout": 30,
            "max_retries": 5,
            "enabled": "on",
        },
    )
    assert response.status_code == 200 and b"not a url" in response.content
    csv = secretary_client.get(reverse("uploads:licences") + "?download=1")
    assert csv["Content-Type"].startswith("text/csv")


@pytest.mark.django_db(transaction=True)  # real commits: the eager job runs in the request
def test_the_page_says_what_became_of_the_upload(
    fed, endpoint, mitchell_session, secretary_client, monkeypatch
):
    from tournaments import jobs

    def said(response):  # the messages shown on the page the post leads to
        return [(m.level_tag, str(m)) for m in response.context["messages"]]

    from django.conf import settings

    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    tournament = mitchell_session.session.tournament
    fed.script = ["fail"] * 4  # the first try and the endpoint's three retries
    response = secretary_client.post(
        reverse("uploads:send"), {"endpoint": endpoint.pk, "tournament": tournament.pk}, follow=True
    )
    failed = Upload.objects.get()
    assert failed.state == UploadState.FAILED and "500" in failed.error
    assert said(response) == [("error", f"The upload of {failed.file_name} failed: {failed.error}")]
    response = secretary_client.post(reverse("uploads:retry", args=[failed.upload_id]), follow=True)
    assert said(response) == [("success", f"Upload sent: {failed.file_name}.")]
    # With a broker the job waits for a worker: only then is "queued" the truth.
    monkeypatch.setattr(jobs.send_upload, "delay", lambda pk: None)
    other = FederationEndpoint.objects.create(name="PBN", url=fed.url, file_format=FileFormat.PBN)
    response = secretary_client.post(
        reverse("uploads:send"), {"endpoint": other.pk, "tournament": tournament.pk}, follow=True
    )
    waiting = Upload.objects.get(endpoint=other)
    assert waiting.state == UploadState.QUEUED
    assert said(response) == [("info", f"Upload queued: {waiting.file_name}.")]


# --- a real worker killed mid-upload -------------------------------------------------------

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

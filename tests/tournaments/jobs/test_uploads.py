"""Federation uploads against a fake federation on 127.0.0.1: retries, time-outs, refusals,
idempotency, licence batches and the secretary's page.

The tests share the demo club and its Tuesday Mitchell, built once for the module inside a
transaction (tests/module_rows.py). The tests that need real commits are apart:
test_upload_page_messages.py and test_upload_worker_killed.py."""

import json

import pytest
from django.test import Client
from django.urls import include, path, reverse

import clubsite.urls
from clubsite.models import Licence, LicenceStatus, Member, Season
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments import jobs
from tournaments.exports.licences import licence_batch
from tournaments.models import Tournament
from tournaments.models.uploads import AuthKind, FileFormat, PostMode, Upload, UploadState

_mounted = any(getattr(p, "namespace", None) == "uploads" for p in clubsite.urls.urlpatterns)
urlpatterns = list(clubsite.urls.urlpatterns) + (
    [] if _mounted else [path("club/uploads/", include(("tournaments.urls.uploads", "uploads")))]
)
pytestmark = pytest.mark.urls(__name__)


@pytest.fixture(scope="module")
def _martes_rows(django_db_setup, django_db_blocker):
    with module_rows(django_db_blocker):
        build_demo_events("martes")
        yield


@pytest.fixture
def mitchell(_martes_rows, db):
    """The demo club's Tuesday Mitchell (a module's rows: see tests/module_rows.py)."""
    return Tournament.objects.get(name="Torneo de los martes")


@pytest.fixture
def demo_club(_martes_rows, db):
    """The demo club as the module built it (its Tuesday Mitchell too, which no licence
    reads), never built again on top of the module's rows."""


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

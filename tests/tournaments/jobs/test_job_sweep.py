"""PDF and upload jobs lost on the way are sent again by the worker's sweep, each done once.

A job is its row first: a broker that is down when it is queued costs the request nothing
and leaves the row waiting; a worker killed mid-job leaves it running. The sweep
(``tournaments.jobs.sweep``) sends both again once they are ``JOB_STALL_SECONDS`` past due,
and the row makes a second run a no-op. The live version (a real worker with its embedded
beat, Redis stopped and restarted, the worker SIGKILLed) is tests/faults/.

Tonight's Mitchell, every round played, is built once for the module (tests/module_rows.py),
each test in a savepoint of it; a live run's claim, which commits, is test_pdf_claim_live.py.
"""

import datetime
import random

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from clubsite.celery import app as celery_app
from tests.module_rows import module_rows
from tests.support_fake_federation import FakeFederation
from tests.tournaments.conftest import build_mitchell_session, make_members
from tournaments import jobs
from tournaments.demo import play_rounds
from tournaments.exports import federation
from tournaments.jobs import sweep as job_sweep
from tournaments.models import Tournament
from tournaments.models.uploads import (
    AuthKind,
    FederationEndpoint,
    FileFormat,
    PdfState,
    PostMode,
    ResultsPdf,
    Upload,
    UploadState,
)
from tournaments.services.classification import windows
from tournaments.services.results import publish

pytestmark = pytest.mark.django_db


class Broker:
    """What the tasks' ``delay`` met: refusals while ``down``, else the messages sent."""

    def __init__(self, monkeypatch, *tasks):
        self.down = False
        self.sent: list[tuple[str, tuple]] = []
        for task in tasks:
            monkeypatch.setattr(task, "delay", self._delay(task.name))
            monkeypatch.setattr(task, "apply_async", self._apply_async(task.name))

    def _delay(self, name):
        def delay(*args):
            if self.down:
                raise OperationalError("Error 111 connecting to 127.0.0.1:6379.")
            self.sent.append((name, args))

        return delay

    def _apply_async(self, name):
        def apply_async(args=(), countdown=None, **kwargs):
            return self._delay(name)(*args)

        return apply_async


@pytest.fixture
def broker(monkeypatch, settings):
    return make_broker(monkeypatch, settings)


def make_broker(monkeypatch, settings):
    """``broker``: the tasks' messages recorded by a ``Broker``, sent or refused."""
    celery_app.conf.task_always_eager = False  # the autouse _celery_mode fixture restores it
    settings.JOB_STALL_SECONDS = 60
    monkeypatch.setattr(windows, "_broker_down_until", 0.0)
    monkeypatch.setattr(windows, "_local_windows", {})
    return Broker(
        monkeypatch,
        jobs.generate_pdf,
        jobs.send_upload,
        jobs.results_published,
        jobs.refresh_results_pdf,
        jobs.import_usebio_file,
    )


def play_all(mitchell_session):
    """``mitchell_session`` with its seven rounds played; its tournament."""
    play_rounds(mitchell_session, random.Random(5), rounds=7)
    return mitchell_session.session.tournament


@pytest.fixture(scope="module")
def _played_rows(django_db_setup, django_db_blocker):
    """``members`` and the played Mitchell on them, built once for the module."""
    with module_rows(django_db_blocker):
        yield play_all(build_mitchell_session(make_members())).pk


@pytest.fixture
def played(_played_rows, db):
    """The module's played Mitchell's tournament, read afresh."""
    return Tournament.objects.get(pk=_played_rows)


def later(seconds: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(seconds=seconds)


def test_a_pdf_queued_while_the_broker_was_down_is_sent_again_once(
    broker, played, django_capture_on_commit_callbacks
):
    broker.down = True
    with django_capture_on_commit_callbacks(execute=True):
        pdf, created = jobs.request_pdf(played)  # no error for the request
    assert created and broker.sent == []
    pdf.refresh_from_db()
    assert pdf.state == PdfState.QUEUED
    broker.down = False
    assert job_sweep.sweep(later(30)).pdfs == []  # not due yet: maybe just slow
    broker.down = True
    assert job_sweep.sweep(later(61)).pdfs == []  # still down: tried, nothing marked sent
    broker.down = False
    assert job_sweep.sweep(later(61)).pdfs == [pdf.pk]
    assert broker.sent == [("tournaments.jobs.generate_pdf", (pdf.pk,))]
    # Sent once per stall time, not at every sweep while the worker is busy.
    assert job_sweep.sweep(later(62)).pdfs == []
    assert job_sweep.sweep(later(200)).pdfs == [pdf.pk]


def test_a_pdf_run_is_taken_once_and_taken_over_when_its_run_died(
    broker, played, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    pdf, _ = jobs.request_pdf(played)
    assert jobs.take(pdf.pk, "run-1")
    assert not jobs.take(pdf.pk, "run-2")  # a second message while run-1 is alive: no-op
    assert jobs.take(pdf.pk, "run-1")  # run-1's message handed back after its worker died
    # run-1 went silent: the sweep puts it back to waiting and sends it again.
    assert job_sweep.sweep(later(61)).pdfs == [pdf.pk]
    pdf.refresh_from_db()
    assert pdf.state == PdfState.QUEUED
    made = jobs.make_pdf(pdf.pk, run="run-3")
    assert made.state == PdfState.DONE and made.file
    name = made.file.name
    again = jobs.make_pdf(pdf.pk, run="run-1")  # the old message, redelivered at last
    assert again.state == PdfState.DONE and again.file.name == name
    assert ResultsPdf.objects.count() == 1
    assert job_sweep.sweep(later(500)).pdfs == []


@pytest.fixture
def fed(settings):
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True
    server = FakeFederation().start()
    yield server
    server.stop()


def test_an_upload_is_sent_by_one_run_and_resent_when_that_run_died(
    broker, fed, played, django_capture_on_commit_callbacks
):
    endpoint = FederationEndpoint.objects.create(
        name="AEB",
        url=fed.url,
        auth=AuthKind.TOKEN,
        secret="s",
        file_format=FileFormat.PBN,
        mode=PostMode.FORM,
        timeout=2,
        max_retries=3,
    )
    broker.down = True
    with django_capture_on_commit_callbacks(execute=True):
        upload, created = jobs.request_upload(endpoint, tournament=played)
    assert created and broker.sent == []
    broker.down = False
    assert job_sweep.sweep(later(61)).uploads == [upload.pk]
    # The run that took it was killed mid-request: another message finds it being sent.
    Upload.objects.filter(pk=upload.pk).update(
        state=UploadState.SENDING, taken_by="run-1", due_at=timezone.now()
    )
    assert federation.send(upload.pk, run="run-2") == UploadState.SENDING
    assert fed.requests == []
    # A stall time later the sweep sends it again, and the next run sends it, once.
    assert job_sweep.sweep(later(61)).uploads == [upload.pk]
    assert federation.send(upload.pk, run="run-3") == UploadState.SENT
    assert federation.send(upload.pk, run="run-1") == UploadState.SENT
    assert len(fed.requests) == 1 and len(fed.filed) == 1
    assert job_sweep.sweep(later(500)).uploads == []


def test_a_retry_put_off_by_its_back_off_is_not_swept_early(broker, fed, played, settings):
    endpoint = FederationEndpoint.objects.create(
        name="AEB",
        url=fed.url,
        auth=AuthKind.TOKEN,
        secret="s",
        file_format=FileFormat.PBN,
        mode=PostMode.FORM,
        timeout=2,
        max_retries=5,
    )
    upload, _ = jobs.request_upload(endpoint, tournament=played)
    Upload.objects.filter(pk=upload.pk).update(
        state=UploadState.QUEUED, due_at=later(600)
    )  # the retry's time
    assert job_sweep.sweep(later(300)).uploads == []
    assert job_sweep.sweep(later(661)).uploads == [upload.pk]


def test_results_published_while_the_broker_was_down_get_their_pdf_asked_for(
    broker, played, settings, django_capture_on_commit_callbacks
):
    settings.RESULTS_PDF_ON_PUBLISH = True
    settings.RESULTS_PDF_REFRESH_SECONDS = 60
    broker.down = True
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_provisional(played, user=None)
    assert not ResultsPdf.objects.exists()
    broker.down = False
    windows._broker_down_until = 0.0
    on_the_day = timezone.make_aware(datetime.datetime.combine(played.date, datetime.time(23)))
    assert job_sweep.sweep(on_the_day).tournaments == [played.pk]
    assert broker.sent == [("tournaments.jobs.refresh_results_pdf", (played.pk,))]
    # The refresh's window is open: asked for once, not once per sweep.
    job_sweep.sweep(on_the_day)
    assert len(broker.sent) == 1
    # Once the PDF of the current version is asked for, the tournament is left alone.
    jobs.request_pdf(played)
    assert job_sweep.sweep(on_the_day + datetime.timedelta(hours=1)).tournaments == []
    # An old event is not looked after.
    assert job_sweep.published_without_pdf(on_the_day + datetime.timedelta(days=90)) == []


def test_a_usebio_import_sent_while_the_broker_is_down_is_refused_clearly(broker, director_client):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from tournaments.models.uploads import ResultImport

    broker.down = True
    response = director_client.post(
        reverse("uploads:imports"),
        {"file": SimpleUploadedFile("martes.xml", b"<USEBIO/>", content_type="text/xml")},
    )
    assert response.status_code == 200
    assert "No se pudo empezar la importación" in response.content.decode()
    assert not ResultImport.objects.exists()


def test_only_the_worker_with_the_beat_sweeps_when_it_starts(monkeypatch):
    from types import SimpleNamespace

    queued = []
    monkeypatch.setattr(job_sweep.requeue_stalled_jobs, "delay", lambda: queued.append(1))
    job_sweep._sweep_when_ready(sender=SimpleNamespace(controller=SimpleNamespace(beat=None)))
    assert queued == []  # `celery worker` without -B leaves it to the one with the beat
    job_sweep._sweep_when_ready(sender=SimpleNamespace(controller=SimpleNamespace(beat=object())))
    assert queued == [1]

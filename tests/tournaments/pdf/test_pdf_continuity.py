"""A published PDF never vanishes: the last good one is served (marked with its version) until
the PDF of the current results is made; a PDF overtaken while it was made gives way to the
current version; without a broker the first download makes it."""

import random

import pytest
from django.urls import reverse

from clubsite.celery import app
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments import documents, jobs
from tournaments.exports.deals import random_deal
from tournaments.models import Board, Result, Tournament
from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf
from tournaments.services.results import publish
from tournaments.services.running import corrections

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _thursday_rows(django_db_setup, django_db_blocker):
    """The demo club and its Thursday Howell, published final, deals on its boards; built
    once for the module."""
    with module_rows(django_db_blocker):
        build_demo_events("jueves")
        rng = random.Random(9)
        for board in Board.objects.all():
            board.deal = random_deal(rng)
            board.save(update_fields=["deal"])
        yield


@pytest.fixture
def final(_thursday_rows, db, settings, tmp_path):
    """A finished demo tournament, published final, with deals on its boards."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return Tournament.objects.get(status="final")


def correct(tournament, tricks):
    row = Result.objects.filter(section__session__tournament=tournament).order_by("pk").first()
    corrections.correct_result(
        row,
        user=None,
        contract="3NT",
        declarer="N",
        tricks=tricks,
        reason="Corrección",
        override=True,
    )


def download(client, tournament):
    response = client.get(reverse("results:pdf", args=[tournament.slug]))
    body = b"".join(response.streaming_content) if response.status_code == 200 else b""
    return response, body


@pytest.mark.pdf_on_publish
def test_the_last_good_pdf_is_served_until_the_new_one_is_ready(
    final, client, monkeypatch, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_final(final, user=None, override=True)
    first = ResultsPdf.objects.get(tournament=final, state=PdfState.DONE)

    # With a broker: the correction's refresh is queued, not made yet.
    settings.RESULTS_PDF_REFRESH_SECONDS = 60
    queued = []
    monkeypatch.setattr(
        jobs.refresh_results_pdf, "apply_async", lambda args, countdown=None: queued.append(args)
    )
    monkeypatch.setattr(jobs.generate_pdf, "delay", lambda pk: queued.append(("pdf", pk)))
    app.conf.task_always_eager = False
    with django_capture_on_commit_callbacks(execute=True):
        correct(final, 8)
    assert documents.current_version(final) != first.version
    assert queued == [(final.pk,)]  # one refresh for the correction and its classification

    response, body = download(client, final)
    assert response.status_code == 200 and body.startswith(b"%PDF")
    assert response["X-Results-Superseded"] == first.version
    assert f"-v{first.version}.pdf" in response["Content-Disposition"]
    page = client.get(reverse("results:tournament", args=[final.slug]))
    assert "results-pdf" in page.content.decode()
    # The download asked for the current version once, not once per visitor.
    download(client, final)
    current = ResultsPdf.objects.filter(tournament=final, version=documents.current_version(final))
    assert current.count() == 1 and current.get().state == PdfState.QUEUED

    # The worker makes it; from then on it is the one served.
    app.conf.task_always_eager = True
    jobs.generate_pdf.apply((current.get().pk,))
    response, body = download(client, final)
    assert response.status_code == 200 and "X-Results-Superseded" not in response
    assert f"-v{documents.current_version(final)}.pdf" in response["Content-Disposition"]


def test_a_pdf_overtaken_by_a_new_result_gives_way_to_the_current_version(
    final, django_capture_on_commit_callbacks
):
    publish.publish_final(final, user=None, override=True)
    with django_capture_on_commit_callbacks(execute=True):
        asked, _created = jobs.request_pdf(final, PdfKind.RESULTS, "es")
    asked.refresh_from_db()
    assert asked.state == PdfState.DONE
    # Asked for at one version, made after a correction: the task makes the new version.
    stale = ResultsPdf.objects.create(
        tournament=final,
        kind=PdfKind.RESULTS,
        language="en",
        version=documents.current_version(final),
    )
    with django_capture_on_commit_callbacks(execute=True):
        correct(final, 9)
    with django_capture_on_commit_callbacks(execute=True):
        made = jobs.make_pdf(stale.pk)
    assert made.state == PdfState.FAILED and "nueva versión" in made.error
    follow = ResultsPdf.objects.get(
        tournament=final, language="en", version=documents.current_version(final)
    )
    assert follow.state == PdfState.DONE and follow.file


def test_without_a_broker_the_first_download_makes_the_pdf(
    final, client, django_capture_on_commit_callbacks
):
    assert app.conf.task_always_eager  # the embedded site
    publish.publish_final(final, user=None, override=True)
    assert not ResultsPdf.objects.exists()  # publishing made none (no worker to make it)
    page = client.get(reverse("results:tournament", args=[final.slug])).content.decode()
    assert 'id="results-pdf"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response, body = download(client, final)
    assert response.status_code == 200 and body.startswith(b"%PDF")
    made = ResultsPdf.objects.get(tournament=final)
    assert made.state == PdfState.DONE and made.version == documents.current_version(final)

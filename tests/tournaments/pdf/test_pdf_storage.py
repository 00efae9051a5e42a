"""Results PDFs go through Django's storage API only: with another storage backend set
(``MEDIA_STORAGE``; here Django's in-memory one, as an object store would be for processes on
several machines) a PDF is made, stored, served to the office and the public, and made again
over a half-finished run's file, and nothing is written under ``MEDIA_ROOT``."""

import posixpath

import pytest
from django.core.files.storage import InMemoryStorage, default_storage
from django.urls import reverse

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments import jobs
from tournaments.models import Tournament, TournamentStatus
from tournaments.models.uploads import PdfState, ResultsPdf

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # the file store, not the database


@pytest.fixture
def other_storage(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    default_storage._setup()
    assert isinstance(default_storage._wrapped, InMemoryStorage)
    return settings.MEDIA_ROOT


@pytest.fixture(scope="module")
def _tuesday_rows(django_db_setup, django_db_blocker):
    """The demo club and its Tuesday Mitchell, built once for the module."""
    with module_rows(django_db_blocker):
        build_demo_events("martes")
        yield


@pytest.fixture
def tuesday(_tuesday_rows, db):
    return Tournament.objects.get(name="Torneo de los martes")


def _made(tournament, capture) -> ResultsPdf:
    with capture(execute=True):
        pdf, _created = jobs.request_pdf(tournament, language="es")
    pdf.refresh_from_db()
    assert pdf.state == PdfState.DONE
    return pdf


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def _nothing_under(media_root) -> bool:
    return not media_root.exists() or not any(p.is_file() for p in media_root.rglob("*"))


def test_a_results_pdf_is_stored_and_served_through_another_storage(
    other_storage, tuesday, django_capture_on_commit_callbacks, secretary_client, client
):
    assert tuesday.status == TournamentStatus.FINAL  # the demo's Tuesday is published
    pdf = _made(tuesday, django_capture_on_commit_callbacks)
    assert default_storage.exists(pdf.file.name)
    with default_storage.open(pdf.file.name, "rb") as stored:
        assert stored.read(5) == b"%PDF-"
    office = secretary_client.get(reverse("uploads:pdf_download", args=[pdf.pk]))
    assert office.status_code == 200 and _body(office).startswith(b"%PDF-")
    public = client.get(reverse("results:pdf", args=[tuesday.slug]))
    assert public.status_code == 200 and _body(public).startswith(b"%PDF-")
    assert _nothing_under(other_storage)


def test_a_half_made_pdf_s_file_is_replaced_in_the_storage(
    other_storage, tuesday, django_capture_on_commit_callbacks
):
    pdf = _made(tuesday, django_capture_on_commit_callbacks)
    folder = posixpath.dirname(pdf.file.name)
    ResultsPdf.objects.filter(pk=pdf.pk).update(state=PdfState.FAILED)  # its run died late
    again = jobs.make_pdf(pdf.pk)
    assert again.state == PdfState.DONE and default_storage.exists(again.file.name)
    assert default_storage.listdir(folder)[1] == [posixpath.basename(again.file.name)]
    assert _nothing_under(other_storage)

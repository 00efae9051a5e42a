"""The results office pages: reaching a tournament's PDF page, who may use it, publishing
from it, and the public download of the published results' PDF."""

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import build_demo_events
from tournaments import documents
from tournaments.models import AuditAction, AuditEntry, SessionStatus, Tournament
from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _tuesday_rows(django_db_setup, django_db_blocker):
    """The demo club and its Tuesday Mitchell, built once for the module."""
    with module_rows(django_db_blocker):
        build_demo_events("martes")
        yield


@pytest.fixture
def mitchell(_tuesday_rows, db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return Tournament.objects.get(name="Torneo de los martes")


@pytest.fixture
def unpublished(mitchell):
    """The Mitchell played and finished, its results not published yet."""
    Tournament.objects.filter(pk=mitchell.pk).update(
        status="running", published_at=None, provisional_at=None
    )
    mitchell.refresh_from_db()
    return mitchell


def made_pdf(tournament, version=None, language="es") -> ResultsPdf:
    """A finished results PDF record (the rendering itself is tested in test_pdf.py)."""
    item = ResultsPdf.objects.create(
        tournament=tournament,
        kind=PdfKind.RESULTS,
        language=language,
        version=version or documents.current_version(tournament),
        state=PdfState.DONE,
        pages=3,
    )
    item.file.save(
        f"{tournament.slug}-{item.version}.pdf",
        ContentFile(b"%PDF-1.7 " + tournament.name.encode()),
    )
    return item


def logged_in(client, *roles):
    sign_in_verified(client, make_user("test-" + "-".join(roles).lower(), *roles))
    return client


def test_the_directors_tournament_page_links_its_pdf_page(client, mitchell):
    page = logged_in(client, Role.DIRECTOR).get(reverse("director:tournament", args=[mitchell.pk]))
    assert reverse("uploads:pdf", args=[mitchell.slug]).encode() in page.content


def test_the_secretarys_uploads_page_links_each_played_tournaments_pdf_page(client, mitchell):
    page = logged_in(client, Role.SECRETARY).get(reverse("uploads:index"))
    assert page.status_code == 200
    assert (
        f'data-tournament="{mitchell.slug}" href="{reverse("uploads:pdf", args=[mitchell.slug])}"'
        in page.content.decode()
    )


@pytest.mark.parametrize("role", [Role.SECRETARY, Role.DIRECTOR])
def test_the_secretary_and_the_director_watch_and_download_the_pdf(client, mitchell, role):
    item = made_pdf(mitchell)
    client = logged_in(client, role)
    page = client.get(reverse("uploads:pdf", args=[mitchell.slug]))
    assert page.status_code == 200
    download = reverse("uploads:pdf_download", args=[item.pk])
    assert download in page.content.decode()
    response = client.get(download)
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")


def test_a_queued_pdf_is_shown_with_its_progress_and_the_list_polls(client, mitchell):
    ResultsPdf.objects.create(
        tournament=mitchell,
        kind=PdfKind.RESULTS,
        language="es",
        version=documents.current_version(mitchell),
        state=PdfState.RUNNING,
        progress=40,
    )
    client = logged_in(client, Role.SECRETARY)
    url = reverse("uploads:pdf", args=[mitchell.slug])
    page = client.get(url).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 2s"' in page and 'value="40"' in page
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert (
        fragment.lstrip().startswith('<section class="card" id="pdfs"') and "<html" not in fragment
    )


def test_a_player_may_not_use_the_results_office(client, mitchell, unpublished):
    item = made_pdf(mitchell)
    client = logged_in(client, Role.PLAYER)
    assert client.get(reverse("uploads:pdf", args=[mitchell.slug])).status_code == 403
    assert client.get(reverse("uploads:pdf_download", args=[item.pk])).status_code == 403
    assert client.post(reverse("uploads:publish", args=[mitchell.slug])).status_code == 403
    unpublished.refresh_from_db()
    assert unpublished.status == "running"


def test_an_anonymous_visitor_is_sent_to_log_in(client, mitchell):
    response = client.get(reverse("uploads:pdf", args=[mitchell.slug]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", [Role.SECRETARY, Role.DIRECTOR])
def test_the_secretary_or_the_director_publishes_from_the_pdf_page(client, unpublished, role):
    client = logged_in(client, role)
    page = client.get(reverse("uploads:pdf", args=[unpublished.slug])).content.decode()
    assert reverse("uploads:publish", args=[unpublished.slug]) in page
    response = client.post(reverse("uploads:publish", args=[unpublished.slug]), follow=True)
    unpublished.refresh_from_db()
    assert unpublished.status == "final" and unpublished.published_at is not None
    entry = AuditEntry.objects.filter(tournament=unpublished, action=AuditAction.PUBLISHED).latest(
        "pk"
    )
    assert entry.user.username == f"test-{role.lower()}"
    assert b'id="correction-period"' in response.content


def test_publishing_keeps_the_services_rule_on_unfinished_sessions(client, unpublished):
    unpublished.sessions.update(status=SessionStatus.RUNNING)
    client = logged_in(client, Role.SECRETARY)
    page = client.get(reverse("uploads:pdf", args=[unpublished.slug])).content.decode()
    assert 'id="publish-final"' not in page
    response = client.post(reverse("uploads:publish", args=[unpublished.slug]), follow=True)
    unpublished.refresh_from_db()
    assert unpublished.status == "running"
    said = list(response.context["messages"])
    assert [m.level_tag for m in said] == ["error"]


@pytest.fixture
def broker(monkeypatch):
    """As in production: PDFs are made by the worker (their tasks recorded here, not run)."""
    from clubsite.celery import app
    from tournaments import jobs

    queued = []
    app.conf.task_always_eager = False  # the suite's _celery_mode fixture restores it
    monkeypatch.setattr(jobs.generate_pdf, "delay", lambda pk: queued.append(pk))
    return queued


def test_the_public_page_offers_the_current_pdf_of_published_results(
    client, mitchell, broker, django_capture_on_commit_callbacks
):
    page = reverse("results:tournament", args=[mitchell.slug])
    download = reverse("results:pdf", args=[mitchell.slug])
    assert download not in client.get(page).content.decode()  # none made yet
    for _visitor in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert client.get(download).status_code == 404
    assert len(broker) == 1  # the first download asked the worker for it, once
    ResultsPdf.objects.all().delete()
    made_pdf(mitchell, language="en")
    made_pdf(mitchell, language="es")
    assert download in client.get(page).content.decode()
    response = client.get(download, headers={"Accept-Language": "es"})
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF-1.7 Torneo de los martes"


def test_no_public_pdf_before_publication_and_an_outdated_one_until_the_current_is_made(
    client, mitchell, broker, django_capture_on_commit_callbacks
):
    download = reverse("results:pdf", args=[mitchell.slug])
    made_pdf(mitchell, version="0")  # an older version than the stored rankings'
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(download)  # served, marked, while the current one is made
    assert response.status_code == 200 and response["X-Results-Superseded"] == "0"
    asked = ResultsPdf.objects.get(pk=broker[0])
    assert asked.version == documents.current_version(mitchell) and asked.state == PdfState.QUEUED
    asked.delete()
    made_pdf(mitchell)  # what the worker makes of it
    response = client.get(download)
    assert response.status_code == 200 and "X-Results-Superseded" not in response
    Tournament.objects.filter(pk=mitchell.pk).update(status="running")
    assert client.get(download).status_code == 404
    page = client.get(reverse("results:tournament", args=[mitchell.slug]))
    assert download not in page.content.decode()

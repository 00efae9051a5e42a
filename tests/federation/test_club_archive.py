"""A club's archive as a background job: asked for by an officer, made once (even when its
task runs twice), stored through the storage API, its failure recorded; its pages kept to
the officer's own federation; and a club deleted only once a fresh archive of it is ready,
the archive outliving the club."""

import datetime
import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.storage import InMemoryStorage, default_storage
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from clubsite.accounts.permissions import Role, appoint_officer, grant
from clubsite.models import ArchiveState, Club, ClubArchive, Federation, Member
from clubsite.tenancy import club_scope
from federation import jobs, services
from tests.signed_in import sign_in_verified
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def storage(settings, tmp_path):
    """Django's in-memory storage, as an object store would be: nothing under MEDIA_ROOT."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    default_storage._setup()
    assert isinstance(default_storage._wrapped, InMemoryStorage)
    yield default_storage
    default_storage._setup()


def _asked(club, user=None) -> ClubArchive:
    """Ask for the club's archive and let the commit queue it (no broker: made in-process)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        archive = jobs.request_archive(club, user)
    archive.refresh_from_db()
    return archive


def _officer(federation, name=None):
    user = User.objects.create_user(name or f"officer-{federation}", password="pass-1234-long")
    appoint_officer(user, federation)
    return sign_in_verified(Client(), user), user


# --- the job --------------------------------------------------------------------------------


def test_the_archive_is_made_in_the_storage_with_every_file(clubs, storage, settings):
    sur = clubs["sur"]
    officer = User.objects.create_user("archivist")
    archive = _asked(sur, officer)
    assert archive.state == ArchiveState.DONE and archive.progress == 100
    assert (archive.club, archive.club_name, archive.club_slug) == (sur, "Club Sur", "sur")
    assert archive.federation == Federation.AEB and archive.requested_by == officer
    assert archive.started_at and archive.finished_at and not archive.error
    assert storage.exists(archive.file.name) and archive.file.name.startswith("archives/")
    assert archive.size == storage.size(archive.file.name)
    assert not settings.MEDIA_ROOT.exists()  # through the storage API only, never a path
    with archive.file.open("rb") as stored:
        zipped = zipfile.ZipFile(io.BytesIO(stored.read()))
    names = set(zipped.namelist())
    assert {"members.csv", "README.txt"} <= names
    with club_scope(sur):
        tournaments = list(Tournament.objects.all())
        member = Member.objects.order_by("pk").first()
    assert tournaments
    for tournament in tournaments:
        assert any(n.endswith(f"{tournament.slug}.xml") for n in names), names
        assert any(n.endswith(f"{tournament.slug}.pbn") for n in names), names
    assert member.last_name in zipped.read("members.csv").decode("utf-8-sig")
    with club_scope(clubs["norte"]):  # another club's tournaments are not in it
        norte = {t.slug for t in Tournament.objects.all()} - {t.slug for t in tournaments}
    assert not any(slug in n for slug in norte for n in names)


def test_the_task_run_twice_makes_the_archive_once(clubs, storage, monkeypatch):
    written = []
    real = services.write_club_archive
    monkeypatch.setattr(
        services, "write_club_archive", lambda *a, **k: written.append(1) or real(*a, **k)
    )
    archive = _asked(clubs["sur"])
    first = (archive.file.name, archive.finished_at)
    # the message delivered again (a redelivery, the sweep): the task finds it made
    assert jobs.make_club_archive.apply((archive.pk,)).result == ArchiveState.DONE
    jobs.make_archive(archive.pk, run="another-run")
    archive.refresh_from_db()
    assert (archive.file.name, archive.finished_at) == first and written == [1]
    assert ClubArchive.objects.filter(club=clubs["sur"]).count() == 1


def test_a_second_run_leaves_a_live_run_alone_and_takes_over_a_silent_one(clubs, storage):
    with TestCase.captureOnCommitCallbacks(execute=False):  # queued, not run
        archive = jobs.request_archive(clubs["sur"])
    assert jobs.take(archive.pk, run="first")
    assert not jobs.take(archive.pk, run="second")  # the first is alive
    assert jobs.take(archive.pk, run="first")  # its own message handed back
    ClubArchive.objects.filter(pk=archive.pk).update(
        due_at=timezone.now() - datetime.timedelta(hours=1)
    )
    assert jobs.make_archive(archive.pk, run="second").state == ArchiveState.DONE


def test_asking_again_while_it_is_made_gives_the_same_archive(clubs, storage):
    with TestCase.captureOnCommitCallbacks(execute=False) as queued:
        first = jobs.request_archive(clubs["sur"])
        again = jobs.request_archive(clubs["sur"])
    assert first.pk == again.pk and len(queued) == 1
    assert first.state == ArchiveState.QUEUED


def test_a_failure_is_recorded_and_a_new_press_makes_it(clubs, storage, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "write_club_archive", broken)
    archive = _asked(clubs["sur"])
    assert archive.state == ArchiveState.FAILED and not archive.file
    assert "disk full" in archive.error and archive.finished_at
    assert services.ready_archive(clubs["sur"]) is None
    monkeypatch.undo()
    again = _asked(clubs["sur"])
    assert again.pk != archive.pk and again.state == ArchiveState.DONE


def test_the_sweep_sends_a_lost_archive_again(clubs, storage):
    with TestCase.captureOnCommitCallbacks(execute=False):  # the broker lost the message
        archive = jobs.request_archive(clubs["sur"])
    assert jobs.requeue_stalled_archives() == []  # not stalled yet
    ClubArchive.objects.filter(pk=archive.pk).update(
        due_at=timezone.now() - datetime.timedelta(hours=1)
    )
    assert jobs.requeue_stalled_archives() == [archive.pk]
    archive.refresh_from_db()
    assert archive.state == ArchiveState.DONE and storage.exists(archive.file.name)


# --- leaving --------------------------------------------------------------------------------


def test_a_club_is_deleted_only_once_a_fresh_archive_is_ready(clubs, storage):
    sur = clubs["sur"]
    with pytest.raises(services.FederationError, match="Prepare"):
        services.delete_club(sur)
    archive = _asked(sur)
    ClubArchive.objects.filter(pk=archive.pk).update(
        started_at=timezone.now() - datetime.timedelta(hours=25)
    )
    with pytest.raises(services.FederationError):  # more than a day old
        services.delete_club(sur)
    assert Club.objects.filter(pk=sur.pk).exists()
    fresh = _asked(sur)
    services.delete_club(sur)
    assert not Club.objects.filter(pk=sur.pk).exists()
    fresh.refresh_from_db()  # the archive outlives the club
    assert fresh.club is None and fresh.club_name == "Club Sur" and fresh.club_slug == "sur"
    assert storage.exists(fresh.file.name)


def test_the_officer_prepares_downloads_and_then_deletes(clubs, storage):
    client, _user = _officer(Federation.AEB)
    sur = clubs["sur"]
    leave = reverse("federation:club_leave", args=["AEB", sur.pk])
    prepare = reverse("federation:club_archive", args=["AEB", sur.pk])
    page = client.get(leave).content.decode()
    assert 'id="archive-form"' in page and "archive-download" not in page
    refused = client.post(leave, {"confirm": "sur"})
    assert refused.status_code == 200 and "Prepare antes el archivo" in refused.content.decode()
    assert Club.objects.filter(pk=sur.pk).exists()

    with TestCase.captureOnCommitCallbacks(execute=False) as queued:  # a worker's job
        card = client.post(prepare, HTTP_HX_REQUEST="true")
    text = card.content.decode()
    assert card.status_code == 200 and 'hx-trigger="every 2s"' in text
    assert 'data-state="queued"' in text and "archive-form" not in text  # one at a time
    for callback in queued:
        callback()  # the worker makes it
    card = client.get(prepare, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-state="done"' in card and "every 2s" not in card
    archive = ClubArchive.objects.get(club=sur)
    download = reverse("federation:archive_download", args=["AEB", archive.pk])
    assert download in card and download in client.get(leave).content.decode()
    got = client.get(download)
    assert got.status_code == 200 and got["Content-Type"] == "application/zip"
    assert 'filename="sur-' in got["Content-Disposition"]
    zipped = zipfile.ZipFile(io.BytesIO(b"".join(got.streaming_content)))
    assert "members.csv" in zipped.namelist()

    assert client.post(leave, {"confirm": "sur"}).status_code == 302
    assert not Club.objects.filter(pk=sur.pk).exists()
    clubs_page = client.get(reverse("federation:clubs", args=["AEB"])).content.decode()
    assert 'id="archives-gone"' in clubs_page and download in clubs_page
    assert client.get(download).status_code == 200  # the club is gone, its archive stays


def test_a_press_without_htmx_goes_back_to_the_leave_page(clubs, storage):
    client, user = _officer(Federation.AEB)
    sur = clubs["sur"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = client.post(reverse("federation:club_archive", args=["AEB", sur.pk]))
    assert answer.status_code == 302
    assert answer["Location"] == reverse("federation:club_leave", args=["AEB", sur.pk])
    archive = ClubArchive.objects.get(club=sur)
    assert archive.state == ArchiveState.DONE and archive.requested_by == user


def test_another_federations_officer_and_a_secretary_get_nothing(clubs, storage):
    sur = clubs["sur"]
    archive = _asked(sur)
    fpb, _user = _officer(Federation.FPB)
    download = reverse("federation:archive_download", args=["AEB", archive.pk])
    assert fpb.get(download).status_code == 403  # not their federation
    prepare = reverse("federation:club_archive", args=["AEB", sur.pk])
    assert fpb.post(prepare).status_code == 403
    # their own federation's URLs name no club or archive of the AEB
    assert (
        fpb.get(reverse("federation:archive_download", args=["FPB", archive.pk])).status_code == 404
    )
    assert fpb.post(reverse("federation:club_archive", args=["FPB", sur.pk])).status_code == 404
    secretary = User.objects.create_user("sur-secretary", password="pass-1234-long")
    with club_scope(sur):
        grant(secretary, Role.SECRETARY)
    client = sign_in_verified(Client(), secretary)
    assert client.get(download).status_code == 403
    assert client.post(prepare).status_code == 403
    assert ClubArchive.objects.filter(club=sur).count() == 1  # nobody asked for another

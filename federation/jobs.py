"""A club's archive, made in the worker: asked for by an officer, queued, made and recorded.

A large club (a season of thirty tournaments and more, each written as USEBIO and PBN) takes
longer to archive than a request may last, so the officer's press records a
``clubsite.models.ClubArchive`` and queues ``make_club_archive`` once that commits
(``tournaments.queueing``: in-process when there is no broker, the embedded default); the
leave page polls the record while it is made. As the results PDFs' jobs
(``tournaments.jobs``): the row is the record that the work is due, the broker's message
only says "now"; a run first takes the row (``take``), so a message delivered twice makes
the ZIP once, and a run killed mid-way is taken over once it has been silent for
``JOB_STALL_SECONDS`` (each tournament written stamps ``due_at``); ``requeue_stalled_archives``
(the worker's beat) sends a lost one again. The file goes through the archive's storage
(Django's storage API: a folder or a bucket alike), never a path.

The record is above the clubs and outlives the club it archives: the job opens the club's
own scope to read it (``services.write_club_archive``), whatever club its message carries.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import tempfile
import time

from celery import shared_task
from django.core.files import File
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import ArchiveState, Club, ClubArchive
from federation import services
from tournaments import queueing
from tournaments.jobs import claim
from tournaments.jobs.sweep import stalled_before

logger = logging.getLogger(__name__)

PENDING = (ArchiveState.QUEUED, ArchiveState.RUNNING)
# An archive is written to a temporary file, in memory up to this size, on disk beyond it.
IN_MEMORY_BYTES = 16 * 1024 * 1024


def request_archive(club: Club, user=None) -> ClubArchive:
    """The club's archive being made, or a new one asked for and queued once this commits:
    one at a time per club (a second press while it is made shows the same one). A press
    after one is made asks for a new one: the club's data may have changed since."""
    with transaction.atomic():
        # Two presses at once: the second waits for the first's row (PostgreSQL).
        Club.objects.select_for_update().filter(pk=club.pk).first()
        pending = ClubArchive.objects.filter(club=club, state__in=PENDING).first()
        if pending is not None:
            return pending
        archive = ClubArchive.objects.create(
            federation=club.federation,
            club=club,
            club_name=club.name,
            club_slug=club.slug or "",
            requested_by=user if getattr(user, "is_authenticated", False) else None,
            due_at=timezone.now(),
        )
        queueing.send_on_commit(make_club_archive, archive.pk)
    return archive


def take(archive_pk: int, run: str = "") -> bool:
    """Mark the archive as being made by ``run``, as a results PDF is (``jobs.claim``)."""
    now = timezone.now()
    return claim(
        ClubArchive.objects.filter(pk=archive_pk), run, now, progress=1, started_at=now, error=""
    )


def _failed(archive_pk: int, message: str) -> None:
    ClubArchive.objects.filter(pk=archive_pk).update(
        state=ArchiveState.FAILED, error=message, finished_at=timezone.now()
    )


def make_archive(archive_pk: int, run: str = "") -> ClubArchive:
    """Write and store one asked-for archive (the task's work). Idempotent: an archive
    made is kept, one another live run is making is left to it; a failure is recorded on
    the archive (shown on the leave page), never raised."""
    archive = ClubArchive.objects.select_related("club").get(pk=archive_pk)
    if archive.state == ArchiveState.DONE and archive.file:
        return archive
    if archive.club is None:  # the club left before its archive was made
        _failed(archive_pk, _("The club was deleted before its archive was made."))
        archive.refresh_from_db()
        return archive
    if not take(archive_pk, run):
        return archive
    club, started = archive.club, time.perf_counter()

    def progress(done: int, total: int) -> None:
        ClubArchive.objects.filter(pk=archive_pk, taken_by=run).update(
            progress=5 + 90 * done // max(total, 1), due_at=timezone.now()
        )

    try:
        with tempfile.SpooledTemporaryFile(max_size=IN_MEMORY_BYTES) as out:
            tournaments = services.write_club_archive(club, out, progress)
            size = out.tell()
            out.seek(0)
            archive.refresh_from_db()
            if archive.file:
                archive.file.delete(save=False)  # a half-finished earlier run's
            # A random part: the stored name is never guessed from the club's short name.
            name = services.archive_name(club).replace(".zip", f"-{secrets.token_hex(6)}.zip")
            archive.file.save(name, File(out), save=False)
    except Exception as exc:  # a broken export or a storage that is away: recorded
        logger.exception("The archive %s of club %s could not be made", archive_pk, club.pk)
        _failed(archive_pk, _("The archive could not be made: %(error)s") % {"error": exc})
        archive.refresh_from_db()
        return archive
    archive.state, archive.progress, archive.size = ArchiveState.DONE, 100, size
    archive.finished_at, archive.error = timezone.now(), ""
    archive.save(update_fields=["file", "state", "progress", "size", "finished_at", "error"])
    logger.info(
        "Archive %s of club %s made: %s, %d tournaments, %d bytes in %.1f s",
        archive_pk,
        club.pk,
        archive.file.name,
        tournaments,
        size,
        time.perf_counter() - started,
    )
    return archive


# ignore_result, acks_late and reject_on_worker_lost as every job of ``tournaments.jobs``.
@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def make_club_archive(self, archive_pk: int) -> str:
    """Make one asked-for club archive; a second run finds it made or being made."""
    return make_archive(archive_pk, run=self.request.id or "").state


def stalled_archives(now: datetime.datetime) -> list[int]:
    """Archives waiting or being made ``JOB_STALL_SECONDS`` past their last sign of life."""
    stale = stalled_before(now)
    return list(
        ClubArchive.objects.annotate(due=Coalesce("due_at", "created_at"))
        .filter(state__in=PENDING, due__lt=stale)
        .order_by("due", "pk")
        .values_list("pk", flat=True)[:50]
    )


@shared_task(ignore_result=True)
def requeue_stalled_archives() -> list[int]:
    """The beat's sweep of archives (``CELERY_BEAT_SCHEDULE``): each lost one sent again,
    once per ``JOB_STALL_SECONDS`` (``jobs.sweep`` does the same for the clubs' jobs)."""
    now, sent = timezone.now(), []
    for pk in stalled_archives(now):
        ClubArchive.objects.filter(pk=pk, state=ArchiveState.RUNNING).update(
            state=ArchiveState.QUEUED
        )
        if not queueing.send(make_club_archive, pk):
            break  # the broker is away: the next sweep tries again
        ClubArchive.objects.filter(pk=pk, state=ArchiveState.QUEUED).update(due_at=now)
        sent.append(pk)
    if sent:
        logger.warning("archive sweep: sent again %d archive(s) %s", len(sent), sent)
    return sent

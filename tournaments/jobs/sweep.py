"""The worker's sweep: PDF, upload and mail jobs lost on the way are sent again by themselves.

A job is a row (``ResultsPdf``, ``Upload``) first and a broker message second. The message
can be lost: the broker was down when the job was queued (``queueing.send`` logged it and left
the row queued), or the worker was killed mid-job (Redis would hand an unacknowledged
message back only after its visibility timeout, an hour). So every ``JOB_SWEEP_SECONDS`` the
beat embedded in the worker (``celery -A clubsite worker -B``; ``make worker``) runs
``requeue_stalled_jobs``, which sends again every job still waiting or running
``JOB_STALL_SECONDS`` past its due time (and every mail to a player not sent that long
after it was asked for or taken, within ``MAIL_ATTEMPTS``), asks for the results PDF of
published results that have none of their current version (the publication's or correction's
request was lost), and awards the master points of final tournaments whose correction period
has ended (``master_points.award_due``). It also runs when that worker starts. Sending twice
is safe: a run first takes the job in the database (``jobs.take``, ``federation.send``) and a second run finds it taken or done.

Imported by the worker through ``CELERY_IMPORTS`` (nothing in the site imports it).
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db.models.functions import Coalesce
from django.utils import timezone

from clubsite.models import Club
from clubsite.tenancy import club_scope

from ..models import Tournament
from ..models.uploads import PdfKind, PdfState, ResultsPdf, Upload, UploadState
from ..queueing import send

logger = logging.getLogger(__name__)

# At most this many jobs of each kind per sweep (the next sweep takes the rest).
BATCH = 200
# Published results are looked after for this many days after the event.
RECENT_DAYS = 30


@dataclass
class Swept:
    """What one sweep sent again (row ids), and the tournaments whose PDF it asked for."""

    pdfs: list[int] = field(default_factory=list)
    uploads: list[int] = field(default_factory=list)
    tournaments: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # tournaments whose points it awarded
    mails: list[int] = field(default_factory=list)


def stalled_before(now: datetime.datetime) -> datetime.datetime:
    return now - datetime.timedelta(seconds=settings.JOB_STALL_SECONDS)


def stalled_pdfs(now: datetime.datetime) -> list[int]:
    return list(
        ResultsPdf.objects.annotate(due=Coalesce("due_at", "created_at"))
        .filter(state__in=[PdfState.QUEUED, PdfState.RUNNING], due__lt=stalled_before(now))
        .order_by("due", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def stalled_uploads(now: datetime.datetime) -> list[int]:
    return list(
        Upload.objects.annotate(due=Coalesce("due_at", "created_at"))
        .filter(
            state__in=[UploadState.QUEUED, UploadState.SENDING],
            due__lt=stalled_before(now),
            endpoint__enabled=True,
        )
        .order_by("due", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def stalled_mails(now: datetime.datetime) -> list[int]:
    """Mails to players not sent ``JOB_STALL_SECONDS`` after they were asked for or taken
    (their message was lost, or their run died), still within their attempts."""
    from django.db.models import Q

    from ..models import PlayerMail
    from .mail import attempts

    stale = stalled_before(now)
    return list(
        PlayerMail.objects.filter(sent_at__isnull=True, attempts__lt=attempts())
        .filter(Q(taken_at__isnull=True, created_at__lt=stale) | Q(taken_at__lt=stale))
        .order_by("pk")
        .values_list("pk", flat=True)[:BATCH]
    )


def published_without_pdf(now: datetime.datetime) -> list[int]:
    """Recent published tournaments with no results PDF of their current version in the
    club's language, and none asked for in the last ``JOB_STALL_SECONDS``."""
    from tournaments.services.results.results_pdf import PUBLISHED

    from ..documents import current_version

    if not getattr(settings, "RESULTS_PDF_ON_PUBLISH", False):
        return []
    since = timezone.localdate(now) - datetime.timedelta(days=RECENT_DAYS)
    missing = []
    for tournament in Tournament.objects.filter(status__in=PUBLISHED, date__gte=since)[:BATCH]:
        asked = ResultsPdf.objects.filter(
            tournament=tournament,
            kind=PdfKind.RESULTS,
            session_number=0,
            language=settings.LANGUAGE_CODE,
        )
        if asked.filter(version=current_version(tournament)).exists():
            continue
        if asked.filter(created_at__gte=stalled_before(now)).exists():
            continue  # a refresh is on its way (debounced, ``results_pdf.results_corrected``)
        missing.append(tournament.pk)
    return missing


def sweep(now: datetime.datetime | None = None) -> Swept:
    """Send every stalled job again (once each per ``JOB_STALL_SECONDS``)."""
    from tournaments.services.results.master_points import award_due
    from tournaments.services.results.results_pdf import results_corrected

    from . import generate_pdf, send_upload

    now = now or timezone.now()
    swept = Swept(points=award_due(now))
    if swept.points:
        logger.info("job sweep: master points awarded for tournament(s) %s", swept.points)
    for pk in stalled_pdfs(now):
        # Back to waiting: a run that died holding it lets the next run take it. Once sent,
        # due now, so the next sweep waits a whole stall time before sending it once more.
        ResultsPdf.objects.filter(pk=pk, state=PdfState.RUNNING).update(state=PdfState.QUEUED)
        if not send(generate_pdf, pk):
            return swept  # the broker is away: the next sweep tries again
        ResultsPdf.objects.filter(pk=pk, state=PdfState.QUEUED).update(due_at=now)
        swept.pdfs.append(pk)
    for pk in stalled_uploads(now):
        Upload.objects.filter(pk=pk, state=UploadState.SENDING).update(state=UploadState.QUEUED)
        if not send(send_upload, pk):
            return swept
        Upload.objects.filter(pk=pk, state=UploadState.QUEUED).update(due_at=now)
        swept.uploads.append(pk)
    mails = stalled_mails(now)
    if mails:
        from .mail import send_player_mails

        if not send(send_player_mails, mails):
            return swept
        swept.mails = mails
    for pk in published_without_pdf(now):
        results_corrected(pk)
        swept.tournaments.append(pk)
    if swept.mails:
        logger.warning(
            "job sweep: sent again %d mail(s) to players %s", len(swept.mails), swept.mails
        )
    if swept.pdfs or swept.uploads or swept.tournaments:
        logger.warning(
            "job sweep: sent again %d PDF(s) %s, %d upload(s) %s; asked for the PDF "
            "of %d tournament(s) %s",
            len(swept.pdfs),
            swept.pdfs,
            len(swept.uploads),
            swept.uploads,
            len(swept.tournaments),
            swept.tournaments,
        )
    return swept


@shared_task(ignore_result=True)
def requeue_stalled_jobs() -> dict:
    """The beat's periodic task (and a worker's first): ``sweep``, club by club (each club's
    jobs are sent again in its scope, so they carry it)."""
    swept = Swept()
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        with club_scope(club_id):
            found = sweep()
        for name in ("pdfs", "uploads", "tournaments", "points", "mails"):
            getattr(swept, name).extend(getattr(found, name))
    return {
        "pdfs": swept.pdfs,
        "uploads": swept.uploads,
        "tournaments": swept.tournaments,
        "mails": swept.mails,
    }


@worker_ready.connect
def _sweep_when_ready(sender=None, **kwargs) -> None:
    """The worker that sweeps (the one with the embedded beat, ``-B``) looks for lost jobs
    as soon as it (re)starts, not a sweep interval later; other workers leave it to it."""
    if not getattr(getattr(sender, "controller", None), "beat", None):
        return
    try:
        requeue_stalled_jobs.delay()
    except Exception:
        logger.warning("could not queue the job sweep at start", exc_info=True)

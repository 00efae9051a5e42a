"""Federation uploads, USEBIO imports and results PDFs: asked for, queued, made and recorded.

These jobs orchestrate the flow out: they build the event's snapshot once
(``services.snapshot_build``), hand it to the writer or renderer (``documents``, ``pdf``,
``exports``) and record the job (``ResultsPdf``, ``Upload``); the writers never call back.
Kept apart from ``tasks.py`` (the scoring jobs); ``tasks.py`` imports this module so
Celery's autodiscovery registers these tasks. Every task is safe to run twice with the
same arguments — settings acknowledge late and re-queue on a lost worker, so a task killed
mid-way is run again: an upload already sent is not sent again (and carries the same
Idempotency-Key if the first request did reach the federation); a PDF already made for a
version is not made again.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import logging
import threading
import time

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.tenancy import thread_in_scope
from tournaments.services.results.results_pdf import PUBLISHED
from tournaments.services.results.snapshot_build import bring_current

from .. import documents, queueing
from ..exports import federation
from ..models import Tournament
from ..models.uploads import (
    FederationEndpoint,
    PdfKind,
    PdfState,
    ResultsPdf,
    Upload,
    UploadState,
)
from ..pdf import join as pdf_join
from ..pdf import render_pdf
from ..services.errors import TournamentError

logger = logging.getLogger(__name__)


def backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: base · 2^retries, at most an hour."""
    base = getattr(settings, "UPLOAD_RETRY_BASE_SECONDS", 30)
    return int(min(base * 2**retries, 3600))


# ignore_result on every job: its record is in the database, nobody waits for the task's
# return value, and storing one makes queueing it ask the result store first (a web request
# would wait for a Redis that is down, and after an outage could not queue again at all).
@shared_task(
    bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None, ignore_result=True
)
def send_upload(self, upload_pk: int) -> str:
    """Send one upload; on a passing failure retry with exponential back-off up to the
    endpoint's ``max_retries``, then leave it *failed* for the secretary to retry."""
    try:
        return federation.send(upload_pk, run=self.request.id or "")
    except federation.UploadRefused as exc:
        federation.give_up(upload_pk, str(exc))
        return UploadState.FAILED
    except federation.RetryLater as exc:
        limit = (
            FederationEndpoint.objects.filter(uploads__pk=upload_pk)
            .values_list("max_retries", flat=True)
            .first()
        ) or 0
        if self.request.retries >= limit:
            federation.give_up(upload_pk, str(exc))
            return UploadState.FAILED
        countdown = backoff(self.request.retries)
        Upload.objects.filter(pk=upload_pk, state=UploadState.SENDING).update(
            state=UploadState.QUEUED,  # due when its retry is (``jobs.sweep``)
            due_at=timezone.now() + datetime.timedelta(seconds=countdown),
        )
        if self.request.is_eager:  # no broker: the retry runs now, in this process
            return send_upload.apply((upload_pk,), retries=self.request.retries + 1).result
        raise self.retry(exc=exc, countdown=countdown, max_retries=limit) from exc


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def import_usebio_file(
    content: str, file_name: str, key: str, user_id: int | None = None, replace: bool = False
) -> int:
    """Import a USEBIO file (all or nothing); returns the ``ResultImport`` id, refused or not.

    ``content`` is the file's bytes in base64 (JSON carries no bytes): the parser reads them
    in the encoding the file declares, so an ISO-8859-1 file keeps its accents. ``key``
    identifies the request: run twice (a lost worker), the second run returns the first
    run's import, and imports only if the first one rolled back.
    """
    import base64

    from django.contrib.auth import get_user_model

    from ..imports.usebio import UsebioError, import_file
    from ..models.uploads import ResultImport

    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    try:
        return import_file(
            base64.b64decode(content), file_name=file_name, user=user, key=key, replace=replace
        ).pk
    except UsebioError:
        return ResultImport.objects.filter(key=key).values_list("pk", flat=True).first()


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def generate_pdf(self, pdf_pk: int) -> str:
    """Render and store one requested PDF; a second run finds it made or being made (or
    re-makes it if the first run died before saving). Errors end in the PDF's record, shown
    on its page."""
    return make_pdf(pdf_pk, run=self.request.id or "").state


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def results_published(self, tournament_pk: int, language: str | None = None) -> int:
    """Make the results PDF of the version just published (queued on publication), here:
    the classification is brought up to date once, the PDF recorded and made in this run,
    not handed to the broker again. A run that dies leaves the PDF queued for the sweep."""
    tournament = Tournament.objects.get(pk=tournament_pk)
    bring_current(tournament)
    pdf, _created = request_pdf(tournament, language=language, classify=False, queue=False)
    return make_pdf(pdf.pk, run=self.request.id or "", classify=False).pk


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def refresh_results_pdf(self, tournament_pk: int) -> list[int]:
    """Re-make the results PDFs of a tournament whose published results were corrected
    (queued by ``results_pdf.results_corrected`` at the end of its window): the current version,
    in every language and session asked for before, made in this run from one classification
    brought up to date. Run twice, it finds the PDFs made."""
    tournament = Tournament.objects.filter(pk=tournament_pk).first()
    if tournament is None:
        return []
    return [
        make_pdf(pdf.pk, run=self.request.id or "", classify=False).pk
        for pdf in refresh_results(tournament, queue=False)
    ]


# --- federation uploads ---------------------------------------------------------------------


def request_upload(
    endpoint: FederationEndpoint, *, tournament: Tournament | None = None, season=None, user=None
) -> tuple[Upload, bool]:
    """The upload of this file to this endpoint, created (and queued) only if new.

    Returns (upload, created). The same results (same file) asked for again return the
    existing upload, whatever its state; a correction makes a new file, hence a new upload.
    """
    if not endpoint.enabled:
        raise TournamentError(_("This federation endpoint is disabled."), "endpoint")
    name, text, version = documents.build_file(
        endpoint.file_format, tournament=tournament, season=season
    )
    digest = hashlib.sha256(text.encode()).hexdigest()
    with transaction.atomic():
        upload, created = Upload.objects.get_or_create(
            endpoint=endpoint,
            content_hash=digest,
            defaults={
                "tournament": tournament,
                "season": season,
                "results_version": version,
                "file_format": endpoint.file_format,
                "file_name": name,
                "content": text,
                "created_by": user,
                "due_at": timezone.now(),
            },
        )
        if created:
            queueing.send_on_commit(send_upload, upload.pk)
    return upload, created


def retry_upload(upload: Upload) -> Upload:
    """The secretary's retry of a failed upload (same id, same bytes)."""
    if upload.state not in (UploadState.FAILED, UploadState.QUEUED):
        raise TournamentError(_("Only a failed upload can be retried."))
    if not upload.endpoint.enabled:
        raise TournamentError(_("This federation endpoint is disabled."), "endpoint")
    Upload.objects.filter(pk=upload.pk).update(
        state=UploadState.QUEUED, error="", due_at=timezone.now()
    )
    queueing.send_on_commit(send_upload, upload.pk)
    upload.refresh_from_db()
    return upload


# --- results PDFs ---------------------------------------------------------------------------


def request_pdf(
    tournament: Tournament,
    kind: str = PdfKind.RESULTS,
    language: str | None = None,
    session_number: int = 0,
    *,
    classify: bool = True,
    queue: bool = True,
) -> tuple[ResultsPdf, bool]:
    """The PDF of the current results version (of the tournament, or of the session
    ``session_number``: results only), queued for the worker if not made yet.
    ``classify=False``: the caller has just brought the classification up to date;
    ``queue=False``: the caller (a job already in the worker) makes it itself."""
    if session_number and (
        kind != PdfKind.RESULTS
        or not tournament.sessions.filter(number=session_number, sections__isnull=False).exists()
    ):
        raise ValueError(f"no results PDF of session {session_number}")
    if classify:
        bring_current(tournament, session_number)
    language = language or settings.LANGUAGE_CODE
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"not a language of the site: {language[:20]!r}")
    with transaction.atomic():
        pdf, created = ResultsPdf.objects.get_or_create(
            tournament=tournament,
            kind=kind,
            language=language,
            session_number=session_number,
            version=documents.current_version(tournament, session_number),
            defaults={"due_at": timezone.now()},
        )
        if created or pdf.state == PdfState.FAILED:
            if not created:
                ResultsPdf.objects.filter(pk=pdf.pk).update(
                    state=PdfState.QUEUED, error="", progress=0, due_at=timezone.now()
                )
            if queue:
                queueing.send_on_commit(generate_pdf, pdf.pk)
    return pdf, created


def published_pdf(tournament: Tournament, language: str | None = None) -> ResultsPdf | None:
    """The finished results PDF a visitor may download, once the tournament's results are
    published (provisional or final): the current version's, in ``language`` if made in
    it, else in the club's language, else in any; while the current one is not made yet,
    the last good one (``superseded`` set, its version on it), so a published PDF never
    vanishes because the results moved on."""
    if tournament.status not in PUBLISHED:
        return None
    made = list(
        ResultsPdf.objects.filter(
            tournament=tournament, kind=PdfKind.RESULTS, state=PdfState.DONE, session_number=0
        )
        .exclude(file="")
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")[:20]
    )
    if not made:
        return None
    current = documents.current_version(tournament)
    preferred = {language: 0, settings.LANGUAGE_CODE: 1}
    newest = {pdf.pk: i for i, pdf in enumerate(made)}
    made.sort(
        key=lambda pdf: (
            pdf.version != current,
            newest[pdf.pk] if pdf.version != current else 0,
            preferred.get(pdf.language, 2),
        )
    )
    best = made[0]
    best.superseded = best.version != current
    return best


def ensure_published_pdf(tournament: Tournament) -> ResultsPdf | None:
    """The results PDF of the current version in the club's language, asked for if it is
    not made or being made yet (for a visitor who finds only a superseded one, or none).
    Without a broker it is made here, in-process (the embedded site: on first download)."""
    if tournament.status not in PUBLISHED:
        return None
    version = documents.current_version(tournament)
    existing = ResultsPdf.objects.filter(
        tournament=tournament,
        kind=PdfKind.RESULTS,
        session_number=0,
        version=version,
        language=settings.LANGUAGE_CODE,
    ).first()
    if existing is not None and existing.state != PdfState.FAILED:
        return existing
    pdf, _created = request_pdf(tournament, PdfKind.RESULTS, settings.LANGUAGE_CODE)
    pdf.refresh_from_db()
    if generate_pdf.app.conf.task_always_eager and pdf.state != PdfState.DONE:
        pdf = make_pdf(pdf.pk)  # no worker: made now (the queued run then finds it made)
    return pdf


def refresh_results(tournament: Tournament, *, queue: bool = True) -> list[ResultsPdf]:
    """The results PDF of the current version in the club's language, and of every language
    and session a results PDF of the tournament was made for, each queued if not made yet
    (a session the correction left alone keeps its PDF; ``queue=False``: the caller makes
    them). The classification is brought up to date once for them all."""
    made = set(
        ResultsPdf.objects.filter(tournament=tournament, kind=PdfKind.RESULTS).values_list(
            "language", "session_number"
        )
    ) | {(settings.LANGUAGE_CODE, 0)}
    bring_current(tournament)
    return [
        request_pdf(tournament, PdfKind.RESULTS, language, number, classify=False, queue=queue)[0]
        for language, number in sorted(made)
    ]


class Outdated(RuntimeError):
    """The results changed between asking for a PDF and making it."""


def claim(rows, run: str, now: datetime.datetime, **fields) -> bool:
    """Mark the job row of ``rows`` (a model with ``state``, ``due_at`` and ``taken_by``, its
    states named queued, running, done and failed) as being made by ``run`` (the task's id;
    "" in-process), setting ``fields`` too. False when it is made, or another live run has it
    (heard of less than ``JOB_STALL_SECONDS`` ago: a message sent twice); the same message
    handed back after its worker died takes it over at once."""
    stale = now - datetime.timedelta(seconds=settings.JOB_STALL_SECONDS)
    held_by_dead = Q(due_at__isnull=True) | Q(due_at__lt=stale)
    if run:
        held_by_dead |= Q(taken_by=run)
    return bool(
        rows.filter(Q(state__in=["queued", "failed"]) | Q(state="running") & held_by_dead).update(
            state="running", due_at=now, taken_by=run, **fields
        )
    )


def take(pdf_pk: int, run: str = "") -> bool:
    """Mark the PDF as being made by ``run`` (``claim``)."""
    return claim(ResultsPdf.objects.filter(pk=pdf_pk), run, timezone.now(), progress=5)


@contextlib.contextmanager
def holding(pdf_pk: int, run: str):
    """Keep ``run``'s claim on the PDF fresh while it is being made: a large PDF on a busy
    machine can take longer than ``JOB_STALL_SECONDS``, and a second delivery of its job
    (the sweep's, or the broker's after a lost worker) would then take it over and make it
    again. A thread stamps ``due_at`` every third of that time; only a run that really went
    silent (its worker killed) is taken over. Not inside a transaction (the tests' and the
    eager runs'): no other run can be waiting there, and the stamp would wait on its lock."""
    if not run or connection.in_atomic_block:
        yield
        return
    stop = threading.Event()
    every = max(settings.JOB_STALL_SECONDS / 3, 0.5)

    def stamp() -> None:
        from django.db import connection as own

        try:
            while not stop.wait(every):
                ResultsPdf.objects.filter(pk=pdf_pk, taken_by=run, state=PdfState.RUNNING).update(
                    due_at=timezone.now()
                )
        finally:
            own.close()

    beat = thread_in_scope(stamp, name=f"pdf-{pdf_pk}-claim", daemon=True)
    beat.start()
    try:
        yield
    finally:
        stop.set()
        beat.join(timeout=every + 5)


def _results_pdf(pdf: ResultsPdf, classify: bool = True) -> tuple[bytes, int]:
    """The results PDF in parts (``pdf.parts``), laid out one after the other (a part laid
    out before is read back) and joined (``pdf.join``)."""
    document, version = documents.results_document(
        pdf.tournament, pdf.language, session_number=pdf.session_number, classify=classify
    )
    ResultsPdf.objects.filter(pk=pdf.pk).update(progress=40)
    if version != pdf.version:  # before any part is laid out
        raise Outdated(
            _("The results changed while the PDF was being made; the new version is made instead.")
        )
    return pdf_join.render(document)


def make_pdf(pdf_pk: int, run: str = "", *, classify: bool = True) -> ResultsPdf:
    """Render and store one requested PDF (the task's work). Idempotent: a PDF already made
    is kept; one whose results moved on is made for the version it names only if that
    version is still current, otherwise it is marked failed as outdated. ``classify=False``:
    the caller has just brought the classification up to date (one job, one classification)."""
    pdf = ResultsPdf.objects.select_related("tournament").get(pk=pdf_pk)
    if pdf.state == PdfState.DONE and pdf.file:
        return pdf
    if not take(pdf.pk, run):
        return pdf  # another run has it (a message sent twice: the sweep, a redelivery)
    started = time.perf_counter()
    try:
        with holding(pdf.pk, run):
            if pdf.kind == PdfKind.RESULTS:
                content, pages = _results_pdf(pdf, classify)
            else:
                html, _version = documents.render_html(
                    pdf.tournament, pdf.kind, pdf.language, classify=classify
                )
                ResultsPdf.objects.filter(pk=pdf.pk).update(progress=40)
                content, pages = render_pdf(html)
    except Exception as exc:  # a broken template or data: recorded, shown on the page
        ResultsPdf.objects.filter(pk=pdf.pk).update(
            state=PdfState.FAILED,
            error=_("The PDF could not be made: %(error)s") % {"error": exc},
            finished_at=timezone.now(),
        )
        pdf.refresh_from_db()
        if isinstance(exc, Outdated):
            # The results moved on (a result or correction came in meanwhile): make the
            # version they are at now, so a published PDF always follows.
            request_pdf(pdf.tournament, pdf.kind, pdf.language, pdf.session_number)
        return pdf
    part = f"-s{pdf.session_number}" if pdf.session_number else ""
    name = f"{pdf.tournament.slug}-{pdf.kind}{part}-{pdf.language}-v{pdf.version}.pdf"
    pdf.refresh_from_db()
    if pdf.file:
        pdf.file.delete(save=False)  # a half-finished earlier run
    pdf.file.save(name, ContentFile(content), save=False)
    pdf.state, pdf.progress, pdf.pages = PdfState.DONE, 100, pages
    pdf.finished_at, pdf.error = timezone.now(), ""
    pdf.save(update_fields=["file", "state", "progress", "pages", "finished_at", "error"])
    # One line per PDF made: the fault-injection runs count them (each made once).
    logger.info(
        "PDF %s made: %s, %d pages in %.1f s", pdf.pk, name, pages, time.perf_counter() - started
    )
    return pdf

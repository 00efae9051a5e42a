"""Celery tasks for federation uploads, USEBIO imports and results PDFs.

Kept apart from ``tasks.py`` (another module owns it); ``tasks.py`` imports this module so
Celery's autodiscovery registers these tasks. Every task is safe to run twice with the
same arguments — settings acknowledge late and re-queue on a lost worker, so a task killed
mid-way is run again: an upload already sent is not sent again (and carries the same
Idempotency-Key if the first request did reach the federation); a PDF already made for a
version is not made again.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .exports import federation
from .models.uploads import FederationEndpoint, Upload, UploadState


def backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: base · 2^retries, at most an hour."""
    base = getattr(settings, "UPLOAD_RETRY_BASE_SECONDS", 30)
    return int(min(base * 2 ** retries, 3600))


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def send_upload(self, upload_pk: int) -> str:
    """Send one upload; on a passing failure retry with exponential back-off up to the
    endpoint's ``max_retries``, then leave it *failed* for the secretary to retry."""
    try:
        return federation.send(upload_pk)
    except federation.UploadRefused as exc:
        federation.give_up(upload_pk, str(exc))
        return UploadState.FAILED
    except federation.RetryLater as exc:
        limit = (FederationEndpoint.objects.filter(uploads__pk=upload_pk)
                 .values_list("max_retries", flat=True).first()) or 0
        if self.request.retries >= limit:
            federation.give_up(upload_pk, str(exc))
            return UploadState.FAILED
        Upload.objects.filter(pk=upload_pk, state=UploadState.SENDING).update(
            state=UploadState.QUEUED)
        if self.request.is_eager:  # no broker: the retry runs now, in this process
            return send_upload.apply((upload_pk,), retries=self.request.retries + 1).result
        raise self.retry(exc=exc, countdown=backoff(self.request.retries),
                         max_retries=limit) from exc


@shared_task(acks_late=True, reject_on_worker_lost=True)
def import_usebio_file(content: str, file_name: str, key: str, user_id: int | None = None,
                       replace: bool = False) -> int:
    """Import a USEBIO file (all or nothing); returns the ``ResultImport`` id, refused or not.

    ``content`` is the file's bytes in base64 (JSON carries no bytes): the parser reads them
    in the encoding the file declares, so an ISO-8859-1 file keeps its accents. ``key``
    identifies the request: run twice (a lost worker), the second run returns the first
    run's import, and imports only if the first one rolled back.
    """
    import base64

    from django.contrib.auth import get_user_model

    from .imports.usebio import UsebioError, import_file
    from .models.uploads import ResultImport

    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    try:
        return import_file(base64.b64decode(content), file_name=file_name, user=user,
                           key=key, replace=replace).pk
    except UsebioError:
        return ResultImport.objects.filter(key=key).values_list("pk", flat=True).first()


@shared_task(acks_late=True, reject_on_worker_lost=True)
def generate_pdf(pdf_pk: int) -> str:
    """Render and store one requested PDF; a second run finds it made (or re-makes it if the
    first run died before saving). Errors end in the PDF's record, shown on its page."""
    from .pdf import make_pdf

    return make_pdf(pdf_pk).state


@shared_task(acks_late=True, reject_on_worker_lost=True)
def results_published(tournament_pk: int, language: str | None = None) -> int:
    """Queue the results PDF of the version just published (call on publication)."""
    from .models import Tournament
    from .pdf import request_pdf

    tournament = Tournament.objects.get(pk=tournament_pk)
    return request_pdf(tournament, language=language)[0].pk


@shared_task(acks_late=True, reject_on_worker_lost=True)
def refresh_results_pdf(tournament_pk: int) -> list[int]:
    """Re-make the results PDFs of a tournament whose published results were corrected
    (queued by ``results_pdf.results_corrected`` at the end of its window): the current version,
    in every language and session asked for before. Run twice, it finds the PDFs made."""
    from .models import Tournament
    from .pdf import refresh_results

    tournament = Tournament.objects.filter(pk=tournament_pk).first()
    return [pdf.pk for pdf in refresh_results(tournament)] if tournament else []

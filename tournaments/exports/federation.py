"""Sending files to a federation over HTTP(S), once.

No federation publishes an API, so the endpoint speaks a plain POST the secretary
configures: a multipart form (``file`` plus fields) or JSON (the file as text). Every
request carries the upload's id as ``Idempotency-Key`` header and ``upload_id`` field, so a
retry after a lost answer (or a worker killed mid-request) cannot file the results twice
at a server that honours it; on our side one file goes once per endpoint (unique content
hash). Each attempt is written down *before* the request leaves and completed after, so
an interrupted one still shows on the page.

The file is built from the event's snapshot (``documents.build_file``) and the upload
recorded and queued by ``jobs.request_upload``; ``send`` is what the Celery task runs; it
raises ``RetryLater`` for what may pass (timeouts, refused connections, 5xx, 408/429) and
``UploadRefused`` for what will not (other 4xx and 3xx, an address that is not a public
server: ``federation_address``).
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import http.client
import json
import socket
import threading
import time
import uuid

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models.uploads import (
    AuthKind,
    FileFormat,
    PostMode,
    Upload,
    UploadAttempt,
    UploadState,
)
from ..services.errors import TournamentError
from .federation_address import UnsafeAddress, check_url, pinned_connection

EXCERPT = 500
# What is read of a federation's answer (only its start is kept) and the longest a send may
# take, whatever the endpoint says.
RESPONSE_LIMIT = EXCERPT * 4
MAX_TIMEOUT = 120
CONTENT_TYPES = {
    FileFormat.USEBIO: "application/xml",
    FileFormat.PBN: "text/plain",
    FileFormat.LICENCE_CSV: "text/csv",
}


class RetryLater(Exception):
    """The federation did not take the file this time; try again later."""


class UploadRefused(Exception):
    """The federation refused the file; retrying will not help."""


def mark_manual(upload: Upload) -> Upload:
    """The secretary uploaded the downloaded file by hand on the federation's site."""
    if upload.state == UploadState.SENT:
        raise TournamentError(_("This upload was already sent."))
    Upload.objects.filter(pk=upload.pk).update(state=UploadState.MANUAL, sent_at=timezone.now())
    upload.refresh_from_db()
    return upload


# --- the HTTP request -----------------------------------------------------------------------


def _multipart(
    fields: dict[str, str], file_name: str, content: bytes, content_type: str
) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for key, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    safe_name = file_name.replace('"', "")
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{safe_name}"\r\nContent-Type: {content_type}\r\n\r\n'.encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def build_request(upload: Upload) -> tuple[bytes, dict[str, str]]:
    """The POST's body and headers (names spelled as usual: some servers are picky)."""
    endpoint = upload.endpoint
    fields = {
        "upload_id": str(upload.upload_id),
        "format": upload.file_format,
        "file_name": upload.file_name,
        "tournament": upload.tournament.slug if upload.tournament else "",
        "results_version": upload.results_version,
        "season": upload.season.name if upload.season else "",
    }
    if endpoint.mode == PostMode.JSON:
        body = json.dumps(fields | {"content": upload.content}).encode()
        content_type = "application/json"
    else:
        body, content_type = _multipart(
            fields,
            upload.file_name,
            upload.content.encode(),
            CONTENT_TYPES.get(upload.file_format, "text/plain"),
        )
    headers = {
        "Content-Type": content_type,
        "Idempotency-Key": str(upload.upload_id),
        "User-Agent": "clubsite-uploader/1.0",
    }
    if endpoint.auth == AuthKind.TOKEN and endpoint.secret:
        headers["Authorization"] = f"Bearer {endpoint.secret}"
    elif endpoint.auth == AuthKind.BASIC:
        pair = f"{endpoint.username}:{endpoint.secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
    return body, headers


def _finish(attempt: UploadAttempt, started: float, *, status=None, response="", error=""):
    attempt.http_status, attempt.response, attempt.error = status, response[:EXCERPT], error
    attempt.duration_ms = int((time.monotonic() - started) * 1000)
    attempt.save(update_fields=["http_status", "response", "error", "duration_ms"])


class _Answer(Exception):
    """A federation's answer other than 2xx (3xx included: a redirect is not followed, it
    could lead anywhere, so it is not a success either)."""

    def __init__(self, status: int, text: str):
        super().__init__(status)
        self.status, self.text = status, text


def _post(upload: Upload) -> tuple[int, str]:
    """POST the upload to its endpoint's checked address; (status, start of the answer).

    At most ``RESPONSE_LIMIT`` bytes of the answer are read, and the whole exchange gets
    the endpoint's timeout (capped at ``MAX_TIMEOUT``) as a deadline: a server that drips
    its answer byte by byte is cut off then, not after a timeout per byte."""
    address = check_url(upload.endpoint.url)
    timeout = min(max(upload.endpoint.timeout, 1), MAX_TIMEOUT)
    body, headers = build_request(upload)
    connection = pinned_connection(address, timeout)

    fired, opened = threading.Event(), []

    def cut_off():  # the reply keeps the socket after the connection lets go of it
        fired.set()
        for sock in opened:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    deadline = threading.Timer(timeout, cut_off)
    deadline.daemon = True
    deadline.start()
    try:
        connection.connect()  # bounded by its own timeout
        opened.append(connection.sock)
        connection.request("POST", address.target, body=body, headers=headers)
        reply = connection.getresponse()
        text = reply.read(RESPONSE_LIMIT).decode("utf-8", "replace")
    except (http.client.HTTPException, OSError) as exc:
        if fired.is_set():
            raise TimeoutError("timed out") from exc
        raise
    finally:
        deadline.cancel()
        connection.close()
    if fired.is_set():  # what arrived before the cut is not the whole answer
        raise TimeoutError("timed out")
    if not 200 <= reply.status < 300:
        raise _Answer(reply.status, text)
    return reply.status, text


def send(upload_pk: int, run: str = "") -> str:
    """One attempt at sending; returns the upload's state. Safe to run twice: an upload
    already sent (or uploaded by hand) is left alone, and so is one another live run is
    sending (``run`` is the task's id: the same message handed back after its worker died
    takes over at once, another waits until the first went silent for ``JOB_STALL_SECONDS``)."""
    with transaction.atomic():
        upload = (
            Upload.objects.select_for_update(of=("self",), no_key=True)
            .select_related("endpoint", "tournament", "season")
            .get(pk=upload_pk)
        )
        if upload.state in (UploadState.SENT, UploadState.MANUAL):
            return upload.state
        now = timezone.now()
        if (
            upload.state == UploadState.SENDING
            and not (run and upload.taken_by == run)
            and upload.due_at is not None
            and upload.due_at > now - datetime.timedelta(seconds=settings.JOB_STALL_SECONDS)
        ):
            return upload.state  # another run is sending it (a message sent twice)
        upload.state, upload.due_at, upload.taken_by = UploadState.SENDING, now, run
        upload.save(update_fields=["state", "due_at", "taken_by"])
    attempt = UploadAttempt.objects.create(upload=upload)
    started = time.monotonic()
    try:
        status, text = _post(upload)
    except UnsafeAddress as exc:
        error = _("The endpoint was not contacted: %(reason)s") % {"reason": exc}
        _finish(attempt, started, error=error)
        Upload.objects.filter(pk=upload.pk).update(error=error)
        raise UploadRefused(error) from exc
    except _Answer as exc:
        _finish(
            attempt,
            started,
            status=exc.status,
            response=exc.text,
            error=_("The federation answered %(status)s.") % {"status": exc.status},
        )
        Upload.objects.filter(pk=upload.pk).update(response_status=exc.status, error=attempt.error)
        if exc.status >= 500 or exc.status in (408, 429):
            raise RetryLater(attempt.error) from exc
        raise UploadRefused(attempt.error) from exc
    except (http.client.HTTPException, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", None) or str(exc) or exc.__class__.__name__
        error = _("The federation could not be reached (%(reason)s).") % {"reason": reason}
        _finish(attempt, started, error=error)
        Upload.objects.filter(pk=upload.pk).update(error=error)
        raise RetryLater(error) from exc
    _finish(attempt, started, status=status, response=text)
    Upload.objects.filter(pk=upload.pk).update(
        state=UploadState.SENT, sent_at=timezone.now(), response_status=status, error=""
    )
    return UploadState.SENT


def give_up(upload_pk: int, error: str) -> None:
    Upload.objects.filter(pk=upload_pk).exclude(
        state__in=[UploadState.SENT, UploadState.MANUAL]
    ).update(state=UploadState.FAILED, error=error)

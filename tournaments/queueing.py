"""Handing background work to the worker: one function per kind of work a service asks for.

Services decide whether and when (once per window, after commit); they then call one of
these, which only queues. The tasks sit above the services (``tasks.py`` and ``jobs`` call
services), so this module imports neither: it looks each task up by its registered name on
the project's Celery app (``TournamentsConfig.ready`` imports ``tournaments.tasks``, which
registers them all). ``apply_async`` on the registered task honours eager mode, so without a
broker the work runs in-process as before (``send_task`` would not). A name that is not
registered raises ``KeyError``: a lost task is an error, never silently dropped work.

A broker that is down (Redis restarting) raises from ``classify_session`` and
``refresh_results_pdf``, whose callers (``windows.once_per_window``) log it and let the next
change ask again; the row-backed jobs (``results_pdf``, ``player_mails``, and the jobs'
own ``send``) are logged once a minute and left to the worker's sweep (``jobs.sweep``),
which sends them again once the broker is back: their row is the record that the work is due.

Imports nothing of tournaments, so no service that calls it can be reached back through it.
"""

from __future__ import annotations

import logging

from django.db import transaction

from clubsite.celery import app
from clubsite.ops.logfilters import log_once

logger = logging.getLogger(__name__)

CLASSIFY_SESSION = "tournaments.tasks.classify_session_task"
RESULTS_PUBLISHED = "tournaments.jobs.results_published"
REFRESH_RESULTS_PDF = "tournaments.jobs.refresh_results_pdf"
SEND_PLAYER_MAILS = "tournaments.jobs.mail.send_player_mails"
TASK_NAMES = (CLASSIFY_SESSION, RESULTS_PUBLISHED, REFRESH_RESULTS_PDF, SEND_PLAYER_MAILS)


def task(name: str):
    """The registered task ``name`` (``KeyError`` if no module registered it)."""
    return app.tasks[name]


# --- what services ask for ------------------------------------------------------------------


def classify_session(session_id: int, window_end: float, countdown: float | int | None) -> None:
    """Classify the session in the worker ``countdown`` seconds from now
    (``reclassification.request_classification``); raises when the broker is down."""
    task(CLASSIFY_SESSION).apply_async((session_id, window_end), countdown=countdown)


def results_pdf(tournament_id: int) -> bool:
    """Make the results PDF of the version just published (``results_pdf.queue_results_pdf``).
    A broker that is down leaves no PDF asked for: the worker's sweep asks once it is back."""
    return send(task(RESULTS_PUBLISHED), tournament_id)


def refresh_results_pdf(tournament_id: int, countdown: int | None) -> None:
    """Re-make the published results' PDF after a correction, ``countdown`` seconds from now
    (``results_pdf.results_corrected``); raises when the broker is down."""
    task(REFRESH_RESULTS_PDF).apply_async((tournament_id,), countdown=countdown)


def player_mails(ids: list[int]) -> bool:
    """Mail the recorded ``PlayerMail`` rows ``ids`` (``results_mail``, ``waiting_mail``). A
    broker that is down leaves the rows unsent: the worker's sweep sends them once back."""
    return send(task(SEND_PLAYER_MAILS), ids)


# --- a row-backed job, sent now or on commit --------------------------------------------------


def send(job, *args) -> bool:
    """Queue ``job(*args)`` now; False (logged once a minute) when the broker cannot take it.

    The job's own row (``ResultsPdf``, ``Upload``, ``PlayerMail``) is the record that it must
    be done; the broker's message only says "now". So a broker that is down costs the request
    nothing: the row stays queued and ``jobs.sweep`` sends it again once the broker is back.
    Without a broker Celery runs the task in-process, and its errors are the task's own."""
    if job.app.conf.task_always_eager:
        job.delay(*args)
        return True
    try:
        job.delay(*args)
    except Exception:  # kombu's OperationalError, a socket error: the broker is away
        log_once(
            f"send:{job.name}",
            "could not queue %s%r; the job sweep will send it again",
            job.name,
            args,
            log=logger,
        )
        return False
    return True


def send_on_commit(job, *args) -> None:
    """``send`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send(job, *args))

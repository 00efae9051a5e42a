"""Handing a PDF or upload job to the broker once the request's transaction is committed.

The job's own row (``ResultsPdf``, ``Upload``) is the record that it must be done; the
broker's message only says "now". So a broker that is down (Redis restarting) must cost the
request nothing: the failure is logged once a minute, the row stays queued, and
``jobs.sweep`` sends it again once the broker is back. Without a broker (the embedded site)
Celery runs the task in-process, and its errors are the task's own.
"""

from __future__ import annotations

from django.db import transaction

from ..services.windows import log_once


def send(task, *args) -> bool:
    """Queue ``task(*args)`` now; False (logged) when the broker cannot take it."""
    if task.app.conf.task_always_eager:
        task.delay(*args)
        return True
    try:
        task.delay(*args)
    except Exception:  # kombu's OperationalError, a socket error: the broker is away
        log_once(f"send:{task.name}", "could not queue %s%r; the job sweep will send it again",
                 task.name, args)
        return False
    return True


def send_on_commit(task, *args) -> None:
    """``send`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send(task, *args))

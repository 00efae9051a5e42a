"""Queue a task once per window of seconds, for work that a burst of changes should cause once.

A result post asks for its session to be re-classified, a correction for its PDF to be
re-made; forty tables posting, or ten corrections in a row, must give one run. The first
request of a window queues the task for the end of the window and marks the window with a
cache key; the later ones find the key and queue nothing. The key expires before the task
starts, so a change committed while it is present is seen by the task.

Redis can go away in the middle of a club night. A shared cache that is down answers like a
miss (``django-redis`` with ``IGNORE_EXCEPTIONS``): the window is then kept in this process's
memory. A broker that is down makes ``apply_async`` fail: the failure is logged once, the
broker is not asked again for a few seconds (so forty tables' posts do not each wait for
it), and the caller is told ``FAILED`` so a page can do the work itself.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import suppress

from django.core.cache import cache

from clubsite.celery import app as celery_app
from clubsite.ops import logfilters

logger = logging.getLogger(__name__)

QUEUED, COVERED, FAILED = "queued", "covered", "failed"
# After a failed queue, the broker is left alone this long (seconds) by this process.
BROKER_PAUSE = 5.0

_lock = threading.Lock()
_local_windows: dict[str, float] = {}
_broker_down_until = 0.0


def log_once(what: str, message: str, *args, every: float = 60.0) -> None:
    """Log ``message`` at most once per ``every`` seconds for ``what`` (an outage logs one
    line a minute, not one per request; ``clubsite.ops.logfilters.log_once``)."""
    logfilters.log_once(what, message, *args, every=every, log=logger)


def _claim(key: str, seconds: int) -> bool:
    """Open the window ``key``; False if it is open already. In the shared cache, or in this
    process's memory while the cache is down."""
    added = None
    try:
        added = cache.add(key, True, timeout=seconds)
    except Exception:
        log_once("cache", "the shared cache is down; windows are kept per process")
    if added is not None:
        return bool(added)
    now = time.monotonic()
    with _lock:
        if _local_windows.get(key, 0.0) > now:
            return False
        _local_windows[key] = now + seconds
        if len(_local_windows) > 10_000:  # an outage that lasts: forget closed windows
            for stale in [k for k, end in _local_windows.items() if end <= now]:
                del _local_windows[stale]
    return True


def _release(key: str) -> None:
    with suppress(Exception):
        cache.delete(key)
    with _lock:
        _local_windows.pop(key, None)


def close_window(key: str) -> None:
    """Close the window ``key`` before its time (the task it stands for has started)."""
    _release(key)


def broker_paused() -> bool:
    """Whether this process saw the broker fail a moment ago."""
    return time.monotonic() < _broker_down_until


def tasks_run_inline() -> bool:
    """Whether Celery runs tasks in this process (no broker: the embedded site, the tests)."""
    return bool(celery_app.conf.task_always_eager)


def once_per_window(
    queue: Callable[[int | None], None],
    *,
    name: str,
    key: str,
    seconds: int,
    what: str,
    raise_when_eager: bool = False,
) -> str:
    """Call ``queue(countdown)`` (it queues a task to run ``seconds`` from now) unless this
    window already has.

    ``QUEUED``: this call queued it; ``COVERED``: the window's task is already queued;
    ``FAILED``: it could not be queued (broker down: logged once per ``name``, nothing is
    marked, so the next change asks again). Never fails the caller's request, unless tasks
    run eagerly and ``raise_when_eager`` asks for the task's own errors.
    """
    global _broker_down_until
    eager = tasks_run_inline()
    if not eager and broker_paused():
        return FAILED
    if seconds and not _claim(key, seconds):
        return COVERED
    try:
        queue(seconds or None)
    except Exception:
        if raise_when_eager and eager:
            raise
        if eager:
            logger.exception("%s failed", what)
        else:
            with _lock:
                _broker_down_until = time.monotonic() + BROKER_PAUSE
            log_once(f"queue:{name}", "could not queue %s", what)
        _release(key)
        return FAILED
    return QUEUED

"""Queue a task once per window of seconds, for work that a burst of changes should cause once.

A result post asks for its session to be re-classified, a correction for its PDF to be
re-made; forty tables posting, or ten corrections in a row, must give one run. The first
request of a window queues the task for the end of the window and marks the window with a
cache key; the later ones find the key and queue nothing. The key expires before the task
starts, so a change committed while it is present is seen by the task.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import suppress

from django.core.cache import cache

logger = logging.getLogger(__name__)


def once_per_window(task, args: Sequence, *, key: str, seconds: int, what: str,
                    raise_when_eager: bool = False) -> bool:
    """Queue ``task(*args)`` to run ``seconds`` from now unless this window already has; True
    if this call queued it. A cache or broker that is down is logged (``what`` says what was
    not queued) and never fails the caller's request, unless tasks run eagerly and
    ``raise_when_eager`` asks for the task's own errors."""
    try:
        if seconds and not cache.add(key, True, timeout=seconds):
            return False
        task.apply_async(tuple(args), countdown=seconds or None)
    except Exception:
        if raise_when_eager and task.app.conf.task_always_eager:
            raise
        logger.exception("could not queue %s", what)
        with suppress(Exception):
            cache.delete(key)
        return False
    return True

"""Logging filters: the log says what happened in as few lines as it takes.

A refused request is one line, not a traceback. Django logs a ``PermissionDenied`` (403) on
``django.request`` and a suspicious request on ``django.security.*`` with the exception
attached, so each probe of a secretary page by a player, or a forged Host header, printed a
whole traceback. They are the client's doing, not the site's: ``OneLineRefusal`` keeps the
line (path, status, the exception's text) and drops the traceback. Server errors (5xx) keep
theirs.

An outage (Redis restarting during a session) makes every request hit the same error; one
line a minute says it as well as a thousand (``OncePerInterval``).
"""

import logging
import threading
import time


class OneLineRefusal(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        refused = record.name.startswith("django.security") or (
            status is not None and 400 <= status < 500
        )
        if refused and record.exc_info:
            exc = record.exc_info[1]
            message = record.getMessage()
            detail = str(exc) if exc is not None else ""
            record.msg = (
                f"{message} ({type(exc).__name__}: {detail})"
                if detail
                else f"{message} ({type(exc).__name__})"
            )
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


class OncePerInterval(logging.Filter):
    """Let a record through once per ``seconds`` for each logger and message."""

    def __init__(self, seconds: float = 60.0):
        super().__init__()
        self.seconds = float(seconds)
        self._last: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        with self._lock:
            if self._last.get(key, -self.seconds) > now - self.seconds:
                return False
            self._last[key] = now
        return True


_log_lock = threading.Lock()
_logged: dict[str, float] = {}


def log_once(
    what: str, message: str, *args, every: float = 60.0, log: logging.Logger | None = None
) -> None:
    """Log ``message`` on ``log`` (a warning, with the exception being handled) at most once
    per ``every`` seconds for ``what``: an outage logs one line a minute, not one per request.
    Called where the outage is met (the cache's windows, the job queue)."""
    now = time.monotonic()
    with _log_lock:
        if _logged.get(what, -every) > now - every:
            return
        _logged[what] = now
    (log or logging.getLogger(__name__)).warning(message, *args, exc_info=True)

"""Logging filters.

An outage (Redis restarting during a session) makes every request hit the same error; one
line a minute says it as well as a thousand and keeps the log readable.
"""

import logging
import threading
import time


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

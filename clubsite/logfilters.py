"""Logging filters: a refused request is one line in the log, not a traceback.

Django logs a ``PermissionDenied`` (403) on ``django.request`` and a suspicious request on
``django.security.*`` with the exception attached, so each probe of a secretary page by a
player, or a forged Host header, printed a whole traceback. They are the client's doing,
not the site's: ``OneLineRefusal`` keeps the line (path, status, the exception's text) and
drops the traceback. Server errors (5xx) keep theirs.
"""

import logging


class OneLineRefusal(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        refused = record.name.startswith("django.security") or (
            status is not None and 400 <= status < 500)
        if refused and record.exc_info:
            exc = record.exc_info[1]
            message = record.getMessage()
            detail = str(exc) if exc is not None else ""
            record.msg = f"{message} ({type(exc).__name__}: {detail})" if detail else \
                f"{message} ({type(exc).__name__})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True

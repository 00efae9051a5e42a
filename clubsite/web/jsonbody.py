"""Reading a JSON request body safely: one helper for every view that takes JSON.

``json.loads`` on whatever a client sends can fail in ways that are not ``ValueError``: a
body nested a few thousand levels deep raises ``RecursionError``, and ``"\\ud800"`` parses
into a lone surrogate that no database can store (PostgreSQL refuses it, SQLite's driver
cannot encode it), so the failure would come later, as a 500. ``read_json`` caps the size
and the nesting, refuses lone surrogates and non-finite numbers (``NaN``, ``Infinity``),
and raises ``BadJSON`` with a translated message the view returns as a 400.
"""

import json

from django.utils.translation import gettext as _

MAX_BYTES = 64 * 1024  # a table's result is a few hundred bytes
MAX_DEPTH = 8  # a result is one flat object


class BadJSON(ValueError):
    """The body is not JSON this site accepts; ``str(exc)`` is the translated reason."""


def _refuse_constant(name):
    raise BadJSON(_("Numbers must be finite: %(value)s is not accepted.") % {"value": name})


def _depth_ok(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest at most ``limit`` deep (checked before parsing,
    so a hostile body never reaches the recursive parser)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def _check_text(value) -> None:
    """Refuse lone surrogates anywhere in keys or values (they cannot be stored)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise BadJSON(_("The text contains characters that are not valid Unicode.")) from exc
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)


def read_json(request, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH):
    """The parsed body of ``request`` (``{}`` when empty), or ``BadJSON``."""
    length = request.headers.get("Content-Length") or "0"
    if not length.isdigit() or int(length) > max_bytes:
        raise BadJSON(_("The request is too large."))
    body = request.body
    if len(body) > max_bytes:
        raise BadJSON(_("The request is too large."))
    try:
        text = body.decode("utf-8") if body else "{}"
    except UnicodeDecodeError as exc:
        raise BadJSON(_("The request is not valid UTF-8.")) from exc
    if not _depth_ok(text, max_depth):
        raise BadJSON(_("The request is nested too deeply."))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except BadJSON:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadJSON(_("The request is not valid JSON.")) from exc
    _check_text(data)
    return data

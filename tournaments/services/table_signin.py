"""Signing a table device in, and throttling those who guess.

Two ways in, both only for an active code of a session being played:

* the link (QR code) on the table card carries the table's ``token``, 128 random bits: a
  right token always signs in, since nobody can guess one;
* typed at the table, the short ``code`` counts only with the table it belongs to, its
  section letter and number ("A3"), so a code on its own opens nothing.

A short code can be guessed given enough tries, so failed attempts are counted in Django's
cache per client address and per typed table, and refused for the rest of the window
(``TABLE_SIGNIN_MAX_FAILURES`` in ``TABLE_SIGNIN_WINDOW_SECONDS``). Sign-ins that work are not
counted, so a room of devices sharing the club's Wi-Fi address is not locked out by its own
successes. The cache is shared by the web processes with Redis, and in-process without it; if
it fails, sign-in goes on unthrottled rather than failing for everyone.
"""

import hmac
import logging
import math
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.permissions import Role, has_role

from ..models import SessionStatus, TableCode
from .errors import NotAllowed

log = logging.getLogger(__name__)

# "A3", "a 3", "A-3", "B12"; a bare number is section A (teams events have only that one).
TABLE_LABEL = re.compile(r"^([A-Z]{0,3})[\s\-]*(\d{1,3})$")
KEY_PREFIX = "table-signin"


class TooManyAttempts(NotAllowed):
    """Too many failed sign-ins from this address or for this table: wait ``wait_seconds``."""

    def __init__(self, wait_seconds: int) -> None:
        self.wait_seconds = wait_seconds
        minutes = max(1, math.ceil(wait_seconds / 60))
        super().__init__(ngettext(
            "Too many failed sign-in attempts. Wait %(minutes)d minute and try again.",
            "Too many failed sign-in attempts. Wait %(minutes)d minutes and try again.",
            minutes) % {"minutes": minutes})


@dataclass(frozen=True, slots=True)
class Attempt:
    """Who is trying: the client's address and, for a typed code, the table typed."""

    ip: str
    table: str | None = None

    def keys(self) -> list[str]:
        keys = [f"{KEY_PREFIX}:ip:{self.ip}"]
        if self.table:
            keys.append(f"{KEY_PREFIX}:table:{self.table}")
        return keys


def client_ip(meta) -> str:
    """The client's address: behind the HTTPS proxy (``BEHIND_HTTPS_PROXY``) the last
    address it appended to X-Forwarded-For, since every request would otherwise come from the
    proxy; else the connection's own address."""
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if settings.SECURE_PROXY_SSL_HEADER and forwarded.strip():
        return forwarded.split(",")[-1].strip()[:64]
    return (meta.get("REMOTE_ADDR") or "unknown")[:64]


def parse_table(text: str) -> tuple[str, int] | None:
    """("A", 3) from what was typed for the table, or None if it does not read as one."""
    match = TABLE_LABEL.match((text or "").strip().upper())
    if match is None or int(match[2]) == 0:
        return None
    return match[1] or "A", int(match[2])


# --- the throttle ---------------------------------------------------------------------------


def _limits() -> tuple[int, int]:
    return settings.TABLE_SIGNIN_MAX_FAILURES, settings.TABLE_SIGNIN_WINDOW_SECONDS


def wait_seconds(attempt: Attempt) -> int:
    """How long this attempt must wait; 0 when it may go on (or the cache cannot say)."""
    limit, window = _limits()
    now = time.time()
    try:
        stored = cache.get_many([k for key in attempt.keys() for k in (key, f"{key}:until")])
    except Exception as exc:  # noqa: BLE001 - the cache being down must not stop the tables
        log.warning("table sign-in throttle: cache unavailable, not throttling: %r", exc)
        return 0
    waits = [math.ceil(stored.get(f"{key}:until", now + window) - now) for key in attempt.keys()
             if stored.get(key, 0) >= limit]
    return max([w for w in waits if w > 0], default=0)


def record_failure(attempt: Attempt) -> None:
    """Count one failure against the address and the table; each count's window starts at
    its first failure."""
    _limit, window = _limits()
    try:
        for key in attempt.keys():
            cache.add(f"{key}:until", time.time() + window, window)
            cache.add(key, 0, window)
            try:
                cache.incr(key)
            except ValueError:  # the window ended between add and incr
                cache.set(key, 1, window)
    except Exception as exc:  # noqa: BLE001
        log.warning("table sign-in throttle: cache unavailable, failure not counted: %r", exc)


def _refused(attempt: Attempt, how: str, why: str) -> None:
    log.warning("table sign-in refused: ip=%s how=%s table=%s reason=%s",
                attempt.ip, how, attempt.table or "-", why)


# --- signing in -----------------------------------------------------------------------------


def _live(**lookup) -> TableCode | None:
    return (TableCode.objects.select_related("section__session__tournament")
            .filter(active=True, section__session__status=SessionStatus.RUNNING, **lookup)
            .order_by("-pk").first())


def table_for_token(token: str) -> TableCode | None:
    """The live table a card's link token belongs to, without counting anything (the link
    page only shows which table it is)."""
    token = (token or "").strip()
    if not token or len(token) > TableCode._meta.get_field("token").max_length:
        return None
    return _live(token=token)


def sign_in_with_token(token: str, *, ip: str) -> TableCode:
    """The table of a card's link; a wrong or expired token counts as a failure."""
    table_code = table_for_token(token)
    if table_code is not None:
        return table_code
    attempt = Attempt(ip)
    if wait := wait_seconds(attempt):
        _refused(attempt, "link", "throttled")
        raise TooManyAttempts(wait)
    record_failure(attempt)
    _refused(attempt, "link", "unknown or expired token")
    raise NotAllowed(_("This table link is not valid for a session being played. "
                       "Ask the director for the table's card."))


def sign_in_with_code(table: str, code: str, *, ip: str) -> TableCode:
    """The table typed (e.g. "A3") if ``code`` is its live code; throttled before it looks."""
    parsed = parse_table(table)
    attempt = Attempt(ip, f"{parsed[0]}{parsed[1]}" if parsed else None)
    if wait := wait_seconds(attempt):
        _refused(attempt, "code", "throttled")
        raise TooManyAttempts(wait)
    if parsed is None:
        record_failure(attempt)
        _refused(attempt, "code", "table not understood")
        raise NotAllowed(_("Type the table as on its card: the section letter and the "
                           "number, e.g. A3."))
    code = (code or "").strip().upper()
    table_code = _live(section__letter=parsed[0], table=parsed[1], code=code) if code else None
    if table_code is None:
        record_failure(attempt)
        _refused(attempt, "code", "wrong code or session not being played")
        raise NotAllowed(_("This code is not the code of table %(table)s in a session being "
                           "played.") % {"table": attempt.table})
    return table_code


def leave_allowed(table_code: TableCode, pin: str, user) -> bool:
    """Leaving table mode takes the director: the session's PIN, or a director signed in on
    the device. A session without a PIN, or no longer played, lets any device go."""
    session = table_code.section.session
    expected = session.table_pin
    if not expected or not session.is_running or not table_code.active:
        return True
    if getattr(user, "is_authenticated", False) and has_role(user, Role.DIRECTOR):
        return True
    return hmac.compare_digest(expected.encode(), (pin or "").strip().encode())

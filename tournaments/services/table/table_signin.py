"""Signing a table device in, and throttling those who guess.

Two ways in, both only for an active code of a session being played:

* the link (QR code) on the table card carries the table's ``token``, 128 random bits: a
  right token always signs in, since nobody can guess one;
* typed at the table, the short ``code`` counts only with the table it belongs to, its
  section letter and number ("A3"), so a code on its own opens nothing.

A short code can be guessed given enough tries, so failed attempts are counted in Django's
cache and refused for the rest of the window (``TABLE_SIGNIN_WINDOW_SECONDS``), but what is
throttled is the guesser, not the table: a device that has signed in at a table before
carries a signed cookie saying so (``Device``), and its tries at that table count against
that device alone, so wrong codes typed elsewhere never lock it out. Other tries count
against the device (``TABLE_SIGNIN_MAX_FAILURES``), the table typed (the same limit: a guesser
with many addresses still gets ten tries a window) and the address, whose limit
(``TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS``) is higher, since every device of the room shares
the club's Wi-Fi. A table locked for new devices says to scan its card, whose link always
works. Sign-ins that work are not counted. The cache is shared by the web processes with
Redis, and in-process without it; if it fails, sign-in goes on unthrottled rather than
failing for everyone.
"""

import hmac
import json
import logging
import math
import re
import secrets
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.accounts.permissions import Role, has_role
from clubsite.accounts.signin import count_in_window
from clubsite.tenancy import current_club_id
from tournaments.models import SessionStatus, TableCode
from tournaments.services.errors import NotAllowed

log = logging.getLogger(__name__)

# "A3", "a 3", "A-3", "B12"; a bare number is section A (teams events have only that one).
TABLE_LABEL = re.compile(r"^([A-Z]{0,3})[\s\-]*(\d{1,3})$")
KEY_PREFIX = "table-signin"


# The tables a device cookie remembers having signed in at (the latest ones).
DEVICE_TABLES = 20


class TooManyAttempts(NotAllowed):
    """Too many failed sign-ins: wait ``wait_seconds``. ``table_locked``: the table typed is
    closed to new devices for now (its card's link still signs in)."""

    def __init__(self, wait_seconds: int, table_locked: bool = False) -> None:
        self.wait_seconds = wait_seconds
        self.table_locked = table_locked
        minutes = max(1, math.ceil(wait_seconds / 60))
        if table_locked:
            message = ngettext(
                "Too many wrong codes were typed for this table. Scan the QR code on the "
                "table's card, or wait %(minutes)d minute and try again.",
                "Too many wrong codes were typed for this table. Scan the QR code on the "
                "table's card, or wait %(minutes)d minutes and try again.",
                minutes,
            )
        else:
            message = ngettext(
                "Too many failed sign-in attempts. Wait %(minutes)d minute and try again.",
                "Too many failed sign-in attempts. Wait %(minutes)d minutes and try again.",
                minutes,
            )
        super().__init__(message % {"minutes": minutes})


@dataclass(frozen=True, slots=True)
class Device:
    """A browser as its signed cookie describes it: its own id, and the tables (section id
    and number) it has signed in at. A device without the cookie has neither."""

    id: str | None = None
    tables: frozenset[str] = field(default_factory=frozenset)

    @staticmethod
    def table_key(table_code: TableCode) -> str:
        return f"{table_code.section_id}:{table_code.table}"

    def knows(self, table_code: TableCode) -> bool:
        return self.table_key(table_code) in self.tables


def device_from_cookie(value: str | None) -> Device:
    """The device a (verified) cookie value names; a missing or odd one is a new device."""
    try:
        data = json.loads(value or "")
        tables = [str(t)[:40] for t in data.get("tables", [])][:DEVICE_TABLES]
        device_id = str(data["id"])[:40]
    except (ValueError, TypeError, KeyError, AttributeError):
        return Device()
    return Device(device_id, frozenset(tables))


def device_cookie(device: Device, table_code: TableCode) -> str:
    """The cookie value once ``device`` signed in at ``table_code``: its id (a new one for a
    new device) and the table added to those it knows."""
    tables = [t for t in sorted(device.tables) if t != Device.table_key(table_code)]
    tables = (tables + [Device.table_key(table_code)])[-DEVICE_TABLES:]
    return json.dumps({"id": device.id or secrets.token_urlsafe(16), "tables": tables})


@dataclass(frozen=True, slots=True)
class Attempt:
    """Who is trying: the client's address, the device, and for a typed code the table
    typed; ``known``: the device has signed in at that table before."""

    ip: str
    table: str | None = None
    device: Device = field(default_factory=Device)
    known: bool = False

    def counters(self) -> list[tuple[str, int]]:
        """The counts this attempt is held to, with their limits."""
        limit = settings.TABLE_SIGNIN_MAX_FAILURES
        counters = [(f"{KEY_PREFIX}:device:{self.device.id}", limit)] if self.device.id else []
        if self.known:  # answers for itself only: others' wrong codes never lock it out
            return counters
        counters.append(
            (f"{KEY_PREFIX}:ip:{self.ip}", settings.TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS)
        )
        if self.table:
            counters.append((f"{KEY_PREFIX}:table:{current_club_id()}:{self.table}", limit))
        return counters


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


def _window() -> int:
    return settings.TABLE_SIGNIN_WINDOW_SECONDS


def throttled(attempt: Attempt) -> TooManyAttempts | None:
    """The refusal this attempt meets now, or None when it may go on (or the cache cannot
    say): the longest wait of the counts over their limit."""
    now, window = time.time(), _window()
    counters = attempt.counters()
    try:
        stored = cache.get_many([k for key, _limit in counters for k in (key, f"{key}:until")])
    except Exception as exc:  # noqa: BLE001 - the cache being down must not stop the tables
        log.warning("table sign-in throttle: cache unavailable, not throttling: %r", exc)
        return None
    waits = [
        (math.ceil(stored.get(f"{key}:until", now + window) - now), key)
        for key, limit in counters
        if stored.get(key, 0) >= limit
    ]
    waits = [(wait, key) for wait, key in waits if wait > 0]
    if not waits:
        return None
    wait, key = max(waits)
    return TooManyAttempts(wait, table_locked=key.startswith(f"{KEY_PREFIX}:table:"))


def wait_seconds(attempt: Attempt) -> int:
    """How long this attempt must wait; 0 when it may go on (or the cache cannot say)."""
    refusal = throttled(attempt)
    return refusal.wait_seconds if refusal else 0


def record_failure(attempt: Attempt) -> None:
    """Count one failure against each of the attempt's counts; each count's window starts
    at its first failure."""
    window = _window()
    try:
        for key, _limit in attempt.counters():
            count_in_window(key, window)
    except Exception as exc:  # noqa: BLE001
        log.warning("table sign-in throttle: cache unavailable, failure not counted: %r", exc)


def _refused(attempt: Attempt, how: str, why: str) -> None:
    log.warning(
        "table sign-in refused: ip=%s how=%s table=%s reason=%s",
        attempt.ip,
        how,
        attempt.table or "-",
        why,
    )


# --- signing in -----------------------------------------------------------------------------


def _live(**lookup) -> TableCode | None:
    return (
        TableCode.objects.select_related("section__session__tournament")
        .filter(active=True, section__session__status=SessionStatus.RUNNING, **lookup)
        .order_by("-pk")
        .first()
    )


def table_for_token(token: str) -> TableCode | None:
    """The live table a card's link token belongs to, without counting anything (the link
    page only shows which table it is)."""
    token = (token or "").strip()
    if not token or len(token) > TableCode._meta.get_field("token").max_length:
        return None
    return _live(token=token)


def sign_in_with_token(token: str, *, ip: str, device: Device | None = None) -> TableCode:
    """The table of a card's link; a wrong or expired token counts as a failure."""
    table_code = table_for_token(token)
    if table_code is not None:
        return table_code
    attempt = Attempt(ip, device=device or Device())
    if refusal := throttled(attempt):
        _refused(attempt, "link", "throttled")
        raise refusal
    record_failure(attempt)
    _refused(attempt, "link", "unknown or expired token")
    raise NotAllowed(
        _(
            "This table link is not valid for a session being played. "
            "Ask the director for the table's card."
        )
    )


def sign_in_with_code(table: str, code: str, *, ip: str, device: Device | None = None) -> TableCode:
    """The table typed (e.g. "A3") if ``code`` is its live code; throttled before it looks."""
    parsed = parse_table(table)
    device = device or Device()
    known = bool(parsed and device.tables) and any(
        device.knows(tc)
        for tc in (
            TableCode.objects.filter(
                active=True,
                section__session__status=SessionStatus.RUNNING,
                section__letter=parsed[0],
                table=parsed[1],
            )
        )
    )
    attempt = Attempt(ip, f"{parsed[0]}{parsed[1]}" if parsed else None, device, known)
    if refusal := throttled(attempt):
        _refused(attempt, "code", "throttled")
        raise refusal
    if parsed is None:
        record_failure(attempt)
        _refused(attempt, "code", "table not understood")
        raise NotAllowed(
            _("Type the table as on its card: the section letter and the number, e.g. A3.")
        )
    code = (code or "").strip().upper()
    table_code = _live(section__letter=parsed[0], table=parsed[1], code=code) if code else None
    if table_code is None:
        record_failure(attempt)
        _refused(attempt, "code", "wrong code or session not being played")
        raise NotAllowed(
            _("This code is not the code of table %(table)s in a session being played.")
            % {"table": attempt.table}
        )
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

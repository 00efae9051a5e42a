"""The audit trail as people read it: who, what, before → after in words, and the filters
(session, table, person, kind) the page and its CSV export share.

``AuditEntry`` keeps before and after as the stored codes ("4SX", "W", "HT", true); the
page shows them as the club writes them ("4♠X", "O", "♥10", "yes") in the reader's
language, and only the fields that changed.
"""

from __future__ import annotations

import re

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import AuditAction, AuditEntry, ResultStatus, Tournament
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.running.adjustments import describe

FIELD_LABELS = {
    "contract": gettext_lazy("Contract"),
    "declarer": gettext_lazy("Declarer"),
    "lead": gettext_lazy("Lead"),
    "tricks": gettext_lazy("Tricks"),
    "ns_score": gettext_lazy("NS score"),
    "adjustment": gettext_lazy("Adjusted score"),
    "law": gettext_lazy("Law"),
    "reason": gettext_lazy("Why"),
    "status": gettext_lazy("State"),
    "confirmed": gettext_lazy("Confirmed by the opponents"),
    # table money (services.table_fees, services.cash_sheet)
    "player": gettext_lazy("Player"),
    "amount": gettext_lazy("Amount"),
    "method": gettext_lazy("Paid by"),
    "expected": gettext_lazy("Expected"),
    "missing": gettext_lazy("Missing"),
}
_READING_ORDER = {key: i for i, key in enumerate(FIELD_LABELS)}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CONTRACT = re.compile(r"^([1-7])(NT|[SHDC])(X{0,2})$")
_TABLE = re.compile(r"^\s*([A-Za-z]?)\s*(\d{1,3})\s*$")


def readable(key: str, value) -> str:
    """One stored value as the director reads it."""
    if value is None or value == "":
        return "—"
    if key == "adjustment" and isinstance(value, dict):
        return describe(value)
    if key == "contract" and isinstance(value, str):
        if value == "PASS":
            return _("Passed out")
        match = _CONTRACT.match(value)
        if match:
            level, strain, doubled = match.groups()
            return f"{level}{SUITS.get(strain) or _('NT')}{doubled}"
    if key == "declarer":
        return seat_word(value)
    if key == "lead" and isinstance(value, str) and len(value) >= 2:
        return SUITS.get(value[0], value[0]) + ("10" if value[1:] == "T" else value[1:])
    if key == "status" and value in ResultStatus.values:
        return str(ResultStatus(value).label)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):  # a line-up's players, a substitution's names
        return ", ".join(str(v) for v in value)
    return str(value)


def changes(entry: AuditEntry) -> list[tuple[str, str, str]]:
    """(field, before, after) for every field that changed, in words, in FIELD_LABELS's
    reading order (PostgreSQL's jsonb does not keep the order the fields were written in)."""
    before, after = entry.before or {}, entry.after or {}
    keys = [k for k in dict.fromkeys([*before, *after]) if before.get(k) != after.get(k)]
    keys.sort(key=lambda k: _READING_ORDER.get(k, len(_READING_ORDER)))
    return [
        (str(FIELD_LABELS.get(k, k)), readable(k, before.get(k)), readable(k, after.get(k)))
        for k in keys
    ]


def who(entry: AuditEntry) -> str:
    if entry.user is not None:
        return entry.user.get_full_name() or entry.user.get_username()
    if entry.table_code is not None:
        return _("table %(table)s") % {"table": entry.table_code.label}
    return ""


def parse_table(text: str) -> tuple[str, int] | None:
    """ "A3", "a 3" or "3" → ("A", 3) / ("", 3); anything else None."""
    match = _TABLE.match(text or "")
    if match is None:
        return None
    return match.group(1).upper(), int(match.group(2))


def trail(tournament: Tournament) -> QuerySet:
    """The tournament's entries, newest first, with what the page and the CSV show."""
    return AuditEntry.objects.filter(tournament=tournament).select_related(
        "user", "session", "table_code__section", "result__board", "result__section"
    )


def for_session(rows: QuerySet, session) -> QuerySet:
    """A session's entries and the tournament-wide ones (withdrawals, substitutions,
    publication), which belong to every session."""
    return rows.filter(Q(session=session) | Q(session__isnull=True))


def for_table(rows: QuerySet, letter: str, table: int) -> QuerySet:
    """Entries on a line of that table, or made by that table's device."""
    on_line = Q(result__table=table)
    by_device = Q(table_code__table=table)
    if letter:
        on_line &= Q(result__section__letter=letter)
        by_device &= Q(table_code__section__letter=letter)
    return rows.filter(on_line | by_device)


def people(tournament: Tournament):
    """The users who appear in the trail (the person filter's choices)."""
    from django.contrib.auth import get_user_model

    ids = (
        AuditEntry.objects.filter(tournament=tournament, user__isnull=False)
        .values_list("user_id", flat=True)
        .distinct()
    )
    return (
        get_user_model().objects.filter(pk__in=ids).order_by("first_name", "last_name", "username")
    )


KINDS = AuditAction.choices

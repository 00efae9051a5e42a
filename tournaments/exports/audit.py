"""The director's audit trail as a CSV file: the record a club keeps of every change.

One row per ``AuditEntry`` of the tournament, oldest first (a record reads forwards), with
the club's local time (``TIME_ZONE``), who (a user, or the table device), what, the line
it touched, before and after (as JSON, every field kept), why, the law and the override.
Asked for one session, the file holds that session's entries and the tournament-wide ones
(withdrawals, substitutions, publication), which belong to every session.

Cells go through ``clubsite.members.exports`` (a reason typed as ``=HYPERLINK(…)`` cannot run as a
formula); the file is UTF-8 with a byte-order mark so spreadsheets read the accents.
"""

import json

from django.db.models import Q
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from clubsite.members.exports import csv_bytes_with_bom

from ..models import AuditEntry, Session, Tournament


def header() -> tuple[str, ...]:
    override = capfirst(AuditEntry._meta.get_field("override").verbose_name)
    return (
        _("When"),
        _("Session"),
        _("Who"),
        _("What"),
        _("Board"),
        _("Table"),
        _("Round"),
        _("Before"),
        _("After"),
        _("Why"),
        _("Law"),
        override,
    )


def entries(tournament: Tournament, session: Session | None = None):
    rows = AuditEntry.objects.filter(tournament=tournament)
    if session is not None:
        rows = rows.filter(Q(session=session) | Q(session__isnull=True))
    return rows.select_related(
        "user", "session", "table_code__section", "result__board", "result__section"
    ).order_by("at", "id")


def _who(item: AuditEntry) -> str:
    if item.user is not None:
        return item.user.get_full_name() or item.user.get_username()
    if item.table_code is not None:
        return _("table %(table)s") % {"table": item.table_code.label}
    return ""


def _json(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def row(item: AuditEntry) -> tuple:
    result = item.result
    return (
        timezone.localtime(item.at).strftime("%Y-%m-%d %H:%M:%S"),
        item.session.number if item.session else "",
        _who(item),
        item.get_action_display(),
        result.board.number if result else "",
        f"{result.section.letter}{result.table}" if result else "",
        result.round if result else "",
        _json(item.before),
        _json(item.after),
        item.reason,
        item.law,
        _("yes") if item.override else "",
    )


def audit_csv(
    tournament: Tournament, session: Session | None = None, delimiter: str = ",", rows=None
) -> tuple[str, bytes]:
    """(file name, content) of the tournament's trail, or of one session's; ``rows`` (the
    page's filtered entries) narrows it to what the director is looking at."""
    name = f"audit-{tournament.slug}"
    if session is not None:
        name += f"-session-{session.number}"
    chosen = entries(tournament, session)
    if rows is not None:
        chosen = chosen.filter(pk__in=rows.values("pk"))
    rows = (row(i) for i in chosen)
    return f"{name}.csv", csv_bytes_with_bom(header(), rows, delimiter=delimiter)

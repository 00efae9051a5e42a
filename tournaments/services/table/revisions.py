"""Optimistic concurrency for changes to a traveller line: nobody overwrites what they did
not see.

Two directors correcting the same result at once, or a director correcting while the table
corrects: each change carries the *revision* of the line it was based on (the form's hidden
``revision``), and a change based on an older revision than the stored one is refused with a
translated message naming the current value and who made it. Nothing is overwritten: a
refused correction is kept beside the result as a conflict (``ResultStatus.CONFLICT``, on
the director's console and the line's page), for a director to keep or drop like any other.

A line's revision is the moment its row last changed (``Result.modified_at``, moved by every
save — the services save with ``modified_at`` in ``update_fields`` for that reason), as a
whole number of microseconds; "" for a line with no result. A caller that passes no
revision (an import, the demo) is not checked.
"""

from __future__ import annotations

import datetime
import functools

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, Result, ResultStatus
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.errors import TournamentError
from tournaments.services.running.adjustments import describe
from tournaments.services.table import board_states

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
# The suit symbols, as ``services.results`` shows them (not imported: it sits above entry).
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class StaleRevision(TournamentError):
    """The line changed since the change was prepared; ``current`` is the stored row, and
    ``kept`` the conflict row holding a refused correction (None for other changes)."""

    def __init__(self, message, current: Result | None, proposed: dict | None = None, user=None):
        super().__init__(message)
        self.current, self.proposed, self.user = current, proposed, user
        self.kept: Result | None = None


def revision(row: Result | None) -> str:
    """The revision a form carries for ``row`` (the line's result, or None: no result)."""
    if row is None or row.modified_at is None:
        return ""
    return str((row.modified_at - _EPOCH) // datetime.timedelta(microseconds=1))


def value_text(row: Result | None) -> str:
    """The stored result in words: "4♠X N −1, NS 200", "Passed out", "60/40"."""
    if row is None:
        return _("no result")
    if row.adjustment:
        return describe(row.adjustment)
    contract = row.contract or ""
    if contract == "PASS":
        return _("Passed out")
    if not contract:
        return _("no result")
    level, rest = contract[0], contract[1:]
    strain = "NT" if rest.startswith("NT") else rest[:1]
    symbol = _("NT") if strain == "NT" else _SYMBOLS.get(strain, strain)
    made = ""
    if row.tricks is not None and level.isdigit():
        diff = row.tricks - int(level) - 6
        made = "=" if diff == 0 else f"{diff:+d}".replace("-", "−")
    call = f"{level}{symbol}{rest[len(strain) :]} {seat_word(row.declarer)} {made}".strip()
    return _("%(call)s, NS %(score)s") % {"call": call, "score": row.ns_score}


def _last_change(row: Result) -> tuple[str, datetime.datetime]:
    entry = (
        AuditEntry.objects.filter(result=row)
        .select_related("user", "table_code")
        .order_by("-at", "-id")
        .first()
    )
    if entry is not None and entry.user is not None:
        return entry.user.get_username(), entry.at
    if entry is not None and entry.table_code is not None:
        return _("table %(table)s") % {"table": entry.table_code.table}, entry.at
    who = (
        row.entered_by.get_username()
        if row.entered_by_id
        else _("table %(table)s") % {"table": row.table}
    )
    return who, row.modified_at


def check(
    row: Result | None, based_on: str | None, *, proposed: dict | None = None, user=None
) -> None:
    """Refuse (``StaleRevision``) a change based on another revision than ``row``'s. Call
    with the line's row locked, inside the change's transaction; ``proposed`` (a correction's
    fields) is kept as a conflict once the transaction is rolled back (``keeping_refused``)."""
    if based_on is None or based_on == revision(row):
        return
    if row is None:
        raise StaleRevision(
            _(
                "This result was removed while you were editing it. Nothing "
                "was changed; look at the line again and decide."
            ),
            None,
        )
    who, when = _last_change(row)
    values = {
        "who": who,
        "time": timezone.localtime(when).strftime("%H:%M:%S"),
        "value": value_text(row),
    }
    if proposed is None:
        message = (
            _(
                "%(who)s changed this result at %(time)s while you were editing it: it is "
                "now %(value)s. Nothing was changed; look at it again and decide."
            )
            % values
        )
    else:
        message = (
            _(
                "%(who)s changed this result at %(time)s while you were editing it: it is "
                "now %(value)s. Nothing was overwritten: your correction is kept beside "
                "it as a conflict, on the console, for you to keep or drop."
            )
            % values
        )
    raise StaleRevision(message, row, proposed, user)


def keep_aside(stale: StaleRevision) -> Result | None:
    """Store a refused correction as a conflict with the line's current result."""
    if stale.current is None or stale.proposed is None:
        return None
    with transaction.atomic():
        current = Result.objects.select_for_update(no_key=True).filter(pk=stale.current.pk).first()
        if current is None or current.status != ResultStatus.OK:
            return None
        fields = {
            f: stale.proposed.get(f)
            for f in ("contract", "declarer", "tricks", "ns_score", "reason")
        }
        kept = Result(
            section_id=current.section_id,
            board_id=current.board_id,
            round=current.round,
            table=current.table,
            ns_id=current.ns_id,
            ew_id=current.ew_id,
            south_id=current.south_id,
            west_id=current.west_id,
            lead=stale.proposed.get("lead") or "",
            law=stale.proposed.get("law") or "",
            entered_by=stale.user,
            status=ResultStatus.CONFLICT,
            conflicts_with=current,
            confirmed=False,
            **fields,
        )
        board_states.settle(kept)  # a new row: its state from itself
        kept.save()
        AuditEntry.objects.create(
            tournament_id=current.section.session.tournament_id,
            session_id=current.section.session_id,
            result=kept,
            action=AuditAction.CONFLICT,
            user=stale.user,
            before=current.snapshot(),
            after=kept.snapshot(),
            reason=_(
                "A correction based on an earlier version of the result was refused "
                "and kept as a conflict."
            ),
        )
    return kept


def keeping_refused(correct):
    """Decorate a correction service: a ``StaleRevision`` it raised (its transaction rolled
    back, nothing written) leaves the refused correction as a conflict, then goes on up."""

    @functools.wraps(correct)
    def wrapper(*args, **kwargs):
        try:
            return correct(*args, **kwargs)
        except StaleRevision as stale:
            stale.kept = keep_aside(stale)
            raise

    return wrapper

"""A handicap event's handicaps, set by the director for every pair at once.

Handicaps are percentage points; half of each is added for the second ranking
(``scoring.handicap``). The whole set is checked before anything is saved: every bad value
is named, nothing is half-saved, and the typed values come back to the form. Saving
re-classifies the event's sessions and is audited.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, Entry, Tournament
from .classification import classify_session
from .errors import TournamentError

LIMIT = Decimal(100)


class HandicapErrors(TournamentError):
    """Some typed handicaps are not numbers the rule takes; ``errors``: entry id → why."""

    def __init__(self, errors: dict[int, str]) -> None:
        super().__init__(_("Nothing was saved: correct the handicaps marked."))
        self.errors = errors


def parse_handicap(text: str) -> Decimal | None:
    """A typed handicap ("3", "-2,5", "4.25"), None when left empty."""
    text = (text or "").strip().replace(",", ".")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise TournamentError(_("“%(value)s” is not a number.") % {"value": text[:20]}) from exc
    if not value.is_finite() or abs(value) >= LIMIT or value != value.quantize(Decimal("0.01")):
        raise TournamentError(_("A handicap is a number of percentage points between -99.99 "
                                "and 99.99, with at most two decimals."))
    return value


def set_handicaps(tournament: Tournament, typed: dict[int, str], user=None) -> int:
    """Store the typed handicaps of the tournament's entries (entry id → text); returns how
    many changed. Raises ``HandicapErrors`` naming every bad value, having saved nothing."""
    entries = {e.pk: e for e in tournament.entries.filter(pk__in=typed)}
    values, errors = {}, {}
    for pk, text in typed.items():
        if pk not in entries:
            continue
        try:
            values[pk] = parse_handicap(text)
        except TournamentError as exc:
            errors[pk] = exc.message
    if errors:
        raise HandicapErrors(errors)
    changed = [e for pk, e in entries.items() if e.handicap != values[pk]]
    if not changed:
        return 0
    with transaction.atomic():
        before = {str(e): str(e.handicap) if e.handicap is not None else "" for e in changed}
        for e in changed:
            e.handicap = values[e.pk]
        Entry.objects.bulk_update(changed, ["handicap"])
        AuditEntry.objects.create(
            tournament=tournament, action=AuditAction.HANDICAPS, user=user, before=before,
            after={str(e): str(e.handicap) if e.handicap is not None else "" for e in changed},
            reason=_("Handicaps set by the director."))
        for session in tournament.sessions.all():
            if session.ranking_version:
                classify_session(session)
    return len(changed)

"""A handicap event's handicaps, set by the director for every pair at once: each
player's (the pair's is their sum, as clubs give handicaps to players) or, for a pair whose
players have none, the pair's own.

Handicaps are percentage points; half of each is added for the second ranking
(``scoring.handicap``). The whole set is checked before anything is saved: every bad value
is named, nothing is half-saved, and the typed values come back to the form. Saving
re-classifies the event's sessions and is audited.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, Entry, EntryPlayer, Tournament
from tournaments.services.classification.classify import classify_session
from tournaments.services.errors import TournamentError

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
        raise TournamentError(
            _(
                "A handicap is a number of percentage points between -99.99 "
                "and 99.99, with at most two decimals."
            )
        )
    return value


def _row_handicaps(
    entry: Entry, own: str, seats: list[EntryPlayer], typed: dict[int, str]
) -> tuple[Decimal | None, dict[int, Decimal | None]]:
    """One pair's handicap and its players' from what was typed. The players' handicaps,
    when any is typed, make the pair's (their sum, ``scoring.handicap.pair_handicap``); the
    pair's own is for a pair whose players have none. A pair's typed otherwise than their
    sum (and changed from the one stored) is refused: one or the other, not both."""
    pair = parse_handicap(own)
    players = {ep.pk: parse_handicap(typed[ep.pk]) for ep in seats if ep.pk in typed}
    given = [h for h in players.values() if h is not None]
    if not given:
        return pair, players
    total = sum(given, Decimal(0))
    if pair is not None and pair not in (total, entry.handicap):
        raise TournamentError(
            _(
                "The pair's handicap is its players' sum (%(sum)s): type the "
                "players' handicaps or the pair's, not both."
            )
            % {"sum": total}
        )
    if abs(total) >= LIMIT:
        raise TournamentError(
            _(
                "The players' handicaps add up to %(sum)s: a pair's handicap "
                "is between -99.99 and 99.99."
            )
            % {"sum": total}
        )
    return total, players


def _audit_text(entry: Entry, seats: list[EntryPlayer]) -> str:
    pair = "" if entry.handicap is None else str(entry.handicap)
    mine = [str(ep.handicap) for ep in seats if ep.handicap is not None]
    return f"{pair} ({' + '.join(mine)})" if mine else pair


def set_handicaps(
    tournament: Tournament, typed: dict[int, str], user=None, players: dict[int, str] | None = None
) -> int:
    """Store the typed handicaps of the tournament's entries (entry id → text) and, where
    typed per player, its players' (entry player id → text: the entry's is then their sum);
    returns how many entries changed. Raises ``HandicapErrors`` naming every bad value
    (by entry), having saved nothing."""
    players = players or {}
    entries = {e.pk: e for e in tournament.entries.filter(pk__in=typed)}
    seats: dict[int, list[EntryPlayer]] = {pk: [] for pk in entries}
    for ep in EntryPlayer.objects.filter(entry_id__in=entries, active=True).order_by("seat"):
        seats[ep.entry_id].append(ep)
    values, player_values, errors = {}, {}, {}
    for pk, text in typed.items():
        if pk not in entries:
            continue
        try:
            values[pk], mine = _row_handicaps(entries[pk], text, seats[pk], players)
        except TournamentError as exc:
            errors[pk] = exc.message
        else:
            player_values.update(mine)
    if errors:
        raise HandicapErrors(errors)
    changed_seats = [
        ep
        for pk in entries
        for ep in seats[pk]
        if ep.pk in player_values and ep.handicap != player_values[ep.pk]
    ]
    changed = [
        e
        for pk, e in entries.items()
        if e.handicap != values[pk] or any(ep.entry_id == pk for ep in changed_seats)
    ]
    if not changed:
        return 0
    with transaction.atomic():
        before = {str(e): _audit_text(e, seats[e.pk]) for e in changed}
        for e in changed:
            e.handicap = values[e.pk]
        for ep in changed_seats:
            ep.handicap = player_values[ep.pk]
        Entry.objects.bulk_update(changed, ["handicap"])
        EntryPlayer.objects.bulk_update(changed_seats, ["handicap"])
        AuditEntry.objects.create(
            tournament=tournament,
            action=AuditAction.HANDICAPS,
            user=user,
            before=before,
            after={str(e): _audit_text(e, seats[e.pk]) for e in changed},
            reason=_("Handicaps set by the director."),
        )
        for session in tournament.sessions.all():
            if session.ranking_version:
                classify_session(session)
    return len(changed)

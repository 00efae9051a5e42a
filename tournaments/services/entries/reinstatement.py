"""Undoing a withdrawal: a pair (team, player) withdrawn by mistake, or back after all, plays
again from its seat. Its players must not have joined another entry meanwhile; the change,
with its reason, goes into the audit trail next to the withdrawal."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, Entry, EntryPlayer, EntryStatus, Tournament
from tournaments.services.classification import reclassification
from tournaments.services.errors import TournamentError


@transaction.atomic
def reinstate_entry(entry: Entry, *, user, reason: str) -> Entry:
    """The withdrawn ``entry`` is active again; rankings are redone."""
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError(_("Say why the withdrawal is undone."), "reason")
    entry = Entry.objects.select_for_update(no_key=True).get(pk=entry.pk)
    if entry.status != EntryStatus.WITHDRAWN:
        raise TournamentError(_("This entry is not withdrawn."))
    players = EntryPlayer.objects.filter(entry=entry, active=True).values("member_id")
    elsewhere = (
        EntryPlayer.objects.filter(
            entry__tournament_id=entry.tournament_id,
            entry__status=EntryStatus.ACTIVE,
            active=True,
            member_id__in=players,
        )
        .exclude(entry=entry)
        .select_related("member")
    )
    taken = elsewhere.first()
    if taken is not None:
        raise TournamentError(
            _("%(name)s now plays in another entry of this tournament.")
            % {"name": taken.member.full_name}
        )
    entry.status = EntryStatus.ACTIVE
    entry.save(update_fields=["status"])
    AuditEntry.objects.create(
        tournament_id=entry.tournament_id,
        action=AuditAction.REINSTATED,
        user=user,
        before={"status": EntryStatus.WITHDRAWN},
        after={"status": entry.status, "entry": entry.pk},
        reason=reason,
    )
    reclassification.mark_stale(Tournament(pk=entry.tournament_id))
    return entry

"""Who plays: finding members, guests, registering entries, and the changes once they are
seated (a late entry, a withdrawal, a substitute), each logged in the audit trail and followed
by the rankings.
"""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.members.services import search_members
from clubsite.models import Gender, Member
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Direction,
    Entry,
    EntryPlayer,
    EntryStatus,
    EventType,
    Seating,
    Section,
    Tournament,
)
from tournaments.services.errors import TournamentError
from tournaments.services.setup import plan
from tournaments.services.setup.events import rankings_follow, slots_in_order

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G: codes are read off a card and typed on a phone.


PLAYERS_PER_ENTRY = {EventType.PAIRS: (2, 2), EventType.INDIVIDUAL: (1, 1), EventType.TEAMS: (4, 6)}


def find_members(text: str, limit: int = 20) -> QuerySet:
    """Players to register, found by name or licence number (accents and case ignored)."""
    return search_members(Member.objects.all(), text)[:limit]


def add_guest(
    *,
    first_name: str,
    last_name: str,
    home_club: str = "",
    licence_number: str = "",
    gender: str = "",
) -> Member:
    """A guest added on the spot: a member flagged as guest, found again next time."""
    if not first_name.strip() or not last_name.strip():
        raise TournamentError(_("A guest needs a first and a last name."), "first_name")
    licence_number = licence_number.strip()
    if licence_number:
        existing = Member.objects.filter(licence_number=licence_number).first()
        if existing is not None:
            return existing
    return Member.objects.create(
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        home_club=home_club,
        licence_number=licence_number,
        gender=gender,
        is_guest=True,
    )


def _display_name(members: Sequence[Member]) -> str:
    return " – ".join(m.full_name for m in members)[:300]


def players_needed(low: int, high: int) -> str:
    """ "2 different players", "from 4 to 6 different players": never "from 2 to 2"."""
    if low == high:
        return ngettext(
            "This event needs %(count)s player per entry.",
            "This event needs %(count)s different players per entry.",
            low,
        ) % {"count": low}
    return _("This event needs %(low)s to %(high)s different players per entry.") % {
        "low": low,
        "high": high,
    }


@transaction.atomic
def register_entry(
    tournament: Tournament, members: Sequence[Member], *, name: str = "", late: bool = False
) -> Entry:
    """Register a pair (two members), a team (four to six) or a player (individual).

    In a mixed-pairs event the man is put second, so he sits South or East.
    """
    low, high = PLAYERS_PER_ENTRY[tournament.event_type]
    members = list(members)
    if not low <= len(members) <= high or len({m.pk for m in members}) != len(members):
        raise TournamentError(players_needed(low, high), "members")
    taken = (
        EntryPlayer.objects.filter(
            entry__tournament=tournament,
            entry__status=EntryStatus.ACTIVE,
            active=True,
            member__in=members,
        )
        .select_related("member")
        .first()
    )
    if taken is not None:
        raise TournamentError(
            _("%(name)s is already playing in this tournament.") % {"name": taken.member.full_name},
            "members",
        )
    if tournament.mixed and len(members) == 2 and members[0].gender == Gender.MALE:
        members.reverse()
    entry = Entry.objects.create(
        tournament=tournament, name=name, late=late, display_name=_display_name(members)
    )
    EntryPlayer.objects.bulk_create(
        EntryPlayer(entry=entry, member=m, seat=i) for i, m in enumerate(members, start=1)
    )
    return entry


def free_places(section: Section) -> list[tuple[int, str]]:
    """The movement's pair numbers nobody holds (where a late pair can sit)."""
    taken = set(Seating.objects.filter(section=section).values_list("number", "direction"))
    return [p for p in slots_in_order(section.movement) if p not in taken]


@transaction.atomic
def add_late_entry(
    section: Section, entry: Entry, *, user, number: int | None = None, direction: str | None = None
) -> Seating:
    """Seat a pair that arrived late in a free place (the sit-out's); rounds it missed show as
    missing in the console, for the director to score as not played."""
    places = free_places(section)
    if number is not None:
        wanted = (
            number,
            direction
            or (Direction.NONE if not plan.is_directional(section.movement) else Direction.EW),
        )
        if wanted not in places:
            raise TournamentError(_("That place is taken or not in the movement."), "number")
    elif places:
        wanted = places[0]
    else:
        raise TournamentError(_("There is no free place: change the movement."))
    seating = Seating.objects.create(
        session_id=section.session_id,
        section=section,
        entry=entry,
        number=wanted[0],
        direction=wanted[1],
    )
    Entry.objects.filter(pk=entry.pk).update(late=True)
    AuditEntry.objects.create(
        tournament_id=entry.tournament_id,
        session_id=section.session_id,
        action=AuditAction.LATE,
        user=user,
        after={"entry": entry.pk, "number": wanted[0], "line": wanted[1]},
    )
    rankings_follow(entry.tournament_id)
    return seating


@transaction.atomic
def withdraw_entry(entry: Entry, *, user, reason: str) -> Entry:
    """The entry stops playing: its opponents sit out its remaining rounds; it is not ranked."""
    if not reason.strip():
        raise TournamentError(_("Say why the entry withdraws."), "reason")
    entry.status = EntryStatus.WITHDRAWN
    entry.save(update_fields=["status"])
    AuditEntry.objects.create(
        tournament_id=entry.tournament_id,
        action=AuditAction.WITHDRAWN,
        user=user,
        before={"status": EntryStatus.ACTIVE},
        after={"status": entry.status, "entry": entry.pk},
        reason=reason,
    )
    rankings_follow(entry.tournament_id)
    return entry


@transaction.atomic
def substitute_player(
    entry: Entry, *, leaving: Member, joining: Member, user, reason: str = ""
) -> EntryPlayer:
    """``joining`` takes ``leaving``'s seat in the entry; the change is logged."""
    out = (
        EntryPlayer.objects.select_for_update(no_key=True)
        .filter(entry=entry, member=leaving, active=True)
        .first()
    )
    if out is None:
        raise TournamentError(
            _("%(name)s is not playing in this entry.") % {"name": leaving.full_name}, "leaving"
        )
    if EntryPlayer.objects.filter(
        entry__tournament_id=entry.tournament_id,
        member=joining,
        active=True,
        entry__status=EntryStatus.ACTIVE,
    ).exists():
        raise TournamentError(
            _("%(name)s is already playing in this tournament.") % {"name": joining.full_name},
            "joining",
        )
    out.active = False
    out.save(update_fields=["active"])
    player, created = EntryPlayer.objects.get_or_create(
        entry=entry, member=joining, defaults={"seat": out.seat, "substitute": True}
    )
    if not created:
        player.active, player.seat = True, out.seat
        player.save(update_fields=["active", "seat"])
    playing = [
        p.member
        for p in entry.entry_players.filter(active=True).select_related("member").order_by("seat")
    ]
    entry.display_name = _display_name(playing)
    entry.save(update_fields=["display_name"])
    AuditEntry.objects.create(
        tournament_id=entry.tournament_id,
        action=AuditAction.SUBSTITUTE,
        user=user,
        before={"member": leaving.pk, "name": leaving.full_name},
        after={"member": joining.pk, "name": joining.full_name, "entry": entry.pk},
        reason=reason,
    )
    rankings_follow(entry.tournament_id)
    return player

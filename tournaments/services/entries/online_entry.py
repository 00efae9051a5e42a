"""Online entry: who may enter a tournament, the places, the waiting list and the deadline.

The rules, in one place so the pages and the tests reach them alike:

- an entry is a pair (two players), a team (four to six, the first its captain) or one
  player (individual), as ``registration.PLAYERS_PER_ENTRY`` says for the event;
- a member is in at most one live entry of a tournament (and not in one of the director's
  entries already), refused with their name; the database refuses it too;
- places: ``max_tables`` × entries per table (two pairs, one team — its two rooms are two
  half-tables of a match —, four individual players); beyond them an entry joins the
  waiting list, and when a placed entry is cancelled (or the tables grow) the oldest waiting
  entry takes the place: first come, first served by ``queued_at``, the moment recorded in
  ``placed_at``;
- members enter and cancel only between ``entry_opens_at`` and the closing time
  (``entry_closes_at``, else the start of the event); the director may enter, cancel and add
  guests at any time, until the entries are taken into the session;
- a member enters themselves (with their partner or team) and cancels only an entry they
  are in;
- the director seats the entries: ``take_into_session`` makes each placed registration the
  tournament's ``Entry`` in entry order, and the usual set-up (advice, movement, seating)
  follows with that count.

Every change locks the tournament row first, so two members taking the last place at the
same moment cannot both get it.
"""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.members.services import search_members
from clubsite.models import Member, MemberStatus
from clubsite.web.collation import collated
from tournaments.models import (
    EntryPlayer,
    EntryStatus,
    EventType,
    PartnerRequest,
    Registration,
    RegistrationPlayer,
    RegistrationStatus,
    Section,
    Session,
    SessionStatus,
    Tournament,
)
from tournaments.models.registrations import LIVE_STATUSES
from tournaments.services.entries.registration import PLAYERS_PER_ENTRY, register_entry
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.mail import waiting_mail
from tournaments.services.setup import events as setup

ENTRIES_PER_TABLE = {EventType.PAIRS: 2, EventType.TEAMS: 1, EventType.INDIVIDUAL: 4}


class EntryState:
    """Where online entry stands for a tournament, for members (not the director)."""

    OFF = "off"
    NOT_YET = "not_yet"
    OPEN = "open"
    CLOSED = "closed"


# --- limits and times -----------------------------------------------------------------------


def entries_per_table(tournament: Tournament) -> int:
    return ENTRIES_PER_TABLE[tournament.event_type]


def capacity(tournament: Tournament) -> int | None:
    """How many entries get a place; None when the tables are not limited."""
    if tournament.max_tables is None:
        return None
    return tournament.max_tables * entries_per_table(tournament)


def starts_at(tournament: Tournament) -> datetime.datetime:
    """When the event starts in the club's time zone (its day's start without a time)."""
    return timezone.make_aware(
        datetime.datetime.combine(tournament.date, tournament.start_time or datetime.time(0, 0))
    )


def closes_at(tournament: Tournament) -> datetime.datetime:
    """After this moment members can no longer enter or cancel."""
    return tournament.entry_closes_at or starts_at(tournament)


def entry_state(tournament: Tournament, now: datetime.datetime | None = None) -> str:
    now = now or timezone.now()
    if not tournament.online_entry:
        return EntryState.OFF
    if tournament.entry_opens_at is not None and now < tournament.entry_opens_at:
        return EntryState.NOT_YET
    if now >= closes_at(tournament):
        return EntryState.CLOSED
    return EntryState.OPEN


def _require_open(tournament: Tournament, now, *, cancelling: bool = False) -> None:
    state = entry_state(tournament, now)
    if state == EntryState.OPEN:
        return
    if state == EntryState.OFF:
        raise TournamentError(_("This tournament does not take entries online: ask the director."))
    if state == EntryState.NOT_YET:
        raise TournamentError(
            _("Entry opens on %(when)s.") % {"when": _local_text(tournament.entry_opens_at)}
        )
    when = _local_text(closes_at(tournament))
    if cancelling:
        raise TournamentError(
            _("Entries closed on %(when)s: to cancel now, tell the director.") % {"when": when}
        )
    raise TournamentError(
        _("Entries closed on %(when)s: only the director can add an entry now.") % {"when": when}
    )


def _local_text(moment: datetime.datetime) -> str:
    from django.utils.formats import date_format

    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


# --- who is where ---------------------------------------------------------------------------


def member_of(user) -> Member | None:
    """The member a logged-in account belongs to (None: not linked, cannot enter)."""
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()


def live_registrations(tournament: Tournament):
    return (
        Registration.objects.filter(tournament=tournament, status__in=LIVE_STATUSES)
        .prefetch_related("players__member")
        .order_by("queued_at", "id")
    )


def placed(tournament: Tournament):
    return live_registrations(tournament).filter(status=RegistrationStatus.ENTERED)


def waiting(tournament: Tournament):
    return live_registrations(tournament).filter(status=RegistrationStatus.WAITING)


def registration_of(tournament: Tournament, member: Member | None) -> Registration | None:
    """The live registration ``member`` is in, if any."""
    if member is None:
        return None
    return live_registrations(tournament).filter(players__member=member, players__live=True).first()


def open_partner_requests(tournament: Tournament):
    return (
        PartnerRequest.objects.filter(tournament=tournament, open=True)
        .select_related("member")
        .order_by("created_at", "id")
    )


PARTNER_SEARCH_LIMIT = 10


def partner_candidates(tournament: Tournament, me: Member | None):
    """Whom a member may choose to play with: active club members (no guests: they are the
    director's), not themselves, not already in a live entry nor in one of the director's
    entries of the tournament; in name order."""
    queryset = (
        Member.objects.filter(is_guest=False, status=MemberStatus.ACTIVE)
        .exclude(
            pk__in=RegistrationPlayer.objects.filter(tournament=tournament, live=True).values(
                "member"
            )
        )
        .exclude(
            pk__in=EntryPlayer.objects.filter(
                entry__tournament=tournament, entry__status=EntryStatus.ACTIVE, active=True
            ).values("member")
        )
        .order_by(*collated("last_name", "first_name"))
    )
    if me is not None:
        queryset = queryset.exclude(pk=me.pk)
    return queryset


def find_partners(
    tournament: Tournament,
    me: Member | None,
    text: str,
    *,
    exclude=(),
    limit: int = PARTNER_SEARCH_LIMIT,
) -> list[Member]:
    """Up to ``limit`` possible partners whose name has every typed word, accents and case
    ignored ("jose" finds José, "ANGEL" Ángel); nothing for an empty search. ``exclude``:
    ids already chosen in the form's other places."""
    text = (text or "")[:100]
    if not text.strip():
        return []
    queryset = search_members(partner_candidates(tournament, me), text)
    if exclude:
        queryset = queryset.exclude(pk__in=list(exclude))
    return list(queryset[:limit])


def partners_wanted(tournament: Tournament, me: Member | None):
    """The open "partner wanted" lines a member may answer: others not yet entered."""
    return open_partner_requests(tournament).filter(member__in=partner_candidates(tournament, me))


@dataclass(frozen=True)
class Places:
    """The figures a page shows: places taken, places there are (None: no limit), waiting."""

    entered: int
    capacity: int | None
    waiting: int

    @property
    def free(self) -> int | None:
        return None if self.capacity is None else max(0, self.capacity - self.entered)


def places(tournament: Tournament) -> Places:
    live = Registration.objects.filter(tournament=tournament, status__in=LIVE_STATUSES)
    return Places(
        entered=live.filter(status=RegistrationStatus.ENTERED).count(),
        capacity=capacity(tournament),
        waiting=live.filter(status=RegistrationStatus.WAITING).count(),
    )


def with_entry_counts(tournaments):
    """``tournaments`` annotated for a list: ``entry_count``, the entries as the entries page
    and the online entries count them (active entries, plus online entries holding a place
    not yet seated as an entry), and ``waiting_count``, online entries on the waiting list.
    Two subqueries, so a long list is still one query."""
    from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
    from django.db.models.functions import Coalesce

    from tournaments.models import Entry, EntryStatus

    def counted(queryset):
        return Coalesce(
            Subquery(
                queryset.order_by().values("tournament").annotate(n=Count("pk")).values("n"),
                output_field=IntegerField(),
            ),
            Value(0),
        )

    entries = Entry.objects.filter(tournament=OuterRef("pk"), status=EntryStatus.ACTIVE)
    placed_online = Registration.objects.filter(
        tournament=OuterRef("pk"), status=RegistrationStatus.ENTERED, entry__isnull=True
    )
    waiting_online = Registration.objects.filter(
        tournament=OuterRef("pk"), status=RegistrationStatus.WAITING
    )
    return tournaments.annotate(
        entry_count=counted(entries) + counted(placed_online), waiting_count=counted(waiting_online)
    )


# --- entering and cancelling ----------------------------------------------------------------


def _check_players(tournament: Tournament, members: Sequence[Member]) -> None:
    low, high = PLAYERS_PER_ENTRY[tournament.event_type]
    if len({m.pk for m in members}) != len(members):
        raise TournamentError(_("The same player is named twice."), "members")
    if not low <= len(members) <= high:
        if low == high:
            raise TournamentError(
                _("An entry of this event has %(count)s player(s).") % {"count": low}, "members"
            )
        raise TournamentError(
            _("A team has %(low)s to %(high)s players.") % {"low": low, "high": high}, "members"
        )
    taken = (
        RegistrationPlayer.objects.filter(tournament=tournament, live=True, member__in=members)
        .select_related("member")
        .first()
    )
    if taken is not None:
        raise TournamentError(
            _("%(name)s has already entered this tournament.") % {"name": taken.member.full_name},
            "members",
        )
    playing = (
        EntryPlayer.objects.filter(
            entry__tournament=tournament,
            entry__status=EntryStatus.ACTIVE,
            active=True,
            member__in=members,
        )
        .select_related("member")
        .first()
    )
    if playing is not None:
        raise TournamentError(
            _("%(name)s is already playing in this tournament.")
            % {"name": playing.member.full_name},
            "members",
        )


@transaction.atomic
def enter(
    tournament: Tournament,
    members: Sequence[Member],
    *,
    user,
    name: str = "",
    by_director: bool = False,
    now: datetime.datetime | None = None,
) -> Registration:
    """Enter ``members`` (in seat order; a team's captain first). A member enters an entry
    they are in, only while entry is open and only with members (guests are the
    director's); the entry takes a place if one is free, else joins the waiting list."""
    now = now or timezone.now()
    tournament = _locked(tournament)
    members = list(members)
    if not by_director:
        _require_open(tournament, now)
        me = member_of(user)
        if me is None:
            raise TournamentError(
                _("Your account is not linked to a club member: ask the secretary.")
            )
        if me.pk not in {m.pk for m in members}:
            raise TournamentError(
                _("You can enter yourself with your partner or team, not other players."), "members"
            )
        guest = next((m for m in members if m.is_guest), None)
        if guest is not None:
            raise TournamentError(
                _("%(name)s is a guest: guests are entered by the director.")
                % {"name": guest.full_name},
                "members",
            )
    _check_players(tournament, members)
    name = name.strip()
    if tournament.event_type == EventType.TEAMS and not name:
        raise TournamentError(_("Give the team a name."), "name")
    limit = capacity(tournament)
    full = limit is not None and placed(tournament).count() >= limit
    registration = Registration.objects.create(
        tournament=tournament,
        name=name[:160] if tournament.event_type == EventType.TEAMS else "",
        display_name=" – ".join(m.full_name for m in members)[:300],
        status=RegistrationStatus.WAITING if full else RegistrationStatus.ENTERED,
        queued_at=now,
        placed_at=None if full else now,
        by_director=by_director,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    try:
        with transaction.atomic():
            RegistrationPlayer.objects.bulk_create(
                RegistrationPlayer(
                    registration=registration, tournament=tournament, member=m, seat=i
                )
                for i, m in enumerate(members, start=1)
            )
    except IntegrityError as exc:  # another request entered one of them a moment ago
        raise TournamentError(
            _("One of the players has already entered this tournament."), "members"
        ) from exc
    PartnerRequest.objects.filter(tournament=tournament, member__in=members, open=True).update(
        open=False
    )
    return registration


@transaction.atomic
def cancel(
    registration: Registration,
    *,
    user,
    by_director: bool = False,
    now: datetime.datetime | None = None,
) -> list[Registration]:
    """Cancel an entry (a member only their own, before the closing time); the waiting
    entries that take the freed places are returned, oldest first."""
    now = now or timezone.now()
    tournament = _locked(registration.tournament)
    registration = Registration.objects.select_for_update(no_key=True).get(pk=registration.pk)
    if not by_director:
        me = member_of(user)
        if me is None or not registration.players.filter(member=me).exists():
            raise NotAllowed(_("You can only cancel an entry you are in."))
        _require_open(tournament, now, cancelling=True)
    if not registration.is_live:
        raise TournamentError(_("This entry was already cancelled."))
    if registration.entry_id is not None:
        raise TournamentError(
            _(
                "This entry is already in the session: withdraw it from the "
                "tournament's entries instead."
            )
        )
    registration.status = RegistrationStatus.CANCELLED
    registration.cancelled_at = now
    registration.cancelled_by = user if getattr(user, "is_authenticated", False) else None
    registration.save(update_fields=["status", "cancelled_at", "cancelled_by"])
    registration.players.update(live=False)
    return fill_places(tournament, now=now)


@transaction.atomic
def fill_places(
    tournament: Tournament, *, now: datetime.datetime | None = None
) -> list[Registration]:
    """Give free places to the waiting list in the order it was joined (after a cancel, or
    when the director raises the tables); returns the entries that moved up, whose players
    are mailed (``waiting_mail``)."""
    now = now or timezone.now()
    tournament = _locked(tournament)
    limit = capacity(tournament)
    queue = list(waiting(tournament))
    if limit is not None:
        queue = queue[: max(0, limit - placed(tournament).count())]
    for registration in queue:
        registration.status, registration.placed_at = RegistrationStatus.ENTERED, now
    Registration.objects.bulk_update(queue, ["status", "placed_at"])
    waiting_mail.promoted(queue)  # their players are told, once, after commit
    return queue


# --- partner wanted -------------------------------------------------------------------------


@transaction.atomic
def ask_for_partner(
    tournament: Tournament, *, user, note: str = "", now: datetime.datetime | None = None
) -> PartnerRequest:
    """Put the user's member on the tournament's "partner wanted" list."""
    tournament = _locked(tournament)
    _require_open(tournament, now or timezone.now())
    me = member_of(user)
    if me is None:
        raise TournamentError(_("Your account is not linked to a club member: ask the secretary."))
    if registration_of(tournament, me) is not None:
        raise TournamentError(_("You have already entered this tournament."))
    if PartnerRequest.objects.filter(tournament=tournament, member=me, open=True).exists():
        raise TournamentError(_("You are already on the list of players looking for a partner."))
    return PartnerRequest.objects.create(tournament=tournament, member=me, note=note.strip()[:200])


@transaction.atomic
def withdraw_partner_request(
    partner_request: PartnerRequest, *, user, by_director: bool = False
) -> PartnerRequest:
    """Take a "partner wanted" line off the list (its member, or the director)."""
    if not by_director:
        me = member_of(user)
        if me is None or partner_request.member_id != me.pk:
            raise NotAllowed(_("You can only take your own request off the list."))
    PartnerRequest.objects.filter(pk=partner_request.pk).update(open=False)
    partner_request.open = False
    return partner_request


# --- the director seats them ----------------------------------------------------------------


@transaction.atomic
def take_into_session(tournament: Tournament) -> tuple[list, Section | None]:
    """Make each placed registration not yet taken an ``Entry`` of the tournament, in entry
    order (the seating gives numbers in that order), and return them with the section of
    the first session still being set up (made if it has none) where the director chooses
    the movement. All or nothing: a player already in a walk-in entry stops it."""
    tournament = _locked(tournament)
    todo = list(placed(tournament).filter(entry__isnull=True))
    session = tournament.sessions.filter(status=SessionStatus.DRAFT).order_by("number").first()
    if todo and session is None:
        raise TournamentError(_("Every session has started: add these entries as late entries."))
    entries = []
    for registration in todo:
        members = [p.member for p in registration.players.all()]
        entries.append(register_entry(tournament, members, name=registration.name))
        registration.entry = entries[-1]
    Registration.objects.bulk_update(todo, ["entry"])
    return entries, _first_section(session)


def _first_section(session: Session | None) -> Section | None:
    if session is None:
        return None
    section = session.sections.order_by("letter").first()
    return section or setup.add_section(session)

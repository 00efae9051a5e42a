"""A player's recent results at their other clubs: the one read across clubs a player makes.

One person has one account and a member at each club they play at (``Member.user``). Their
"my results" page, at one club's host, also lists their newest published results at every
other club where the account has a member, each club read in its own scope
(``club_scope``): never with scopes disabled, never a club where the account has no member,
never a result that is not published (provisional or final, no session still being played).
Only stored rankings are read: a stale one is brought up to date by that club's own pages.

Queries: one for the clubs, then three a club (the member's newest entries, their partners,
their ranking lines), whatever the number of results.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, F, OuterRef, Subquery

from clubsite.models import Club
from clubsite.tenancy import club_scope
from tournaments.models import EntryPlayer, Seating, Session, SessionStatus, StoredRanking
from tournaments.services.results.pages import best_lines
from tournaments.services.results.results_pdf import PUBLISHED

PER_CLUB = 5  # the newest results shown for each other club; its own page has the rest


@dataclass
class ClubResults:
    """The newest published results of the account's member at one other club."""

    club: Club
    member_id: int  # the member's page at that club: ``results:player``
    rows: list[dict]  # newest first, ``PER_CLUB`` at most
    more: bool  # older results than ``rows`` exist
    # where the club's pages are (``clubsite.web.club_host.club_address``): the view's to say
    address: str | None = field(default=None)


def results_at_other_clubs(user, club_id: int, per_club: int = PER_CLUB) -> list[ClubResults]:
    """The newest published results of ``user``'s members at every club but ``club_id``:
    clubs with the newest result first (clubs with none last), by name when tied."""
    if user is None or not user.is_authenticated:
        return []
    # clubs are not club-owned: this account's members are joined to them (one row a club:
    # ``one_member_per_account_per_club``), not read through the members' scoped manager
    clubs = list(
        Club.objects.filter(members__user=user)
        .exclude(pk=club_id)
        .annotate(member_id=F("members__pk"))
        .order_by("name", "pk")
    )
    found = []
    for club in clubs:
        with club_scope(club):
            rows, more = _newest(club.member_id, per_club)
        found.append(ClubResults(club, club.member_id, rows, more))
    newest = {c.club.pk: c.rows[0]["tournament"].date.toordinal() if c.rows else 0 for c in found}
    return sorted(found, key=lambda c: (not c.rows, -newest[c.club.pk]))


def _newest(member_id: int, per_club: int) -> tuple[list[dict], bool]:
    """The member's newest published results at the scope's club (three queries)."""
    first_session = Subquery(
        Seating.objects.filter(entry_id=OuterRef("entry_id"))
        .order_by("session__number")
        .values("session__number")[:1]
    )
    running = Session.objects.filter(
        tournament=OuterRef("entry__tournament"), status=SessionStatus.RUNNING
    )
    seats = list(
        EntryPlayer.objects.filter(member_id=member_id, entry__tournament__status__in=PUBLISHED)
        .exclude(Exists(running))
        .select_related("entry__tournament")
        .annotate(first_session=first_session)
        .order_by("-entry__tournament__date", "-entry__tournament_id", "-entry_id")[: per_club + 1]
    )
    more = len(seats) > per_club
    seats = seats[:per_club]
    if not seats:
        return [], more
    entry_ids = [s.entry_id for s in seats]
    partners = defaultdict(list)
    for player in (
        EntryPlayer.objects.filter(entry_id__in=entry_ids)
        .exclude(member_id=member_id)
        .select_related("member")
        .order_by("entry_id", "seat")
    ):
        partners[player.entry_id].append(player.member)
    ranking = best_lines(
        StoredRanking.objects.filter(entry_id__in=entry_ids).values(
            "entry_id", "scope", "place", "tied", "percentage", "points"
        )
    )
    rows = []
    for s in seats:
        line = ranking.get(s.entry_id)
        rows.append(
            {
                "tournament": s.entry.tournament,
                "entry_id": s.entry_id,
                "session": s.first_session,
                "partners": partners[s.entry_id],
                "substitute": s.substitute,
                "percentage": line["percentage"] if line else None,
                "points": line["points"] if line else None,
                "place_label": (f"{line['place']}=" if line["tied"] else str(line["place"]))
                if line
                else "",
            }
        )
    return rows, more

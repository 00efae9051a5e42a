"""A player's history: every published result of the member, with their average.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import OuterRef, Subquery

from clubsite.models import Member

from ..models import (
    EntryPlayer,
    Seating,
    Session,
)
from .results import headline_rankings, refresh, visible_tournaments


@dataclass
class PlayerHistory:
    member: Member
    rows: list[dict]
    average: Decimal | None
    partners: list[dict]


def player_history(member: Member, user) -> PlayerHistory:
    """The member's tournaments that ``user`` may see: partner, percentage, place.

    Events still being played are listed (flagged) but left out of the averages: their
    percentage covers only the rounds played so far.
    """
    tournaments = {t.pk: t for t in visible_tournaments(user).filter(
        entries__entry_players__member=member).distinct()}
    # every player of the member's entries (the member and their partners) in one query,
    # each with the entry's first session
    first_session = Subquery(Seating.objects.filter(entry_id=OuterRef("entry_id"))
                             .order_by("session__number").values("session__number")[:1])
    players = list(EntryPlayer.objects.filter(
        entry__tournament__in=tournaments,
        entry__in=EntryPlayer.objects.filter(member=member).values("entry_id"))
        .select_related("entry", "member").annotate(first_session=first_session)
        .order_by("seat"))
    seats = sorted((p for p in players if p.member_id == member.pk),
                   key=lambda s: (tournaments[s.entry.tournament_id].date, s.entry_id),
                   reverse=True)
    entry_ids = [s.entry_id for s in seats]
    refresh(Session.objects.filter(tournament__in=tournaments))
    ranking = headline_rankings(entry_ids)
    partners_of: dict[int, list[Member]] = defaultdict(list)
    for ep in players:
        if ep.member_id != member.pk:
            partners_of[ep.entry_id].append(ep.member)
    sessions = {s.entry_id: s.first_session for s in seats if s.first_session is not None}
    rows, percentages = [], []
    stats: dict[int, dict] = {}
    for s in seats:
        tournament = tournaments[s.entry.tournament_id]
        line = ranking.get(s.entry_id)
        pct = line["percentage"] if line else None
        counts = pct is not None and not tournament.in_progress
        if counts:
            percentages.append(pct)
        rows.append({"tournament": tournament, "entry_id": s.entry_id,
                     "partners": partners_of[s.entry_id], "substitute": s.substitute,
                     "place": line["place"] if line else None,
                     "place_label": (f"{line['place']}=" if line["tied"] else str(line["place"]))
                     if line else "", "percentage": pct,
                     "points": line["points"] if line else None,
                     "session": sessions.get(s.entry_id)})
        for p in partners_of[s.entry_id]:
            stat = stats.setdefault(p.pk, {"member": p, "count": 0, "percentages": []})
            stat["count"] += 1
            if counts:
                stat["percentages"].append(pct)
    partners = sorted(stats.values(), key=lambda x: (-x["count"], x["member"].full_name))
    for p in partners:
        p["average"] = _mean(p.pop("percentages"))
    return PlayerHistory(member, rows, _mean(percentages), partners)


def _mean(values: list[Decimal]) -> Decimal | None:
    if not values:
        return None
    return (sum(values) / len(values)).quantize(Decimal("0.01"))


def member_for(user) -> Member | None:
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()

"""A player's history: every published result of the member, with their average.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from clubsite.models import Member, Season

from ..models import (
    EntryPlayer,
    Seating,
    Session,
)
from .master_points import member_awards
from .results import headline_rankings, refresh, visible_tournaments


@dataclass
class PlayerHistory:
    member: Member
    rows: list[dict]
    average: Decimal | None
    partners: list[dict]
    season_points: Decimal = Decimal(0)  # master points of the current season's tournaments


def player_history(member: Member, user) -> PlayerHistory:
    """The member's tournaments that ``user`` may see: partner, percentage, place.

    Events still being played are listed (flagged) but left out of the averages: their
    percentage covers only the rounds played so far.
    """
    tournaments = {t.pk: t for t in visible_tournaments(user).filter(
        entries__entry_players__member=member).distinct()}
    seats = sorted(EntryPlayer.objects.filter(member=member, entry__tournament__in=tournaments)
                   .select_related("entry"),
                   key=lambda s: (tournaments[s.entry.tournament_id].date, s.entry_id),
                   reverse=True)
    entry_ids = [s.entry_id for s in seats]
    refresh(Session.objects.filter(tournament__in=tournaments))
    ranking = headline_rankings(entry_ids)
    partners_of: dict[int, list[Member]] = defaultdict(list)
    for ep in (EntryPlayer.objects.filter(entry_id__in=entry_ids).exclude(member=member)
               .select_related("member").order_by("seat")):
        partners_of[ep.entry_id].append(ep.member)
    sessions: dict[int, int] = {}
    for entry_id, number in Seating.objects.filter(entry_id__in=entry_ids).values_list(
            "entry_id", "session__number"):
        sessions[entry_id] = min(number, sessions.get(entry_id, number))
    awards = member_awards(member, tournaments)
    season = Season.current()
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
                     "session": sessions.get(s.entry_id),
                     "master_points": awards.get(tournament.pk)})
        for p in partners_of[s.entry_id]:
            stat = stats.setdefault(p.pk, {"member": p, "count": 0, "percentages": []})
            stat["count"] += 1
            if counts:
                stat["percentages"].append(pct)
    partners = sorted(stats.values(), key=lambda x: (-x["count"], x["member"].full_name))
    for p in partners:
        p["average"] = _mean(p.pop("percentages"))
    season_points = sum((points for pk, points in awards.items()
                         if season.start <= tournaments[pk].date <= season.end), Decimal(0))
    return PlayerHistory(member, rows, _mean(percentages), partners, season_points)


def _mean(values: list[Decimal]) -> Decimal | None:
    if not values:
        return None
    return (sum(values) / len(values)).quantize(Decimal("0.01"))


def member_for(user) -> Member | None:
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()

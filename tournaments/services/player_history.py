"""A player's history: every published result of the member, with their average.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Avg, OuterRef, Subquery

from clubsite.models import Member, Season

from ..models import (
    EntryPlayer,
    RankingScope,
    Seating,
    Session,
    StoredRanking,
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


def session_percentages(history: PlayerHistory) -> list[dict]:
    """The member's percentage in each session of the finished tournaments of ``history``
    (its section's ranking), oldest first, with every ranked line's average percentage in
    the same session: the club's average that evening (two queries)."""
    entry_ids = [row["entry_id"] for row in history.rows if not row["tournament"].in_progress]
    mine = list(StoredRanking.objects.filter(
        entry_id__in=entry_ids, scope=RankingScope.SECTION, percentage__isnull=False).values(
        "session_id", "session__number", "tournament__name", "tournament__date",
        "tournament__session_count", "percentage"))
    averages = dict(StoredRanking.objects.filter(
        session_id__in={m["session_id"] for m in mine}, scope=RankingScope.SECTION,
        percentage__isnull=False).values("session_id").annotate(average=Avg("percentage"))
        .values_list("session_id", "average"))
    points = []
    for m in mine:
        name = m["tournament__name"]
        if m["tournament__session_count"] > 1:
            name = f"{name} · {m['session__number']}"
        average = averages.get(m["session_id"])
        points.append({"date": m["tournament__date"], "number": m["session__number"],
                       "name": name, "percentage": m["percentage"],
                       "club_average": None if average is None
                       else Decimal(average).quantize(Decimal("0.01"))})
    return sorted(points, key=lambda p: (p["date"], p["number"]))


def _mean(values: list[Decimal]) -> Decimal | None:
    if not values:
        return None
    return (sum(values) / len(values)).quantize(Decimal("0.01"))


def member_for(user) -> Member | None:
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()

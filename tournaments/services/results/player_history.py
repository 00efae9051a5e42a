"""A player's history: every published result of the member, with their average."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Avg, DecimalField, Exists, OuterRef, Subquery
from django.utils import timezone

from clubsite.models import Member, Season
from clubsite.web.collation import collation_key
from tournaments.models import (
    EntryPlayer,
    PointsAward,
    RankingScope,
    Seating,
    Session,
    SessionStatus,
    StoredRanking,
)
from tournaments.services.results.pages import best_lines, refresh, visible_tournaments


@dataclass
class PlayerHistory:
    member: Member
    rows: list[dict]
    average: Decimal | None
    partners: list[dict]
    season_points: Decimal = Decimal(0)  # master points of the current season's tournaments
    # the section lines of the member's entries (percentage, session, the club's average
    # that session), read with the headline lines for ``session_percentages``
    section_lines: list[dict] = field(default_factory=list)


def _players(member: Member, user) -> list[EntryPlayer]:
    """Every player of the member's entries in the tournaments ``user`` may see (the member
    and their partners), in one query: each with the entry's tournament (flagged
    ``in_progress``), the entry's first session, the player's master points in it and the
    current season's bounds."""
    first_session = Subquery(
        Seating.objects.filter(entry_id=OuterRef("entry_id"))
        .order_by("session__number")
        .values("session__number")[:1]
    )
    running = Session.objects.filter(
        tournament=OuterRef("entry__tournament"), status=SessionStatus.RUNNING
    )
    awarded = PointsAward.objects.filter(
        member_id=OuterRef("member_id"), tournament_id=OuterRef("entry__tournament_id")
    )
    season = Season.objects.containing(timezone.localdate())
    return list(
        EntryPlayer.objects.filter(
            entry__tournament__in=visible_tournaments(user).order_by().values("pk"),
            entry__in=EntryPlayer.objects.filter(member=member).values("entry_id"),
        )
        .select_related("entry__tournament", "member")
        .annotate(
            first_session=first_session,
            in_progress=Exists(running),
            master_points=Subquery(awarded.values("points")[:1]),
            season_start=Subquery(season.values("start")[:1]),
            season_end=Subquery(season.values("end")[:1]),
        )
        .order_by("seat")
    )


def _ranking_lines(entry_ids: list[int]) -> list[dict]:
    """Every stored ranking line of the entries, a section's line with its session and the
    average percentage of every ranked line of that session (one query)."""
    club = (
        StoredRanking.objects.filter(
            session_id=OuterRef("session_id"), scope=RankingScope.SECTION, percentage__isnull=False
        )
        .order_by()
        .values("session_id")
        .annotate(average=Avg("percentage"))
        .values("average")[:1]
    )
    return list(
        StoredRanking.objects.filter(entry_id__in=entry_ids)
        .annotate(club_average=Subquery(club, output_field=DecimalField()))
        .values(
            "entry_id",
            "scope",
            "place",
            "tied",
            "percentage",
            "points",
            "session_id",
            "session__number",
            "club_average",
        )
    )


def player_history(member: Member, user) -> PlayerHistory:
    """The member's tournaments that ``user`` may see: partner, percentage, place.

    Events still being played are listed (flagged) with no place or percentage, and left
    out of the averages: their percentage covers only the rounds played so far, and the
    running ranking is ``running_ranking``'s to show (it may hide the last rounds).
    """
    players = _players(member, user)
    tournaments = {}
    for p in players:
        p.entry.tournament.in_progress = p.in_progress
        tournaments.setdefault(p.entry.tournament_id, p.entry.tournament)
    seats = sorted(
        (p for p in players if p.member_id == member.pk),
        key=lambda s: (tournaments[s.entry.tournament_id].date, s.entry_id),
        reverse=True,
    )
    entry_ids = [s.entry_id for s in seats]
    refresh(Session.objects.filter(tournament__in=tournaments))
    lines = _ranking_lines(entry_ids)
    ranking = best_lines(lines)
    partners_of: dict[int, list[Member]] = defaultdict(list)
    for ep in players:
        if ep.member_id != member.pk:
            partners_of[ep.entry_id].append(ep.member)
    sessions = {s.entry_id: s.first_session for s in seats if s.first_session is not None}
    # two places as stored (SQLite gives a subquery's decimal unscaled)
    awards = {
        s.entry.tournament_id: Decimal(s.master_points).quantize(Decimal("0.01"))
        for s in seats
        if s.master_points is not None
    }
    rows, percentages = [], []
    stats: dict[int, dict] = {}
    for s in seats:
        tournament = tournaments[s.entry.tournament_id]
        # an event still being played shows no place or percentage here: the running
        # ranking, with the rounds the director hides, is on its own pages
        line = None if tournament.in_progress else ranking.get(s.entry_id)
        pct = line["percentage"] if line else None
        counts = pct is not None
        if counts:
            percentages.append(pct)
        rows.append(
            {
                "tournament": tournament,
                "entry_id": s.entry_id,
                "partners": partners_of[s.entry_id],
                "substitute": s.substitute,
                "place": line["place"] if line else None,
                "place_label": (f"{line['place']}=" if line["tied"] else str(line["place"]))
                if line
                else "",
                "percentage": pct,
                "points": line["points"] if line else None,
                "session": sessions.get(s.entry_id),
                "master_points": awards.get(tournament.pk),
            }
        )
        for p in partners_of[s.entry_id]:
            stat = stats.setdefault(p.pk, {"member": p, "count": 0, "percentages": []})
            stat["count"] += 1
            if counts:
                stat["percentages"].append(pct)
    partners = sorted(
        stats.values(), key=lambda x: (-x["count"], collation_key(x["member"].full_name))
    )
    for p in partners:
        p["average"] = _mean(p.pop("percentages"))
    season_points = Decimal(0)
    if awards:
        start, end = seats[0].season_start, seats[0].season_end
        if start is None:  # no season holds today yet: it is created as the club sets it
            season = Season.current()
            start, end = season.start, season.end
        season_points = sum(
            (points for pk, points in awards.items() if start <= tournaments[pk].date <= end),
            Decimal(0),
        )
    return PlayerHistory(
        member,
        rows,
        _mean(percentages),
        partners,
        season_points,
        [line for line in lines if line["scope"] == RankingScope.SECTION],
    )


def session_percentages(history: PlayerHistory) -> list[dict]:
    """The member's percentage in each session of the finished tournaments of ``history``
    (its section's ranking), oldest first, with every ranked line's average percentage in
    the same session: the club's average that evening (from the lines ``player_history``
    read: no query)."""
    finished = {
        row["entry_id"]: row["tournament"]
        for row in history.rows
        if not row["tournament"].in_progress
    }
    points = []
    for line in history.section_lines:
        tournament = finished.get(line["entry_id"])
        if tournament is None or line["percentage"] is None:
            continue
        name = tournament.name
        if tournament.session_count > 1:
            name = f"{name} · {line['session__number']}"
        average = line["club_average"]
        points.append(
            {
                "date": tournament.date,
                "number": line["session__number"],
                "name": name,
                "percentage": line["percentage"],
                "club_average": None
                if average is None
                else Decimal(average).quantize(Decimal("0.01")),
            }
        )
    return sorted(points, key=lambda p: (p["date"], p["number"]))


def _mean(values: list[Decimal]) -> Decimal | None:
    if not values:
        return None
    return (sum(values) / len(values)).quantize(Decimal("0.01"))


def member_for(user) -> Member | None:
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()

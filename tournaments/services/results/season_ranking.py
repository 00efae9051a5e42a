"""The club's season ranking: every player's final results of the season under the club's rule.

The rule is the season's ``SeasonRankingRule`` (the sum of the best N percentages by
default, or points by position). A player's result in a tournament is their entry's
headline ranking line (all sessions, else all sections on the same boards, else the
section), from tournaments with final results dated inside the season that the viewer may
see. Only players still in the entry at the end count (a substitute who left does not).
Read in a constant number of queries whatever the number of tournaments or players.

The page reads ``season_tables``: one query tells whether the season's results changed
(its sessions' ranking versions, stamps and newest changes, which is also the check that
their rankings are current) and the ranking and master points are kept in the cache under
that, so a season of ten clubs is computed once per change, not per visitor. The page shows
a slice of rows (``page_of``): a player finds their own row by name or by "find me".
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from contextlib import suppress
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache
from django.db.models import Count, Sum

from clubsite.models import Member, Season, fold
from clubsite.ops.warmup import collector_paused
from tournaments.models import (
    EntryPlayer,
    PointsAward,
    SeasonRankingRule,
    SeasonRule,
    Section,
    TournamentStatus,
)
from tournaments.models.rankings import HEADLINE_ORDER
from tournaments.services.bulk import read_rows
from tournaments.services.classification.session_data import newest_in_section
from tournaments.services.results.pages import (
    place_labels,
    refresh_annotated,
    visible_tournaments,
)

PAGE_SIZE = 50  # rows of the season ranking a page shows
TABLES_SECONDS = 600  # a computed season is kept this long (names may change meanwhile)


def rule_for(season: Season) -> SeasonRankingRule:
    """The season's rule, or the default one (unsaved) when the club set none (read with
    the season when it was selected with ``ranking_rule``)."""
    try:
        rule = season.ranking_rule
    except SeasonRankingRule.DoesNotExist:
        return SeasonRankingRule(season=season)
    if rule.pk is None:  # one made in memory, not the season's stored rule
        rule = SeasonRankingRule.objects.filter(season=season).first()
    return rule if rule is not None else SeasonRankingRule(season=season)


@dataclass
class Played:
    """One tournament of a player: what the rule reads from it."""

    tournament_id: int
    date: object
    percentage: Decimal | None
    place: int
    value: Decimal  # the percentage or the position points
    counted: bool = False


@dataclass
class SeasonLine:
    member: Member
    played: list[Played] = field(default_factory=list)
    score: Decimal = Decimal(0)
    counted: int = 0
    average: Decimal | None = None


@dataclass
class SeasonRanking:
    season: Season
    rule: SeasonRankingRule
    lines: list[SeasonLine]
    tournaments: int

    def rows(self) -> list[dict]:
        """Plain rows for the sortable table, best first, ties as "3-4"."""
        out = [
            {
                "member_id": line.member.pk,
                "name": line.member.full_name,
                "score": line.score,
                "played": len(line.played),
                "counted": line.counted,
                "average": line.average,
                "place": 0,
                "tied": False,
            }
            for line in self.lines
        ]
        place = 0
        for i, row in enumerate(out):
            if i == 0 or row["score"] != out[i - 1]["score"]:
                place = i + 1
            row["place"] = place
        shared = Counter(row["place"] for row in out)
        for row in out:
            row["tied"] = shared[row["place"]] > 1
        place_labels(out)
        return out


def position_value(place: int, points: list[int]) -> Decimal:
    return Decimal(points[place - 1]) if 1 <= place <= len(points) else Decimal(0)


def apply_rule(rule: SeasonRankingRule, played: list[Played]) -> tuple[Decimal, int]:
    """Mark which results count and return (score, how many counted)."""
    if rule.rule == SeasonRule.POSITION_POINTS:
        candidates = list(played)
        limit = rule.n or len(candidates)
    else:
        candidates = [p for p in played if p.percentage is not None]
        limit = rule.n
    best = sorted(candidates, key=lambda p: (-p.value, p.date))[:limit]
    for p in best:
        p.counted = True
    return sum((p.value for p in best), Decimal(0)), len(best)


def season_sessions(season: Season, user=None) -> list[SeasonSession]:
    """The sessions of the season's final tournaments ``user`` may see, each with its
    tournament's date, when the tournament's master points were awarded and its newest
    result or penalty change (``newest_result``, for whether its ranking is current): one
    query, a row a section (each its index probes, ``newest_in_section``), which also tells
    whether anything the season's tables show has changed."""
    tournaments = (
        visible_tournaments(user)
        .filter(status=TournamentStatus.FINAL, date__gte=season.start, date__lte=season.end)
        .order_by()
        .values("pk")
    )
    rows = (
        Section.objects.filter(session__tournament__in=tournaments)
        .order_by()
        .annotate(**newest_in_section())
        .values_list(
            "session_id",
            "session__tournament_id",
            "session__ranking_version",
            "session__classified_through",
            "session__tournament__date",
            "session__tournament__points_awarding__awarded_at",
            "newest_result",
            "newest_penalty",
        )
    )
    sessions: dict[int, SeasonSession] = {}
    for pk, tournament_id, version, through, date, awarded, result, penalty in rows:
        session = sessions.get(pk)
        if session is None:
            session = sessions[pk] = SeasonSession(
                pk, tournament_id, version, through, date, awarded, None, penalty
            )
        if result is not None and (session.newest_result is None or result > session.newest_result):
            session.newest_result = result
    return [sessions[pk] for pk in sorted(sessions)]


@dataclass(slots=True)
class SeasonSession:
    """A session of the season as its tables read it (``season_sessions``): plain values,
    no model to build for each of three hundred."""

    pk: int
    tournament_id: int
    ranking_version: int
    classified_through: object
    tournament_date: object
    points_awarded_at: object
    newest_result: object
    newest_penalty: object


def season_ranking(season: Season, user=None) -> SeasonRanking:
    sessions = season_sessions(season, user)
    if refresh_annotated(sessions):  # a stale ranking was classified here (no broker)
        sessions = season_sessions(season, user)
    return _ranking(season, rule_for(season), sessions)


def _ranking(
    season: Season, rule: SeasonRankingRule, sessions: list[SeasonSession]
) -> SeasonRanking:
    dates = {s.tournament_id: s.tournament_date for s in sessions}
    # each player's entries with their ranking lines, one query: an entry's headline line is
    # its widest (``HEADLINE_ORDER``)
    headline: dict[tuple[int, int], tuple] = {}
    order = {str(scope): rank for scope, rank in HEADLINE_ORDER.items()}
    for row in read_rows(
        EntryPlayer.objects.filter(
            entry__tournament_id__in=dates, active=True, entry__rankings__isnull=False
        ).values_list(
            "member",
            "entry_id",
            "entry__tournament_id",
            "member__first_name",
            "member__last_name",
            "entry__rankings__scope",
            "entry__rankings__place",
            "entry__rankings__percentage",
        )
    ):
        key = (row[0], row[1])
        have = headline.get(key)
        if have is None or order[row[5]] < order[have[5]]:
            headline[key] = row
    points = rule.points
    by_position = rule.rule == SeasonRule.POSITION_POINTS
    zero = Decimal(0)
    lines: dict[int, SeasonLine] = {}
    for (
        member_id,
        _entry,
        tournament_id,
        first_name,
        last_name,
        _scope,
        place,
        pct,
    ) in headline.values():
        value = position_value(place, points) if by_position else (pct or zero)
        line = lines.get(member_id)
        if line is None:  # the member as the page needs it: no query
            member = Member(pk=member_id, first_name=first_name, last_name=last_name)
            line = lines[member_id] = SeasonLine(member)
        line.played.append(Played(tournament_id, dates[tournament_id], pct, place, value))
    for line in lines.values():
        line.score, line.counted = apply_rule(rule, line.played)
        percentages = [p.percentage for p in line.played if p.percentage is not None]
        if percentages:
            line.average = (sum(percentages) / len(percentages)).quantize(Decimal("0.01"))
    ordered = sorted(
        lines.values(), key=lambda x: (-x.score, -(x.average or 0), x.member.full_name)
    )
    return SeasonRanking(season, rule, ordered, len(dates))


# --- master points of the season (awarded by ``master_points``) -------------------------------


@dataclass
class SeasonPoints:
    season: Season
    rows: list[dict]
    tournaments: int


def season_points(season: Season, user=None) -> SeasonPoints:
    """Every player's master points of the season's final tournaments ``user`` may see,
    most first, with places labelled as in the season ranking ("3-4" for a shared third)."""
    return _points(season, season_sessions(season, user))


def _points(
    season: Season, sessions: list[SeasonSession], members: dict[int, Member] | None = None
) -> SeasonPoints:
    """``members``: the players already read (the ranking's), whose names need no join."""
    ids = {s.tournament_id for s in sessions if s.points_awarded_at is not None}
    totals: dict[int, Decimal] = defaultdict(Decimal)
    counts: dict[int, int] = defaultdict(int)
    members = dict(members or {})
    for member_id, points, awards in (
        PointsAward.objects.filter(tournament_id__in=ids)
        .order_by()
        .values("member_id")
        .annotate(points=Sum("points"), awards=Count("pk"))
        .values_list("member_id", "points", "awards")
    ):
        totals[member_id] += Decimal(points).quantize(Decimal("0.01"))  # SQLite: unscaled
        counts[member_id] += awards
    missing = set(totals) - members.keys()  # awarded without a ranking line (rare)
    if missing:
        members.update((m.pk, m) for m in Member.objects.filter(pk__in=missing))
    order = sorted(totals, key=lambda m: (-totals[m], members[m].full_name))
    rows, place = [], 0
    for i, member_id in enumerate(order):
        if i == 0 or totals[member_id] != totals[order[i - 1]]:
            place = i + 1
        rows.append(
            {
                "member": members[member_id],
                "points": totals[member_id],
                "tournaments": counts[member_id],
                "place": place,
            }
        )
    shared = Counter(row["place"] for row in rows)
    for row in rows:
        row["tied"] = shared[row["place"]] > 1
    place_labels(rows)
    return SeasonPoints(season, rows, len(ids))


# --- the page: computed once per change, shown a page at a time -------------------------------


@dataclass
class SeasonTables:
    """What the season's page shows, as plain rows (kept in the cache)."""

    rows: list[dict]  # the ranking, best first (``SeasonRanking.rows``)
    tournaments: int
    points: list[dict]  # master points, most first: member_id, name, points, tournaments…
    points_tournaments: int


def season_tables(season: Season, user=None, rule: SeasonRankingRule | None = None) -> SeasonTables:
    """The season's ranking and master points for ``user``, computed once per change of
    what they show (a ranking stored again, a tournament published or its points awarded,
    the rule) and kept in the cache: two queries when kept (``rule``: the season's, read
    with it), four when computed."""
    rule = rule or rule_for(season)
    sessions = season_sessions(season, user)
    if refresh_annotated(sessions):  # a stale ranking was classified here (no broker)
        sessions = season_sessions(season, user)
    stamp = repr(
        (
            season.pk,
            season.start,
            season.end,
            rule.rule,
            rule.n,
            rule.position_points,
            [
                (s.pk, s.tournament_id, s.tournament_date, s.ranking_version)
                + (s.classified_through, s.points_awarded_at)
                for s in sessions
            ],
        )
    )
    key = "clubsite:season-tables:" + hashlib.sha256(stamp.encode()).hexdigest()
    with suppress(Exception):  # a cache that is down only costs the computing
        found = cache.get(key)
        if found is not None:
            return found
    with collector_paused():  # 15,600 results of a season of ten clubs, read and added up
        ranking = _ranking(season, rule, sessions)
        points = _points(season, sessions, {line.member.pk: line.member for line in ranking.lines})
    tables = SeasonTables(
        ranking.rows(),
        ranking.tournaments,
        [
            {
                "member_id": row["member"].pk,
                "name": row["member"].full_name,
                "points": row["points"],
                "tournaments": row["tournaments"],
                "place_label": row["place_label"],
            }
            for row in points.rows
        ],
        points.tournaments,
    )
    for row in tables.rows + tables.points:
        row["search"] = fold(row["name"])
    with suppress(Exception):
        cache.set(key, tables, TABLES_SECONDS)
    return tables


def find(rows: list[dict], text: str = "", member_id: int | None = None) -> int | None:
    """The index of the first row of the member, or whose name holds ``text`` (accents and
    case aside); None when none does."""
    wanted = fold(text).strip()
    for i, row in enumerate(rows):
        if (member_id is not None and row["member_id"] == member_id) or (
            wanted and wanted in row["search"]
        ):
            return i
    return None


def page_of(index: int) -> int:
    """The page (from 1) showing row ``index``."""
    return index // PAGE_SIZE + 1

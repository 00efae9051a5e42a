"""The club's season ranking: every player's final results of the season under the club's rule.

The rule is the season's ``SeasonRankingRule`` (the sum of the best N percentages by
default, or points by position). A player's result in a tournament is their entry's
headline ranking line (all sessions, else all sections on the same boards, else the
section), from tournaments with final results dated inside the season that the viewer may
see. Only players still in the entry at the end count (a substitute who left does not).
Read in a constant number of queries whatever the number of tournaments or players.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from clubsite.models import Member, Season

from ..models import (
    EntryPlayer,
    SeasonRankingRule,
    SeasonRule,
    Session,
    TournamentStatus,
)
from .results import headline_rankings, place_labels, refresh, visible_tournaments


def rule_for(season: Season) -> SeasonRankingRule:
    """The season's rule, or the default one (unsaved) when the club set none."""
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
        out = [{"member_id": line.member.pk, "name": line.member.full_name,
                "score": line.score, "played": len(line.played), "counted": line.counted,
                "average": line.average, "place": 0, "tied": False} for line in self.lines]
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


def season_ranking(season: Season, user=None) -> SeasonRanking:
    rule = rule_for(season)
    tournaments = list(visible_tournaments(user).filter(
        status=TournamentStatus.FINAL, date__gte=season.start, date__lte=season.end)
        .values("pk", "date"))
    dates = {t["pk"]: t["date"] for t in tournaments}
    refresh(Session.objects.filter(tournament_id__in=dates))
    seats = list(EntryPlayer.objects.filter(entry__tournament_id__in=dates, active=True)
                 .values_list("member", "entry_id", "entry__tournament_id"))
    headline = headline_rankings([entry_id for _m, entry_id, _t in seats])
    members = {m.pk: m for m in Member.objects.filter(pk__in={m for m, _e, _t in seats})}
    points = rule.points
    lines: dict[int, SeasonLine] = {}
    for member_id, entry_id, tournament_id in seats:
        row = headline.get(entry_id)
        if row is None:
            continue
        value = (position_value(row["place"], points) if rule.rule == SeasonRule.POSITION_POINTS
                 else (row["percentage"] or Decimal(0)))
        line = lines.setdefault(member_id, SeasonLine(members[member_id]))
        line.played.append(Played(tournament_id, dates[tournament_id], row["percentage"],
                                  row["place"], value))
    for line in lines.values():
        line.score, line.counted = apply_rule(rule, line.played)
        percentages = [p.percentage for p in line.played if p.percentage is not None]
        if percentages:
            line.average = (sum(percentages) / len(percentages)).quantize(Decimal("0.01"))
    ordered = sorted(lines.values(), key=lambda x: (-x.score, -(x.average or 0),
                                                    x.member.full_name))
    return SeasonRanking(season, rule, ordered, len(dates))

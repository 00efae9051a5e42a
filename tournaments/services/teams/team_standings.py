"""A teams event's standings: match scores stored by the classification (VPs, IMPs or points,
byes), ranked with the event's tie-breaks (a knockout by the stage each team reached).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db import connection, transaction
from django.utils import timezone

from tournaments.models import (
    EntryStatus,
    RankingScope,
    Seating,
    Session,
    StoredRanking,
    TeamMatch,
    TeamScoring,
    TieBreak,
)
from tournaments.scoring import display_round
from tournaments.scoring.vp import match_vps
from tournaments.services.classification.file_figures import figures_hold
from tournaments.services.classification.session_data import latest_change
from tournaments.services.errors import TournamentError
from tournaments.services.teams.knockout_bracket import rank_knockout, save_knockout, score_knockout
from tournaments.services.teams.team_matches import (
    MatchScore,
    boards_of_matches,
    boards_of_rounds,
    score_matches,
    stored_decimal,
)
from tournaments.services.teams.team_schedule import team_event
from tournaments.services.teams.teams_scoring import POINT_UNITS
from tournaments.services.teams.triplicate_scores import score_triplicate


@dataclass
class TeamLine:
    """A team's line in the standings."""

    entry_id: int
    number: int
    name: str
    points: Fraction = Fraction(0)  # VPs, or IMPs in an IMP-scored event
    won: Fraction = Fraction(0)
    lost: Fraction = Fraction(0)
    matches: int = 0
    boards: int = 0
    place: int = 0
    tied: bool = False
    decided_by: str = ""
    against: dict[int, Fraction] = field(default_factory=dict)  # opponent → points v them

    @property
    def imp_difference(self) -> Fraction:
        return self.won - self.lost

    @property
    def imp_quotient(self) -> Fraction:
        if self.lost == 0:
            return Fraction(10**6) if self.won else Fraction(1)
        return self.won / self.lost


def rank_teams(lines: Sequence[TeamLine], tie_breaks: Sequence[str] = ()) -> list[TeamLine]:
    """Order by points (at two decimals, as shown), then the tie-breaks in order; teams still
    level share the place. Pure."""

    def shown(value: Fraction) -> Decimal:
        return display_round(value, 2)

    def tie_key(criterion: str, group: list[TeamLine]):
        ids = {t.entry_id for t in group}
        if criterion == TieBreak.HEAD_TO_HEAD:
            return lambda t: sum((v for o, v in t.against.items() if o in ids), Fraction(0))
        if criterion == TieBreak.IMP_DIFFERENCE:
            return lambda t: t.imp_difference
        if criterion == TieBreak.IMP_QUOTIENT:
            return lambda t: t.imp_quotient
        raise TournamentError(f"unknown tie-break {criterion!r}")

    def split(
        group: list[TeamLine], criteria: Sequence[str], by: str
    ) -> list[tuple[list, str, bool]]:
        if len(group) == 1:
            return [(group, by, False)]
        if not criteria:
            return [(group, "", True)]
        key = tie_key(criteria[0], group)
        values = sorted({key(t) for t in group}, reverse=True)
        if len(values) == 1:
            return split(group, criteria[1:], by)
        out = []
        for value in values:
            sub = [t for t in group if key(t) == value]
            out += (
                split(sub, criteria[1:], criteria[0])
                if len(sub) > 1
                else [(sub, criteria[0], False)]
            )
        return out

    ordered = sorted(lines, key=lambda t: (-shown(t.points), t.number))
    result: list[TeamLine] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and shown(ordered[j].points) == shown(ordered[i].points):
            j += 1
        for group, by, tied in split(ordered[i:j], list(tie_breaks), ""):
            place = len(result) + 1
            for t in sorted(group, key=lambda t: t.number):
                t.place, t.tied, t.decided_by = place, tied, by
                result.append(t)
        i = j
    return result


def _fraction(value) -> Fraction:
    """Stored decimals convert exactly; a float (computed, not stored) by its shortest text."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def standing_lines(
    matches: Iterable[TeamMatch],
    teams: dict[int, tuple[int, str]],
    *,
    vps: bool,
    bye_vp: Fraction,
    points: bool = False,
) -> dict[int, TeamLine]:
    """Totals per team from stored match scores (pure). A match counts once a board of it has
    been scored; a bye counts once play has reached its round (a round robin lays out every
    round, and its byes, at the start)."""
    matches = list(matches)
    lines = {e: TeamLine(e, number, name) for e, (number, name) in teams.items()}
    reached = max((m.round for m in matches if m.boards_played), default=0)
    for m in matches:
        home = lines.get(m.home_id)
        if m.away_id is None:
            if home is not None and m.round <= reached:
                home.matches += 1
                home.points += bye_vp if vps else Fraction(0)
            continue
        if not m.boards_played:
            continue
        away = lines.get(m.away_id)
        sides = (
            (home, m.away_id, m.home_won, m.home_lost, m.home_vp, m.home_points),
            (away, m.home_id, m.away_won, m.away_lost, m.away_vp, m.away_points),
        )
        for line, opponent, won, lost, vp, pts in sides:
            if line is None:
                continue
            won, lost = _fraction(won), _fraction(lost)
            gained = _fraction(pts or 0) if points else _fraction(vp or 0) if vps else won - lost
            line.points += gained
            line.won += won
            line.lost += lost
            line.matches += 1
            line.boards += m.boards_played
            line.against[opponent] = line.against.get(opponent, Fraction(0)) + gained
    return lines


def _team_names(session: Session) -> dict[int, tuple[int, str, str]]:
    return {
        s["entry_id"]: (
            s["number"],
            s["entry__name"] or s["entry__display_name"],
            s["entry__status"],
        )
        for s in Seating.objects.filter(session=session).values(
            "entry_id", "number", "entry__name", "entry__display_name", "entry__status"
        )
    }


def standings(session: Session, matches: Sequence[TeamMatch] | None = None) -> list[TeamLine]:
    """The ranked standings from the stored match scores (two queries)."""
    tournament = session.tournament
    event = team_event(tournament)
    seats = _team_names(session)
    teams = {e: (n, name) for e, (n, name, status) in seats.items() if status == EntryStatus.ACTIVE}
    if matches is None:
        matches = list(TeamMatch.objects.filter(session=session))
    # A knockout is scored in IMPs whatever the tournament's method (``TeamEvent.unit``).
    lines = standing_lines(
        matches,
        teams,
        vps=event.unit == TeamScoring.VPS,
        bye_vp=Fraction(str(event.bye_vp)),
        points=event.unit in POINT_UNITS,
    )
    if event.is_knockout:  # the stage reached places the teams; IMPs come second
        return rank_knockout(list(lines.values()), matches, session.rounds)
    # an imported file that writes its ties as one place (3=) is ranked the same way
    shared = (tournament.conventions or {}).get("places") == "shared"
    return _as_published(
        session, rank_teams(list(lines.values()), () if shared else event.tie_break_order)
    )


def _published_matches(data, matches: Sequence[TeamMatch], vps: bool) -> None:
    """An imported event's matches as its file wrote them: the IMPs each team won and, in
    VPs, each team's VPs (``services.file_record``), while they hold."""
    figures = (data.session.file_figures or {}).get("matches")
    if not figures or not figures_hold(data.session, data.stamp):
        return
    for m in matches:
        row = figures.get(f"{m.round}:{m.home_id}")
        if row is None:
            continue
        if row.get("home_imps") and row.get("away_imps"):  # (what each conceded stays ours:
            m.home_won = Decimal(row["home_imps"])  # an artificial score gives +3 / 0)
            m.away_won = Decimal(row["away_imps"])
        if vps and row.get("home_score") and row.get("away_score"):
            m.home_vp, m.away_vp = Decimal(row["home_score"]), Decimal(row["away_score"])


def _as_published(session: Session, lines: list[TeamLine]) -> list[TeamLine]:
    """An imported event's standings as its file published them: each team's total and
    place of record (``services.file_record``), while they hold."""
    figures = (session.file_figures or {}).get("entries")
    if not figures or not figures_hold(session, latest_change(session)):
        return lines
    out = []
    for line in lines:
        row = figures.get(str(line.entry_id)) or {}
        if row.get("total"):
            line = dataclasses.replace(line, points=Fraction(Decimal(row["total"])))
        if row.get("place"):
            line = dataclasses.replace(
                line, place=row["place"], tied=bool(row.get("tied")), decided_by=""
            )
        out.append(line)
    return sorted(out, key=lambda line: (line.place, line.number))


def running_totals(
    session: Session,
    matches: Sequence[TeamMatch] | None = None,
    teams: dict[int, tuple[int, str]] | None = None,
) -> dict[int, list[Fraction]]:
    """Each active team's total after each round scored so far, round by round (the
    standings' own sums, so the last value is the standings' total). Empty for a knockout,
    whose stages are not added up. Reads the session's matches and its active teams
    (number, name) unless given: the standings page passes those it has read already."""
    event = team_event(session.tournament)
    if event.is_knockout:
        return {}
    if teams is None:
        teams = {
            e: (n, name)
            for e, (n, name, status) in _team_names(session).items()
            if status == EntryStatus.ACTIVE
        }
    if matches is None:
        matches = list(TeamMatch.objects.filter(session=session))
    played = sorted({m.round for m in matches if m.boards_played})
    totals: dict[int, list[Fraction]] = {e: [] for e in teams}
    for last in played:
        lines = standing_lines(
            [m for m in matches if m.round <= last],
            teams,
            vps=event.unit == TeamScoring.VPS,
            bye_vp=Fraction(str(event.bye_vp)),
            points=event.unit in POINT_UNITS,
        )
        for entry_id, line in lines.items():
            totals[entry_id].append(line.points)
    return totals


def classify_teams(data) -> int:
    """Score every match from the loaded session (``session_data.SessionData``), store the
    match scores and the standings; returns the new ranking version."""
    session = data.session
    tournament = session.tournament
    event = team_event(tournament)
    section = next((s for s in data.sections if s.movement), None)
    matches = list(TeamMatch.objects.filter(session=session))
    before = {m.pk: _match_values(m) for m in matches}  # as stored: only changes are written
    movement = section.movement if section else {}
    unit = event.unit
    knockout = event.is_knockout and section is not None
    if knockout:
        # one pass: IMPs, the averaged margin and who goes through; the loop below only
        # fills the byes (a knockout is scored in IMPs: no points, no VPs)
        score_knockout(matches, data.results, movement, event)
        scores = {m.pk: MatchScore() for m in matches if m.away_id is None}
        for m in matches:
            m.home_points = m.away_points = None
    elif event.is_triplicate:
        scores = score_triplicate(matches, data.results, boards_of_rounds(movement))
    else:
        scores = score_matches(matches, data.results, boards_of_matches(movement), unit)
    vps = unit == TeamScoring.VPS
    conventions = tournament.conventions or {}
    k = session.boards_per_round or event.boards_per_match
    for m in matches:
        s = scores.get(m.pk)
        if s is None:  # a knockout match, scored above
            continue
        m.home_won, m.home_lost = stored_decimal(s.home_won), stored_decimal(s.home_lost)
        m.away_won, m.away_lost = stored_decimal(s.away_won), stored_decimal(s.away_lost)
        m.boards_played = s.boards
        if unit in POINT_UNITS and m.away_id is not None:
            m.home_points, m.away_points = (
                stored_decimal(s.home_points),
                stored_decimal(s.away_points),
            )
        else:
            m.home_points = m.away_points = None
        if m.away_id is None:
            m.home_vp, m.away_vp = (event.bye_vp if vps else None), None
        elif vps and s.boards:
            # an imported event prints its VPs as its file did (imports.usebio_conventions)
            home_vp, away_vp = match_vps(
                s.home_margin,
                s.away_margin,
                k,
                event.vp_scale,
                places=conventions.get("vp_places", 2),
                loser=conventions.get("vp_loser", "own"),
            )
            m.home_vp, m.away_vp = display_round(home_vp), display_round(away_vp)
        else:
            m.home_vp = m.away_vp = None
    if not knockout:
        _published_matches(data, matches, vps)
    table = standings(session, matches)
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        version = locked.ranking_version + 1
        _save_match_scores([m for m in matches if _match_values(m) != before[m.pk]])
        if event.is_knockout:
            save_knockout(matches)
        StoredRanking.objects.filter(session=locked).delete()
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).delete()
        rows = []
        for line in table:
            for scope, sec in ((RankingScope.SECTION, section), (RankingScope.EVENT, None)):
                if scope == RankingScope.SECTION and sec is None:
                    continue
                rows.append(
                    StoredRanking(
                        tournament=tournament,
                        session=locked if sec else None,
                        section=sec,
                        scope=scope,
                        pool=sec.pool if sec else "",
                        entry_id=line.entry_id,
                        number=line.number,
                        names=line.name[:300],
                        place=line.place,
                        tied=line.tied,
                        decided_by=line.decided_by[:20],
                        points=display_round(line.points),
                        exact=_imps_text(line),
                        boards=line.boards,
                        version=version,
                    )
                )
        StoredRanking.objects.bulk_create(rows)
        locked.ranking_version = version
        locked.classified_through = data.stamp or timezone.now()
        locked.save(update_fields=["ranking_version", "classified_through"])
    return version


MATCH_SCORE_FIELDS = (
    "home_won",
    "home_lost",
    "away_won",
    "away_lost",
    "home_vp",
    "away_vp",
    "boards_played",
    "home_points",
    "away_points",
)


def _match_values(match: TeamMatch) -> tuple:
    return tuple(
        None if getattr(match, f) is None else Decimal(getattr(match, f))
        for f in MATCH_SCORE_FIELDS
    )


def _save_match_scores(changed: Sequence[TeamMatch]) -> None:
    """Write the matches whose score changed, in one batched statement: usually the matches
    of the round in play. (``bulk_update`` builds a CASE per field and row, which cost 3 s for
    500 matches.)"""
    if not changed:
        return
    columns = [TeamMatch._meta.get_field(f).column for f in MATCH_SCORE_FIELDS]
    table = connection.ops.quote_name(TeamMatch._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in columns)
    rows = []
    for m in changed:
        values = [getattr(m, f) for f in MATCH_SCORE_FIELDS]
        rows.append(
            [None if v is None else (str(v) if isinstance(v, Decimal) else v) for v in values]
            + [m.pk]
        )
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)  # noqa: S608


def _number(value: Fraction) -> str:
    value = display_round(value, 2)
    return format(value.normalize(), "f") if value == value.to_integral() else str(value)


def _imps_text(line: TeamLine) -> str:
    return f"{_number(line.won)}-{_number(line.lost)}"

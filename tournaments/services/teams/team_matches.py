"""A teams match scored from both rooms: each board compared (IMPs, split, artificial and
weighted scores), the match's totals, and the board-by-board lines its page shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from tournaments.models import Result, ResultStatus, TeamMatch, TeamScoring
from tournaments.scoring import (
    Artificial,
    NotPlayed,
    Real,
    Role,
    Split,
    Unplayed,
    Weighted,
    display_round,
)
from tournaments.scoring.teams import ArtificialImps, team_board
from tournaments.services.errors import InvalidResult
from tournaments.services.running.adjustments import core_entry
from tournaments.services.teams.team_schedule import team_event, teams_section
from tournaments.services.teams.teams_scoring import POINT_UNITS, board_points

# A line the director marks not played names no side: both pairs at the table get the same
# artificial score, as the pairs' AEB norms give both the same percentage (average when no one
# is at fault, average minus for the players' fault, average plus for the organisation's).
NOT_PLAYED_ROLES = {
    Unplayed.RELAY: Role.PARTLY_AT_FAULT,
    Unplayed.JUSTIFIED: Role.PARTLY_AT_FAULT,
    Unplayed.PLAYER_FAULT: Role.OFFENDER,
    Unplayed.ORGANISATION: Role.NON_OFFENDER,
}


def room_score(ns_score: int | None, adjustment: dict | None):
    """A stored line as the teams core reads it: NS points, a ``Split``, ``ArtificialImps``
    (±3 / 0 by role, Law 12C2b) or a ``Weighted`` score.

    A board not played in a room is an artificial score for both sides (``NOT_PLAYED_ROLES``:
    0 IMPs when no one is at fault), so the board is compared and a knockout match can be
    decided; left out, it would keep the match incomplete for good."""
    entry = core_entry(ns_score, adjustment, imp_scoring=True)
    if isinstance(entry, Real):
        return int(entry.ns_score)
    if isinstance(entry, Artificial):
        roles = [side if isinstance(side, Role) else None for side in (entry.ns, entry.ew)]
        if None in roles:
            raise InvalidResult(
                _("In a teams event an artificial score is A+, A or A−."), "adjustment"
            )
        return ArtificialImps.for_roles(*roles)
    if isinstance(entry, Split | Weighted | ArtificialImps):  # an imported award: as given
        return entry
    if isinstance(entry, NotPlayed):
        role = NOT_PLAYED_ROLES[entry.reason]
        return ArtificialImps.for_roles(role, role)
    return None


@dataclass(frozen=True, slots=True)
class BoardComparison:
    """One board of a match from the home team's side (nets are None when adjusted)."""

    home_net: int | None
    home_imps: Fraction
    away_imps: Fraction


def compare_board(open_room, closed_room) -> BoardComparison | None:
    """Both rooms of a board → each team's IMPs; None while a room has no score.

    A weighted score (Law 12C1c) is scored outcome by outcome and the IMPs weighted.
    """
    if open_room is None or closed_room is None:
        return None
    if isinstance(open_room, Weighted) or isinstance(closed_room, Weighted):
        home, away = Fraction(0), Fraction(0)
        opens = open_room.outcomes if isinstance(open_room, Weighted) else ((1, open_room),)
        closes = closed_room.outcomes if isinstance(closed_room, Weighted) else ((1, closed_room),)
        for w1, s1 in opens:
            for w2, s2 in closes:
                board = team_board(s1, s2)
                home += Fraction(w1) * Fraction(w2) * board.a_imps
                away += Fraction(w1) * Fraction(w2) * board.b_imps
        return BoardComparison(None, home, away)
    board = team_board(open_room, closed_room)
    net = board.a_net if isinstance(open_room, int) and isinstance(closed_room, int) else None
    return BoardComparison(net, board.a_imps, board.b_imps)


@dataclass
class MatchScore:
    home_won: Fraction = Fraction(0)
    home_lost: Fraction = Fraction(0)
    away_won: Fraction = Fraction(0)
    away_lost: Fraction = Fraction(0)
    boards: int = 0
    home_points: Fraction = Fraction(0)  # board-a-match, total or Patton points
    away_points: Fraction = Fraction(0)
    refused: int = 0  # boards an artificial score keeps out of those points

    def add(self, board: BoardComparison) -> None:
        for imps, side in ((board.home_imps, "home"), (board.away_imps, "away")):
            if imps >= 0:
                setattr(self, f"{side}_won", getattr(self, f"{side}_won") + imps)
            else:
                setattr(self, f"{side}_lost", getattr(self, f"{side}_lost") - imps)
        self.boards += 1

    @property
    def home_margin(self) -> Fraction:
        return self.home_won - self.home_lost

    @property
    def away_margin(self) -> Fraction:
        return self.away_won - self.away_lost


def lines_by_room(results: Iterable[dict]) -> dict[tuple[int, int, int, int], dict]:
    return {(r["round"], r["board__number"], r["ns_id"], r["ew_id"]): r for r in results}


def score_matches(
    matches: Sequence[TeamMatch],
    results: Iterable[dict],
    boards_of: dict[tuple[int, int], list[int]],
    unit: str = TeamScoring.IMPS,
) -> dict[int, MatchScore]:
    """Pure over loaded rows: each match's IMPs from the effective results of both rooms over
    its own boards (``boards_of_matches``), and its board-a-match, total or Patton points when
    ``unit`` is one of those."""
    rooms = lines_by_room(results)
    out: dict[int, MatchScore] = {}
    for match in matches:
        score = MatchScore()
        out[match.pk] = score
        if match.away_id is None:
            continue
        for b in boards_of.get((match.round, match.number), ()):
            open_row = rooms.get((match.round, b, match.home_id, match.away_id))
            closed_row = rooms.get((match.round, b, match.away_id, match.home_id))
            if open_row is None or closed_row is None:
                continue
            open_room = room_score(open_row["ns_score"], open_row["adjustment"])
            closed_room = room_score(closed_row["ns_score"], closed_row["adjustment"])
            board = compare_board(open_room, closed_room)
            if board is not None:
                score.add(board)
            if unit in POINT_UNITS:
                points = board_points(unit, open_room, closed_room)
                if points is not None and points.refused:
                    score.refused += 1
                elif points is not None:
                    score.home_points += points.home
                    score.away_points += points.away
    return out


def boards_of_rounds(movement: dict) -> dict[int, list[int]]:
    """The boards of each round as its first table plays them: right for a triplicate, whose
    tables all play the same boards; a match's own boards come from ``boards_of_matches``."""
    out: dict[int, list[int]] = {}
    for rnd in movement.get("rounds", ()):
        tables = rnd.get("tables") or []
        out[int(rnd["round"])] = [int(b) for b in tables[0]["boards"]] if tables else []
    return out


def boards_of_matches(movement: dict) -> dict[tuple[int, int], list[int]]:
    """(round, match) → the boards of that match as its open-room table plays them.

    A knockout's tie-break segment is added to the tied match's two tables only, so the
    boards of one match say nothing about another's."""
    out: dict[tuple[int, int], list[int]] = {}
    for rnd in movement.get("rounds", ()):
        for t in rnd.get("tables") or ():
            table = int(t["table"])
            room = t.get("room") or ("open" if table % 2 else "closed")
            if room != "closed":  # the open room (table 2m−1), or a triplicate's table
                number = int(t.get("match") or (table + 1) // 2)
                out[(int(rnd["round"]), number)] = [int(b) for b in t["boards"]]
    return out


def stored_decimal(value: Fraction) -> Decimal:
    """Two decimals, half up; whole numbers (nearly every IMP total) skip the rounding."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    return display_round(value)


@dataclass
class BoardLine:
    number: int
    open: Result | None
    closed: Result | None
    home_net: int | None
    home_imps: Fraction | None
    away_imps: Fraction | None
    home_running: Fraction
    away_running: Fraction
    home_points: Fraction | None = None  # board-a-match, total or Patton points
    away_points: Fraction | None = None
    refused: bool = False  # an artificial score these points cannot take

    @property
    def compared(self) -> bool:
        return self.home_imps is not None


def match_boards(match: TeamMatch) -> list[BoardLine]:
    """Board by board: both rooms' results, the home team's net, each team's IMPs and the
    running totals (two queries)."""
    if match.away_id is None:
        return []
    section = teams_section(match.session)
    boards = boards_of_matches(section.movement).get((match.round, match.number), [])
    rows = Result.objects.filter(
        section=section, round=match.round, status=ResultStatus.OK, board__number__in=boards
    ).select_related("board")
    rooms: dict[tuple[int, int], Result] = {}
    for row in rows:
        rooms[(row.board.number, row.ns_id)] = row
    unit = team_event(match.session.tournament).unit
    out, home_total, away_total = [], Fraction(0), Fraction(0)
    for b in boards:
        open_row, closed_row = rooms.get((b, match.home_id)), rooms.get((b, match.away_id))
        board, points = None, None
        if open_row is not None and closed_row is not None:
            open_room = room_score(open_row.ns_score, open_row.adjustment)
            closed_room = room_score(closed_row.ns_score, closed_row.adjustment)
            board = compare_board(open_room, closed_room)
            if unit in POINT_UNITS:
                points = board_points(unit, open_room, closed_room)
        if board is not None:
            home_total += board.home_imps
            away_total += board.away_imps
        out.append(
            BoardLine(
                b,
                open_row,
                closed_row,
                board.home_net if board else None,
                board.home_imps if board else None,
                board.away_imps if board else None,
                home_total,
                away_total,
                points.home if points else None,
                points.away if points else None,
                bool(points and points.refused),
            )
        )
    return out

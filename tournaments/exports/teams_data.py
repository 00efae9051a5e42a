"""A teams event's matches as plain data for the file writers (USEBIO, PBN).

The traveller lines are already loaded (``data._load_session``); here they are grouped by
match: the open room is table 2m-1 (home NS), the closed room table 2m (away NS), and each
board's IMPs come from the same comparison the standings use (``services.teams``), so the
file carries exactly the figures the pages show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from ..models import Section, Session, TeamMatch
from ..scoring import display_round
from ..services import team_matches
from .data import Line, Participant, SessionData


@dataclass
class MatchBoard:
    number: int
    open: Line | None
    closed: Line | None
    home_imps: Decimal | None  # each team's own IMPs on the board (None: not compared)
    away_imps: Decimal | None


@dataclass
class MatchData:
    round: int
    number: int  # 0 for a bye
    home: Participant
    away: Participant | None
    home_won: Decimal
    home_lost: Decimal
    away_won: Decimal
    away_lost: Decimal
    home_vp: Decimal | None
    away_vp: Decimal | None
    boards: list[MatchBoard] = field(default_factory=list)

    @property
    def is_bye(self) -> bool:
        return self.away is None


def _imps(value: Fraction) -> Decimal:
    return Decimal(value.numerator) if value.denominator == 1 else display_round(value)


def load_matches(session: Session, data: SessionData) -> list[MatchData]:
    """The session's matches with both rooms of every board (two queries)."""
    section = Section.objects.filter(session=session).order_by("letter").first()
    if section is None or not data.sections:
        return []
    boards_of = team_matches.boards_of_matches(section.movement or {})
    people: dict[int, Participant] = {p.entry_id: p for s in data.sections
                                      for p in s.participants}
    lines: dict[tuple[int, int, int], Line] = {}
    for s in data.sections:
        for board in s.boards:
            for line in board.lines:
                lines[(line.round, line.table, board.number)] = line
    out = []
    for m in TeamMatch.objects.filter(session=session).order_by("round", "number"):
        home = people.get(m.home_id)
        if home is None:
            continue
        match = MatchData(m.round, m.number, home, people.get(m.away_id) if m.away_id else None,
                          m.home_won, m.home_lost, m.away_won, m.away_lost, m.home_vp,
                          m.away_vp)
        if match.away is not None:
            for number in boards_of.get((m.round, m.number), ()):
                open_line = lines.get((m.round, m.open_table, number))
                closed_line = lines.get((m.round, m.closed_table, number))
                compared = None
                if open_line is not None and closed_line is not None:
                    compared = team_matches.compare_board(
                        team_matches.room_score(open_line.ns_score, open_line.adjustment),
                        team_matches.room_score(closed_line.ns_score, closed_line.adjustment))
                match.boards.append(MatchBoard(
                    number, open_line, closed_line,
                    _imps(compared.home_imps) if compared else None,
                    _imps(compared.away_imps) if compared else None))
        out.append(match)
    return out

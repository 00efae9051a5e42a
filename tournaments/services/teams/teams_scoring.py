"""Board-a-match, total points and Patton points of a teams match, board by board.

The IMP and VP path (``services.team_matches``) already compares both rooms of a board; these
methods read the same comparison and count each team's own net score differently (C03 l.163-167,
l.185-195; scoring-spec §6.2, §6.4):

- board-a-match: 2 for a positive net, 1 for a tie, 0 for a negative one;
- total points: the net itself (no honours, L17 78C);
- Patton: the 8 points of the board split by the net difference (the course's table; the
  course gives no IMP or total-points part, so none is added).

Adjusted scores: a split score gives each team its own net (as it gives each its own IMPs,
C03 l.790-833) and a weighted score weights each outcome's points. An artificial score is
defined in IMPs only (±3 / 0, Law 12C2b): no board, Patton or total-point value follows from
it, so such a board is not scored in these methods and is counted as refused, for the director
to replace by an assigned score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.models import TeamScoring
from tournaments.scoring import Weighted
from tournaments.scoring.teams import ArtificialImps, board_a_match, patton_points, team_board

POINT_UNITS = (TeamScoring.BOARD_A_MATCH, TeamScoring.TOTAL_POINTS, TeamScoring.PATTON)


def points_for_net(unit: str, net: int) -> Fraction:
    """One team's points on a board from its own net score."""
    if unit == TeamScoring.BOARD_A_MATCH:
        return Fraction(board_a_match(net))
    if unit == TeamScoring.TOTAL_POINTS:
        return Fraction(net)
    if unit == TeamScoring.PATTON:
        return Fraction(patton_points(net)[0])
    raise ValueError(f"{unit!r} is not a points method")


@dataclass(frozen=True, slots=True)
class BoardPoints:
    home: Fraction | None
    away: Fraction | None

    @property
    def refused(self) -> bool:
        return self.home is None


REFUSED = BoardPoints(None, None)


def _outcomes(room) -> Sequence[tuple[Fraction, object]]:
    return room.outcomes if isinstance(room, Weighted) else ((Fraction(1), room),)


def board_points(unit: str, open_room, closed_room) -> BoardPoints | None:
    """Each team's points on one board (home NS in the open room); None while a room has no
    score, ``REFUSED`` when a room holds an artificial score."""
    if open_room is None or closed_room is None:
        return None
    home, away = Fraction(0), Fraction(0)
    for w1, s1 in _outcomes(open_room):
        for w2, s2 in _outcomes(closed_room):
            if isinstance(s1, ArtificialImps) or isinstance(s2, ArtificialImps):
                return REFUSED
            board = team_board(s1, s2)
            weight = Fraction(w1) * Fraction(w2)
            home += weight * points_for_net(unit, board.a_net)
            away += weight * points_for_net(unit, board.b_net)
    return BoardPoints(home, away)

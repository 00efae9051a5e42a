"""Team matches: net per board, IMPs, board-a-match, total points, knockout, Patton, VPs.

Team A sits NS in room 1 and EW in room 2; every room score is NS points.
A split room score gives each team its own assigned result, so the two teams'
IMPs are computed separately and need not cancel (C03 l.790-833). An
artificial room score is IMPs per side (±3 normally, Law 12C2b / 86A) and the
other room's result is ignored (C03 l.818).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from .adjusted import Role, Split
from .errors import ScoringError
from .imps import imps
from .numeric import Number
from .vp import vp_for_margin

TEAM_ARTIFICIAL_IMPS: dict[Role, Fraction] = {
    Role.NON_OFFENDER: Fraction(3),
    Role.PARTLY_AT_FAULT: Fraction(0),
    Role.OFFENDER: Fraction(-3),
}


@dataclass(frozen=True, slots=True)
class ArtificialImps:
    """Artificial adjusted score at one table, in IMPs for the NS and EW side of that table."""

    ns: Fraction
    ew: Fraction

    @classmethod
    def for_roles(
        cls, ns: Role, ew: Role, table: dict[Role, Fraction] | None = None
    ) -> ArtificialImps:
        t = table or TEAM_ARTIFICIAL_IMPS
        return cls(t[ns], t[ew])


RoomScore = int | Split | ArtificialImps


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a match from both teams' sides (nets are None when artificial)."""

    a_net: int | None
    b_net: int | None
    a_imps: Fraction
    b_imps: Fraction


def _ns_for(room: RoomScore, side: str) -> int:
    if isinstance(room, Split):
        return room.ns_score if side == "NS" else room.ew_score
    if isinstance(room, bool) or not isinstance(room, int):
        raise ScoringError("room_score", room, "a room score is an int, Split or ArtificialImps")
    return room


def team_board(room1: RoomScore, room2: RoomScore) -> TeamBoard:
    """Net points and IMPs for both teams on one board (C03 l.136-140)."""
    # An artificial room: the other room's result is ignored (C03 l.818). A is NS in room 1,
    # EW in room 2.
    if isinstance(room1, ArtificialImps) and isinstance(room2, ArtificialImps):
        return TeamBoard(None, None, room1.ns + room2.ew, room1.ew + room2.ns)
    if isinstance(room1, ArtificialImps):
        return TeamBoard(None, None, room1.ns, room1.ew)
    if isinstance(room2, ArtificialImps):
        return TeamBoard(None, None, room2.ew, room2.ns)
    a_net = _ns_for(room1, "NS") - _ns_for(room2, "EW")
    b_net = _ns_for(room2, "NS") - _ns_for(room1, "EW")
    return TeamBoard(a_net, b_net, Fraction(imps(a_net)), Fraction(imps(b_net)))


@dataclass(frozen=True, slots=True)
class MatchResult:
    a_imps: Fraction  # A's own margin: IMPs won minus IMPs lost by A
    b_imps: Fraction
    boards: int
    a_vp: float | None = None
    b_vp: float | None = None


def match_imps(
    rooms: Sequence[tuple[RoomScore, RoomScore]],
    *,
    carry_a: Number = 0,
    carry_b: Number = 0,
    vp_scale: str | None = None,
    vp_boards: int | None = None,
) -> MatchResult:
    """IMP margins of both teams and, with ``vp_scale``, each team's VPs from its own margin.

    ``carry_*`` are margins already accumulated (the course example starts at
    23 − 6). With adjusted scores the two margins differ and so may the VP sum
    (C03 l.827).
    """
    a = Fraction(str(carry_a)) if isinstance(carry_a, float) else Fraction(carry_a)
    b = Fraction(str(carry_b)) if isinstance(carry_b, float) else Fraction(carry_b)
    for r1, r2 in rooms:
        board = team_board(r1, r2)
        a += board.a_imps
        b += board.b_imps
    n = vp_boards if vp_boards is not None else len(rooms)
    if vp_scale is None:
        return MatchResult(a, b, n)
    return MatchResult(a, b, n, vp_for_margin(a, n, vp_scale), vp_for_margin(b, n, vp_scale))


def knockout_board(room1: RoomScore, room2: RoomScore) -> Fraction:
    """Team A's IMPs on a knockout board: the average of both teams' own IMPs (Law 12C4, C03 l.830)."""
    board = team_board(room1, room2)
    return (board.a_imps - board.b_imps) / 2


def knockout_margin(rooms: Sequence[tuple[RoomScore, RoomScore]], carry: Number = 0) -> Fraction:
    """A's knockout margin; a positive margin of at least 1 IMP advances A (C03 l.177)."""
    total = Fraction(str(carry)) if isinstance(carry, float) else Fraction(carry)
    return total + sum((knockout_board(r1, r2) for r1, r2 in rooms), Fraction(0))


def board_a_match(net: Number) -> int:
    """Board-a-match points for a team's net score: 2 win, 1 tie, 0 loss (C03 l.163)."""
    if isinstance(net, bool) or not isinstance(net, Real):
        raise ScoringError("net", net, "a net score is a number")
    return 2 if net > 0 else 1 if net == 0 else 0


def total_points(nets: Sequence[int]) -> int:
    """Total-points scoring: the sum of a team's net scores (L17 78C; no honours)."""
    return sum(nets)


_PATTON = ((20, 5), (120, 6), (320, 7), (760, 8))


def patton_points(net: Number) -> tuple[int, int]:
    """Patton (C03 l.189-193): 8 points per board split by the net difference; (A, B)."""
    if isinstance(net, bool) or not isinstance(net, Real):
        raise ScoringError("net", net, "a net score is a number")
    winner = 4
    for threshold, pts in _PATTON:
        if abs(net) >= threshold:
            winner = pts
    return (winner, 8 - winner) if net >= 0 else (8 - winner, winner)

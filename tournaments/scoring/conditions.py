"""Law 2: dealer and vulnerability from the board number.

The printed table (L17 Law 2, l.259) repeats every 16 boards; the closed form
below reproduces it, so no 16-row table has to be kept in sync by hand.
A physical board marked differently overrides this (Law 2, last paragraph):
pass ``override`` with what is printed on the board.
"""

from __future__ import annotations

from typing import Literal

from .errors import ScoringError

Seat = Literal["N", "E", "S", "W"]
Vulnerability = Literal["NS", "EW", "All"] | None

SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")
_VULS: tuple[Vulnerability, ...] = (None, "NS", "EW", "All")


def board_conditions(
    board: int, override: tuple[Seat, Vulnerability] | None = None
) -> tuple[Seat, Vulnerability]:
    """Return ``(dealer, vulnerability)``; vulnerability is None, "NS", "EW" or "All"."""
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise ScoringError("board", board, "board numbers are integers starting at 1")
    if override is not None:
        dealer, vul = override
        if dealer not in SEATS:
            raise ScoringError("dealer", dealer, "dealer must be one of N, E, S, W")
        if vul not in _VULS:
            raise ScoringError("vulnerability", vul, "must be None, 'NS', 'EW' or 'All'")
        return dealer, vul
    k = (board - 1) % 16
    return SEATS[k % 4], _VULS[(k + k // 4) % 4]


def is_vulnerable(vulnerability: Vulnerability, seat: Seat) -> bool:
    """Whether the side of ``seat`` is vulnerable; the contract score needs the declarer's."""
    if seat not in SEATS:
        raise ScoringError("seat", seat, "seat must be one of N, E, S, W")
    if vulnerability is None:
        return False
    if vulnerability == "All":
        return True
    if vulnerability not in ("NS", "EW"):
        raise ScoringError("vulnerability", vulnerability, "must be None, 'NS', 'EW' or 'All'")
    return seat in vulnerability

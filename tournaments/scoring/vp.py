"""IMP margin → victory points: WBF continuous 20-VP scale, its discrete form, the course's 25-VP table.

WBF (2013, "The New WBF IMP to VP Scales"; formats.md): for a margin M over
N boards, X = 15·√N, τ = (√5 − 1)/2, winner = 10 + 10·(1 − τ^(3M/X))/(1 − τ³),
capped at 20, to two decimals. Rounding can make an extra IMP worth more than
the previous one; the scale is corrected by raising the lower value by 0.01
until the increments never grow (the tables are built for integer margins).
Fractional margins interpolate linearly between the neighbouring integers.
The discrete scale is the continuous one rounded to whole VPs (half up).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from numbers import Real

from .errors import ScoringError
from .numeric import Number

SCALES = ("wbf20", "wbf20-discrete", "course25")
LOSERS = ("own", "complement")

# C03 l.144-161 exactly as printed (tabs collapsed); the 28-board "65-68" is fixed below.
_COURSE25_PRINTED = """\
15-15 0-1 0-1 0-1 0-2 0-2 0-2 0-3 0-3 0-3 0-3 0-3 0-4
16-14 2-5 2-6 2-6 3-7 3-7 3-8 4-9 4-10 4-10 4-11 4-11 5-12
17-13 6-8 7-9 7-9 8-10 8-11 9-12 10-14 11-15 11-16 12-17 12-18 13-20
18-12 9-11 10-12 10-12 11-14 12-15 13-16 15-19 16-20 17-22 18-23 19-25 21-28
19-11 12-14 13-15 13-16 15-18 16-19 17-21 20-24 21-25 23-28 24-29 26-32 29-36
20-10 15-17 16-18 17-20 19-22 20-23 22-26 25-29 26-31 29-34 30-36 33-39 37-44
21-9 18-20 19-21 21-24 23-26 24-27 27-31 30-34 32-37 35-40 37-43 40-46 45-52
22-8 21-23 22-25 25-28 27-30 28-31 32-36 35-39 38-43 41-46 44-50 47-53 53-60
23-7 24-26 26-29 29-32 31-34 32-36 37-41 40-45 44-49 47-52 51-57 54-60 61-68
24-6 27-29 30-33 33-36 35-38 37-41 42-47 46-51 50-55 53-58 58-64 61-68 69-76
25-5 30-33 34-37 37-40 39-43 42-46 48-53 52-57 56-61 59-65 65-71 69-76 77-84
25-4 34-37 38-41 41-45 44-48 47-52 54-59 58-64 65-68 66-73 72-79 77-84 85-93
25-3 38-41 42-45 46-50 49-54 53-58 60-65 65-71 69-76 74-82 80-88 85-93 94-102
25-2 42-45 46-50 51-55 55-60 59-64 66-72 72-79 77-85 83-91 89-97 94-102 103-112
25-1 46-50 51-55 56-61 61-66 65-71 73-79 80-87 86-94 92-100 98-106 103-112 113-123
25-00 51+ 56+ 62+ 67+ 72+ 80+ 88+ 95+ 101+ 107+ 113+ 124+"""
COURSE25_BOARDS: tuple[int, ...] = (8, 10, 12, 14, 16, 20, 24, 28, 32, 36, 40, 48)
# Source error (scoring-spec §6.3): 28 boards, 25-4 reads "65-68"; contiguity needs 62-68.
_COURSE25_ERRATA = {(11, 28): (62, 68)}


def _parse_course25() -> dict[int, list[tuple[int, int, int, int]]]:
    """boards → [(low, high, winner_vp, loser_vp)], high = -1 for the open last band."""
    table: dict[int, list[tuple[int, int, int, int]]] = {b: [] for b in COURSE25_BOARDS}
    for row_no, line in enumerate(_COURSE25_PRINTED.splitlines()):
        head, *cells = line.split()
        w, loser = (int(x) for x in head.split("-"))
        for boards, cell in zip(COURSE25_BOARDS, cells, strict=True):
            if cell.endswith("+"):
                low, high = int(cell[:-1]), -1
            else:
                low, high = (int(x) for x in cell.split("-"))
            low, high = _COURSE25_ERRATA.get((row_no, boards), (low, high))
            table[boards].append((low, high, w, loser))
    return table


COURSE25 = _parse_course25()

_TAU = (math.sqrt(5) - 1) / 2
_TAU3 = _TAU**3


def _wbf_raw_hundredths(margin: int, boards: int) -> int:
    blitz = 15 * math.sqrt(boards)
    if margin >= blitz:
        return 2000
    vp: float = 10 + 10 * (1 - _TAU ** (3 * margin / blitz)) / (1 - _TAU3)
    return min(2000, math.floor(vp * 100 + 0.5 + 1e-9))


@lru_cache(maxsize=256)
def wbf20_table(boards: int) -> tuple[int, ...]:
    """Winner VPs in hundredths for margins 0, 1, 2, … up to the first 20.00 (corrected)."""
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise ScoringError("boards", boards, "number of boards must be a positive integer")
    values = [_wbf_raw_hundredths(m, boards) for m in range(math.ceil(15 * math.sqrt(boards)) + 2)]
    while True:
        for i in range(2, len(values)):
            if values[i] - values[i - 1] > values[i - 1] - values[i - 2]:
                values[i - 1] += 1
                break
        else:
            break
    while len(values) > 1 and values[-2] == 2000:
        values.pop()
    return tuple(values)


def _wbf20_winner(margin: Fraction, boards: int) -> Fraction:
    table = wbf20_table(boards)
    whole = math.floor(margin)
    if whole >= len(table) - 1:
        return Fraction(20)
    low, high = Fraction(table[whole], 100), Fraction(table[whole + 1], 100)
    return low + (high - low) * (margin - whole)


def _course25(margin: Fraction, boards: int) -> tuple[int, int]:
    if boards not in COURSE25:
        raise ScoringError(
            "boards", boards, f"the course's 25-VP table has columns {COURSE25_BOARDS}"
        )
    if margin.denominator != 1:
        raise ScoringError("margin", margin, "the course's 25-VP table is for whole IMP margins")
    for low, high, w, loser in COURSE25[boards]:
        if margin >= low and (high < 0 or margin <= high):
            return w, loser
    raise AssertionError("the table covers every margin")  # pragma: no cover


def victory_points(margin: Number, boards: int, scale: str = "wbf20") -> tuple[float, float]:
    """(winner VPs, loser VPs) for an IMP margin; the sign only says which team won.

    A team's own VPs are ``vp_for_margin`` (used when adjusted scores make the
    two teams' margins differ).
    """
    if isinstance(margin, bool) or not isinstance(margin, Real):
        raise ScoringError("margin", margin, "an IMP margin is a number")
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise ScoringError("boards", boards, "number of boards must be a positive integer")
    m = abs(Fraction(str(margin)) if isinstance(margin, float) else Fraction(margin))
    if scale == "wbf20":
        w = _wbf20_winner(m, boards)
        w = Fraction(math.floor(w * 100 + Fraction(1, 2)), 100)
        return float(w), float(20 - w)
    if scale == "wbf20-discrete":
        w = _wbf20_winner(m, boards)
        whole = math.floor(w + Fraction(1, 2))
        return float(whole), float(20 - whole)
    if scale == "course25":
        w25, l25 = _course25(m, boards)
        return float(w25), float(l25)
    raise ScoringError("scale", scale, f"known scales: {', '.join(SCALES)}")


def vp_for_margin(margin: Number, boards: int, scale: str = "wbf20") -> float:
    """A team's VPs from its own margin: the winner's share if positive, the loser's if negative."""
    winner, loser = victory_points(margin, boards, scale)
    return winner if margin > 0 else loser if margin < 0 else winner


def team_vps(margin: Number, boards: int, scale: str = "wbf20") -> Fraction:
    """A side's VPs from its own margin, exactly (a team, or a Butler pair over a match).

    The course's 25-VP table is for whole margins; a fractional margin (weighted or
    cross-IMP scores, knockout halves) reads as the nearest whole margin, an exact half going
    up, in the side's favour (C03 l.827: each side looks up its own margin; Art. 12: "se
    favorecerá al bando inocente"). The same rule for either sign: -12.7 reads as -13, as
    12.7 reads as 13, so a zero-sum match's two sides still share the row's VPs."""
    m = Fraction(str(margin)) if isinstance(margin, float) else Fraction(margin)
    if scale == "course25" and m.denominator != 1:
        m = Fraction(math.floor(m + Fraction(1, 2)))
    return Fraction(str(vp_for_margin(m, boards, scale)))


def match_vps(
    home_margin: Number,
    away_margin: Number,
    boards: int,
    scale: str = "wbf20",
    *,
    places: int = 2,
    loser: str = "own",
) -> tuple[Fraction, Fraction]:
    """Both teams' VPs of a match, as a scorer prints them.

    ``places``: the continuous scale's VPs (two decimals, as the WBF gives them) rounded
    half up once more to that many decimals (some scorers print one). ``loser``: ``"own"``,
    each team's VPs from its own margin (``team_vps``), rounded on its own; ``"complement"``,
    the team with the larger margin takes its VPs and the other 20 minus those (so the two
    always add up to 20, 15.25 printed as 15.3 leaving 4.7). Equal margins (a tie, or two
    equal adjusted margins) take their own VPs either way."""
    if loser not in LOSERS:
        raise ScoringError("loser", loser, f"known rules: {', '.join(LOSERS)}")
    if isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 2:
        raise ScoringError("places", places, "VPs are printed with 0, 1 or 2 decimals")
    if loser == "complement" and scale == "course25":
        raise ScoringError("loser", loser, "the course's 25-VP table gives both teams' VPs")

    def printed(margin: Number) -> Fraction:
        value = team_vps(margin, boards, scale)
        if places == 2 or scale != "wbf20":
            return value
        step = Fraction(1, 10**places)
        return math.floor(value / step + Fraction(1, 2)) * step

    home, away = printed(home_margin), printed(away_margin)
    h, a = (
        Fraction(str(m)) if isinstance(m, float) else Fraction(m)
        for m in (home_margin, away_margin)
    )
    if loser == "complement" and h != a:
        if h > a:
            away = 20 - home
        else:
            home = 20 - away
    return home, away

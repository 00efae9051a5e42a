"""A small scorer of our own that writes USEBIO 1.2 files the way other scorers do.

Each convention the importer must recognise is one ``Style`` switch: marks per line
Neuberg-factored or raw on the board's own top (then totalled by Neuberg or by plain
ratio), a short pair's total as played or factored up, the Butler datum (mean of all or
without top and bottom, rounded to 10 or not, per section or over the field), ties written
``3=``, artificial scores with the points the director awarded, cross-IMPs written as the
average, the sum or the factored sum of the comparisons (rounded before totalling or not),
and ``HANDSET`` under the root (beside ``EVENT``) or inside ``EVENT``. It computes every figure itself from the
scores (not through the product's scoring), so a test compares two independent scorers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from xml.sax.saxutils import escape

IMP_STEPS = [
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
]


def imps(diff: Fraction) -> int:
    sign = 1 if diff >= 0 else -1
    return sign * sum(1 for t in IMP_STEPS if abs(diff) >= t)


def rounded(value: Fraction, places: int, mode=ROUND_HALF_UP) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-places), rounding=mode))


@dataclass
class Style:
    handset: str = "root"  # "root", "event" or "" (no hand records)
    # per line: factored ("neuberg", "average": S + (N − n), "ratio") or "raw" (own top)
    marks: str = "neuberg"
    factoring: str = "neuberg"  # raw marks totalled by "neuberg", "ratio" or "average"
    board_marks: dict = field(default_factory=dict)  # board → its own "marks" style
    display_top: int | None = None  # line marks rescaled to this top, in whole numbers
    handicaps: str = ""  # "pair" or "player": HANDICAP given, % = scratch + handicap / 2
    handicap_places: bool = True  # with handicaps: places in the handicapped order
    totals: str = "played"  # a short pair's total: "played" or "factored" up to the full set
    datum: str = "course"  # Butler: "course" (without top and bottom), "trim2" (two), "mean"
    round_to: int | None = None  # Butler datum rounded to 10 or not
    datum_field: str = "field"  # Butler datum per "section" or over the "field"
    cross: str = "average"  # cross-IMPs: "average", "sum" or "factored" (to the fullest board)
    cross_places: int | None = None  # cross-IMP marks rounded before totalling (None: exact)
    cross_half: str = "away"  # with cross_places, a half rounded "away" from zero or to "even"
    total_is_percentage: bool = False  # TOTAL_SCORE carries the percentage, not the points
    sessions: bool = True  # SECTIONs inside a SESSION, or directly under EVENT
    equals: bool = True  # ties written "3=", or "3" for each pair sharing it


@dataclass
class Line:
    board: int
    round: int
    table: int
    ns: int
    ew: int
    score: int | str  # an int, or "A6040"-style
    awarded: tuple[Fraction, Fraction] | None = None  # artificial: the % the director gave
    awarded_imps: tuple[int, int] | None = None  # artificial in IMPs (default ±2 / 0)
    contract: str = ""  # written when given ("NP": a passed-out board, as some programs do)


@dataclass
class Section:
    letter: str
    directional: bool
    pairs: list[int]  # numbers (each with both lines in a Mitchell)
    lines: list[Line]
    full_set: int  # boards each pair plays in the full movement
    ew_pairs: list[int] | None = None  # a Mitchell with fewer EW pairs


@dataclass
class Event:
    kind: str  # "MP_PAIRS", "BUTLER_PAIRS" or "CROSS_IMPS"
    sections: list[Section]
    expected: int  # N, the theoretical results per board (MP)
    identifier: str = "EV-2024-031"
    deals: dict[int, tuple[str, str, str]] = field(default_factory=dict)  # deal, dealer, vul


def _artificial(score: str) -> tuple[int, int]:
    return int(score[1:3]), int(score[3:5])


def _mp_marks(event: Event, style: Style, lines: list[Line]) -> dict[int, tuple]:
    """id(line) → (written NS, written EW, exact NS, exact EW) for one board's field."""
    big_n, top = event.expected, 2 * (event.expected - 1)
    real = [ln for ln in lines if isinstance(ln.score, int)]
    n = len(real)
    out = {}
    marks_style = style.board_marks.get(lines[0].board, style.marks) if lines else style.marks
    how = style.factoring if marks_style == "raw" else marks_style
    for ln in real:
        mp = sum(
            2 if o.score < ln.score else 1 if o.score == ln.score else 0
            for o in real
            if o is not ln
        )
        own = 2 * (n - 1)
        if n == big_n:
            ns = Fraction(mp)
        elif how == "neuberg":
            ns = Fraction(big_n * (mp + 1), n) - 1
        elif how == "average":
            ns = Fraction(mp + big_n - n)
        else:
            ns = Fraction(mp * (big_n - 1), n - 1)
        if marks_style == "raw" and n != big_n:
            out[id(ln)] = (str(mp), str(own - mp), ns, top - ns)
        elif style.display_top:  # shown on another top, whole numbers; the exact ns counts
            scale = Fraction(style.display_top, top)
            out[id(ln)] = (rounded(ns * scale, 0), rounded((top - ns) * scale, 0), ns, top - ns)
        else:
            out[id(ln)] = (
                rounded(ns, 1, ROUND_HALF_EVEN),
                rounded(top - ns, 1, ROUND_HALF_EVEN),
                ns,
                top - ns,
            )
    for ln in lines:
        if isinstance(ln.score, str):
            ns_pct, ew_pct = ln.awarded or _artificial(ln.score)
            ns, ew = Fraction(ns_pct) * top / 100, Fraction(ew_pct) * top / 100
            out[id(ln)] = (rounded(ns, 2), rounded(ew, 2), ns, ew)
    return out


def _imp_award(ln: Line) -> tuple:
    """An artificial line in IMPs: the director's award, or ±2 / 0 by its percentages."""
    ns, ew = ln.awarded_imps or tuple(
        (pct > 50) * 2 - (pct < 50) * 2 for pct in _artificial(ln.score)
    )
    return (str(ns), str(ew), Fraction(ns), Fraction(ew))


def _butler_marks(style: Style, lines: list[Line]) -> dict[int, tuple]:
    real = sorted(ln.score for ln in lines if isinstance(ln.score, int))
    drop = {"course": 1, "trim2": 2 if len(real) >= 5 else 1}.get(style.datum, 0)
    kept = real[drop:-drop] if drop and len(real) >= 3 else real
    datum = Fraction(sum(kept), len(kept))
    if style.round_to:
        datum = Fraction(
            int(
                (Decimal(datum.numerator) / datum.denominator / style.round_to).quantize(
                    Decimal(1), rounding=ROUND_HALF_UP
                )
            )
            * style.round_to
        )
    out = {}
    for ln in lines:
        if isinstance(ln.score, str):
            out[id(ln)] = _imp_award(ln)
            continue
        v = imps(ln.score - datum)
        out[id(ln)] = (str(v), str(-v), Fraction(v), Fraction(-v))
    return out


def _cross_marks(style: Style, lines: list[Line], most: int) -> dict[int, tuple]:
    """Each result against every other: the sum of the IMPs, then as the style writes it;
    the printed mark has the style's decimals (2 when it totals the exact marks)."""
    real = [ln for ln in lines if isinstance(ln.score, int)]
    comparisons = max(len(real) - 1, 1)
    out = {}
    for ln in lines:
        if isinstance(ln.score, str):
            out[id(ln)] = _imp_award(ln)
            continue
        total = Fraction(sum(imps(ln.score - o.score) for o in real if o is not ln))
        value = {
            "average": total / comparisons,
            "sum": total,
            "factored": total * max(most - 1, 1) / comparisons,
        }[style.cross]
        places = 2 if style.cross_places is None else style.cross_places
        mode = (
            ROUND_HALF_EVEN
            if style.cross_places is not None and style.cross_half == "even"
            else ROUND_HALF_UP
        )
        printed = rounded(value, places, mode)
        exact = value if style.cross_places is None else Fraction(printed)
        out[id(ln)] = (printed, rounded(-value, places, mode), exact, -exact)
    return out


def figures(event: Event, style: Style) -> tuple[dict, dict]:
    """Every line's marks and every pair's (total, percentage, place) as the file writes them."""
    marks: dict[int, tuple] = {}
    fields: dict[tuple, list[Line]] = defaultdict(list)
    for s in event.sections:
        for ln in s.lines:
            key = (
                s.letter if style.datum_field == "section" and event.kind != "MP_PAIRS" else "",
                ln.board,
            )
            fields[key].append(ln)
    most = max(
        (sum(isinstance(ln.score, int) for ln in lines) for lines in fields.values()), default=0
    )
    for lines in fields.values():
        marks.update(
            _mp_marks(event, style, lines)
            if event.kind == "MP_PAIRS"
            else _cross_marks(style, lines, most)
            if event.kind == "CROSS_IMPS"
            else _butler_marks(style, lines)
        )
    top = 2 * (event.expected - 1)
    standings = {}
    for s in event.sections:
        got: dict[tuple, list] = defaultdict(lambda: [Fraction(0), 0])
        for ln in s.lines:
            for pair, side, i in ((ln.ns, "NS", 2), (ln.ew, "EW", 3)):
                key = (pair, side if s.directional else "")
                got[key][0] += marks[id(ln)][i]
                got[key][1] += 1
        rows = {}
        for key, (points, count) in got.items():
            shown = points * s.full_set / count if style.totals == "factored" else points
            pct = points * 100 / (top * count) if event.kind == "MP_PAIRS" else None
            if style.handicaps and pct is not None:
                pct += Fraction(handicap_of(*key)) / 2
            rows[key] = [rounded(shown, 2), rounded(pct, 2) if pct is not None else "", None]
            if style.total_is_percentage and pct is not None:
                rows[key][0] = rows[key][1]
        for line in ("NS", "EW") if s.directional else ("",):
            group = [k for k in rows if k[1] == line]
            column = 1 if event.kind == "MP_PAIRS" else 0

            def value(k, column=column, rows=rows):
                return Decimal(rows[k][column])

            if style.handicaps and not style.handicap_places:  # places by scratch order

                def value(k, rows=rows):  # noqa: F811
                    return Decimal(rows[k][1]) - handicap_of(*k) / 2

            group.sort(key=value, reverse=True)
            for k in group:
                same = [o for o in group if value(o) == value(k)]
                place = 1 + sum(1 for o in group if value(o) > value(k))
                rows[k][2] = f"{place}=" if len(same) > 1 and style.equals else str(place)
        standings[s.letter] = rows
    return marks, standings


def handicap_of(number: int, line: str) -> Decimal:
    """The writer's handicap for a pair: -12 to 14 percentage points (even: a player's half
    is whole)."""
    return Decimal((number * 5 + (line == "EW") * 3) % 14 - 6) * 2


HANDS = ("N", "E", "S", "W")


def _handset(event: Event) -> str:
    out = []
    for number, (deal, dealer, vul) in sorted(event.deals.items()):
        hands = deal[2:].split()
        body = "".join(
            f"<HAND><DIRECTION>{seat}</DIRECTION>"
            + "".join(
                f"<{tag}>{' '.join(cards) if cards else '-'}</{tag}>"
                for tag, cards in zip(
                    ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), hand.split("."), strict=True
                )
            )
            + "</HAND>"
            for seat, hand in zip(HANDS, hands, strict=True)
        )
        out.append(
            f"<BOARD><BOARD_NUMBER>{number}</BOARD_NUMBER><DEALER>{dealer}</DEALER>"
            f"<VULNERABILITY>{vul}</VULNERABILITY>{body}</BOARD>"
        )
    return "<HANDSET>" + "".join(out) + "</HANDSET>"


def write(event: Event, style: Style | None = None) -> str:
    style = style or Style()
    marks, standings = figures(event, style)
    tag = {"MP_PAIRS": "MATCH_POINTS", "CROSS_IMPS": "CROSS_IMP_POINTS"}.get(
        event.kind, "BUTLER_POINTS"
    )
    sections = []
    for s in event.sections:
        pairs = []
        for (number, line), (total, pct, place) in sorted(standings[s.letter].items()):
            pairs.append(
                f"<PAIR><PAIR_NUMBER>{number}</PAIR_NUMBER>"
                + (f"<DIRECTION>{line}</DIRECTION>" if line else "")
                + f"<TOTAL_SCORE>{total}</TOTAL_SCORE>"
                + (f"<PERCENTAGE>{pct}</PERCENTAGE>" if pct else "")
                + f"<PLACE>{place}</PLACE>"
                + (
                    f"<HANDICAP>{handicap_of(number, line)}</HANDICAP>"
                    if style.handicaps == "pair"
                    else ""
                )
                + "".join(
                    f"<PLAYER><PLAYER_NAME>{escape(name)}</PLAYER_NAME>"
                    f"<NATIONAL_ID_NUMBER>{s.letter}{number}{line}{k}"
                    f"</NATIONAL_ID_NUMBER>"
                    + (
                        f"<HANDICAP>{handicap_of(number, line) / 2}</HANDICAP>"
                        if style.handicaps == "player"
                        else ""
                    )
                    + "</PLAYER>"
                    for k, name in enumerate(
                        (
                            f"Jugador {s.letter}{number}{line} Norte",
                            f"Jugador {s.letter}{number}{line} Sur",
                        )
                    )
                )
                + "</PAIR>"
            )
        boards = defaultdict(list)
        for ln in s.lines:
            ns, ew = marks[id(ln)][:2]
            boards[ln.board].append(
                f"<TRAVELLER_LINE><ROUND_NUMBER>{ln.round}</ROUND_NUMBER>"
                f"<TABLE_NUMBER>{ln.table}</TABLE_NUMBER>"
                f"<NS_PAIR_NUMBER>{ln.ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ln.ew}"
                f"</EW_PAIR_NUMBER>"
                + (f"<CONTRACT>{ln.contract}</CONTRACT>" if ln.contract else "")
                + f"<SCORE>{ln.score}</SCORE>"
                f"<NS_{tag}>{ns}</NS_{tag}><EW_{tag}>{ew}</EW_{tag}></TRAVELLER_LINE>"
            )
        body = "".join(
            f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>{''.join(ls)}</BOARD>"
            for b, ls in sorted(boards.items())
        )
        sections.append(
            f'<SECTION SECTION_ID="{s.letter}"><PARTICIPANTS>{"".join(pairs)}'
            f"</PARTICIPANTS>{body}</SECTION>"
        )
    handset = _handset(event) if event.deals else ""
    scoring = {"MP_PAIRS": "MATCH_POINTS", "CROSS_IMPS": "CROSS_IMPS"}.get(event.kind, "BUTLER")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n'
        '<USEBIO Version="1.2"><CLUB><CLUB_NAME>Club de otro programa</CLUB_NAME></CLUB>'
        f'<EVENT EVENT_TYPE="{event.kind}"><EVENT_IDENTIFIER>{event.identifier}'
        f"</EVENT_IDENTIFIER><EVENT_DESCRIPTION>Torneo importado</EVENT_DESCRIPTION>"
        f"<PROGRAM_NAME>OtroScorer</PROGRAM_NAME><DATE>12/03/2024</DATE>"
        f"<BOARD_SCORING_METHOD>{scoring}</BOARD_SCORING_METHOD>"
        + (
            f'<SESSION SESSION_ID="1">{"".join(sections)}</SESSION>'
            if style.sessions
            else "".join(sections)
        )
        + (handset if style.handset == "event" else "")
        + "</EVENT>"
        + (handset if style.handset == "root" else "")
        + "</USEBIO>"
    )

"""A tournament's results as PBN 2.1: one game per board with its deal and ``ScoreTable``,
and each pool's ranking as a ``TotalScoreTable`` on its first board.

A tournament of several sessions writes each session as its own event ("Name (2)") and
ends with one more game for the whole event ("Name"): no results, only the overall
``TotalScoreTable`` across sessions (PBN keeps one total table per event; a session's
first board already holds that session's). Pair ids there are the ones of the last
session the pair played.

PBN 2.1 (§3, identification section) makes its Mandatory Tag Set mandatory in *export*
format: every game carries Event, Site, Date, Board, West, North, East, South, Dealer,
Vulnerable, Deal, Scoring, Declarer, Contract and Result, in that order, an unknown value
written "?", lines ending CRLF, and the file says so with ``% EXPORT``. A game of ours is a
board's traveller, which holds many tables: its players, declarer, contract, result and round
are "?" there and given per table in its ``ScoreTable``. The closing game sits on the event's
first board (PBN readers such as endplay refuse a board number that is not a number).

Sections that share boards (a pool) share one traveller per board; pair ids then carry
the section letter ("A3"). Columns follow PBN 2.1's names; empty cells are ``-``; a
string with spaces is quoted, and only the last column (``Names``) may hold one, so
readers that split rows on blanks still find every other column in place.
"""

from __future__ import annotations

from collections import defaultdict

from tournaments.services.results.snapshot import EventInfo, EventSnapshot, Line, Participant

from ..models import EventType
from ..scoring import methods
from .numbers import number_text
from .usebio import score_text

VULNERABLE = {"": "None", "NS": "NS", "EW": "EW", "All": "All"}


def pbn_scoring(t: EventInfo, default: str) -> str:
    """PBN's [Scoring] name of the event's method, ``default`` for one PBN has no name for."""
    known = methods.BY_CODE.get(t.scoring_method)
    return known.pbn_scoring if known else default


def _tag(name: str, value) -> str:
    text = str(value if value is not None else "").replace('"', "'").replace("\n", " ")
    return f'[{name} "{text}"]'


def _cell(value) -> str:
    text = "" if value is None else str(value)
    if text == "":
        return "-"
    if any(c.isspace() for c in text):
        return '"' + text.replace('"', "'") + '"'
    return text


def _row(cells) -> str:
    return " ".join(_cell(c) for c in cells)


def _pair_id(p: Participant, letter: str, many: bool) -> str:
    return f"{letter}{p.number}" if many else str(p.number)


def score_columns(imp: bool, individual: bool = False) -> list[str]:
    marks = (
        ["IMP_NS\\6R", "IMP_EW\\6R"]
        if imp
        else ["MP_NS\\5R", "MP_EW\\5R", "Percentage_NS\\3R", "Percentage_EW\\3R"]
    )
    ids = (
        ["PlayerId_N\\3R", "PlayerId_S\\3R", "PlayerId_E\\3R", "PlayerId_W\\3R"]
        if individual
        else ["PairId_NS\\4R", "PairId_EW\\4R"]
    )
    return [
        "Table\\2R",
        "Round\\2R",
        *ids,
        "Contract\\5L",
        "Declarer\\1R",
        "Result\\2R",
        "Lead\\3L",
        "Score_NS\\6R",
        "Score_EW\\6R",
        *marks,
    ]


TOTAL_COLUMNS = [
    "Rank\\3R",
    "PairId\\4R",
    "Direction\\2R",
    "TotalScore\\7R",
    "TotalPercentage\\6R",
    "NrBoards\\2R",
    "Names\\40L",
]
INDIVIDUAL_TOTAL_COLUMNS = [
    "Rank\\3R",
    "PlayerId\\4R",
    "TotalScore\\7R",
    "TotalPercentage\\6R",
    "NrBoards\\2R",
    "Names\\40L",
]
EVENT_TOTAL_COLUMNS = [
    "Rank\\3R",
    "PairId\\4R",
    "TotalScore\\7R",
    "TotalPercentage\\6R",
    "NrBoards\\3R",
    "Names\\40L",
]


def score_cells(line: Line) -> tuple:
    """Score_NS and Score_EW: the score on the side that made it (``0`` NS), or the
    adjusted score's code in Score_NS."""
    score = score_text(line)
    if score.lstrip("-").isdigit():
        value = int(score)
        ns, ew = (value, None) if value >= 0 else (None, -value)
        if value == 0:
            ns = 0
        return ns, ew
    return score, None


def play_cells(line: Line) -> list:
    """Contract, Declarer, Result and Lead (no contract for an adjusted score)."""
    contract = "Pass" if line.contract == "PASS" else line.contract
    return [contract if not line.adjustment else None, line.declarer, line.tricks, line.lead]


def _line_row(line: Line, letter: str, many: bool, imp: bool) -> list:
    marks = (
        [number_text(line.ns_mark), number_text(line.ew_mark)]
        if imp
        else [
            number_text(line.ns_mark),
            number_text(line.ew_mark),
            number_text(line.ns_pct, 0),
            number_text(line.ew_pct, 0),
        ]
    )
    if line.south is not None and line.west is not None:
        ids = [line.ns.number, line.south.number, line.ew.number, line.west.number]
    else:
        ids = [_pair_id(line.ns, letter, many), _pair_id(line.ew, letter, many)]
    return [line.table, line.round, *ids, *play_cells(line), *score_cells(line), *marks]


EOL = "\r\n"  # export format's line end
UNKNOWN = "?"


def header(data: EventSnapshot) -> list[str]:
    return [
        "% PBN 2.1",
        "% EXPORT",
        "% Content-type: text/x-pbn; charset=UTF-8",
        "% Creator: clubsite",
        f"% ResultsVersion: {data.version}",
        "",
    ]


def board_tags(t: EventInfo, event: str, board, scoring: str) -> list[str]:
    """The Mandatory Tag Set in its order, then Round: a traveller's per-table tags are "?"
    (its ScoreTable holds them); a deal not known is "" (readers refuse "?" there)."""
    return [
        _tag("Event", event),
        _tag("Site", t.venue or UNKNOWN),
        _tag("Date", f"{t.date:%Y.%m.%d}"),
        _tag("Board", board.number),
        *(_tag(seat, UNKNOWN) for seat in ("West", "North", "East", "South")),
        _tag("Dealer", board.dealer),
        _tag("Vulnerable", VULNERABLE.get(board.vulnerability, "None")),
        _tag("Deal", board.deal),
        _tag("Scoring", scoring),
        *(_tag(name, UNKNOWN) for name in ("Declarer", "Contract", "Result", "Round")),
    ]


def render(data: EventSnapshot) -> str:
    """A pairs or individual event's file (a teams event's: ``pbn_teams.render_teams``)."""
    t = data.tournament
    imp = not t.is_matchpoints
    individual = t.event_type == EventType.INDIVIDUAL
    out = header(data)
    for session in data.sessions:
        event = t.name if len(data.sessions) == 1 else f"{t.name} ({session.number})"
        pools: dict[str, list] = defaultdict(list)
        for section in session.sections:
            pools[section.pool].append(section)
        for pool_sections in pools.values():
            many = len(session.sections) > 1
            boards: dict[int, dict] = {}
            lines: dict[int, list] = defaultdict(list)
            for section in pool_sections:
                for board in section.boards:
                    boards.setdefault(board.number, board)
                    lines[board.number] += [(line, section.letter) for line in board.lines]
            standings = [(p, s.letter) for s in pool_sections for p in s.participants]
            for index, number in enumerate(sorted(boards)):
                board = boards[number]
                out += board_tags(t, event, board, pbn_scoring(t, methods.MATCHPOINTS.pbn_scoring))
                if board.par and board.par.get("score") is not None:
                    out.append(_tag("OptimumScore", f"NS {board.par['score']}"))
                out.append(_tag("ScoreTable", ";".join(score_columns(imp, individual))))
                for line, letter in sorted(
                    lines[number], key=lambda x: (x[1], x[0].table, x[0].round)
                ):
                    out.append(_row(_line_row(line, letter, many, imp)))
                if index == 0 and any(p.place is not None for p, _letter in standings):
                    columns = INDIVIDUAL_TOTAL_COLUMNS if individual else TOTAL_COLUMNS
                    out.append(_tag("TotalScoreTable", ";".join(columns)))
                    for p, letter in sorted(
                        standings, key=lambda x: (x[0].direction, x[0].place or 9999)
                    ):
                        cells = [
                            p.place,
                            _pair_id(p, letter, many),
                            p.direction,
                            number_text(p.points),
                            number_text(p.percentage),
                            p.boards,
                            p.name,
                        ]
                        out.append(_row(cells[:2] + cells[3:] if individual else cells))
                out.append("")
    if data.totals:
        out += _event_totals(data)
    return EOL.join(out) + EOL


def _event_totals(data: EventSnapshot) -> list[str]:
    """The closing game of a multi-session event: its overall ranking."""
    t = data.tournament
    last_id: dict[int, str] = {}
    for session in data.sessions:
        many = len(session.sections) > 1
        for section in session.sections:
            for p in section.participants:
                last_id[p.entry_id] = _pair_id(p, section.letter, many) + p.direction
    first = min(
        (b for s in data.sessions[:1] for sec in s.sections for b in sec.boards),
        key=lambda b: b.number,
    )
    out = [
        *board_tags(t, t.name, first, pbn_scoring(t, methods.MATCHPOINTS.pbn_scoring)),
        _tag("TotalScoreTable", ";".join(EVENT_TOTAL_COLUMNS)),
    ]
    for p in data.totals:
        out.append(
            _row(
                [
                    p.place,
                    last_id.get(p.entry_id),
                    number_text(p.points),
                    number_text(p.percentage),
                    p.boards,
                    p.name,
                ]
            )
        )
    return [*out, ""]

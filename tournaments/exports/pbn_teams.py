"""A teams event as PBN 2.1: for every board one game per room, ``[Room "Open"]`` then
``[Room "Closed"]``, each with the deal and a ``ScoreTable`` of that room's tables.

``Room`` is PBN 2.1's supplemental tag for the room of a team match. A row is one match's
table in that room: the team numbers sitting North-South and East-West (``PairId_NS``/
``PairId_EW`` hold team numbers, our reading), the play, the score and ``IMP_NS``/``IMP_EW``,
the IMPs the team sitting in that line won on the board (empty while the other room has no
score). The standing is a ``TotalScoreTable`` on the event's first game: place, team
number, VPs (or IMPs in an IMP-scored event), boards and the team name.
"""

from __future__ import annotations

from tournaments.services.results.snapshot import EventSnapshot, Line

from ..scoring import methods
from .numbers import number_text
from .pbn import EOL, _row, _tag, board_tags, header, pbn_scoring, play_cells, score_cells

ROOMS = (("Open", "open"), ("Closed", "closed"))
SCORE_COLUMNS = [
    "Table\\2R",
    "Round\\2R",
    "PairId_NS\\4R",
    "PairId_EW\\4R",
    "Contract\\5L",
    "Declarer\\1R",
    "Result\\2R",
    "Lead\\3L",
    "Score_NS\\6R",
    "Score_EW\\6R",
    "IMP_NS\\6R",
    "IMP_EW\\6R",
]
TOTAL_COLUMNS = ["Rank\\3R", "TeamId\\4R", "TotalScore\\7R", "NrBoards\\3R", "Names\\40L"]


def _row_for(line: Line, ns_imps, ew_imps) -> str:
    return _row(
        [
            line.table,
            line.round,
            line.ns.number,
            line.ew.number,
            *play_cells(line),
            *score_cells(line),
            number_text(ns_imps),
            number_text(ew_imps),
        ]
    )


def render_teams(data: EventSnapshot) -> str:
    t = data.tournament
    scoring = pbn_scoring(t, methods.TEAM_VPS.pbn_scoring)
    out = header(data)
    first = True
    for session in data.sessions:
        event = t.name if len(data.sessions) == 1 else f"{t.name} ({session.number})"
        boards = {b.number: b for s in session.sections for b in s.boards}
        rows: dict[tuple[int, str], list[str]] = {}
        for m in session.matches:
            for b in m.boards:
                # Open room: home NS; closed room: away NS.
                if b.open is not None:
                    rows.setdefault((b.number, "open"), []).append(
                        _row_for(b.open, b.home_imps, b.away_imps)
                    )
                if b.closed is not None:
                    rows.setdefault((b.number, "closed"), []).append(
                        _row_for(b.closed, b.away_imps, b.home_imps)
                    )
        standings = [p for s in session.sections for p in s.participants]
        for number in sorted(boards):
            for room, key in ROOMS:
                out += board_tags(t, event, boards[number], scoring)
                out += [
                    _tag("Room", room),
                    _tag("ScoreTable", ";".join(SCORE_COLUMNS)),
                    *rows.get((number, key), []),
                ]
                if first:
                    out += _totals(standings)
                    first = False
                out.append("")
    return EOL.join(out) + EOL


def _totals(teams) -> list[str]:
    out = [_tag("TotalScoreTable", ";".join(TOTAL_COLUMNS))]
    for p in sorted(teams, key=lambda p: (p.place or 9999, p.number)):
        out.append(
            _row(
                [
                    f"{p.place}=" if p.tied else p.place,
                    p.number,
                    number_text(p.points),
                    p.boards,
                    p.name,
                ]
            )
        )
    return out

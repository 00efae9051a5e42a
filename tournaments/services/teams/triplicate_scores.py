"""The 3-team triplicate scored: each board compared table 1 v 2, 1 v 3, 2 v 3 (C03
l.211-236), one ``TeamMatch`` per table and round, the tables' boards and the pairs' totals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from tournaments.models import Result, ResultStatus, Session, TeamMatch
from tournaments.movements.teams import TRIPLICATE_TEAMS
from tournaments.services.teams.team_matches import (
    BoardComparison,
    MatchScore,
    boards_of_rounds,
    compare_board,
    room_score,
)
from tournaments.services.teams.team_schedule import teams_section

TEAM_OF_PAIR = {p: t for t, pairs in enumerate(TRIPLICATE_TEAMS, start=1) for p in pairs}


def compare_tables(rooms: dict[int, object]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """One board at the three tables → (IMPs of each table's NS pair, of each EW pair).

    Tables without a score yet are left out of the comparisons (pure)."""
    ns: dict[int, Fraction] = {}
    ew: dict[int, Fraction] = {}
    for i, j in combinations(sorted(rooms), 2):
        board = compare_board(rooms[i], rooms[j])
        if board is None:
            continue
        for table, side, imps in (
            (i, ns, board.home_imps),
            (j, ew, board.home_imps),
            (j, ns, board.away_imps),
            (i, ew, board.away_imps),
        ):
            side[table] = side.get(table, Fraction(0)) + imps
    return ns, ew


def score_triplicate(
    matches: Sequence[TeamMatch], results: Iterable[dict], boards_of: dict[int, list[int]]
) -> dict:
    """Each table-round's ``MatchScore``: home = its NS pair's IMPs, away = its EW pair's."""
    rows: dict[tuple[int, int], dict[int, object]] = defaultdict(dict)
    for r in results:
        if r.get("status", ResultStatus.OK) != ResultStatus.OK:
            continue
        rooms = rows[(r["round"], r["board__number"])]
        rooms[r["table"]] = room_score(r["ns_score"], r["adjustment"])
    by_table = {(m.round, m.number): m for m in matches}
    out = {m.pk: MatchScore() for m in matches}
    for rnd, boards in boards_of.items():
        for b in boards:
            rooms = {t: s for t, s in rows.get((rnd, b), {}).items() if s is not None}
            ns, ew = compare_tables(rooms)
            for table in set(ns) | set(ew):
                match = by_table.get((rnd, table))
                if match is not None:
                    out[match.pk].add(
                        BoardComparison(
                            None, ns.get(table, Fraction(0)), ew.get(table, Fraction(0))
                        )
                    )
    return out


@dataclass
class TableBoard:
    """One board of a triplicate table-round for the pages: the three tables' NS scores and
    this table's pairs' IMPs."""

    number: int
    scores: dict[int, Result]
    ns_imps: Fraction | None
    ew_imps: Fraction | None

    @property
    def compared(self) -> bool:
        return self.ns_imps is not None


def table_boards(match: TeamMatch) -> list[TableBoard]:
    """The boards of a triplicate table in a round, compared with the other tables."""
    section = teams_section(match.session)
    boards = boards_of_rounds(section.movement).get(match.round, [])
    results = Result.objects.filter(
        section=section, round=match.round, status=ResultStatus.OK, board__number__in=boards
    ).select_related("board")
    by_board: dict[int, dict[int, Result]] = defaultdict(dict)
    for r in results:
        by_board[r.board.number][r.table] = r
    out = []
    for b in boards:
        rooms = {t: room_score(r.ns_score, r.adjustment) for t, r in by_board[b].items()}
        ns, ew = compare_tables({t: s for t, s in rooms.items() if s is not None})
        here = match.number in ns
        out.append(
            TableBoard(
                b,
                dict(sorted(by_board[b].items())),
                ns.get(match.number) if here else None,
                ew.get(match.number) if here else None,
            )
        )
    return out


def pairs_at(movement: dict, round_number: int, table: int) -> tuple[int, int] | None:
    """The course's pair numbers (NS, EW) at a table in a round."""
    for rnd in movement.get("rounds", ()):
        if int(rnd["round"]) == round_number:
            for t in rnd["tables"]:
                if int(t["table"]) == table:
                    return int(t["ns_pair"]), int(t["ew_pair"])
    return None


def pair_totals(session: Session) -> dict[int, Fraction]:
    """Each of the six pairs' IMPs over the event (from the stored table-rounds)."""
    movement = teams_section(session).movement
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for m in TeamMatch.objects.filter(session=session):
        pairs = pairs_at(movement, m.round, m.number)
        if pairs is None:
            continue
        totals[pairs[0]] += Fraction(m.home_won) - Fraction(m.home_lost)
        totals[pairs[1]] += Fraction(m.away_won) - Fraction(m.away_lost)
    return dict(totals)

"""The course's team movements beyond the round robin: the Patton evening and the 3-team
triplicate (C03 l.185-195, l.211-236), laid out as ordinary stored movements.

Patton: ``movements.teams.patton`` gives each round's matches at tables 2m-1 (open room, home
team NS) and 2m (closed room), the same layout as every teams event, so only its matches are
read from it; the scoring is ``teams_scoring``'s Patton points.

Triplicate: three teams of two pairs, pairs numbered 1-6 (A = 1 & 2, B = 3 & 6, C = 4 & 5),
four rounds at three tables playing the same boards at once (``movements.teams.triplicate``).
The stored movement is numbered by team (a team has one pair NS and one EW each round, so the
team and the line name the pair) and each table keeps its pair numbers for the pages. Each
round has one ``TeamMatch`` per table (number = table, home = the NS team, away = the EW team)
that stores the IMPs of the table's NS pair (home) and EW pair (away). The course scores each
board by comparing the tables two by two, 1 v 2, 1 v 3 and 2 v 3: in table i v table j the NS
pair of i and the EW pair of j are partners against the NS pair of j and the EW pair of i,
and each pair gets its side's IMPs; a team's score is the sum of its two pairs' IMPs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from django.utils.translation import gettext as _

from ..models import Entry, Result, ResultStatus, Seating, Session, TeamEvent, TeamMatch
from ..movements.teams import TRIPLICATE_TEAMS, patton, triplicate
from . import setup
from .errors import TournamentError
from .teams import BoardComparison, MatchScore, _boards_of, _section, compare_board, room_score

# --- Patton ---------------------------------------------------------------------------------


def patton_rounds(teams: int, boards: int, method: str) -> list[tuple[int, list, int | None]]:
    """The rounds of the course's Patton movement as (round, [(home, away)], bye)."""
    movement = patton(teams, boards, method)
    out = []
    for rnd in movement.rounds:
        pairs = [(int(t.ns[:-1]), int(t.ew[:-1])) for t in rnd.tables if t.table % 2]
        bye = int(rnd.sitout[0][:-1]) if rnd.sitout else None
        out.append((rnd.number, pairs, bye))
    return out


# --- triplicate: the movement ---------------------------------------------------------------

TEAM_OF_PAIR = {p: t for t, pairs in enumerate(TRIPLICATE_TEAMS, start=1) for p in pairs}


def triplicate_movement(boards: int) -> dict:
    """The stored movement (pure): per round and table the NS and EW team and their pairs."""
    movement = triplicate(boards)
    rounds = []
    for rnd in movement.rounds:
        rounds.append({"round": rnd.number, "bye": None, "tables": [
            {"table": t.table, "ns": TEAM_OF_PAIR[t.ns], "ew": TEAM_OF_PAIR[t.ew],
             "ns_pair": t.ns, "ew_pair": t.ew, "boards": list(t.boards), "match": t.table,
             "room": "triplicate"}
            for t in rnd.tables]})
    return {"kind": "triplicate", "numbering": "team", "tables": 3, "teams": 3,
            "boards_per_round": boards, "rounds": rounds}


def start_triplicate(session: Session, event: TeamEvent, teams: Sequence[Entry], *, user=None
                     ) -> Session:
    """Seat the three teams (A, B, C in registration order), store the course's movement,
    one match row per table and round, issue the table codes and open the session."""
    if len(teams) != 3:
        raise TournamentError(_("A triplicate is for exactly three teams."))
    k = event.boards_per_match
    section = session.sections.order_by("letter").first() or setup.add_section(session, "A")
    Seating.objects.filter(session=session).delete()
    Seating.objects.bulk_create(Seating(session=session, section=section, entry=e, number=i,
                                        direction="") for i, e in enumerate(teams, start=1))
    section.movement = triplicate_movement(k)
    section.tables = 3
    section.save(update_fields=["movement", "tables"])
    session.rounds, session.boards_per_round = 4, k
    session.save(update_fields=["rounds", "boards_per_round"])
    by_number = dict(enumerate(teams, start=1))
    TeamMatch.objects.bulk_create(
        TeamMatch(session=session, round=rnd["round"], number=t["table"],
                  home=by_number[t["ns"]], away=by_number[t["ew"]])
        for rnd in section.movement["rounds"] for t in rnd["tables"])
    setup.ensure_boards(section)
    setup.issue_table_codes(section)
    return setup.start_session(session, user=user)


# --- triplicate: scoring --------------------------------------------------------------------


def compare_tables(rooms: dict[int, object]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """One board at the three tables → (IMPs of each table's NS pair, of each EW pair).

    Tables without a score yet are left out of the comparisons (pure)."""
    ns: dict[int, Fraction] = {}
    ew: dict[int, Fraction] = {}
    for i, j in combinations(sorted(rooms), 2):
        board = compare_board(rooms[i], rooms[j])
        if board is None:
            continue
        for table, side, imps in ((i, ns, board.home_imps), (j, ew, board.home_imps),
                                  (j, ns, board.away_imps), (i, ew, board.away_imps)):
            side[table] = side.get(table, Fraction(0)) + imps
    return ns, ew


def score_triplicate(matches: Sequence[TeamMatch], results: Iterable[dict],
                     boards_of: dict[int, list[int]]) -> dict:
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
                    out[match.pk].add(BoardComparison(None, ns.get(table, Fraction(0)),
                                                      ew.get(table, Fraction(0))))
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
    section = _section(match.session)
    boards = _boards_of(section.movement).get(match.round, [])
    results = Result.objects.filter(section=section, round=match.round, status=ResultStatus.OK,
                                    board__number__in=boards).select_related("board")
    by_board: dict[int, dict[int, Result]] = defaultdict(dict)
    for r in results:
        by_board[r.board.number][r.table] = r
    out = []
    for b in boards:
        rooms = {t: room_score(r.ns_score, r.adjustment) for t, r in by_board[b].items()}
        ns, ew = compare_tables({t: s for t, s in rooms.items() if s is not None})
        here = match.number in ns
        out.append(TableBoard(b, dict(sorted(by_board[b].items())),
                              ns.get(match.number) if here else None,
                              ew.get(match.number) if here else None))
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
    movement = _section(session).movement
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for m in TeamMatch.objects.filter(session=session):
        pairs = pairs_at(movement, m.round, m.number)
        if pairs is None:
            continue
        totals[pairs[0]] += Fraction(m.home_won) - Fraction(m.home_lost)
        totals[pairs[1]] += Fraction(m.away_won) - Fraction(m.away_lost)
    return dict(totals)

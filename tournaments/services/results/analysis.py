"""A player's own analysis of a session, board by board, beside their scorecard.

For each board whose results are public (the scorecard's ``in_play`` rows, and during play
the ``held`` rows of rounds the running ranking hides, are left out): the
result against the field (the percentage or the IMPs, and the place among the tables that
played the board, ties shown), against par, and against the double-dummy table (the best
contract the player's side could make, and the tricks double dummy gives the contract played
at the player's table); then the boards where the player lost most, with the field's usual
result. The double-dummy table and par are the ones stored with the board (``boards.deals``
solves them once, in the worker): nothing is solved here. One query whatever the session's
size (every table's mark with its result); the boards come with the card's own results.

The rules are pure functions (``rank_on_board``, ``best_makeable``, ``usual_result``,
``versus_par``) so tests reach them without a database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from tournaments.models import StoredMark
from tournaments.scoring import ScoringError, contract_score, imps, is_vulnerable, parse_contract
from tournaments.services.boards.board_words import Call, contract_call, trick_result
from tournaments.services.results.scorecards import Scorecard

# The marks ranked among the tables: played results and adjusted scores (the traveller ranks
# both); a line not played (``unplayed``) and a sit-out (no result) are not tables that
# played the board.
RANKED_KINDS = frozenset({"result", "adjusted"})
SIDES = {"NS": ("N", "S"), "EW": ("E", "W")}
# On equal scores the first of these is named: notrump, then the majors.
STRAIN_ORDER = ("NT", "S", "H", "D", "C")
WORST_BOARDS = 3


# --- the rules (pure) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """One table's mark on a board for one line, as the classification stored it."""

    result_id: int | None  # None: a sit-out (no table)
    direction: str  # "NS" or "EW"
    value: Decimal  # the percentage at matchpoints, the IMPs otherwise: higher is better
    kind: str  # "result", "adjusted" or "unplayed"


@dataclass(frozen=True, slots=True)
class BoardRank:
    """Places ``place`` to ``last`` (the same when alone) among ``of`` tables."""

    place: int
    last: int
    of: int

    @property
    def tied(self) -> bool:
        return self.last > self.place


def rank_on_board(marks: Iterable[Mark], result_id: int, direction: str) -> BoardRank | None:
    """The place of the line (``result_id``, ``direction``) among the board's tables.

    Each table counts once per line (an individual event stores one mark per player, both
    players of a side holding the same one); it is compared with the other tables' marks for
    the same line, sit-outs and lines not played left out. ``None`` when that line itself
    was not played or has no mark.
    """
    field: dict[int, Decimal] = {}
    for m in marks:
        if m.result_id is not None and m.direction == direction and m.kind in RANKED_KINDS:
            field.setdefault(m.result_id, m.value)
    own = field.pop(result_id, None)
    if own is None:
        return None
    better = sum(1 for v in field.values() if v > own)
    equal = sum(1 for v in field.values() if v == own)
    return BoardRank(better + 1, better + 1 + equal, len(field) + 1)


@dataclass(frozen=True, slots=True)
class Makeable:
    """A contract double dummy says a side makes: ``tricks`` for ``declarer``."""

    level: int
    strain: str
    declarer: str
    tricks: int
    score: int  # for the declaring side

    @property
    def call(self) -> Call:
        return contract_call(f"{self.level}{self.strain}")

    @property
    def result(self) -> str:
        return trick_result(f"{self.level}{self.strain}", self.tricks)


def _tricks(double_dummy: Mapping, seat: str, strain: str) -> int | None:
    per = double_dummy.get(seat)
    value = per.get(strain) if isinstance(per, Mapping) else None
    return value if isinstance(value, int) and 0 <= value <= 13 else None


def best_makeable(
    double_dummy: Mapping | None, direction: str, vulnerability: str | None
) -> Makeable | None:
    """The best-scoring contract ``direction``'s side makes double dummy, or None.

    As makeable contracts are read: in each strain the highest level the side makes, played
    by the partner who takes more tricks in it (North or East on a tie), so 3♦ rather than
    1♦+2 (no lower level scores more); between strains the higher score wins, notrump then
    the majors first on a tie. ``None`` without a double-dummy table, or when the side makes
    nothing.
    """
    if not isinstance(double_dummy, Mapping) or direction not in SIDES:
        return None
    seats = SIDES[direction]
    vulnerable = is_vulnerable(vulnerability or None, seats[0])
    best: Makeable | None = None
    for strain in STRAIN_ORDER:
        taken = [
            (t, seat) for seat in seats if (t := _tricks(double_dummy, seat, strain)) is not None
        ]
        if not taken:
            continue
        tricks, declarer = max(taken, key=lambda x: x[0])
        if tricks < 7:
            continue
        score = contract_score(f"{tricks - 6}{strain}", tricks, vulnerable)
        if best is None or score > best.score:
            best = Makeable(tricks - 6, strain, declarer, tricks, score)
    return best


def dd_tricks(double_dummy: Mapping | None, contract: str, declarer: str) -> int | None:
    """The tricks double dummy gives ``declarer`` in the strain of ``contract`` (None when
    passed out, unknown, or without a table)."""
    if not isinstance(double_dummy, Mapping) or not declarer or not contract:
        return None
    try:
        parsed = parse_contract(contract)
    except ScoringError:
        return None
    if parsed is None:
        return None
    return _tricks(double_dummy, declarer, parsed.strain)


@dataclass(frozen=True, slots=True)
class ParComparison:
    par: int  # the par score, North-South's
    side: int  # the par score for the player's side
    difference: int  # the player's score less their side's par (positive: better than par)
    imps: int

    @property
    def line(self) -> str:
        """The line par favours, as a traveller says it ("EW" +450)."""
        return "EW" if self.par < 0 else "NS"

    @property
    def points(self) -> int:
        return abs(self.par)


def versus_par(own_score: int | None, par: Mapping | None, direction: str) -> ParComparison | None:
    """The player's score (their side's) against the board's stored par (North-South's)."""
    score = par.get("score") if isinstance(par, Mapping) else None
    if own_score is None or not isinstance(score, int) or direction not in SIDES:
        return None
    side = score if direction == "NS" else -score
    difference = own_score - side
    return ParComparison(score, side, difference, imps(difference))


@dataclass(frozen=True, slots=True)
class Played:
    """One table's played result on a board (North-South's score)."""

    result_id: int
    contract: str
    declarer: str
    tricks: int | None
    ns_score: int


@dataclass(frozen=True, slots=True)
class UsualResult:
    """The field's usual result: ``count`` of ``of`` tables scored ``ns_score``."""

    contract: Call
    declarer: str
    result: str
    ns_score: int
    count: int
    of: int


def usual_result(played: Sequence[Played]) -> UsualResult | None:
    """The score most tables got on a board (the middle one of the most frequent when several
    are as frequent), told by its most frequent contract; ``None`` with no played table."""
    tables = {p.result_id: p for p in played}
    if not tables:
        return None
    counts = Counter(p.ns_score for p in tables.values())
    most = max(counts.values())
    tied = sorted(score for score, n in counts.items() if n == most)
    score = tied[(len(tied) - 1) // 2]
    same = [p for p in tables.values() if p.ns_score == score]
    ways = Counter((p.contract, p.declarer, p.tricks) for p in same)
    contract, declarer, tricks = min(ways, key=lambda w: (-ways[w], w[0], w[1], w[2] or 0))
    return UsualResult(
        contract_call(contract),
        declarer,
        trick_result(contract, tricks),
        score,
        most,
        len(tables),
    )


# --- a scorecard's analysis ----------------------------------------------------------------


@dataclass(frozen=True)
class BoardAnalysis:
    board: int
    direction: str
    own_score: int | None  # the player's side's score; None for an adjusted score
    ns_score: int | None
    contract: Call
    declarer: str
    result: str
    adjusted: str  # the adjusted score's description, or ""
    percentage: Decimal | None
    mark: Decimal | None
    rank: BoardRank | None
    par: ParComparison | None
    makeable: Makeable | None  # the best contract the player's side makes double dummy
    dd_tricks: int | None  # double dummy's tricks in the contract played at the table
    tricks: int | None  # the tricks declarer took there
    analysed: bool  # the board has its double-dummy table
    usual: UsualResult | None
    played: bool  # the player's line was played (not adjusted)

    @property
    def usual_score(self) -> int | None:
        """The field's usual score for the player's side."""
        if self.usual is None:
            return None
        return self.usual.ns_score if self.direction == "NS" else -self.usual.ns_score


@dataclass(frozen=True)
class PlayerAnalysis:
    boards: list[BoardAnalysis]
    worst: list[BoardAnalysis]  # the boards where the player lost most, worst first
    imps: bool
    analysed: bool  # some board has its double-dummy table
    dealt: bool = False  # some board shown has its deal (the session's hands file holds it)


def _field(
    session, pool: str, through: int | None = None
) -> tuple[dict[int, list[Mark]], dict[int, dict]]:
    """Every table's marks on the pool's boards (by board) and each result (by id); with
    ``through``, only the results of rounds 1..``through`` (the running ranking hides the
    later ones: the place among the tables compares only those)."""
    marks: dict[int, list[Mark]] = {}
    results: dict[int, dict] = {}
    found = StoredMark.objects.filter(session=session, section__pool=pool, result__isnull=False)
    if through is not None:
        found = found.filter(result__round__lte=through)
    for m in found.values(
        "board_number",
        "direction",
        "result_id",
        "mark",
        "percentage",
        "kind",
        "result__contract",
        "result__declarer",
        "result__tricks",
        "result__ns_score",
        "result__adjustment",
    ):
        value = m["percentage"] if m["percentage"] is not None else m["mark"]
        marks.setdefault(m["board_number"], []).append(
            Mark(m["result_id"], m["direction"], value, m["kind"])
        )
        results[m["result_id"]] = m
    return marks, results


def _played(row: dict) -> Played | None:
    """A table's result as played: not an adjusted score (a fouled board's real result
    stands), with a score."""
    adjustment = row["result__adjustment"]
    if row["result__ns_score"] is None or (adjustment and adjustment.get("kind") != "fouled"):
        return None
    return Played(
        row["result_id"],
        row["result__contract"],
        row["result__declarer"],
        row["result__tricks"],
        row["result__ns_score"],
    )


def analyse(
    card: Scorecard, *, imps_scored: bool | None = None, through: int | None = None
) -> PlayerAnalysis:
    """The analysis of ``card``'s boards that show (a board still in play shows nothing);
    ``through``: the running ranking counts rounds 1..``through`` only, and so does the
    field each board is compared with (``running_ranking.Visibility``)."""
    imps_scored = card.imps if imps_scored is None else imps_scored
    rows = [
        r for r in card.rows if not r.get("in_play") and not r.get("held") and r.get("result_id")
    ]
    if not rows or card.section is None:
        return PlayerAnalysis([], [], imps_scored, False)
    boards = card.boards  # read with the card's own results: no query of its own
    marks, results = _field(card.session, card.section.pool, through)
    played: dict[int, list[Played]] = {}
    for r in results.values():
        if (p := _played(r)) is not None:
            played.setdefault(r["board_number"], []).append(p)
    out = []
    for row in rows:
        board = boards.get(row["board"])
        own = results.get(row["result_id"])
        if board is None or own is None:
            continue
        mine = _played(own)
        direction = row["direction"]
        out.append(
            BoardAnalysis(
                board=row["board"],
                direction=direction,
                own_score=row.get("own_score"),
                ns_score=row.get("ns_score"),
                contract=row.get("contract") or Call(""),
                declarer=row.get("declarer", ""),
                result=row.get("result", ""),
                adjusted=row.get("adjusted", ""),
                percentage=row.get("percentage"),
                mark=row.get("mark"),
                rank=rank_on_board(marks.get(row["board"], ()), row["result_id"], direction),
                par=versus_par(row.get("own_score") if mine else None, board.par, direction),
                makeable=best_makeable(board.double_dummy, direction, board.vulnerability),
                dd_tricks=dd_tricks(board.double_dummy, mine.contract, mine.declarer)
                if mine
                else None,
                tricks=mine.tricks if mine else None,
                analysed=isinstance(board.double_dummy, Mapping),
                usual=usual_result(played.get(row["board"], ())),
                played=mine is not None,
            )
        )
    shown = {a.board for a in out}
    return PlayerAnalysis(
        out,
        worst_boards(out, imps_scored),
        imps_scored,
        any(a.analysed for a in out),
        any(boards[n].deal for n in shown),
    )


def worst_boards(boards: Sequence[BoardAnalysis], imps_scored: bool) -> list[BoardAnalysis]:
    """The played boards the player lost most on, worst first: below 50 % at matchpoints,
    IMPs lost otherwise (an adjusted score is the director's, not the play's: left out)."""
    if imps_scored:
        lost = [b for b in boards if b.played and b.mark is not None and b.mark < 0]
        lost.sort(key=lambda b: (b.mark, b.board))
    else:
        lost = [b for b in boards if b.played and b.percentage is not None and b.percentage < 50]
        lost.sort(key=lambda b: (b.percentage, b.board))
    return lost[:WORST_BOARDS]

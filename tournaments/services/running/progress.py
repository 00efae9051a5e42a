"""What the live console shows: which table has played what, what is missing, what looks wrong.

Read in a fixed number of queries, like the classification. "Suspicious" never blocks
anything; it points the director at lines worth a look: a score far from every other on
the board, a contract played from the other side than everywhere else (the usual
wrong-declarer slip), a number that does not match its contract (the director entered the
traveller's number, AEB norm), and five or more undertricks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Board, Result, ResultStatus, Session
from tournaments.scoring import ScoringError, imps, is_congruent, parse_contract
from tournaments.services.classification.session_data import load_session
from tournaments.services.setup import plan

OUTLIER_IMPS = 10  # at least this many IMPs away from every other result
OUTLIER_MIN_RESULTS = 4  # with fewer results nothing is "every other"
MANY_DOWN = 5


@dataclass(frozen=True, slots=True)
class Suspicion:
    result_id: int
    section: str
    board: int
    round: int
    table: int
    kind: str  # outlier, declarer_side, incongruent, many_down
    message: str


@dataclass(frozen=True, slots=True)
class Missing:
    section: str
    round: int
    table: int
    board: int


@dataclass(frozen=True)
class MissingTable:
    section: str
    table: int
    boards: tuple[int, ...]


@dataclass(frozen=True)
class MissingRound:
    """A round's missing results, table by table: the console shows one line a round
    instead of one a board (36 lines before play starts)."""

    round: int
    tables: tuple[MissingTable, ...]

    @property
    def count(self) -> int:
        return sum(len(t.boards) for t in self.tables)

    @property
    def each(self) -> int | None:
        """The boards missing at every table, when it is the same number."""
        counts = {len(t.boards) for t in self.tables}
        return counts.pop() if len(counts) == 1 else None

    @property
    def table_ranges(self) -> str:
        """ "A1–A4, A6, B1–B2": consecutive tables of a section joined."""
        parts, run = [], []
        for t in self.tables:
            if run and (t.section != run[-1].section or t.table != run[-1].table + 1):
                parts.append(run)
                run = []
            run.append(t)
        if run:
            parts.append(run)
        return ", ".join(
            f"{r[0].section}{r[0].table}"
            if len(r) == 1
            else f"{r[0].section}{r[0].table}–{r[-1].section}{r[-1].table}"
            for r in parts
        )


def missing_by_round(missing: list[Missing]) -> list[MissingRound]:
    """The missing results grouped by round, then section and table (lowest round first)."""
    boards: dict[int, dict[tuple[str, int], list[int]]] = defaultdict(dict)
    for m in missing:
        boards[m.round].setdefault((m.section, m.table), []).append(m.board)
    return [
        MissingRound(
            rnd,
            tuple(
                MissingTable(section, table, tuple(sorted(found)))
                for (section, table), found in sorted(boards[rnd].items())
            ),
        )
        for rnd in sorted(boards)
    ]


@dataclass
class RoundState:
    round: int
    boards: int
    done: int
    last_entry_at: object = None

    @property
    def complete(self) -> bool:
        return self.done >= self.boards


@dataclass
class TableState:
    section: str
    table: int
    rounds: list[RoundState] = field(default_factory=list)

    @property
    def rounds_done(self) -> int:
        return sum(1 for r in self.rounds if r.complete)


@dataclass
class Progress:
    tables: list[TableState]
    missing: list[Missing]
    suspicious: list[Suspicion]
    conflicts: list[int]
    unconfirmed: list[int]
    round_minutes: dict[
        tuple[str, int], float
    ]  # (section, round) → minutes from first to last entry

    @property
    def complete(self) -> bool:
        return not self.missing and not self.conflicts


def session_progress(session: Session) -> Progress:
    data = load_session(session)
    seats = data.seat_map()
    letters = {s.pk: s.letter for s in data.sections}
    vul = {
        (b["pool"], b["number"]): b["vulnerability"] or None
        for b in Board.objects.filter(session=session).values("pool", "number", "vulnerability")
    }
    pool_of = {s.pk: s.pool for s in data.sections}
    done: dict[tuple[int, int, int], list[dict]] = defaultdict(list)
    for r in data.results:
        done[(r["section_id"], r["round"], r["table"])].append(r)
    tables: list[TableState] = []
    missing: list[Missing] = []
    spans: dict[tuple[str, int], list] = defaultdict(list)
    for section in data.sections:
        directional = plan.is_directional(section.movement)
        by_table: dict[int, TableState] = {}
        for slot in plan.slots(section.movement):
            state = by_table.setdefault(slot.table, TableState(section.letter, slot.table))
            rows = done.get((section.pk, slot.round, slot.table), [])
            present = [
                (section.pk, n, line if directional else "") in seats
                for n, line in ((slot.ns, "NS"), (slot.ew, "EW"))
            ]
            expected = len(slot.boards) if all(present) else 0
            stamps = [r["modified_at"] for r in rows]
            state.rounds.append(
                RoundState(slot.round, expected, len(rows), max(stamps, default=None))
            )
            spans[(section.letter, slot.round)] += stamps
            entered = {r["board__number"] for r in rows}
            for b in slot.boards:
                number = b + section.board_offset
                if expected and number not in entered:
                    missing.append(Missing(section.letter, slot.round, slot.table, number))
        tables += [by_table[t] for t in sorted(by_table)]
    minutes = {key: (max(v) - min(v)).total_seconds() / 60 for key, v in spans.items() if v}
    suspicious = find_suspicious(data.results, letters, pool_of, vul)
    others = Result.objects.filter(section__session=session, status=ResultStatus.CONFLICT)
    unconfirmed = [r["id"] for r in data.results if not r["confirmed"]]
    return Progress(
        tables, missing, suspicious, list(others.values_list("id", flat=True)), unconfirmed, minutes
    )


def find_suspicious(
    results: list[dict], letters: dict, pool_of: dict, vul: dict
) -> list[Suspicion]:
    """Pure: the lines worth the director's look (``results`` as ``load_session`` reads them)."""
    by_board: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for r in results:
        if not r["adjustment"]:
            by_board[(pool_of[r["section_id"]], r["board__number"])].append(r)
    out: list[Suspicion] = []

    def flag(r: dict, kind: str, message: str) -> None:
        out.append(
            Suspicion(
                r["id"],
                letters[r["section_id"]],
                r["board__number"],
                r["round"],
                r["table"],
                kind,
                message,
            )
        )

    for (pool, number), rows in sorted(by_board.items()):
        scores = [r["ns_score"] for r in rows if r["ns_score"] is not None]
        sides: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            if r["declarer"]:
                sides[r["contract"]].add("NS" if r["declarer"] in "NS" else "EW")
        for r in rows:
            s = r["ns_score"]
            if s is not None and len(scores) >= OUTLIER_MIN_RESULTS:
                others = list(scores)
                others.remove(s)
                if all(abs(imps(s - o)) >= OUTLIER_IMPS for o in others):
                    flag(
                        r,
                        "outlier",
                        _("%(score)s is far from every other score on the board.") % {"score": s},
                    )
            if r["declarer"]:
                side = "NS" if r["declarer"] in "NS" else "EW"
                same = [x for x in rows if x["contract"] == r["contract"] and x["declarer"]]
                if (
                    len(same) >= 3
                    and sides[r["contract"]] == {side, _other(side)}
                    and sum(1 for x in same if (x["declarer"] in "NS") == (side == "NS")) == 1
                ):
                    flag(
                        r,
                        "declarer_side",
                        _(
                            "%(contract)s is played by %(side)s here and by the other side at "
                            "every other table."
                        )
                        % {"contract": r["contract"], "side": side},
                    )
                try:
                    contract = parse_contract(r["contract"])
                    congruent = is_congruent(
                        contract, r["declarer"], r["tricks"], vul.get((pool, number)), s
                    )
                except ScoringError:
                    contract, congruent = None, False
                if not congruent:
                    flag(r, "incongruent", _("The score does not match the contract."))
                if contract is not None and contract.level + 6 - r["tricks"] >= MANY_DOWN:
                    flag(
                        r,
                        "many_down",
                        _("%(down)s down.") % {"down": contract.level + 6 - r["tricks"]},
                    )
    return out


def _other(side: str) -> str:
    return "EW" if side == "NS" else "NS"

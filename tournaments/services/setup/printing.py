"""What the printed cards say: table guide cards, pair cards, board lists, the session sheet.

Read from the section's stored movement (through ``plan``) and its seatings, so the paper on
the tables says exactly what the table devices and the console will expect.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments.models import Board, Seating, Section, Session, TableCode
from tournaments.services.setup import plan


@dataclass(frozen=True, slots=True)
class Pair:
    number: int | None
    line: str
    names: str

    @property
    def label(self) -> str:
        if self.number is None:
            return ""
        return f"{self.number}{self.line}"


@dataclass(frozen=True, slots=True)
class TableLine:
    round: int
    ns: Pair
    ew: Pair
    boards: tuple[int, ...]
    ns_from: int | None  # the table the NS pair comes from (None: first round or same table)
    ew_from: int | None
    ns_new: bool = True  # a different pair from the round before: print its names
    ew_new: bool = True


@dataclass
class TableCard:
    section: str
    table: int
    code: str
    lines: list[TableLine] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PairLine:
    round: int
    table: int | None
    direction: str
    opponents: Pair | None
    boards: tuple[int, ...]

    @property
    def sitout(self) -> bool:
        return self.table is None


@dataclass
class PairCard:
    section: str
    pair: Pair
    lines: list[PairLine] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class BoardPlay:
    round: int
    table: int
    ns: Pair
    ew: Pair


@dataclass
class BoardList:
    number: int
    dealer: str
    vulnerability: str
    plays: list[BoardPlay] = field(default_factory=list)


def _pairs(section: Section) -> dict[tuple[int, str], Pair]:
    seatings = Seating.objects.filter(section=section).select_related("entry")
    return {(s.number, s.direction): Pair(s.number, s.direction, str(s.entry)) for s in seatings}


class _Seats:
    """Who holds a movement place; empty places (phantoms, unfilled) show with no names."""

    def __init__(self, section: Section) -> None:
        self.directional = plan.is_directional(section.movement)
        self.known = _pairs(section)

    def pair(self, number: int | None, line: str) -> Pair:
        line = line if self.directional else ""
        if number is None:
            return Pair(None, line, "")
        return self.known.get((number, line), Pair(number, line, ""))


def table_cards(section: Section) -> list[TableCard]:
    """One card per table: round by round who sits NS and EW, where they come from, boards."""
    seats = _Seats(section)
    codes = dict(
        TableCode.objects.filter(section=section, active=True).values_list("table", "code")
    )
    slots = list(plan.slots(section.movement))
    where: dict[tuple[int, int | None, str], int] = {}
    for s in slots:
        where[(s.round, s.ns, "NS")] = s.table
        where[(s.round, s.ew, "EW")] = s.table
    cards: dict[int, TableCard] = {}
    for s in sorted(slots, key=lambda s: (s.table, s.round)):
        card = cards.setdefault(s.table, TableCard(section.letter, s.table, codes.get(s.table, "")))

        def came_from(number, line, s=s):
            if s.round == 1 or number is None:
                return None
            if not seats.directional:
                before = where.get((s.round - 1, number, "NS")) or where.get(
                    (s.round - 1, number, "EW")
                )
            else:
                before = where.get((s.round - 1, number, line))
            return before if before != s.table else None

        before = card.lines[-1] if card.lines else None
        ns, ew = seats.pair(s.ns, "NS"), seats.pair(s.ew, "EW")
        card.lines.append(
            TableLine(
                s.round,
                ns,
                ew,
                tuple(b + section.board_offset for b in s.boards),
                came_from(s.ns, "NS"),
                came_from(s.ew, "EW"),
                before is None or before.ns != ns,
                before is None or before.ew != ew,
            )
        )
    return [cards[t] for t in sorted(cards)]


def pair_cards(section: Section) -> list[PairCard]:
    """One card per seated pair: round by round its table, line, opponents and boards."""
    seats = _Seats(section)
    slots = list(plan.slots(section.movement))
    rounds = sorted({s.round for s in slots})
    out = []
    for (number, line), pair in sorted(
        seats.known.items(), key=lambda kv: (plan.LINE_ORDER[kv[0][1]], kv[0][0])
    ):
        card = PairCard(section.letter, pair)
        for rnd in rounds:
            found = None
            for s in slots:
                if s.round != rnd:
                    continue
                if s.ns == number and (not seats.directional or line == "NS"):
                    found = PairLine(rnd, s.table, "NS", seats.pair(s.ew, "EW"), s.boards)
                elif s.ew == number and (not seats.directional or line == "EW"):
                    found = PairLine(rnd, s.table, "EW", seats.pair(s.ns, "NS"), s.boards)
                if found:
                    break
            if (
                found is None
                or found.opponents.number is None
                or plan.is_phantom(
                    section.movement, found.opponents.number, found.opponents.line or "EW"
                )
            ):
                found = PairLine(rnd, None, "", None, ())
            card.lines.append(
                PairLine(
                    found.round,
                    found.table,
                    found.direction,
                    found.opponents,
                    tuple(b + section.board_offset for b in found.boards),
                )
            )
        out.append(card)
    return out


def board_lists(section: Section) -> list[BoardList]:
    """For each board: its dealer and vulnerability and, in order, who plays it where."""
    seats = _Seats(section)
    boards = {
        b.number: b for b in Board.objects.filter(session_id=section.session_id, pool=section.pool)
    }
    lists: dict[int, BoardList] = {}
    for s in sorted(plan.slots(section.movement), key=lambda s: (s.round, s.table)):
        for b in s.boards:
            number = b + section.board_offset
            board = boards.get(number)
            item = lists.setdefault(
                number,
                BoardList(
                    number,
                    board.get_dealer_display() if board else "",
                    (board.get_vulnerability_display() if board else ""),
                ),
            )
            if s.players is not None:  # individual: "1–2" against "3–4"
                north, south, east, west = s.players
                item.plays.append(
                    BoardPlay(
                        s.round, s.table, Pair(north, f"–{south}", ""), Pair(east, f"–{west}", "")
                    )
                )
                continue
            item.plays.append(
                BoardPlay(s.round, s.table, seats.pair(s.ns, "NS"), seats.pair(s.ew, "EW"))
            )
    return [lists[n] for n in sorted(lists)]


@dataclass(frozen=True, slots=True)
class SheetTable:
    section: str
    table: int
    code: str
    token: str  # the secret in the card's link and QR code
    first_ns: Pair
    first_ew: Pair


def session_sheet(session: Session) -> list[SheetTable]:
    """Every table of the session with its code, its link token and who sits there in round 1."""
    out = []
    for section in session.sections.order_by("letter"):
        seats = _Seats(section)
        first = {s.table: s for s in plan.slots(section.movement) if s.round == 1}
        for code in TableCode.objects.filter(section=section, active=True).order_by("table"):
            slot = first.get(code.table)
            out.append(
                SheetTable(
                    section.letter,
                    code.table,
                    code.code,
                    code.token,
                    seats.pair(slot.ns if slot else None, "NS"),
                    seats.pair(slot.ew if slot else None, "EW"),
                )
            )
    return out


def movement_cards(section: Section) -> dict:
    """The set-up PDF's cards of a pairs section, as plain rows: per table its rounds (pair
    numbers and boards), per place of the movement its rounds (table, line, opponents,
    boards) with the names seated there."""
    mv = section.movement or {}
    names = {
        (s.number, s.direction): s.entry.name or s.entry.display_name
        for s in section.seatings.select_related("entry")
    }
    directional = plan.is_directional(mv)
    tables: dict[int, list] = defaultdict(list)
    pairs: dict[tuple[int, str], list] = defaultdict(list)
    for slot in plan.slots(mv):
        boards = [b + section.board_offset for b in slot.boards]
        tables[slot.table].append(
            {"round": slot.round, "ns": slot.ns, "ew": slot.ew, "boards": boards}
        )
        for own, other, line in ((slot.ns, slot.ew, "NS"), (slot.ew, slot.ns, "EW")):
            if own is not None:
                key = (own, line if directional else "")
                pairs[key].append(
                    {
                        "round": slot.round,
                        "table": slot.table,
                        "line": line,
                        "versus": other,
                        "boards": boards,
                    }
                )
    return {
        "tables": [
            {"table": t, "rounds": sorted(r, key=lambda x: x["round"])}
            for t, r in sorted(tables.items())
        ],
        "pairs": [
            {
                "number": n,
                "line": line,
                "name": names.get((n, line), ""),
                "rounds": sorted(r, key=lambda x: x["round"]),
            }
            for (n, line), r in sorted(pairs.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        ],
    }

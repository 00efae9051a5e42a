"""Guide cards and the plain text description of a movement.

A pair's (or player's) card says, round by round, where to sit, against whom and with which
boards; a table card says who arrives (and from which table) and which boards (and from where).
``Movement.pair_card``, ``table_card``, ``guide_cards`` and ``describe`` call these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .rounds import SEATS, Contestant, TableRound

if TYPE_CHECKING:
    from .model import Movement


@dataclass(frozen=True, slots=True)
class CardLine:
    """One round on a pair's (or player's) guide card."""

    round: int
    table: int | None
    section: str
    direction: str | None
    opponents: tuple[Contestant, ...]
    boards: tuple[int, ...]
    partner: Contestant | None = None
    sitout: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "table": self.table,
            "direction": self.direction,
            "opponents": list(self.opponents),
            "boards": list(self.boards),
            "sitout": self.sitout,
        }
        if self.section:
            out["section"] = self.section
        if self.partner is not None:
            out["partner"] = self.partner
        return out


@dataclass(frozen=True, slots=True)
class TableCardLine:
    """One round on a table card: who arrives (and from where) and which boards (and from where)."""

    round: int
    ns: Contestant | None
    ew: Contestant | None
    players: tuple[int, int, int, int] | None
    boards: tuple[int, ...]
    board_set: int | None
    ns_from: int | None
    ew_from: int | None
    boards_from: int | str | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round}
        if self.players is not None:
            out.update(zip(SEATS, self.players, strict=True))
        else:
            out.update(ns=self.ns, ew=self.ew, ns_from=self.ns_from, ew_from=self.ew_from)
        out.update(boards=list(self.boards), board_set=self.board_set, boards_from=self.boards_from)
        return out


def pair_card(movement: Movement, contestant: Contestant) -> list[CardLine]:
    """Round by round: table, direction (NS/EW, or the seat), opponents and boards."""
    lines: list[CardLine] = []
    for rnd in movement.rounds:
        tr = movement.seat_of(contestant, rnd.number)
        if tr is None:
            lines.append(CardLine(rnd.number, None, "", None, (), (), sitout=True))
            continue
        ns_side, ew_side = tr.sides()
        mine, theirs = (ns_side, ew_side) if contestant in ns_side else (ew_side, ns_side)
        partner = None
        if tr.players is not None:
            seat = SEATS[tr.players.index(contestant)]
            direction = seat
            partner = next(p for p in mine if p != contestant)
        else:
            direction = "NS" if contestant == tr.ns else "EW"
        lines.append(
            CardLine(rnd.number, tr.table, tr.section, direction, theirs, tr.boards, partner)
        )
    return lines


def table_card(movement: Movement, table: int, section: str = "") -> list[TableCardLine]:
    """Round by round: who arrives at the table (and from which table), and which boards."""
    lines: list[TableCardLine] = []
    for rnd in movement.rounds:
        tr = movement.at(rnd.number, table, section)
        if tr is None:
            continue
        prev = rnd.number - 1

        def came_from(c: Contestant | None, prev: int = prev) -> int | None:
            if c is None or prev < 1:
                return None
            where = movement.seat_of(c, prev)
            return where.table if where is not None else None

        boards_from: int | str | None = None
        if prev >= 1 and tr.boards:
            boards_from = _board_source(movement, prev, tr)
        lines.append(
            TableCardLine(
                rnd.number,
                tr.ns,
                tr.ew,
                tr.players,
                tr.boards,
                tr.board_set,
                came_from(tr.ns),
                came_from(tr.ew),
                boards_from,
            )
        )
    return lines


def _board_source(movement: Movement, prev: int, tr: TableRound) -> int | str | None:
    wanted = set(tr.boards)
    before = movement.rounds[prev - 1]
    for other in before.tables:
        if other.section == tr.section and other.copy == tr.copy and wanted & set(other.boards):
            return other.table
    if wanted & set(before.relay):
        return "relay"
    return None


def guide_cards(movement: Movement) -> dict[str, Any]:
    """Everything a printer needs: one card per contestant and one per table."""
    pairs = {
        str(c): [ln.to_dict() for ln in pair_card(movement, c)] for c in movement.contestants()
    }
    tables: dict[str, Any] = {}
    for section, table in movement.table_keys():
        key = f"{section}{table}"
        if key not in tables:
            tables[key] = [ln.to_dict() for ln in table_card(movement, table, section)]
    return {"pairs": pairs, "tables": tables}


def describe(movement: Movement) -> str:
    """A plain text description, round by round and table by table."""
    out = [
        f"{movement.kind}: {movement.tables} tables, {movement.round_count} rounds, "
        f"{movement.boards_per_round} boards per round"
    ]
    out.extend(movement.notes)
    for rnd in movement.rounds:
        out.append(f"Round {rnd.number}" + (" (duplicate the deals)" if rnd.duplicate else ""))
        for tr in rnd.tables:
            where = f"{tr.section} " if tr.section else ""
            if tr.players is not None:
                who = "N {} S {} E {} W {}".format(*tr.players)
            else:
                who = f"{tr.ns} v {tr.ew}"
            boards = ",".join(str(b) for b in tr.boards)
            extra = (
                f" shared with table {','.join(map(str, tr.shares_with))}" if tr.shares_with else ""
            )
            set_txt = f" set {tr.board_set}" if tr.board_set is not None else ""
            out.append(f"  {where}table {tr.table}: {who};{set_txt} boards {boards}{extra}")
        if rnd.sitout:
            out.append(f"  sits out: {', '.join(map(str, rnd.sitout))}")
        if rnd.relay:
            out.append(f"  boards on relay: {','.join(map(str, rnd.relay))}")
    return "\n".join(out)

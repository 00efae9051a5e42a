"""Data model shared by every movement: who sits where, with which boards, round by round.

The model is deliberately flat and JSON shaped: a Django service only needs to ask "which table
plays which boards in round r, and who sits NS/EW there", so every ``Movement`` keeps an index
built once (on the first such question) and answers those questions in O(1).

Contestant identities (documented here because other code stores them):

* Mitchell pairs are strings ``"<n>NS"`` / ``"<n>EW"`` (``"3NS"``); with two or more pools the
  section letter is prefixed (``"A3NS"``, ``"B3EW"``).  The number is the table the pair starts at.
* Howell and Butler pairs are integers ``1..2T``; the highest number is the stationary pair.
* Individual players are integers ``1..n``.
* Team pairs (triplicate uses 1..6 as in the course) are ``"<team>a"`` / ``"<team>b"`` for
  Patton matches: pair ``a`` starts in the open room, pair ``b`` in the closed room.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

Contestant = int | str
SEATS = ("north", "south", "east", "west")


class MovementError(ValueError):
    """An impossible or unsupported request; the message says what would work instead."""


class TableRound(NamedTuple):
    """One table in one round.

    ``shares_with`` lists the other tables (same section) that hold the *same physical boards* in
    this round and exchange them during play (twin table, triplicate, team rooms); ``copy`` tells
    physically different copies of the same deals apart (pools, team matches), so the validator
    only complains when one physical board is at two tables at once without a declaration.
    """

    table: int
    ns: Contestant | None = None
    ew: Contestant | None = None
    boards: tuple[int, ...] = ()
    board_set: int | None = None
    section: str = ""
    players: tuple[int, int, int, int] | None = None
    shares_with: tuple[int, ...] = ()
    copy: int = 0

    @property
    def individual(self) -> bool:
        return self.players is not None

    def contestants(self) -> tuple[Contestant, ...]:
        if self.players is not None:
            return self.players
        return tuple(c for c in (self.ns, self.ew) if c is not None)

    def sides(self) -> tuple[tuple[Contestant, ...], tuple[Contestant, ...]]:
        """The two competing sides: (NS side, EW side), one or two contestants each."""
        if self.players is not None:
            n, s, e, w = self.players
            return (n, s), (e, w)
        return (
            (self.ns,) if self.ns is not None else (),
            (self.ew,) if self.ew is not None else (),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table}
        if self.players is not None:
            out.update(zip(SEATS, self.players, strict=True))
        else:
            out["ns"] = self.ns
            out["ew"] = self.ew
        out["boards"] = list(self.boards)
        if self.board_set is not None:
            out["board_set"] = self.board_set
        if self.section:
            out["section"] = self.section
        if self.shares_with:
            out["shares_with"] = list(self.shares_with)
        if self.copy:
            out["copy"] = self.copy
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRound:
        try:
            table = int(data["table"])
            boards = tuple(int(b) for b in data.get("boards", ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise MovementError(
                f"table entry {dict(data)!r} needs an integer 'table' and a list of board numbers"
            ) from exc
        players = None
        if all(seat in data for seat in SEATS):
            players = tuple(int(data[seat]) for seat in SEATS)
        elif any(seat in data for seat in SEATS):
            raise MovementError(
                f"table {table}: an individual table needs all of north, south, east and west"
            )
        board_set = data.get("board_set")
        return cls(
            table=table,
            ns=data.get("ns"),
            ew=data.get("ew"),
            boards=boards,
            board_set=int(board_set) if board_set is not None else None,
            section=str(data.get("section", "")),
            players=players,  # type: ignore[arg-type]
            shares_with=tuple(int(t) for t in data.get("shares_with", ())),
            copy=int(data.get("copy", 0)),
        )


@dataclass(frozen=True, slots=True)
class Round:
    """A round: the tables in play, who sits out, and boards not at any playing table.

    ``relay`` holds boards resting on a board-only relay stand or at a half table whose pair sits
    out; they are physically in use, so they may not appear at a playing table in the same round.
    ``duplicate`` marks the round in which pooled sections make their copies of the deals.
    """

    number: int
    tables: tuple[TableRound, ...]
    sitout: tuple[Contestant, ...] = ()
    relay: tuple[int, ...] = ()
    duplicate: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.number,
            "tables": [t.to_dict() for t in self.tables],
            "sitout": list(self.sitout),
        }
        if self.relay:
            out["relay"] = list(self.relay)
        if self.duplicate:
            out["duplicate"] = True
        return out


_ROUND_SLOTS = tuple(
    getattr(Round, name).__set__ for name in ("number", "tables", "sitout", "relay", "duplicate")
)


def new_round(
    number: int,
    tables: tuple[TableRound, ...],
    sitout: tuple[Contestant, ...] = (),
    relay: tuple[int, ...] = (),
    duplicate: bool = False,
) -> Round:
    """``Round(...)`` for generators building thousands of rounds: a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``; this fills the slots directly
    and gives the same object."""
    rnd = object.__new__(Round)
    set_number, set_tables, set_sitout, set_relay, set_duplicate = _ROUND_SLOTS
    set_number(rnd, number)
    set_tables(rnd, tables)
    set_sitout(rnd, sitout)
    set_relay(rnd, relay)
    set_duplicate(rnd, duplicate)
    return rnd


@dataclass(frozen=True, slots=True)
class Design:
    """What the movement claims, so ``validate`` checks exactly the promises it made.

    * ``max_meetings``: how often two contestants may face each other (opponents).
    * ``all_meet``: every two contestants not kept apart meet exactly ``max_meetings`` times.
    * ``apart``: groups whose members never face each other (Mitchell lines, team-mates).
    * ``split_lines``: members of each ``apart`` group sit in different lines every round.
    * ``uniform_plays``: every board is played the same number of times.
    * ``ns_ew_balance``: largest allowed |rounds NS - rounds EW| for any contestant.
    * ``fixed_lines``: nobody changes line during the session.
    * ``every_set_once``: each contestant plays every board set exactly once (complete Howell).
    * ``partners_once`` / ``all_partner``: individual partnerships at most / exactly once.
    * ``one_winner``: every two contestants are compared on at least one board.
    """

    max_meetings: int = 1
    all_meet: bool = False
    apart: tuple[tuple[Contestant, ...], ...] = ()
    split_lines: bool = False
    uniform_plays: bool = True
    ns_ew_balance: int | None = None
    fixed_lines: bool = False
    every_set_once: bool = False
    partners_once: bool = False
    all_partner: bool = False
    one_winner: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        default = Design()
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                out[f.name] = [list(g) for g in value] if f.name == "apart" else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Design:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise MovementError(f"unknown design keys {sorted(unknown)}; known: {sorted(known)}")
        kwargs = dict(data)
        if "apart" in kwargs:
            kwargs["apart"] = tuple(tuple(g) for g in kwargs["apart"])
        return cls(**kwargs)


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


@dataclass
class Movement:
    """A complete movement.  Build one with a generator or ``Movement.from_dict``.

    Lookups (``at``, ``seat_of``) are dictionary hits; the indexes are built once, on the first
    lookup (generating and validating a movement never needs them, so they cost nothing there).
    """

    kind: str
    tables: int
    boards_per_round: int
    rounds: list[Round]
    design: Design = field(default_factory=Design)
    phantom: Contestant | None = None
    notes: tuple[str, ...] = ()
    _index: tuple[
        dict[tuple[str, int, int], TableRound],
        dict[tuple[int, Contestant], TableRound],
    ] | None = field(default=None, init=False, repr=False, compare=False)
    _contestants: list[Contestant] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def _by_table(self) -> dict[tuple[str, int, int], TableRound]:
        return (self._index or self._build_index())[0]

    @property
    def _by_contestant(self) -> dict[tuple[int, Contestant], TableRound]:
        return (self._index or self._build_index())[1]

    def _build_index(self) -> tuple[
        dict[tuple[str, int, int], TableRound], dict[tuple[int, Contestant], TableRound]
    ]:
        by_table: dict[tuple[str, int, int], TableRound] = {}
        by_contestant: dict[tuple[int, Contestant], TableRound] = {}
        for rnd in self.rounds:
            number = rnd.number
            for tr in rnd.tables:
                by_table.setdefault((tr.section, number, tr.table), tr)
                for c in tr.contestants():
                    by_contestant.setdefault((number, c), tr)
        self._index = (by_table, by_contestant)
        return self._index

    # ----------------------------------------------------------------- lookups
    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(sorted({tr.section for rnd in self.rounds for tr in rnd.tables}))

    def at(self, round: int, table: int, section: str = "") -> TableRound | None:
        """The table entry for (round, table[, section]); None when nobody plays there."""
        return self._by_table.get((section, round, table))

    def seat_of(self, contestant: Contestant, round: int) -> TableRound | None:
        """Where a contestant plays in a round; None when sitting out."""
        return self._by_contestant.get((round, contestant))

    def contestants(self) -> list[Contestant]:
        if self._contestants is None:
            seen: dict[Contestant, None] = {}
            for rnd in self.rounds:
                for tr in rnd.tables:
                    if tr.players is not None:
                        seen.update(dict.fromkeys(tr.players))
                    else:
                        if tr.ns is not None:
                            seen[tr.ns] = None
                        if tr.ew is not None:
                            seen[tr.ew] = None
                seen.update(dict.fromkeys(rnd.sitout))
            self._contestants = sorted(seen, key=_sort_key)
        return list(self._contestants)

    def boards(self) -> list[int]:
        found = {b for rnd in self.rounds for tr in rnd.tables for b in tr.boards}
        found.update(b for rnd in self.rounds for b in rnd.relay)
        return sorted(found)

    def iter_tables(self) -> Iterator[tuple[int, TableRound]]:
        for rnd in self.rounds:
            for tr in rnd.tables:
                yield rnd.number, tr

    # --------------------------------------------------------------- guide cards
    def pair_card(self, contestant: Contestant) -> list[CardLine]:
        """Round by round: table, direction (NS/EW, or the seat), opponents and boards."""
        lines: list[CardLine] = []
        for rnd in self.rounds:
            tr = self.seat_of(contestant, rnd.number)
            if tr is None:
                lines.append(CardLine(rnd.number, None, "", None, (), (), sitout=True))
                continue
            ns_side, ew_side = tr.sides()
            mine, theirs = (ns_side, ew_side) if contestant in ns_side else (ew_side, ns_side)
            partner = None
            if tr.players is not None:
                seat = SEATS[tr.players.index(contestant)]  # type: ignore[arg-type]
                direction = seat
                partner = next(p for p in mine if p != contestant)
            else:
                direction = "NS" if contestant == tr.ns else "EW"
            lines.append(
                CardLine(rnd.number, tr.table, tr.section, direction, theirs, tr.boards, partner)
            )
        return lines

    def table_card(self, table: int, section: str = "") -> list[TableCardLine]:
        """Round by round: who arrives at the table (and from which table), and which boards."""
        lines: list[TableCardLine] = []
        for rnd in self.rounds:
            tr = self.at(rnd.number, table, section)
            if tr is None:
                continue
            prev = rnd.number - 1

            def came_from(c: Contestant | None, prev: int = prev) -> int | None:
                if c is None or prev < 1:
                    return None
                where = self.seat_of(c, prev)
                return where.table if where is not None else None

            boards_from: int | str | None = None
            if prev >= 1 and tr.boards:
                boards_from = self._board_source(prev, tr)
            lines.append(
                TableCardLine(
                    rnd.number, tr.ns, tr.ew, tr.players, tr.boards, tr.board_set,
                    came_from(tr.ns), came_from(tr.ew), boards_from,
                )
            )
        return lines

    def _board_source(self, prev: int, tr: TableRound) -> int | str | None:
        wanted = set(tr.boards)
        before = self.rounds[prev - 1]
        for other in before.tables:
            if other.section == tr.section and other.copy == tr.copy and wanted & set(other.boards):
                return other.table
        if wanted & set(before.relay):
            return "relay"
        return None

    def guide_cards(self) -> dict[str, Any]:
        """Everything a printer needs: one card per contestant and one per table."""
        pairs = {str(c): [ln.to_dict() for ln in self.pair_card(c)] for c in self.contestants()}
        tables: dict[str, Any] = {}
        for section, _rnd, table in sorted(self._by_table, key=lambda k: (k[0], k[2], k[1])):
            key = f"{section}{table}"
            if key not in tables:
                tables[key] = [ln.to_dict() for ln in self.table_card(table, section)]
        return {"pairs": pairs, "tables": tables}

    def describe(self) -> str:
        """A plain text description, round by round and table by table."""
        out = [f"{self.kind}: {self.tables} tables, {self.round_count} rounds, "
               f"{self.boards_per_round} boards per round"]
        out.extend(self.notes)
        for rnd in self.rounds:
            out.append(f"Round {rnd.number}" + (" (duplicate the deals)" if rnd.duplicate else ""))
            for tr in rnd.tables:
                where = f"{tr.section} " if tr.section else ""
                if tr.players is not None:
                    who = "N {} S {} E {} W {}".format(*tr.players)
                else:
                    who = f"{tr.ns} v {tr.ew}"
                boards = ",".join(str(b) for b in tr.boards)
                extra = f" shared with table {','.join(map(str, tr.shares_with))}" \
                    if tr.shares_with else ""
                set_txt = f" set {tr.board_set}" if tr.board_set is not None else ""
                out.append(f"  {where}table {tr.table}: {who};{set_txt} boards {boards}{extra}")
            if rnd.sitout:
                out.append(f"  sits out: {', '.join(map(str, rnd.sitout))}")
            if rnd.relay:
                out.append(f"  boards on relay: {','.join(map(str, rnd.relay))}")
        return "\n".join(out)

    # ------------------------------------------------------------------ (de)serialise
    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "tables": self.tables,
            "boards_per_round": self.boards_per_round,
            "rounds": [r.to_dict() for r in self.rounds],
            "sitout": self.phantom,
            "design": self.design.to_dict(),
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Movement:
        """Load a movement card, e.g. one the club already uses, typed into the JSON shape.

        Only ``kind``, ``tables`` and ``rounds`` (with ``round`` and ``tables``) are required; a
        card without a ``design`` is checked against the default promises (no repeated board or
        opponent, uniform play counts).
        """
        for key in ("kind", "tables", "rounds"):
            if key not in data:
                raise MovementError(f"movement dict lacks {key!r}; needs kind, tables and rounds")
        rounds: list[Round] = []
        for i, rd in enumerate(data["rounds"], start=1):
            if "tables" not in rd:
                raise MovementError(f"round entry {i} lacks 'tables'")
            rounds.append(
                Round(
                    number=int(rd.get("round", i)),
                    tables=tuple(TableRound.from_dict(t) for t in rd["tables"]),
                    sitout=tuple(rd.get("sitout", ())),
                    relay=tuple(int(b) for b in rd.get("relay", ())),
                    duplicate=bool(rd.get("duplicate", False)),
                )
            )
        bpr = data.get("boards_per_round")
        if bpr is None:
            bpr = max((len(t.boards) for r in rounds for t in r.tables), default=0)
        return cls(
            kind=str(data["kind"]),
            tables=int(data["tables"]),
            boards_per_round=int(bpr),
            rounds=rounds,
            design=Design.from_dict(data.get("design", {})),
            phantom=data.get("sitout"),
            notes=tuple(data.get("notes", ())),
        )


def board_numbers(board_set: int, per_round: int, first: int = 1) -> tuple[int, ...]:
    """Set s holds boards (s-1)*B+1 .. s*B (shifted by ``first``)."""
    start = first + (board_set - 1) * per_round
    return tuple(range(start, start + per_round))


def check_positive(name: str, value: int, minimum: int = 1, hint: str = "") -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise MovementError(
            f"{name} must be an integer >= {minimum}, got {value!r}" + (f"; {hint}" if hint else "")
        )


def _sort_key(c: Contestant) -> tuple[int, str, int, str]:
    if isinstance(c, int):
        return (0, "", c, "")
    m = _ID.match(c)
    assert m is not None  # the pattern matches every string
    prefix, digits, rest = m.groups()
    return (1, prefix, int(digits or 0), rest)


_ID = re.compile(r"([A-Za-z]*)(\d*)(.*)", re.DOTALL)


def flatten(groups: Iterable[Sequence[Contestant]]) -> list[Contestant]:
    return [c for g in groups for c in g]

"""Rounds and tables, the pieces of every movement: who sits where, with which boards.

The model is deliberately flat and JSON shaped (``TableRound.to_dict``/``from_dict``); a whole
movement (``model.Movement``) is a list of rounds plus the promises it makes (``design``).

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
            players=players,  # type: ignore[arg-type]  # one per seat: four
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


def board_numbers(board_set: int, per_round: int, first: int = 1) -> tuple[int, ...]:
    """Set s holds boards (s-1)*B+1 .. s*B (shifted by ``first``)."""
    start = first + (board_set - 1) * per_round
    return tuple(range(start, start + per_round))


def check_positive(name: str, value: int, minimum: int = 1, hint: str = "") -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise MovementError(
            f"{name} must be an integer >= {minimum}, got {value!r}" + (f"; {hint}" if hint else "")
        )


def sort_key(c: Contestant) -> tuple[int, str, int, str]:
    if isinstance(c, int):
        return (0, "", c, "")
    m = _ID.match(c)
    assert m is not None  # the pattern matches every string
    prefix, digits, rest = m.groups()
    return (1, prefix, int(digits or 0), rest)


_ID = re.compile(r"([A-Za-z]*)(\d*)(.*)", re.DOTALL)


def flatten(groups: Iterable[Sequence[Contestant]]) -> list[Contestant]:
    return [c for g in groups for c in g]

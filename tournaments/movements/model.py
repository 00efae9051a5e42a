"""A whole movement: its rounds, what it promises, and quick answers about who sits where.

The model is deliberately flat and JSON shaped: a Django service only needs to ask "which table
plays which boards in round r, and who sits NS/EW there", so every ``Movement`` keeps an index
built once (on the first such question) and answers those questions in O(1).  The pieces live
below it: ``rounds`` (tables, rounds, contestant identities), ``design`` (the promises) and
``cards`` (guide cards and the plain text description).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import cards
from .cards import CardLine, TableCardLine
from .design import Design
from .rounds import Contestant, MovementError, Round, TableRound, sort_key


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
    _index: (
        tuple[
            dict[tuple[str, int, int], TableRound],
            dict[tuple[int, Contestant], TableRound],
        ]
        | None
    ) = field(default=None, init=False, repr=False, compare=False)
    _contestants: list[Contestant] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def _by_table(self) -> dict[tuple[str, int, int], TableRound]:
        return (self._index or self._build_index())[0]

    @property
    def _by_contestant(self) -> dict[tuple[int, Contestant], TableRound]:
        return (self._index or self._build_index())[1]

    def _build_index(
        self,
    ) -> tuple[dict[tuple[str, int, int], TableRound], dict[tuple[int, Contestant], TableRound]]:
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
            self._contestants = sorted(seen, key=sort_key)
        return list(self._contestants)

    def boards(self) -> list[int]:
        found = {b for rnd in self.rounds for tr in rnd.tables for b in tr.boards}
        found.update(b for rnd in self.rounds for b in rnd.relay)
        return sorted(found)

    def iter_tables(self) -> Iterator[tuple[int, TableRound]]:
        for rnd in self.rounds:
            for tr in rnd.tables:
                yield rnd.number, tr

    def table_keys(self) -> list[tuple[str, int]]:
        """Every (section, table) at which somebody plays in some round, in order."""
        return sorted({(section, table) for section, _round, table in self._by_table})

    # --------------------------------------------------------------- guide cards
    def pair_card(self, contestant: Contestant) -> list[CardLine]:
        """Round by round: table, direction (NS/EW, or the seat), opponents and boards."""
        return cards.pair_card(self, contestant)

    def table_card(self, table: int, section: str = "") -> list[TableCardLine]:
        """Round by round: who arrives at the table (and from which table), and which boards."""
        return cards.table_card(self, table, section)

    def guide_cards(self) -> dict[str, Any]:
        """Everything a printer needs: one card per contestant and one per table."""
        return cards.guide_cards(self)

    def describe(self) -> str:
        """A plain text description, round by round and table by table."""
        return cards.describe(self)

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

"""Seat assignment across sessions (C03 l.349-471) and mixed-pairs seating (C03 l.311-313).

* 2 and 3 pools: the course's fixed tables; group k is whoever sat in the k-th line of session 1.
* One pool: the serpentine from the previous session's ranking.  The printed table is damaged
  (spec section 12); we use the spec's right-aligned reconstruction for 9-16 tables and, for the
  12-table column, its variant (b) unless told otherwise.  Other sizes use the same rule the text
  describes: odd starred ranks move among odd tables and even ones among even tables by about half
  the field, choosing the shift that keeps the ranks at every table furthest apart.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .model import Movement
from .rounds import MovementError

Entrant = Hashable

# C03 l.357-376 and l.382-425, in the source's reading order: per session, the k-th line lists
# where the group that sat in the k-th line of session 1 goes.
_POOL_TABLES: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (
        ("NS-Azul", "EO-Azul", "NS-Roja", "EO-Roja"),
        ("NS-Azul", "NS-Roja", "EO-Roja", "EO-Azul"),
        ("NS-Azul", "EO-Roja", "EO-Azul", "NS-Roja"),
    ),
    3: (
        ("NS-A", "EO-A", "NS-B", "EO-B", "NS-C", "EO-C"),
        ("EO-A", "EO-B", "EO-C", "NS-A", "NS-C", "NS-B"),
        ("NS-A", "NS-C", "EO-C", "NS-B", "EO-B", "EO-A"),
        ("EO-A", "NS-C", "NS-B", "EO-C", "NS-A", "EO-B"),
        ("NS-A", "NS-B", "EO-A", "EO-C", "EO-B", "NS-C"),
    ),
}


def pool_assignment(pools: int, session: int) -> dict[int, tuple[str, str]]:
    """Group number (1-based, session-1 line) -> (line "NS"/"EW", pool name) for a session."""
    if pools not in _POOL_TABLES:
        raise MovementError(f"the course gives tables for 2 or 3 pools, not {pools!r}")
    table = _POOL_TABLES[pools]
    if not isinstance(session, int) or not 1 <= session <= len(table):
        raise MovementError(
            f"the {pools}-pool table covers sessions 1..{len(table)}, not {session!r}; with more "
            "sessions start again from session 1"
        )
    out = {}
    for group, cell in enumerate(table[session - 1], start=1):
        line, pool = cell.split("-", 1)
        out[group] = ("EW" if line == "EO" else "NS", pool)
    return out


def pool_opponents(pools: int, session: int) -> list[tuple[int, int]]:
    """Which groups face each other in a session (NS v EW of the same pool)."""
    seats = pool_assignment(pools, session)
    pairs = []
    for pool in sorted({p for _, p in seats.values()}):
        ns = next(g for g, s in seats.items() if s == ("NS", pool))
        ew = next(g for g, s in seats.items() if s == ("EW", pool))
        pairs.append((min(ns, ew), max(ns, ew)))
    return sorted(pairs)


# Spec section 12.2, right-aligned reconstruction: destination table of starred rank 2t, t=1..
_SERPENTINE: dict[str, tuple[int, ...]] = {
    "9": (5, 6, 7, 8, 9, 2, 1, 4, 3),
    "9.5": (5, 8, 7, 10, 9, 2, 1, 4, 3, 6),
    "10": (5, 8, 7, 10, 9, 2, 1, 4, 3, 6),
    "10.5": (7, 8, 9, 10, 11, 2, 1, 4, 3, 6, 5),
    "11": (5, 6, 7, 8, 9, 10, 11, 2, 1, 4, 3),
    "11.5": (5, 10, 7, 12, 9, 2, 11, 4, 1, 6, 3, 8),
    "12a": (5, 8, 7, 10, 9, 12, 11, 2, 1, 4, 3, 6),
    "12b": (5, 10, 7, 12, 9, 2, 11, 4, 1, 6, 3, 8),
    "12.5": (9, 10, 11, 12, 13, 2, 1, 4, 3, 6, 5, 8, 7),
    "13": (9, 10, 11, 12, 13, 2, 1, 4, 3, 6, 5, 8, 7),
    "13.5": (7, 8, 9, 10, 11, 12, 13, 14, 1, 2, 3, 4, 5, 6),
    "14": (7, 8, 9, 10, 11, 12, 13, 14, 1, 2, 3, 4, 5, 6),
    "14.5": (9, 10, 11, 12, 13, 14, 15, 2, 1, 4, 3, 6, 5, 8, 7),
    "15": (9, 10, 11, 12, 13, 14, 15, 2, 1, 4, 3, 6, 5, 8, 7),
    "16": (7, 12, 9, 14, 11, 16, 13, 2, 15, 4, 1, 6, 3, 8, 5, 10),
}


@dataclass(frozen=True, slots=True)
class Seat:
    table: int
    ns: Entrant | None
    ew: Entrant | None


@dataclass
class SessionSeating:
    """First-round seating of the next session; from round 2 it is an ordinary Mitchell."""

    tables: int
    seats: list[Seat]
    sitout: Entrant | None
    source: str

    def mitchell_ids(self) -> dict[str, Entrant]:
        """Mitchell pair id ("3NS") -> entrant, to feed ``mitchell(tables)``."""
        out: dict[str, Entrant] = {}
        for s in self.seats:
            if s.ns is not None:
                out[f"{s.table}NS"] = s.ns
            if s.ew is not None:
                out[f"{s.table}EW"] = s.ew
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "tables": self.tables,
            "source": self.source,
            "sitout": self.sitout,
            "seats": [{"table": s.table, "ns": s.ns, "ew": s.ew} for s in self.seats],
        }


def serpentine(ranking: Sequence[Entrant], variant12: Literal["a", "b"] = "b") -> SessionSeating:
    """Seat a single pool from the previous session's ranking (best first)."""
    pairs = len(ranking)
    if len(set(ranking)) != pairs:
        raise MovementError("the ranking lists an entrant twice")
    tables = math.ceil(pairs / 2)
    if tables < 4:
        raise MovementError(
            f"a serpentine needs at least 4 tables (7 pairs), got {pairs} pairs; "
            "with fewer pairs play a Howell"
        )
    key = str(tables) if pairs % 2 == 0 else f"{tables - 1}.5"
    if key == "12":
        key = "12" + variant12
    if key in _SERPENTINE:
        dest = _SERPENTINE[key]
        source = f"course table (spec reconstruction, column {key})"
    else:
        dest = _shifted_destinations(tables)
        source = "rule of C03 l.471 (odd among odd, even among even, about half the field)"
    ns: dict[int, int] = {}
    ew: dict[int, int] = {}
    for t in range(1, tables + 1):
        (ns if t % 2 else ew)[t] = 2 * t - 1
        (ew if t % 2 else ns)[dest[t - 1]] = 2 * t
    seats, sitout = [], None
    for t in range(1, tables + 1):
        a, b = ns[t], ew[t]
        who_ns = ranking[a - 1] if a <= pairs else None
        who_ew = ranking[b - 1] if b <= pairs else None
        if who_ns is None or who_ew is None:
            sitout = who_ew if who_ns is None else who_ns
        seats.append(Seat(t, who_ns, who_ew))
    return SessionSeating(tables, seats, sitout, source)


def _shifted_destinations(tables: int) -> tuple[int, ...]:
    dest = [0] * tables
    for parity in (1, 0):
        cls = [t for t in range(1, tables + 1) if t % 2 == parity]
        size = len(cls)
        best: tuple[int, int, int] | None = None
        for s in range(1, size):
            # cls steps by 2, so table cls[i] sends rank 2*cls[i] to cls[i+s] (s < size - i)
            # or cls[i+s-size]: |2t - (2u - 1)| is 4s - 1 or 4(size - s) + 1, both occurring
            gap = min(4 * s - 1, 4 * (size - s) + 1)
            score = (gap, -abs(abs(cls[s] - cls[0]) - tables // 2))
            if best is None or score > best[:2]:
                best = (*score, s)
        shift = best[2] if best else 0
        for i, t in enumerate(cls):
            dest[t - 1] = cls[(i + shift) % size]
    return tuple(dest)


def seat_next_session(
    ranking: Sequence[Entrant] | None = None,
    *,
    pools: int = 1,
    session: int = 2,
    variant12: Literal["a", "b"] = "b",
) -> SessionSeating | dict[int, tuple[str, str]]:
    """One pool: the serpentine from ``ranking``; 2 or 3 pools: the course table for ``session``."""
    if pools == 1:
        if ranking is None:
            raise MovementError("a single pool is seated from the ranking; pass ranking=[...]")
        return serpentine(ranking, variant12)
    return pool_assignment(pools, session)


def mixed_seats(movement: Movement) -> list[dict[str, Any]]:
    """Compass seats for mixed pairs: the man sits South (NS) or East (EW) all session."""
    out = []
    for rnd in movement.rounds:
        for tr in rnd.tables:
            if tr.players is not None:
                raise MovementError("mixed-pairs seating applies to pairs movements")
            out.append(
                {
                    "round": rnd.number,
                    "table": tr.table,
                    "section": tr.section,
                    "north": (tr.ns, "woman"),
                    "south": (tr.ns, "man"),
                    "east": (tr.ew, "man"),
                    "west": (tr.ew, "woman"),
                }
            )
    return out

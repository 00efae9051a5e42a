"""What a movement promises (``Design``), so ``validate`` checks exactly the promises it made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .rounds import Contestant, MovementError


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

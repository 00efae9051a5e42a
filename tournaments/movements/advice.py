"""Suggest movements for a field, ranked as the course advises: by the number of comparisons
(C03 l.102: 11 rounds of 2 boards beat 8 rounds of 3 - 22 boards x 10 comparisons > 24 x 7).

A pair's comparisons = boards it plays x (results per board - 1).  Duration assumes 7 minutes a
board plus 2 minutes a change, which gives the course's "15 rounds of 2 boards, about 4 hours".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .howell import MAX_HOWELL_TABLES
from .mitchell import EvenMethod, max_mitchell_rounds
from .rounds import MovementError


@dataclass(frozen=True, slots=True)
class Suggestion:
    kind: str
    description: str
    tables: int
    rounds: int
    boards_per_round: int
    boards: int
    results_per_board: int
    comparisons: int
    minutes: int
    call: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def advise(
    pairs: int | None = None,
    *,
    teams: int | None = None,
    tables: int | None = None,
    boards: tuple[int, int] = (22, 30),
    minutes: int | None = None,
    minutes_per_board: float = 7.0,
    minutes_per_change: float = 2.0,
) -> list[Suggestion]:
    """Movements that fit, best first.  ``tables`` is how many tables the room holds."""
    if (pairs is None) == (teams is None):
        raise MovementError("pass either pairs=... or teams=...")
    lo, hi = boards
    if lo < 1 or hi < lo:
        raise MovementError(f"boards must be a (minimum, maximum) range, got {boards!r}")

    def duration(rounds: int, per_round: int) -> int:
        return round(rounds * (per_round * minutes_per_board + minutes_per_change))

    out: list[Suggestion] = []

    def add(
        kind: str, desc: str, t: int, rounds: int, bpr: int, results: int, call: dict[str, Any]
    ) -> None:
        total = rounds * bpr
        mins = duration(rounds, bpr)
        if not lo <= total <= hi or (minutes is not None and mins > minutes):
            return
        if tables is not None and t > tables:
            return
        out.append(
            Suggestion(
                kind, desc, t, rounds, bpr, total, results, total * (results - 1), mins, call
            )
        )

    if teams is not None:
        if teams < 2:
            raise MovementError(f"need at least 2 teams, got {teams}")
        rr_rounds = teams - 1 + teams % 2
        for bpm in range(1, 33):
            add(
                "round_robin",
                f"round robin, {rr_rounds} matches of {bpm} boards",
                2 * (teams // 2),
                rr_rounds,
                bpm,
                2,
                {"teams": teams, "method": "inverse"},
            )
            for r in range(3, min(rr_rounds, 12)):
                add(
                    "swiss",
                    f"Swiss, {r} rounds of {bpm} boards",
                    2 * (teams // 2),
                    r,
                    bpm,
                    2,
                    {"rounds": r},
                )
        out.sort(key=lambda s: (-min(s.rounds, rr_rounds), -s.comparisons, s.minutes))
        return out

    assert pairs is not None
    if pairs < 4:
        raise MovementError(f"need at least 4 pairs, got {pairs}")
    t = math.ceil(pairs / 2)
    for bpr in range(1, 7):
        if t >= 3:
            methods: tuple[EvenMethod, ...] = ("skip", "twin") if t % 2 == 0 else ("skip",)
            for even in methods:
                if even == "twin" and bpr < 2:
                    continue
                top = max_mitchell_rounds(t, even)
                for r in range(top, 2, -1):
                    label = "" if t % 2 else f" ({even})"
                    add(
                        "mitchell",
                        f"Mitchell{label}, {r} rounds of {bpr}",
                        t,
                        r,
                        bpr,
                        r,
                        {
                            "tables": t,
                            "rounds": r,
                            "boards_per_round": bpr,
                            "even": even,
                            "pairs": pairs,
                        },
                    )
        if t <= MAX_HOWELL_TABLES:
            n = 2 * t - 1
            playing = pairs // 2
            for r in range(n, 2, -1):
                label = "complete" if r == n else "shortened"
                results = playing if r == n else max(2, playing * r // n)
                add(
                    "howell",
                    f"Howell ({label}), {r} rounds of {bpr}",
                    t,
                    r,
                    bpr,
                    results,
                    {"pairs": pairs, "rounds": r, "boards_per_round": bpr},
                )
        if pairs % 4 == 0 and t >= 6:
            half = t // 2
            top = max_mitchell_rounds(half, "skip")
            for r in range(top, 2, -1):
                add(
                    "mitchell_pools",
                    f"2 pools of {half} tables, {r} rounds of {bpr}",
                    t,
                    r,
                    bpr,
                    2 * r,
                    {"tables": half, "rounds": r, "boards_per_round": bpr, "sections": 2},
                )
    out.sort(key=lambda s: (-s.comparisons, -s.rounds, s.minutes))
    return out

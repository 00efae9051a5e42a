"""Generate and validate every supported movement for 3-60 tables; prints the figures.

Run: python bench/bench_movements.py   (pure Python, no Django)
Exits with status 1 when the total is one second or more (the requirement of issue #4).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.movements import (  # noqa: E402
    MovementError,
    howell,
    individual,
    mitchell,
    patton,
    round_robin,
    serpentine,
    triplicate,
    validate,
)
from tournaments.movements.howell import MAX_HOWELL_TABLES  # noqa: E402


def cases() -> list[tuple[str, Callable[[], object]]]:
    out: list[tuple[str, Callable[[], object]]] = []
    for t in range(3, 61):
        out.append((f"mitchell {t}", lambda t=t: mitchell(t)))
        out.append((f"mitchell {t}.5", lambda t=t: mitchell(t, pairs=2 * t - 1)))
        if t % 2 == 0:
            out.append((f"mitchell {t} twin", lambda t=t: mitchell(t, even="twin")))
        out.append((f"round robin {t}", lambda t=t: round_robin(t)))
        out.append(
            (
                f"serpentine {t}",
                lambda t=t: serpentine(list(range(1, 2 * t + 1))) if t >= 4 else None,
            )
        )
    for t in range(2, MAX_HOWELL_TABLES + 1):
        out.append((f"howell {t}", lambda t=t: howell(t)))
        if t > 2:
            out.append((f"howell {t} odd", lambda t=t: howell(pairs=2 * t - 1)))
    for p in (8, 12, 16):
        out.append((f"individual {p}", lambda p=p: individual(p)))
    out.append(("triplicate", triplicate))
    out.append(("patton 8", lambda: patton(8)))
    return out


def main() -> None:
    gen_total = val_total = 0.0
    worst: tuple[float, str] = (0.0, "")
    count = 0
    for name, make in cases():
        t0 = time.perf_counter()
        try:
            mv = make()
        except MovementError as exc:  # pragma: no cover - would be a bug
            raise SystemExit(f"{name}: {exc}") from exc
        t1 = time.perf_counter()
        problems = validate(mv) if hasattr(mv, "design") else []
        t2 = time.perf_counter()
        if problems:
            raise SystemExit(f"{name}: {problems[:3]}")
        gen_total += t1 - t0
        val_total += t2 - t1
        worst = max(worst, (t2 - t0, name))
        count += 1
    total = gen_total + val_total
    print(f"movements generated and validated: {count}")
    print(f"generate: {gen_total:.3f} s   validate: {val_total:.3f} s   total: {total:.3f} s")
    print(f"slowest: {worst[1]} ({worst[0] * 1000:.1f} ms)")
    print("under one second" if total < 1 else "OVER one second")
    if total >= 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

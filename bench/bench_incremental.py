"""Benchmark the cost of one corrected result as the session grows: 10, 60 and 200 tables.

Run from the repository root: ``python bench/bench_incremental.py`` (SQLite) or with
``DATABASE_URL=postgres://…`` for PostgreSQL. It builds ``bench_classification``'s fields
(``SIZES``: Mitchell sections on one pool of boards, 30 boards a pair, 300 to 6,000 results)
and classifies each once. Then, the sizes in turn, one result's score is changed as a
director's correction would (a new score, ``modified_at`` moved on) and the session is
classified again by the process that classified it last (the kept state: the changed board
scored again, the rows that differ written). The rows the corrections left must be those a
classification from scratch stores (``incremental.forget`` first), which is then timed too.
Prints the medians of CPU, wall time and SQL queries (``COPY`` included) of each, and the
growth of a correction's cost from the smallest field, measured in the same run (goal: at
most 2× at 200 tables). ``--sizes 10,200`` for fewer sizes; exit status 1 when the goal is
missed or the rows differ.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

import django  # noqa: E402

django.setup()

from django_setup import work_as_default_club  # noqa: E402

work_as_default_club()

from django.db import connection  # noqa: E402

RUNS = 21  # corrections a size, the sizes in turn
GOAL = 2.0  # a correction's cost at the largest field over the smallest


def correct_one(rng: random.Random, session) -> None:
    from django.utils import timezone

    from tournaments.models import Result

    ids = list(Result.objects.filter(section__session=session).values_list("id", flat=True))
    pk = rng.choice(ids)
    score = rng.choice([-800, -500, -200, -100, -50, 90, 110, 140, 420, 450, 620, 1430])
    Result.objects.filter(pk=pk).update(ns_score=score, modified_at=timezone.now())


def stored(session) -> tuple[list, list]:
    """The session's stored rows without their ids and versions."""
    from tournaments.models import StoredMark, StoredRanking

    marks = sorted(
        StoredMark.objects.filter(session=session).values_list(
            "section_id",
            "board_number",
            "entry_id",
            "direction",
            "opponent_id",
            "result_id",
            "mark",
            "kind",
            "percentage",
        ),
        key=str,
    )
    ranks = sorted(
        StoredRanking.objects.filter(session=session).values_list(
            "section_id",
            "scope",
            "pool",
            "direction",
            "entry_id",
            "place",
            "tied",
            "decided_by",
            "points",
            "maximum",
            "percentage",
            "exact",
            "boards",
        ),
        key=str,
    )
    return marks, ranks


def main() -> int:
    from bench_classification import build_size, median, sizes_argument, test_database, timed

    from tournaments.services.classification import classify as classification
    from tournaments.services.classification import incremental

    sizes = sizes_argument()
    name = test_database()
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    figures: dict[int, tuple[float, float, float]] = {}
    try:
        print(
            f"database: {connection.vendor}; {RUNS} corrections a size, the sizes in turn, each "
            f"classified by the kept state; then {RUNS} classifications from scratch"
        )
        print(
            f"{'tables':>6} | {'correction CPU':>14} {'wall':>7} {'queries':>7} |"
            f" {'full CPU':>8} {'wall':>7} {'queries':>7}"
        )
        sessions = {tables: build_size(tables) for tables in sizes}
        rngs = {tables: random.Random(20) for tables in sizes}
        kept: dict[int, list] = {tables: [] for tables in sizes}
        full: dict[int, list] = {tables: [] for tables in sizes}
        for session in sessions.values():
            classification.classify_session(session)
        for _ in range(RUNS):  # the sizes in turn, so each sees the same machine
            for tables, session in sessions.items():
                correct_one(rngs[tables], session)
                kept[tables].append(timed(classification.classify_session, session))
        for tables, session in sessions.items():
            # what the corrections left must be what a classification from scratch stores
            after_corrections = stored(session)
            incremental.forget(session.pk)
            classification.classify_session(session)
            if stored(session) != after_corrections:
                print(f"MISMATCH at {tables} tables: the kept state's rows differ from a full run")
                return 1
        for _ in range(RUNS):
            for tables, session in sessions.items():
                incremental.forget(session.pk)
                full[tables].append(timed(classification.classify_session, session))
        for tables in sizes:
            k = tuple(median(kept[tables], i) for i in (1, 0, 2))
            f = tuple(median(full[tables], i) for i in (1, 0, 2))
            figures[tables] = k
            print(
                f"{tables:>6} | {k[0] * 1000:>12.1f}ms {k[1] * 1000:>5.1f}ms {k[2]:>7.0f} |"
                f" {f[0] * 1000:>6.1f}ms {f[1] * 1000:>5.1f}ms {f[2]:>7.0f}"
            )
        small, large = min(figures), max(figures)
        ratios = [figures[large][i] / figures[small][i] for i in range(3)]
        print(
            f"a correction at {large} tables over {small} tables (same run): "
            f"{ratios[0]:.2f}× CPU, {ratios[1]:.2f}× wall, {ratios[2]:.2f}× queries "
            f"(goal ≤ {GOAL:.0f}× CPU and queries)"
        )
        print(
            f"load average before {load_before}, after "
            f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
        return 0 if ratios[0] <= GOAL and ratios[2] <= GOAL else 1
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())

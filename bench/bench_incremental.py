"""Benchmark re-classifying the 60-table session after one corrected result: full vs incremental.

Run from the repository root: ``python bench/bench_incremental.py`` (SQLite) or with
``DATABASE_URL=postgres://…`` for PostgreSQL. It builds ``bench_classification``'s session
(four 15-table Mitchell sections on the same 30 boards, 1,800 results), classifies it once,
then alternates: one result's score is changed as a director's correction would (a new
score, ``modified_at`` moved on) and the session is classified again, either from scratch
(``incremental.forget`` first: every board scored, every mark replaced) or incrementally
(the corrected board scored again, its marks replaced, the others' version moved on).
Each incremental run is checked against the full one's rows afterwards. Prints the median
wall and CPU seconds and SQL query counts of each, their ratio, and the load average.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

RUNS = 9  # of each kind, alternated


def correct_one(rng: random.Random, session) -> None:
    from django.utils import timezone

    from tournaments.models import Result

    ids = list(Result.objects.filter(section__session=session).values_list("id", flat=True))
    pk = rng.choice(ids)
    score = rng.choice([-800, -500, -200, -100, -50, 90, 110, 140, 420, 450, 620, 1430])
    Result.objects.filter(pk=pk).update(ns_score=score, modified_at=timezone.now())


def stored(session) -> tuple[list, list]:
    from tournaments.models import StoredMark, StoredRanking

    marks = sorted(StoredMark.objects.filter(session=session).values_list(
        "section_id", "board_number", "entry_id", "direction", "opponent_id", "result_id",
        "mark", "kind", "version", "percentage"), key=str)
    ranks = sorted(StoredRanking.objects.filter(session=session).values_list(
        "section_id", "scope", "pool", "direction", "entry_id", "place", "tied", "decided_by",
        "points", "maximum", "percentage", "exact", "boards", "version"), key=str)
    return marks, ranks


def timed(session) -> tuple[float, float, int]:
    from tournaments.services import classification

    with CaptureQueriesContext(connection) as ctx:
        wall, cpu = time.perf_counter(), time.process_time()
        classification.classify_session(session)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, len(ctx.captured_queries)


def main() -> int:
    from bench_classification import build

    from tournaments.services import classification, incremental

    setup_test_environment()
    if connection.vendor != "sqlite":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = os.environ.get(
            "BENCH_TEST_DB", f"bench_incremental_{os.getpid()}")
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    try:
        session = build()
        rng = random.Random(20)
        classification.classify_session(session)
        full, incr = [], []
        for _ in range(RUNS):
            correct_one(rng, session)
            incremental.forget()
            full.append(timed(session))
            correct_one(rng, session)
            incr.append(timed(session))
            after_incremental = stored(session)
            # the same session classified from scratch again gives the same rows (one
            # version on: compare without it)
            incremental.forget()
            classification.classify_session(session)
            scratch = stored(session)
            if [r[:-2] + r[-1:] for r in after_incremental[0]] != \
                    [r[:-2] + r[-1:] for r in scratch[0]] or \
                    [r[:-1] for r in after_incremental[1]] != [r[:-1] for r in scratch[1]]:
                print("MISMATCH: incremental rows differ from a full classification")
                return 1
        med = [statistics.median(x[i] for x in runs) for runs in (full, incr) for i in range(3)]
        print(f"database: {connection.vendor}; 60 tables, 1,800 results; {RUNS} runs of each, "
              "alternated, each after one corrected result")
        print(f"full:        median {med[0]:.3f} s wall, {med[1]:.3f} s CPU, {med[2]:.0f} queries")
        print(f"incremental: median {med[3]:.3f} s wall, {med[4]:.3f} s CPU, {med[5]:.0f} queries")
        print(f"ratio full/incremental: {med[0] / med[3]:.1f}× wall, {med[1] / med[4]:.1f}× CPU")
        print(f"load average before {load_before}, after "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        return 0
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())

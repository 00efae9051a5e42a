"""Benchmark a full classification against its floor, at 10, 60 and 200 tables.

Run from the repository root: ``python bench/bench_classification.py`` (SQLite) or with
``DATABASE_URL=postgres://…`` for PostgreSQL (a throw-away test database of its own,
``BENCH_TEST_DB`` to name it). Each field is Mitchell sections on one pool of boards, 30
boards a pair (``SIZES``: 2 × 5, 4 × 15 and 8 × 25 tables; 300, 1,800 and 6,000 results),
results stamped as entered over the evening. For each it times, alternated, the floor (one
SELECT of the session's results and the core's matchpoints of every board) and
``classification.classify_session`` from scratch (load, score, rank, store every row), and
prints the medians of CPU and wall time and their ratio (goal: at most 5× the floor), and
the queries of reading the stored ranking. ``--sizes 60`` for one size.
"""

from __future__ import annotations

import datetime
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

from django_setup import work_as_default_club  # noqa: E402

work_as_default_club()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

TABLES_PER_SECTION = 15
SECTIONS = 4
ROUNDS = 15
BOARDS_PER_ROUND = 2
RUNS = 7
GOAL = 5.0  # a full run at most this many times the floor
# tables → (sections, tables a section, rounds, boards a round): 30 boards a pair each
SIZES = {10: (2, 5, 5, 6), 60: (4, 15, 15, 2), 200: (8, 25, 15, 2)}


def mitchell_movement(tables: int, rounds: int, boards: int) -> dict:
    """The movements core's Mitchell when it is installed; the C03 formula otherwise."""
    try:
        from tournaments.movements import mitchell

        return mitchell(tables, rounds, boards).to_dict()
    except ImportError:
        out = []
        for r in range(rounds):
            rows = []
            for t in range(tables):
                board_set = (t + r) % tables
                rows.append(
                    {
                        "table": t + 1,
                        "ns": t + 1,
                        "ew": (t - r) % tables + 1,
                        "boards": [board_set * boards + b + 1 for b in range(boards)],
                    }
                )
            out.append({"round": r + 1, "tables": rows})
        return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def build(
    sections: int = SECTIONS,
    tables: int = TABLES_PER_SECTION,
    rounds: int = ROUNDS,
    boards_per_round: int = BOARDS_PER_ROUND,
    seed: int = 60,
    tag: str = "B",
) -> object:
    """A finished-looking session: ``sections`` Mitchell sections of ``tables`` tables on the
    same boards (one pool), every slot played, results stored in bulk; returns the session.

    Shared with ``bench_pdf_usebio.py`` (two 30-table sections there)."""
    from clubsite.models import Member
    from tournaments.demo import board_plan, table_play
    from tournaments.models import Board, Result, Seating
    from tournaments.scoring import ns_score
    from tournaments.services.entries import registration
    from tournaments.services.setup import events as setup
    from tournaments.services.setup import plan

    rng = random.Random(seed)
    tournament = setup.create_tournament(name=f"Bench {tag}", date=datetime.date(2025, 1, 1))
    session = tournament.sessions.get()
    players = Member.objects.bulk_create(
        Member(first_name=f"P{i}", last_name=f"Bench {i:03d}", licence_number=f"{tag}-{i:04d}")
        for i in range(sections * tables * 4)
    )
    entries = [
        registration.register_entry(tournament, players[i : i + 2])
        for i in range(0, len(players), 2)
    ]
    movement = mitchell_movement(tables, rounds, boards_per_round)
    per = tables * 2
    made = []
    for s in range(sections):
        section = setup.add_section(session, "ABCDEFGH"[s], pool="A")
        setup.seat_section(section, movement, entries[s * per : (s + 1) * per])
        made.append(section)
    setup.start_session(session)
    boards = {b.number: b for b in Board.objects.filter(session=session)}
    plans = {n: board_plan(rng, n) for n in boards}
    rows = []
    for section in made:
        seat = {
            (x.number, x.direction): x.entry_id for x in Seating.objects.filter(section=section)
        }
        for slot in plan.slots(section.movement):
            for number in slot.boards:
                played = table_play(rng, plans[number])
                score = ns_score(
                    played["contract"],
                    played["declarer"] or None,
                    played["tricks"] or 0,
                    boards[number].vulnerability_core,
                )
                rows.append(
                    Result(
                        section=section,
                        board=boards[number],
                        round=slot.round,
                        table=slot.table,
                        ns_id=seat[(slot.ns, "NS")],
                        ew_id=seat[(slot.ew, "EW")],
                        contract=played["contract"],
                        declarer=played["declarer"],
                        tricks=played["tricks"],
                        ns_score=score,
                        confirmed=True,
                        idempotency_key=f"b-{section.pk}-{slot.round}-{slot.table}-{number}",
                    )
                )
    Result.objects.bulk_create(rows, batch_size=1000)
    # entered over the evening, a round every 12 minutes (a run after a change reads the
    # results stamped since its last one, less a minute: all of them, were they stamped now)
    start = timezone.now() - datetime.timedelta(hours=4)
    for r in range(1, rounds + 1):
        Result.objects.filter(section__session=session, round=r).update(
            modified_at=start + datetime.timedelta(minutes=12 * r)
        )
    return session


def build_size(tables: int) -> object:
    sections, per_section, rounds, boards = SIZES[tables]
    return build(sections, per_section, rounds, boards, seed=tables, tag=f"T{tables}")


def floor(session) -> int:
    """The floor of a classification: one SELECT of the session's effective results (what
    matchpointing needs: board, pairs, score) and the core's matchpoints of every board."""
    from collections import defaultdict

    from clubsite.ops.warmup import collector_paused
    from tournaments.models import Result, ResultStatus
    from tournaments.scoring import matchpoints_exact

    with collector_paused():  # as a classification runs: no full collections in the timing
        by_board = defaultdict(list)
        for number, _ns, _ew, score in Result.objects.filter(
            section__session=session, status=ResultStatus.OK
        ).values_list("board__number", "ns_id", "ew_id", "ns_score"):
            by_board[number].append(score)
        expected = max(len(scores) for scores in by_board.values())
        return sum(len(matchpoints_exact(scores, expected)) for scores in by_board.values())


def timed(fn, *args) -> tuple[float, float, int]:
    """Wall and CPU seconds and SQL queries of one call."""
    with CaptureQueriesContext(connection) as ctx:
        wall, cpu = time.perf_counter(), time.process_time()
        fn(*args)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, len(ctx.captured_queries)


def median(runs: list[tuple], i: int) -> float:
    return statistics.median(r[i] for r in runs)


def sizes_argument(default: str = "10,60,200") -> list[int]:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=default, help="tables, among 10, 60 and 200")
    return [int(x) for x in parser.parse_args().sizes.split(",")]


def test_database() -> str:
    """A throw-away test database of this run's own (``BENCH_TEST_DB`` to name it)."""
    setup_test_environment()
    if connection.vendor != "sqlite":  # keep clear of a test run's test_clubsite
        connection.settings_dict.setdefault("TEST", {})["NAME"] = os.environ.get(
            "BENCH_TEST_DB", f"bench_classification_{os.getpid()}"
        )
    return connection.creation.create_test_db(verbosity=0, autoclobber=True)


def main() -> int:
    from tournaments.models import StoredRanking
    from tournaments.services.classification import classify as classification
    from tournaments.services.classification import incremental

    sizes = sizes_argument()
    name = test_database()
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    worst = 0.0
    try:
        print(f"database: {connection.vendor} ({name}); {RUNS} runs of each, alternated")
        print(
            f"{'tables':>6} {'results':>7} | {'floor CPU':>9} {'wall':>7} | {'full CPU':>8} "
            f"{'wall':>7} {'queries':>7} | {'× floor CPU':>11} {'wall':>5}"
        )
        for tables in sizes:
            session = build_size(tables)
            results = (
                session.sections.first()
                .results.model.objects.filter(section__session=session)
                .count()
            )
            floors, fulls = [], []
            for _ in range(RUNS):
                floors.append(timed(floor, session))
                incremental.forget()  # from scratch: bench_incremental times the other kind
                fulls.append(timed(classification.classify_session, session))
            f_wall, f_cpu = median(floors, 0), median(floors, 1)
            c_wall, c_cpu, c_q = median(fulls, 0), median(fulls, 1), median(fulls, 2)
            worst = max(worst, c_cpu / f_cpu)
            print(
                f"{tables:>6} {results:>7} | {f_cpu * 1000:>7.1f}ms {f_wall * 1000:>5.1f}ms |"
                f" {c_cpu * 1000:>6.1f}ms {c_wall * 1000:>5.1f}ms {c_q:>7.0f} |"
                f" {c_cpu / f_cpu:>10.1f}× {c_wall / f_wall:>4.1f}×"
            )
        session.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            classification.ensure_current(session)
            list(StoredRanking.objects.filter(session=session, scope="pool"))
        print(f"ranking read: {len(ctx.captured_queries)} queries")
        print(f"goal: a full run at most {GOAL:.0f}× the floor's CPU (worst {worst:.1f}×)")
        print(
            f"load average before {load_before}, after "
            f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        )
        return 0 if worst <= GOAL else 1
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark a full re-classification of a 60-table pairs session (target: under a second).

Run from the repository root: ``python bench/bench_classification.py`` (SQLite) or with
``DATABASE_URL=postgres://…`` for PostgreSQL. It creates a throw-away test database, seats
four 15-table Mitchell sections on the same 30 boards (60 tables, 120 pairs, 1,800 results,
every board played 60 times), stores realistic results, then times
``classification.classify_session`` (load, score, rank, store) and the ranking read.
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

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

TABLES_PER_SECTION = 15
SECTIONS = 4
ROUNDS = 15
BOARDS_PER_ROUND = 2
RUNS = 5
TARGET_SECONDS = 1.0


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
                rows.append({"table": t + 1, "ns": t + 1, "ew": (t - r) % tables + 1,
                             "boards": [board_set * boards + b + 1 for b in range(boards)]})
            out.append({"round": r + 1, "tables": rows})
        return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def build(sections: int = SECTIONS, tables: int = TABLES_PER_SECTION, rounds: int = ROUNDS,
          boards_per_round: int = BOARDS_PER_ROUND, seed: int = 60) -> object:
    """A finished-looking session: ``sections`` Mitchell sections of ``tables`` tables on the
    same boards (one pool), every slot played, results stored in bulk; returns the session.

    Shared with ``bench_pdf_usebio.py`` (two 30-table sections there)."""
    from clubsite.models import Member
    from tournaments.demo import board_plan, table_play
    from tournaments.models import Board, Result, Seating
    from tournaments.scoring import ns_score
    from tournaments.services import plan, registration, setup

    rng = random.Random(seed)
    tournament = setup.create_tournament(name="Bench", date=datetime.date(2025, 1, 1))
    session = tournament.sessions.get()
    players = Member.objects.bulk_create(
        Member(first_name=f"P{i}", last_name=f"Bench {i:03d}", licence_number=f"B-{i:04d}")
        for i in range(sections * tables * 4))
    entries = [registration.register_entry(tournament, players[i:i + 2])
               for i in range(0, len(players), 2)]
    movement = mitchell_movement(tables, rounds, boards_per_round)
    per = tables * 2
    made = []
    for s in range(sections):
        section = setup.add_section(session, "ABCDEFGH"[s], pool="A")
        setup.seat_section(section, movement, entries[s * per:(s + 1) * per])
        made.append(section)
    setup.start_session(session)
    boards = {b.number: b for b in Board.objects.filter(session=session)}
    plans = {n: board_plan(rng, n) for n in boards}
    rows = []
    for section in made:
        seat = {(x.number, x.direction): x.entry_id for x in Seating.objects.filter(section=section)}
        for slot in plan.slots(section.movement):
            for number in slot.boards:
                played = table_play(rng, plans[number])
                score = ns_score(played["contract"], played["declarer"] or None,
                                 played["tricks"] or 0, boards[number].vulnerability_core)
                rows.append(Result(
                    section=section, board=boards[number], round=slot.round, table=slot.table,
                    ns_id=seat[(slot.ns, "NS")], ew_id=seat[(slot.ew, "EW")],
                    contract=played["contract"], declarer=played["declarer"],
                    tricks=played["tricks"], ns_score=score, confirmed=True,
                    idempotency_key=f"b-{section.pk}-{slot.round}-{slot.table}-{number}"))
    Result.objects.bulk_create(rows, batch_size=1000)
    return session


def main() -> int:
    from tournaments.models import StoredRanking
    from tournaments.services import classification, incremental

    setup_test_environment()
    if connection.vendor != "sqlite":  # keep clear of a test run's test_clubsite
        # a throw-away name of its own per run (BENCH_TEST_DB to choose it)
        connection.settings_dict.setdefault("TEST", {})["NAME"] = os.environ.get(
            "BENCH_TEST_DB", f"bench_classification_{os.getpid()}")
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        session = build()
        results = session.sections.first().results.model.objects.filter(
            section__session=session).count()
        times = []
        for _ in range(RUNS):
            incremental.forget()  # from scratch each time: bench_incremental times the other
            start = time.perf_counter()
            classification.classify_session(session)
            times.append(time.perf_counter() - start)
        session.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            classification.ensure_current(session)
            rows = list(StoredRanking.objects.filter(session=session, scope="pool"))
        print(f"database: {connection.vendor} ({name})")
        print(f"field: {SECTIONS} sections × {TABLES_PER_SECTION} tables, {ROUNDS} rounds × "
              f"{BOARDS_PER_ROUND} boards, {results} results, {len(rows)} pool ranking lines")
        print(f"classify_session: best {min(times):.3f} s, median {statistics.median(times):.3f} s,"
              f" worst {max(times):.3f} s over {RUNS} runs (target < {TARGET_SECONDS:.1f} s)")
        print(f"ranking read: {len(ctx.captured_queries)} queries")
        return 0 if statistics.median(times) < TARGET_SECONDS else 1
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())

"""Issue 20: what one result post and one live-ranking read cost, in process.

bench_live_load measures latencies under load; this counts, on the same 40-table Mitchell,
the SQL queries and the CPU time of each request (Django's test client, PostgreSQL and
Redis as in production, no server or worker), so a change can be judged on a busy machine.

    BENCH_DB_NAME=clubsite_prof BENCH_REDIS=redis://127.0.0.1:6379/2 \\
        python bench/profile_live_requests.py [--profile]

It builds the section (bench_live_load's ``seat``), signs every table's device in, then
posts rounds 1-6 from every table (520 posts: the first of each line, then 10 % sent again)
and reads the section ranking 200 times (a new version every 20 reads, as while results
arrive: the others are answered from the cache). ``--profile`` prints cProfile's top
functions of the posts and of the reads. The database is dropped at the end.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import bench_live_load as load  # noqa: E402 - sets the environment (database, Redis)

POST_ROUNDS = 6


def main() -> int:
    load.fresh_database()
    try:
        return run("--profile" in sys.argv)
    finally:
        load.drop_database()


def run(profile: bool) -> int:
    import django

    django.setup()
    from django_setup import work_as_default_club

    work_as_default_club()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", "--noinput", verbosity=0)
    cache.clear()
    from tournaments.models import Result, TableCode
    from tournaments.services.classification import classify as classification
    from tournaments.services.setup import plan

    tournament, section = load.seat("Profile", load.TABLES, load.ROUNDS, 0)
    codes = dict(
        TableCode.objects.filter(section=section, active=True).values_list("table", "token")
    )
    devices = {}
    for table, token in codes.items():
        client = Client(enforce_csrf_checks=False)
        client.get(f"/table/{token}/")
        client.post("/table/", {"token": token})
        assert client.get("/table/play/").status_code == 200
        devices[table] = client
    rng = random.Random(7)
    plays = [
        (s.round, s.table, b + section.board_offset)
        for s in plan.slots(section.movement)
        if s.round <= POST_ROUNDS
        for b in s.boards
    ]
    plays.sort()
    post_cpu, post_queries, outcomes = [], [], {}
    profiler = cProfile.Profile(time.process_time) if profile else None
    connection.force_debug_cursor = True
    for round_number, table, board in plays:
        body = {
            "round": round_number,
            "board": board,
            "idempotency_key": os.urandom(12).hex(),
            **load.random_result(rng),
        }
        for _send in range(2 if rng.random() < load.SAME_KEY_SHARE else 1):
            reset_queries()
            start = time.process_time()
            if profiler:
                profiler.enable()
            response = devices[table].post("/table/result/", body, HTTP_ACCEPT="application/json")
            if profiler:
                profiler.disable()
            post_cpu.append(time.process_time() - start)
            post_queries.append(len(connection.queries_log))
            if os.environ.get("SHOW_QUERIES") and len(post_queries) == 100:
                for query in connection.queries_log:
                    print(query["sql"][:300])
            outcome = response.json().get("outcome", response.status_code)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    posts_profile = _top(profiler) if profiler else ""

    reader = Client()
    url = f"/results/{tournament.slug}/1/section/A/"
    reader.get(url)
    read_cpu, read_queries = [], []
    profiler = cProfile.Profile(time.process_time) if profile else None
    for read in range(200):
        if read % 20 == 0:
            classification.classify_session(section.session)  # a new version, as the worker
        reset_queries()
        start = time.process_time()
        if profiler:
            profiler.enable()
        assert reader.get(url).status_code == 200
        if profiler:
            profiler.disable()
        read_cpu.append(time.process_time() - start)
        read_queries.append(len(connection.queries_log))
    connection.force_debug_cursor = False
    stored = Result.objects.filter(section=section, status="ok").count()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"posts: {len(post_cpu)} ({outcomes}), results stored {stored} of {len(plays)}; "
        f"queries per post {sum(post_queries) / len(post_queries):.2f} "
        f"(max {max(post_queries)}); CPU per post {1000 * sum(post_cpu) / len(post_cpu):.2f} ms"
    )
    print(
        f"reads: {len(read_cpu)}; queries per read {sum(read_queries) / len(read_queries):.2f} "
        f"(max {max(read_queries)}); CPU per read {1000 * sum(read_cpu) / len(read_cpu):.2f} ms"
    )
    if profiler:
        print("--- posts ---")
        print(posts_profile)
        print("--- reads ---")
        print(_top(profiler))
    return 0


def _top(profiler) -> str:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(35)
    return re.sub(r"/[^ ]*/site-packages/", "", out.getvalue())


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark the public section ranking page: SQL queries and server time, small vs large field.

Run from the repository root: ``python bench/bench_ranking_page.py`` (SQLite in a temporary
folder) or ``BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite_bench python
bench/bench_ranking_page.py`` (a database that may be wiped; see ``django_setup``). It seats
a 10-table and a 60-table Mitchell section (13 rounds of 2 boards), stores a result for every
table and board, publishes the final results, then requests each ranking page through
Django's test client (the whole server stack, no network) and reports the query count of one
request and the p50/p99 time over many. The query count must not grow with the field.
"""

from __future__ import annotations

import datetime
import random
import statistics
import sys
import time

from django_setup import setup

ROUNDS = 13
BOARDS_PER_ROUND = 2
FIELDS = (10, 60)
REQUESTS = 200


def mitchell_movement(tables: int) -> dict:
    """The movements core's Mitchell when it handles the size; the C03 formula otherwise."""
    try:
        from tournaments.movements import mitchell

        return mitchell(tables, ROUNDS, BOARDS_PER_ROUND).to_dict()
    except Exception:  # noqa: BLE001 - the literal formula is as good for timing
        out = []
        for r in range(ROUNDS):
            rows = []
            for t in range(tables):
                board_set = (t + r) % tables
                rows.append(
                    {
                        "table": t + 1,
                        "ns": t + 1,
                        "ew": (t - r) % tables + 1,
                        "boards": [
                            board_set * BOARDS_PER_ROUND + b + 1 for b in range(BOARDS_PER_ROUND)
                        ],
                    }
                )
            out.append({"round": r + 1, "tables": rows})
        return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def build(tables: int, first_player: int):
    """A finished, published single-section Mitchell of ``tables`` tables."""
    from clubsite.models import Member
    from tournaments.demo import board_plan, table_play
    from tournaments.models import Board, Result, Seating
    from tournaments.scoring import ns_score
    from tournaments.services.entries import registration
    from tournaments.services.results import publish
    from tournaments.services.setup import events as event_setup
    from tournaments.services.setup import plan

    rng = random.Random(tables)
    tournament = event_setup.create_tournament(
        name=f"Bench {tables}", date=datetime.date(2025, 1, 1) + datetime.timedelta(tables)
    )
    session = tournament.sessions.get()
    players = Member.objects.bulk_create(
        Member(first_name=f"P{i}", last_name=f"Bench {i:04d}", licence_number=f"BR-{i:05d}")
        for i in range(first_player, first_player + tables * 4)
    )
    entries = [
        registration.register_entry(tournament, players[i : i + 2])
        for i in range(0, len(players), 2)
    ]
    section = event_setup.add_section(session, "A")
    event_setup.seat_section(section, mitchell_movement(tables), entries)
    event_setup.start_session(session)
    boards = {b.number: b for b in Board.objects.filter(session=session)}
    plans = {n: board_plan(rng, n) for n in boards}
    seat = {(x.number, x.direction): x.entry_id for x in Seating.objects.filter(section=section)}
    rows = []
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
                    idempotency_key=f"br-{section.pk}-{slot.round}-{slot.table}-{number}",
                )
            )
    Result.objects.bulk_create(rows, batch_size=1000)
    event_setup.finish_session(session)
    publish.publish_final(tournament, user=None)
    return tournament, len(rows)


def measure(client, url: str) -> tuple[int, list[float]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url).status_code == 200  # warm: any re-classification happens here
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    queries = len(ctx.captured_queries)  # now: the next request resets the query log
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    return queries, times


def revalidate(client, url: str) -> tuple[int, list[float]]:
    """The same page asked again by a browser holding it (its ETag): answered 304."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    etag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    queries = len(ctx.captured_queries)
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        client.get(url, HTTP_IF_NONE_MATCH=etag)
        times.append((time.perf_counter() - start) * 1000)
    return queries, times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    vendor = setup()
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.test import Client

    # As in Django's test cases: keep one connection, so the queries of a request are seen.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    from django.urls import reverse

    client = Client()
    print(
        f"database: {vendor}; {REQUESTS} requests per page, {ROUNDS} rounds × "
        f"{BOARDS_PER_ROUND} boards"
    )
    counts = []
    first = 0
    for tables in FIELDS:
        tournament, results = build(tables, first)
        first += tables * 4
        url = reverse("results:section", args=[tournament.slug, 1, "A"])
        queries, times = measure(client, url)
        counts.append(queries)
        print(
            f"{tables:>3} tables ({tables * 2} pairs, {results} results): {queries} queries, "
            f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 99):.1f} ms"
        )
        queries, times = revalidate(client, url)
        print(
            f"{'':>3}        revalidated (304): {queries} queries, "
            f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 99):.1f} ms"
        )
    constant = len(set(counts)) == 1
    print("query count constant across field sizes:", "yes" if constant else f"NO {counts}")
    return 0 if constant else 1


if __name__ == "__main__":
    sys.exit(main())

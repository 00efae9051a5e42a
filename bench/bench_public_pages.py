"""Benchmark every public page on ten clubs' worth of a season: SQL queries, p50 and p99.

Run from the repository root with a PostgreSQL database it may wipe:
``BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite_bench_pages python
bench/bench_public_pages.py`` (``--reuse``: keep the season built by the last run). It builds,
through the services, a season of 300 final tournaments (13-table Mitchells of 26 boards,
101,400 results) played by 640 players, with master points awarded and the laws imported, its
results stamped as entered over the evening; then it requests each public page through
Django's test client (the whole server stack, no network) as an anonymous visitor: index,
tournament, section ranking, scorecard, board, season ranking (page one, a later page, a
search that finds a player's page), player, calendar, law. Each page is asked ``REQUESTS``
times, going round ``URLS`` different tournaments, players or pages, so the first round finds
every cache cold. An empty view on the same stack, measured in the same run, is the baseline.

Before the walk, with the planner's statistics as the build left them (autovacuum is off on
the season's tables while they fill), the season ranking's first request is timed: the
sessions' freshness check must not depend on statistics. Exit status 1 when a page makes more
than ``MAX_QUERIES`` queries or its p99 is 100 ms or more.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time

from django_setup import setup

PLAYERS = 640
TOURNAMENTS = 300
TABLES, ROUNDS, BOARDS_PER_ROUND = 13, 13, 2
REQUESTS = 60
URLS = 20
MAX_QUERIES = 6
P99_MS = 100.0
BIG_TABLES = ("tournaments_result", "tournaments_storedmark", "tournaments_storedranking")


def empty_view(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def bench_urlconf():
    """The site's URLs and the empty view (a module attribute Django can import)."""
    from django.urls import include, path

    from clubsite.accounts.permissions import public

    return [path("bench-empty/", public(empty_view)), path("", include("clubsite.urls"))]


urlpatterns: list = []


def movement() -> dict:
    from tournaments.movements import mitchell

    return mitchell(TABLES, ROUNDS, BOARDS_PER_ROUND).to_dict()


def build(tournaments: int = TOURNAMENTS, players_count: int = PLAYERS) -> None:
    """The season: players, tournaments played, published final, points awarded, laws (in
    the current club's scope; a scale the club already has is kept)."""
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from clubsite.models import Member, Season
    from tournaments.demo import board_plan, table_play
    from tournaments.models import Board, PointsScale, PointsScaleRow, Result, Seating
    from tournaments.scoring import ns_score
    from tournaments.services.entries import registration
    from tournaments.services.results import master_points, publish
    from tournaments.services.setup import events as event_setup
    from tournaments.services.setup import plan

    with connection.cursor() as cursor:  # statistics as a season's growth leaves them
        for table in BIG_TABLES:
            cursor.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    rng = random.Random(33)
    scale = PointsScale.load()
    if not scale.rows.exists():
        PointsScaleRow.objects.bulk_create(
            PointsScaleRow(scale=scale, place=p, points=points)
            for p, points in enumerate((5, 3, 2, 1), start=1)
        )
    players = Member.objects.bulk_create(
        Member(first_name=f"Jugador{i}", last_name=f"Apellido {i:03d}", licence_number=f"S-{i:04d}")
        for i in range(players_count)
    )
    season = Season.for_date(timezone.localdate() - datetime.timedelta(days=365))
    days = (season.end - season.start).days
    shape = movement()
    started = time.perf_counter()
    for t in range(tournaments):
        date = season.start + datetime.timedelta(days=t * days // tournaments)
        tournament = event_setup.create_tournament(name=f"Torneo {t:03d}", date=date)
        session = tournament.sessions.get()
        field = rng.sample(players, TABLES * 4)
        entries = [
            registration.register_entry(tournament, field[i : i + 2])
            for i in range(0, len(field), 2)
        ]
        section = event_setup.add_section(session, "A")
        event_setup.seat_section(section, shape, entries)
        event_setup.start_session(session)
        boards = {b.number: b for b in Board.objects.filter(session=session)}
        plans = {n: board_plan(rng, n) for n in boards}
        seat = {
            (x.number, x.direction): x.entry_id for x in Seating.objects.filter(section=section)
        }
        rows = []
        for slot in plan.slots(section.movement):
            for number in slot.boards:
                played = table_play(rng, plans[number])
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
                        ns_score=ns_score(
                            played["contract"],
                            played["declarer"] or None,
                            played["tricks"] or 0,
                            boards[number].vulnerability_core,
                        ),
                        confirmed=True,
                        idempotency_key=f"s-{section.pk}-{slot.round}-{slot.table}-{number}",
                    )
                )
        Result.objects.bulk_create(rows, batch_size=1000)
        evening = timezone.make_aware(datetime.datetime.combine(date, datetime.time(18)))
        Result.objects.filter(section=section).update(modified_at=evening)
        event_setup.finish_session(session)
        publish.publish_final(tournament, user=None, at=evening + datetime.timedelta(hours=4))
        master_points.award(tournament)
        if t % 50 == 49:
            print(
                f"  built {t + 1} tournaments in {time.perf_counter() - started:.0f} s", flush=True
            )
    call_command("import_laws", verbosity=0)


def analyse() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in BIG_TABLES:
            cursor.execute(f"ALTER TABLE {table} RESET (autovacuum_enabled)")
        cursor.execute("ANALYZE")


def pages() -> dict[str, list[str]]:
    """Each page's URLs: ``URLS`` tournaments, players or pages to go round, and one more
    first, asked once before the timing so the process has its templates compiled."""
    from django.urls import reverse
    from django.utils import timezone

    from clubsite.models import Member, Season
    from laws.models import Law
    from tournaments.models import Entry, Tournament

    rng = random.Random(7)
    slugs = list(Tournament.objects.order_by("?").values_list("slug", flat=True)[: URLS + 1])
    season = Season.for_date(timezone.localdate() - datetime.timedelta(days=365))
    season_url = reverse("results:season_for", args=[season.pk])
    players = list(
        Member.objects.filter(entry_seats__isnull=False)
        .distinct()
        .order_by("?")
        .values_list("pk", "last_name")[: URLS + 1]
    )
    entries = {
        slug: rng.choice(
            list(Entry.objects.filter(tournament__slug=slug).values_list("pk", flat=True))
        )
        for slug in slugs
    }
    laws = list(Law.objects.filter(edition__code="es-2017").values_list("number", flat=True))
    return {
        "empty view (baseline)": ["/bench-empty/"] * 2,
        "results index": [reverse("results:index") + f"?page={p}" for p in (4, 1, 2, 3)],
        "tournament": [reverse("results:tournament", args=[s]) for s in slugs],
        "section ranking": [reverse("results:section", args=[s, 1, "A"]) for s in slugs],
        "scorecard": [reverse("results:scorecard", args=[s, 1, entries[s]]) for s in slugs],
        "board": [
            reverse("results:board", args=[s, 1, "A", 1 + i % (ROUNDS * BOARDS_PER_ROUND)])
            for i, s in enumerate(slugs)
        ],
        "season ranking": [f"{season_url}?page={p}" for p in range(1, 14)],
        "season: find a player": [f"{season_url}?q={name.split()[-1]}" for _pk, name in players],
        "player": [reverse("results:player", args=[pk]) for pk, _name in players],
        "calendar": [reverse("calendar:index")] * 2,
        "law": [reverse("laws:law", args=["es-2017", n]) for n in rng.sample(laws, URLS + 1)],
    }


def walk(client, urls: list[str]) -> tuple[int, list[float]]:
    """``REQUESTS`` requests going round ``urls`` (the first asked once before, untimed):
    the most queries one made, and the times. A search answered by a redirect to the page
    with the player is timed with that page, and each of the two counts its own queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(urls[0], follow=True)
    urls = urls[1:]
    most, times = 0, []
    for i in range(REQUESTS):
        url = urls[i % len(urls)]
        elapsed = 0.0
        while url:
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                response = client.get(url)
                elapsed += time.perf_counter() - start
            most = max(most, len(ctx.captured_queries))
            if response.status_code == 302:
                url = response["Location"]
                continue
            if response.status_code != 200:
                raise SystemExit(f"{url}: {response.status_code}")
            url = ""
        times.append(elapsed * 1000)
    return most, times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reuse", action="store_true", help="keep the season already built")
    parser.add_argument("--tournaments", type=int, default=TOURNAMENTS, help="a smaller season")
    args = parser.parse_args()
    vendor = setup(flush=not args.reuse)
    from django.core.cache import cache
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.test import Client
    from django.test.utils import override_settings

    from clubsite.tenancy import club_scope, default_club_id
    from tournaments.models import Result

    # As in Django's test cases: keep one connection, so the queries of a request are seen.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    urlpatterns[:] = bench_urlconf()
    with club_scope(default_club_id()):  # the one club: its pages at the default host
        if not args.reuse or not Result.objects.exists():
            started = time.perf_counter()
            build(args.tournaments)
            print(f"built in {time.perf_counter() - started:.0f} s")
        results = Result.objects.count()
        urls = pages()
    client = Client()
    failed = []
    with override_settings(ROOT_URLCONF=__name__):
        cache.clear()
        start = time.perf_counter()
        client.get(urls["season ranking"][1])
        stale = (time.perf_counter() - start) * 1000
        analyse()
        print(
            f"database: {vendor}; {results:,} results; {REQUESTS} requests a "
            f"page going round {URLS} URLs, anonymous, caches cold at first"
        )
        print(f"season ranking, first request with the statistics the build left: {stale:.0f} ms")
        cache.clear()
        print(f"{'page':<24} {'queries':>7} {'p50 ms':>8} {'p99 ms':>8} {'p99 / empty':>11}")
        baseline = None
        for name, page_urls in urls.items():
            queries, times = walk(client, page_urls)
            p50, p99 = statistics.median(times), percentile(times, 99)
            baseline = baseline or p99
            print(f"{name:<24} {queries:>7} {p50:>8.1f} {p99:>8.1f} {p99 / baseline:>10.1f}×")
            if queries > MAX_QUERIES or p99 >= P99_MS:
                failed.append(name)
    print(f"goal: every page ≤ {MAX_QUERIES} queries and p99 < {P99_MS:.0f} ms", end="")
    print(f"; missed: {', '.join(failed)}" if failed else "; met")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

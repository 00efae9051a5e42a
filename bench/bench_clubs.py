"""Benchmark the public pages of one installation serving many clubs: 1 club, then 100.

Run from the repository root with a PostgreSQL database it may wipe:
``BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite_bench_clubs python
bench/bench_clubs.py`` (``--clubs``, ``--sample``, ``--tournaments``; ``BENCH_CACHE_URL`` to
cache in Redis as production does, else each process's memory as ``make run``).

It builds one club's season: the demo club (``build_demo``: members, fees, the demo's events,
its points scale), then a season of ``--tournaments`` final 13-table Mitchells through the
services (``bench_public_pages.build``). Every public page is then asked through Django's test
client at the club's own host (``<slug>.clubs.bench``), as an anonymous visitor: home,
calendar, results list, tournament, section ranking, scorecard, board (traveller), season
ranking, a player's history, a law. Then the club's rows are copied, in SQL, to ``--clubs``
less one new clubs (every club-owned table, ids shifted by a fixed offset per club, a token
or key that must be unique made unique), and the same pages are asked again going round a
sample of the clubs. So the two columns differ in the number of clubs only.

Per page and per side: the queries of the first request with cold caches (each sampled club
once, the most), then ``REQUESTS`` requests going round the sampled clubs and their
tournaments, players or pages, once untimed (the caches warmed as by production traffic) and
once timed: the most queries one made, p50 and p99. An empty view on the same stack (the host
→ club middleware included) is the baseline of each side. Exit status 1 when a page makes more
than ``MAX_QUERIES`` queries or its p99 is 100 ms or more at either size.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import os
import random
import statistics
import sys
import time

from bench_public_pages import MAX_QUERIES, P99_MS, empty_view, percentile  # noqa: F401
from django_setup import setup

CLUBS = 100
SAMPLE = 10
TOURNAMENTS = 30  # a club's season: a Mitchell most weeks
PLAYERS = 160
REQUESTS = 60
URLS = 6  # tournaments, players or pages of each club to go round
BASE_DOMAIN = "clubs.bench"
SEASON_TOURNAMENT = r"^Torneo \d{3}$"  # the season's tournaments (not the demo's events)


def bench_urlconf():
    from django.urls import include, path

    from clubsite.accounts.permissions import public

    return [path("bench-empty/", public(empty_view)), path("", include("clubsite.urls"))]


urlpatterns: list = []


def host(slug: str) -> str:
    return f"{slug}.{BASE_DOMAIN}"


def build_first_club(tournaments: int) -> None:
    """Club 1 (the migrations' club) at ``club001``: the demo club and a season of results."""
    from bench_public_pages import build

    from clubsite.demo import build_demo
    from clubsite.models import Club
    from clubsite.tenancy import club_scope

    club = Club.objects.get(pk=1)
    club.slug = "club001"
    club.save()
    with club_scope(club):
        build_demo()
        build(tournaments, PLAYERS)


def pages(club) -> dict[str, list[str]]:
    """Each page's URLs at ``club`` (in its scope): ``URLS`` of each, and one more first."""
    from django.urls import reverse
    from django.utils import timezone

    from clubsite.models import Member, Season
    from clubsite.tenancy import club_scope
    from laws.models import Law
    from tournaments.models import Entry, Tournament

    rng = random.Random(7)  # the same tournaments, players and laws at every club (copies)
    with club_scope(club):
        tournaments = Tournament.objects.filter(name__regex=SEASON_TOURNAMENT).order_by("slug")
        slugs = rng.sample(list(tournaments.values_list("slug", flat=True)), URLS + 1)
        season = Season.for_date(timezone.localdate() - datetime.timedelta(days=365))
        season_url = reverse("results:season_for", args=[season.pk])
        seated = Member.objects.filter(entry_seats__isnull=False).distinct()
        players = rng.sample(
            list(seated.order_by("licence_number").values_list("pk", flat=True)), URLS + 1
        )
        entries = {
            slug: rng.choice(
                list(
                    Entry.objects.filter(tournament__slug=slug)
                    .order_by("pk")
                    .values_list("pk", flat=True)
                )
            )
            for slug in slugs
        }
    laws = list(Law.objects.filter(edition__code="es-2017").values_list("number", flat=True))
    return {
        "empty view (baseline)": ["/bench-empty/"] * 2,
        "home": [reverse("home")] * 2,
        "calendar": [reverse("calendar:index")] * 2,
        "results list": [reverse("results:index") + f"?page={p}" for p in (2, 1)],
        "tournament": [reverse("results:tournament", args=[s]) for s in slugs],
        "section ranking": [reverse("results:section", args=[s, 1, "A"]) for s in slugs],
        "scorecard": [reverse("results:scorecard", args=[s, 1, entries[s]]) for s in slugs],
        "board (traveller)": [
            reverse("results:board", args=[s, 1, "A", 1 + i % 26]) for i, s in enumerate(slugs)
        ],
        "season ranking": [f"{season_url}?page={p}" for p in range(1, URLS + 2)],
        "player history": [reverse("results:player", args=[pk]) for pk in players],
        "law": [reverse("laws:law", args=["es-2017", n]) for n in rng.sample(laws, URLS + 1)],
    }


def ask(client, club_host: str, url: str) -> tuple[int, float]:
    """One request (and the page a redirect leads to): its most queries and its ms."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    most, elapsed = 0, 0.0
    while url:
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url, HTTP_HOST=club_host)
            elapsed += time.perf_counter() - start
        most = max(most, len(ctx.captured_queries))
        if response.status_code == 302:
            url = response["Location"]
            continue
        if response.status_code != 200:
            raise SystemExit(f"{club_host}{url}: {response.status_code}")
        url = ""
    return most, elapsed * 1000


def measure(client, clubs: list) -> dict[str, dict]:
    """Every page at ``clubs``: cold first requests, then a warm walk (see the docstring)."""
    from django.core.cache import cache

    urls = {club.pk: pages(club) for club in clubs}
    names = list(urls[clubs[0].pk])
    for name in names:  # templates compiled before anything is timed (another tournament)
        ask(client, host(clubs[0].slug), urls[clubs[0].pk][name][-1])
    cache.clear()
    figures = {}
    for name in names:
        cold = [ask(client, host(club.slug), urls[club.pk][name][0]) for club in clubs]
        walk = []
        for i in range(REQUESTS):
            club = clubs[i % len(clubs)]
            own = urls[club.pk][name][1:]
            walk.append((host(club.slug), own[(i // len(clubs)) % len(own)]))
        for club_host, url in walk:  # warmed as by the traffic before
            ask(client, club_host, url)
        timed = [ask(client, club_host, url) for club_host, url in walk]
        times = [ms for _q, ms in timed]
        figures[name] = {
            "cold queries": max(q for q, _ms in cold),
            "cold ms": max(ms for _q, ms in cold),
            "queries": max(q for q, _ms in timed),
            "p50": statistics.median(times),
            "p99": percentile(times, 99),
        }
    return figures


def copy_clubs(count: int) -> None:
    """``count`` new clubs, each a copy of club 1's rows: every club-owned table's rows
    inserted again with their ids (and the ids they point to) shifted by ``offset × k``,
    in one statement a table for all the clubs. Unique tokens and keys are made unique."""
    from django.apps import apps
    from django.contrib.auth.models import User
    from django.db import connection, models, transaction

    from clubsite.models import Club

    owned = [
        m
        for m in apps.get_models(include_auto_created=True)
        if hasattr(type(m._default_manager), "with_scopes_disabled")
    ]
    owned_labels = {m._meta.label for m in owned}
    owned += [  # many-to-many tables between club-owned models
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.auto_created
        and all(
            f.related_model._meta.label in owned_labels
            for f in m._meta.concrete_fields
            if f.is_relation
        )
    ]
    owned_labels = {m._meta.label for m in owned}
    with connection.cursor() as cursor:
        highest = 0
        for m in owned:
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {m._meta.db_table}")
            highest = max(highest, cursor.fetchone()[0])
    offset = 10 ** len(str(highest))
    first = Club.objects.get(pk=1)
    clubs = []
    for k in range(1, count + 1):
        club = copy.copy(first)
        club.pk, club.slug, club.host = 1 + k, f"club{1 + k:03d}", None
        club.name = f"Club de Bridge {1 + k:03d}"
        clubs.append(club)
    with transaction.atomic(), connection.cursor() as cursor:
        Club.objects.bulk_create(clubs)
        for m in owned:
            table = connection.ops.quote_name(m._meta.db_table)
            kept = _columns_made_unique(m, owned_labels)
            columns, values = [], []
            for f in m._meta.concrete_fields:
                column = connection.ops.quote_name(f.column)
                columns.append(column)
                target = f.related_model._meta.label if f.is_relation else None
                if f.primary_key or target in owned_labels:
                    values.append(f"{column} + k * {offset}")
                elif target == Club._meta.label:
                    values.append(f"{column} + k")
                elif target == User._meta.label and f.unique:
                    values.append("NULL")  # one account is one club's member here
                elif f.name in kept and isinstance(f, models.UUIDField):
                    values.append(f"md5({column}::text || k)::uuid")
                elif f.name in kept:
                    length = f.max_length or 32
                    values.append(f"left(md5({column} || k) || {column}, {length})")
                else:
                    values.append(column)
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                f"FROM {table}, generate_series(1, %s) AS k",
                [count],
            )
        for m in [Club, *owned]:
            table = m._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )


def _columns_made_unique(model, owned_labels: set[str]) -> set[str]:
    """The text columns a copy must change: unique alone, or with only columns a copy keeps
    (no id, no club) in a unique constraint."""
    from django.db import models

    def shifted(name: str) -> bool:
        f = model._meta.get_field(name)
        return f.primary_key or (
            f.is_relation and f.related_model._meta.label in {*owned_labels, "clubsite.Club"}
        )

    groups = [[f.name] for f in model._meta.concrete_fields if f.unique and not f.primary_key]
    groups += [list(c.fields) for c in model._meta.constraints if getattr(c, "fields", None)]
    groups += [list(u) for u in model._meta.unique_together]
    made = set()
    for group in groups:
        if any(shifted(name) for name in group):
            continue
        text = [
            name
            for name in group
            if isinstance(model._meta.get_field(name), (models.CharField, models.UUIDField))
        ]
        if text:
            made.add(text[0])
    return made


def analyse() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def report(sides: dict[int, dict[str, dict]]) -> list[str]:
    small, big = sides
    print(
        f"{'page':<22} {'queries':>9} {'cold q':>7} {'cold ms':>13} {'p50 ms':>13} "
        f"{'p99 ms':>13} {'p99 / empty':>13}  goal"
    )
    print(f"{'':<22} {f'{small} / {big}':>9} {f'{small} / {big}':>7} " + f"{'(clubs)':>13} " * 4)
    failed = []
    base = {n: sides[n]["empty view (baseline)"]["p99"] for n in sides}
    for name in sides[small]:
        a, b = sides[small][name], sides[big][name]
        met = all(x["queries"] <= MAX_QUERIES and x["p99"] < P99_MS for x in (a, b))
        if not met:
            failed.append(name)
        print(
            f"{name:<22} {a['queries']:>4} / {b['queries']:<2} "
            f"{a['cold queries']:>2} / {b['cold queries']:<2} "
            f"{a['cold ms']:>6.1f} / {b['cold ms']:<5.1f} "
            f"{a['p50']:>5.1f} / {b['p50']:<5.1f} {a['p99']:>5.1f} / {b['p99']:<5.1f} "
            f"{a['p99'] / base[small]:>5.0f}× / {b['p99'] / base[big]:<5.0f}  "
            f"{'met' if met else 'MISSED'}"
        )
    return failed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clubs", type=int, default=CLUBS)
    parser.add_argument("--sample", type=int, default=SAMPLE, help="clubs asked at the end")
    parser.add_argument("--tournaments", type=int, default=TOURNAMENTS, help="a club's season")
    args = parser.parse_args()
    if not os.environ.get("BENCH_DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set BENCH_DATABASE_URL to a PostgreSQL database the bench may wipe")
    if os.environ.get("BENCH_CACHE_URL"):
        os.environ["CACHE_URL"] = os.environ["BENCH_CACHE_URL"]
    setup()
    from django.conf import settings
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.test import Client
    from django.test.utils import override_settings

    from clubsite.models import Club
    from clubsite.tenancy import club_scope
    from tournaments.models import Result, Tournament

    # As in Django's test cases: keep one connection, so the queries of a request are seen.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    urlpatterns[:] = bench_urlconf()
    started = time.perf_counter()
    build_first_club(args.tournaments)
    print(f"one club built in {time.perf_counter() - started:.0f} s")
    with club_scope(1):
        print(
            f"a club: {Tournament.objects.count()} tournaments, {Result.objects.count():,} results"
        )
    analyse()
    client = Client()
    sides = {}
    with override_settings(
        ROOT_URLCONF=__name__,
        CLUB_BASE_DOMAIN=BASE_DOMAIN,
        ALLOWED_HOSTS=[f".{BASE_DOMAIN}", "testserver"],
    ):
        sides[1] = measure(client, [Club.objects.get(pk=1)])
        started = time.perf_counter()
        copy_clubs(args.clubs - 1)
        analyse()
        print(f"{args.clubs - 1} clubs copied in {time.perf_counter() - started:.0f} s")
        clubs = list(Club.objects.order_by("pk"))
        step = max(1, len(clubs) // args.sample)
        sample = clubs[::step][: args.sample - 1] + [clubs[-1]]
        sides[args.clubs] = measure(client, sample)
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"{args.clubs} clubs of {args.tournaments + 6} tournaments each; asked {len(sample)} "
        f"of them; {REQUESTS} requests a page; cache {cache}"
    )
    failed = report(sides)
    print(f"goal: every page ≤ {MAX_QUERIES} queries and p99 < {P99_MS:.0f} ms", end="")
    print(f"; missed: {', '.join(failed)}" if failed else "; met")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

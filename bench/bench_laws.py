"""Benchmark the Laws pages: law page server time and search latency (p50/p99).

Creates a throw-away test database (SQLite by default, PostgreSQL when DATABASE_URL
points at one), imports every edition, then times:
  * every law page of es-2017 and pt-1997 through Django's test client (server time),
  * a fixed set of search queries (the view, i.e. query + snippets + template).

    .venv/bin/python bench/bench_laws.py [--rounds 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite .venv/bin/python bench/bench_laws.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

QUERIES = [
    ("es-2017", "renuncio"),
    ("es-2017", "carta penalizada"),
    ("es-2017", "información no autorizada"),
    ("es-2017", "arbitro puntuacion ajustada"),
    ("es-2017", "salida fuera de turno"),
    ("es-2017", "declaración insuficiente"),
    ("es-2017", "reclamación"),
    ("es-2017", "alerta"),
    ("pt-1997", "renúncia"),
    ("pt-1997", "carta penalizada"),
    ("pt-1997", "informação não autorizada"),
    ("pt-1997", "resultado ajustado"),
    ("pt-1997", "saída extemporânea"),
    ("pt-1997", "director do torneio"),
    ("es-1997", "remate"),
    ("es-2007", "estuche"),
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from laws import search
    from laws.importer import parse_all
    from laws.models import Edition, Law
    from laws.services import store

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        import_ms = timed(lambda: store(parse_all()))
        client = Client()
        laws = list(
            Law.objects.filter(edition__code__in=["es-2017", "pt-1997"]).select_related("edition")
        )
        urls = [law.get_absolute_url() for law in laws]
        for url in urls:  # warm up caches (templates, query plans)
            assert client.get(url).status_code == 200
        page_times = [
            timed(lambda u=url: client.get(u)) for _ in range(args.rounds) for url in urls
        ]

        editions = {e.code: e for e in Edition.objects.all()}
        for code, q in QUERIES:
            search.search(q, editions[code])
        search_times, view_times = [], []
        for _ in range(args.rounds * 4):
            for code, q in QUERIES:
                search_times.append(timed(lambda c=code, q=q: search.search(q, editions[c])))
                view_times.append(
                    timed(lambda c=code, q=q: client.get("/laws/search/", {"q": q, "edition": c}))
                )
        print(f"database: {connection.vendor}; import of all editions: {import_ms:.0f} ms")
        for name, values in (
            (f"law page ({len(urls)} pages × {args.rounds})", page_times),
            (f"search query ({len(QUERIES)} queries × {args.rounds * 4})", search_times),
            ("search page (view incl. template)", view_times),
        ):
            print(
                f"{name:48s} p50 {statistics.median(values):6.1f} ms   "
                f"p99 {percentile(values, 99):6.1f} ms   max {max(values):6.1f} ms"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()

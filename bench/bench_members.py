"""Member list at 5,000 members: SQL queries stay constant, server time is recorded.

python bench/bench_members.py            # SQLite
BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite_bench python bench/bench_members.py
"""

import statistics
import time

from django_setup import setup

from tests.signed_in import sign_in_verified


def main() -> None:
    vendor = setup()
    import random

    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import Client

    from clubsite.demo import build_club
    from clubsite.models import Category, Licence, LicenceStatus, Member, Season

    build_club()
    user = User.objects.create_user("bench-sec", password="x")
    user.groups.add(Group.objects.get(name="Secretary"))
    client = Client()
    sign_in_verified(client, user)
    season = Season.current()
    categories = list(Category.objects.all())
    rng = random.Random(5)

    def grow_to(total: int) -> None:
        existing = Member.objects.count()
        new = [
            Member(
                first_name=f"Nombre{i}",
                last_name=f"Apellido{i:05d}",
                licence_number=f"B{i:06d}",
                category=rng.choice(categories),
                search_text=f"nombre{i} apellido{i:05d} b{i:06d}",
            )
            for i in range(existing, total)
        ]
        Member.objects.bulk_create(new, batch_size=1000)
        created = Member.objects.filter(licence_number__in=[m.licence_number for m in new])
        Licence.objects.bulk_create(
            [
                Licence(
                    member=m,
                    season=season,
                    federation="AEB",
                    status=rng.choice(list(LicenceStatus.values)),
                )
                for m in created
            ],
            batch_size=1000,
        )

    def measure(query: dict) -> tuple[int, float, float]:
        client.get("/club/members/", query)  # warm
        connection.force_debug_cursor = True
        before = len(connection.queries_log)
        client.get("/club/members/", query)
        sql = len(connection.queries_log) - before
        connection.force_debug_cursor = False
        times = []
        for _ in range(15):
            start = time.perf_counter()
            response = client.get("/club/members/", query)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        times.sort()
        return sql, statistics.median(times), times[-2]

    print(f"database: {vendor}")
    print(f"{'members':>8} {'query':<34} {'SQL':>4} {'p50 ms':>8} {'p95 ms':>8}")
    counts = set()
    for total in (1000, 5000):
        grow_to(total)
        for query in (
            {"per_page": 25},
            {"per_page": 100},
            {"licence_state": "expired"},
            {"q": "apellido0", "sort": "-licence_state"},
        ):
            sql, p50, p95 = measure(query)
            counts.add(sql)
            label = "&".join(f"{k}={v}" for k, v in query.items())
            print(f"{Member.objects.count():>8} {label:<34} {sql:>4} {p50:>8.1f} {p95:>8.1f}")
    print(f"distinct SQL query counts: {sorted(counts)}")
    assert len(counts) == 1, "the member list's query count depends on page size or data"


if __name__ == "__main__":
    main()

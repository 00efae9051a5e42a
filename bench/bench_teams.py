"""Benchmark a Swiss teams event: standings and the next round's draw (target: well under 1 s).

Run from the repository root: ``python bench/bench_teams.py`` (SQLite in a scratch folder) or
with ``BENCH_DATABASE_URL=postgres://…`` (a database that may be wiped). Two measurements for
25, 50 and 100 teams over 10 rounds of 4 boards:

- the pure part: standings from the match scores (``standing_lines`` + ``rank_teams``) and
  ``swiss_pairings`` for the next round, per round, on in-memory matches;
- the service: ``team_events.draw_next_round`` after each complete round, which re-classifies the
  session (loads every result so far, scores each match from both rooms, stores match scores
  and standings) and then draws; results of each round are bulk-inserted beforehand as the
  tables would have sent them. Also the standings read (``team_standings.standings``) and its queries.
"""

from __future__ import annotations

import datetime
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
from django_setup import setup  # noqa: E402

SIZES = (25, 50, 100)
ROUNDS = 10
BOARDS = 4
TARGET_SECONDS = 1.0
SCORES = (-1100, -620, -500, -420, -200, -100, -50, 50, 100, 110, 140, 400, 420, 450, 620, 1430)


def pure_swiss(n: int, rng: random.Random) -> list[float]:
    """CPU seconds per round for standings + draw, on in-memory matches."""
    from tournaments.movements.teams import swiss_pairings
    from tournaments.scoring.vp import vp_for_margin
    from tournaments.services.teams.team_standings import rank_teams, standing_lines

    teams = {e: (e, f"T{e}") for e in range(1, n + 1)}
    matches: list[SimpleNamespace] = []
    pairs = [(i, i + 1) for i in range(1, n, 2)]
    bye = n if n % 2 else None
    times = []
    for round_ in range(1, ROUNDS + 1):
        for home, away in pairs:
            margin = rng.randint(-40, 40)
            matches.append(
                SimpleNamespace(
                    round=round_,
                    home_id=home,
                    away_id=away,
                    boards_played=BOARDS,
                    home_won=max(margin, 0),
                    home_lost=max(-margin, 0),
                    away_won=max(-margin, 0),
                    away_lost=max(margin, 0),
                    home_vp=vp_for_margin(margin, BOARDS),
                    away_vp=vp_for_margin(-margin, BOARDS),
                    home_points=None,
                    away_points=None,
                )
            )  # points only for BAM/total/Patton
        if bye is not None:
            matches.append(
                SimpleNamespace(round=round_, home_id=bye, away_id=None, boards_played=0)
            )
        if round_ == ROUNDS:
            break
        start = time.process_time()
        lines = standing_lines(matches, teams, vps=True, bye_vp=Fraction(12))
        order = [
            t.entry_id for t in rank_teams(list(lines.values()), ("head_to_head", "imp_difference"))
        ]
        pairing = swiss_pairings(
            order,
            [(m.home_id, m.away_id) for m in matches if m.away_id],
            [m.home_id for m in matches if m.away_id is None],
        )
        times.append(time.process_time() - start)
        pairs, bye = list(pairing.pairs), pairing.bye
        assert pairing.rematches == 0
    return times


def service_swiss(n: int, rng: random.Random) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubsite.models import Member
    from tournaments.models import Board, EventType, Result, ScoringMethod, TeamMatch
    from tournaments.services.entries import registration
    from tournaments.services.setup import events as tsetup
    from tournaments.services.teams import team_events, team_standings

    tournament = tsetup.create_tournament(
        name=f"Bench {n}",
        date=datetime.date(2026, 1, 1),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(tournament, format="swiss", swiss_rounds=ROUNDS, boards_per_match=BOARDS)
    members = Member.objects.bulk_create(
        Member(first_name=f"J{n}-{i}", last_name="Bench", licence_number=f"B{n}-{i:04d}")
        for i in range(4 * n)
    )
    for i in range(n):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    draws, cpus, counts = [], [], []
    for round_ in range(1, ROUNDS + 1):
        boards = {b.number: b for b in Board.objects.filter(session=session)}
        rows = []
        for m in TeamMatch.objects.filter(session=session, round=round_).exclude(number=0):
            for b in range((round_ - 1) * BOARDS + 1, round_ * BOARDS + 1):
                for table, ns, ew in (
                    (m.open_table, m.home_id, m.away_id),
                    (m.closed_table, m.away_id, m.home_id),
                ):
                    rows.append(
                        Result(
                            section=section,
                            board=boards[b],
                            round=round_,
                            table=table,
                            ns_id=ns,
                            ew_id=ew,
                            contract="3NT",
                            declarer="N",
                            tricks=9,
                            ns_score=rng.choice(SCORES),
                            confirmed=True,
                            idempotency_key=f"b{n}-{round_}-{table}-{b}",
                        )
                    )
        Result.objects.bulk_create(rows, batch_size=2000)
        counts.append(Result.objects.filter(section=section).count())
        if round_ == ROUNDS:
            break
        start, cpu = time.perf_counter(), time.process_time()
        team_events.draw_next_round(tournament)
        draws.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    from tournaments.services.classification.classify import classify_session

    start = time.perf_counter()
    classify_session(session)
    final = time.perf_counter() - start
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        table = team_standings.standings(session)
    read = time.perf_counter() - start
    met = [
        frozenset((m.home_id, m.away_id))
        for m in TeamMatch.objects.filter(session=session)
        if m.away_id
    ]
    assert len(met) == len(set(met)), "a rematch"
    assert len(table) == n
    return {
        "draws": draws,
        "cpus": cpus,
        "final": final,
        "read": read,
        "queries": len(queries),
        "results": counts[-1],
    }


def main() -> int:
    vendor = setup()
    rng = random.Random(2026)
    print(f"database: {vendor}; {ROUNDS} rounds of {BOARDS} boards")
    print(
        "Times are medians / worst over the 9 draws. CPU is this process's time (SQLite runs"
        " in it): other work on the machine stretches the wall clock, not the CPU time."
    )
    print(
        "teams | pure standings+draw, CPU | service draw (classify + pair), CPU | same, wall"
        " | final classify, wall | standings read, wall (queries) | results"
    )
    ok = True
    for n in SIZES:
        pure = pure_swiss(n, rng)
        svc = service_swiss(n, rng)
        worst = max(svc["cpus"])
        ok &= worst < TARGET_SECONDS
        print(
            f"{n:5d} | {statistics.median(pure) * 1000:6.1f} / {max(pure) * 1000:6.1f} ms | "
            f"{statistics.median(svc['cpus']) * 1000:6.1f} / {worst * 1000:6.1f} ms | "
            f"{statistics.median(svc['draws']) * 1000:6.1f} / {max(svc['draws']) * 1000:6.1f}"
            f" ms | {svc['final'] * 1000:6.1f} ms | {svc['read'] * 1000:5.1f} ms "
            f"({svc['queries']}) | {svc['results']}"
        )
    print(
        "target: every draw (re-classification + pairing) under "
        f"{TARGET_SECONDS:.0f} s of CPU: {'met' if ok else 'NOT met'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

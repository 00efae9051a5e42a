"""The teams benchmark's in-memory Swiss still runs against the standings code it measures
(it once broke unnoticed when match scores gained points in the event's own unit)."""

import importlib.util
import random
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_teams.py"


def test_the_benchmarks_pure_swiss_runs_without_rematches():
    spec = importlib.util.spec_from_file_location("bench_teams", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    times = bench.pure_swiss(12, random.Random(7))  # asserts no rematch in any round
    assert len(times) == bench.ROUNDS - 1

"""Fault injection on the live site: the six scenarios of issue 15 with outages of a few
seconds (``tests/faults/scenarios.py --profile short``; bench/fault_injection.py runs them
at full length and docs/resilience.md has its figures).

Each scenario runs on servers of its own — a private PostgreSQL cluster and a private Redis
that it stops, restarts and kills, gunicorn, a Celery worker with its embedded beat as
``make worker`` runs it — with simulated tablets posting through HTTP, and ends compared
with a fault-free run of the same session: every result stored once and as played, the
ranking equal, every PDF made once and every upload filed once, with nobody acting.

One test for the six (they share one stack, which takes a while to start), run in a
subprocess because the site under test has its own database. Marked ``worker`` and
``postgres``: `.ci/run`'s PostgreSQL pass must run it (it needs root to run ``initdb`` as
the ``postgres`` user, and the PostgreSQL and Redis server binaries).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults import stack

pytestmark = [pytest.mark.worker, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = [
    "redis_down",
    "worker_killed",
    "postgres_restarted",
    "replayed_twice",
    "directors_at_once",
    "answer_lost",
]


def test_six_faults_end_exactly_as_a_fault_free_run(tmp_path):
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("runs in the PostgreSQL pass (.ci/run), on servers of its own")
    reason = stack.available()
    if reason:
        pytest.skip(reason)
    out = tmp_path / "faults.json"
    done = subprocess.run(
        [sys.executable, "-m", "tests.faults.scenarios", "--profile", "short", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.exists(), done.stderr[-4000:]
    reports = json.loads(out.read_text())["reports"]
    assert [r["scenario"] for r in reports] == EXPECTED, done.stderr[-4000:]
    failures = {
        r["scenario"]: ({k: v for k, v in r["checks"].items() if not v}, r["notes"])
        for r in reports
        if not r["ok"]
    }
    assert not failures, json.dumps(failures, indent=1, default=str)[:6000]
    for report in reports:
        assert report["lost"] == report["doubled"] == report["differing"] == 0
        assert report["stray_rows"] == 0 and report["human_actions"] == 0
        assert report["pdfs_made_twice"] == 0
    by_name = {r["scenario"]: r for r in reports}
    # The faults did happen: tables had to retry through PostgreSQL's restart and lost
    # answers, the worker was killed mid-render and mid-upload.
    assert by_name["postgres_restarted"]["failed_posts"] > 0
    assert by_name["answer_lost"]["notes"]["answers_dropped"] > 0
    assert by_name["worker_killed"]["notes"]["killed_while_rendering"]
    assert by_name["worker_killed"]["notes"]["killed_while_uploading"]
    assert by_name["redis_down"]["uploads_filed"] == by_name["worker_killed"]["uploads_filed"] == 1
    assert done.returncode == 0

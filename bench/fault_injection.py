"""Fault injection at full length: the six scenarios of issue 15 with real outage lengths.

    python bench/fault_injection.py [--profile long|short] [--only 1,3] [--json out.json]

Runs ``tests/faults/scenarios.py`` (Redis stopped 30 s mid-round, the worker SIGKILLed
mid-render and mid-upload, PostgreSQL stopped 10 s mid-round, a device replaying its queue
twice out of order after a correction, two directors and a table correcting at once, answers
lost between the server's commit and the device) on private servers — never the PostgreSQL
and Redis other work shares — and prints, per scenario, what was lost or doubled, how long
service was degraded, how long the jobs took to finish after the fault, and whether a human
had to act. docs/resilience.md records the figures. Needs root (``initdb`` runs as the
``postgres`` user), the PostgreSQL server binaries and ``redis-server``. Exit status 1 when a
scenario does not end as the fault-free run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def row(r: dict) -> str:
    failed = [k for k, v in r["checks"].items() if not v]

    def secs(value) -> str:
        return "—" if value is None else f"{value:.1f} s"

    return (
        f"| {r['number']}. {r['scenario']} | {r['lost']} lost, {r['doubled']} doubled, "
        f"{r['differing']} changed | {r['failed_posts']} of {r['posts']} | "
        f"{secs(r['degraded_seconds'])} | {secs(r['jobs_seconds'])} | "
        f"{r['pdfs_made']} / {r['pdfs_made_twice']} | {r['uploads_filed']} | "
        f"{'no' if not r['human_actions'] else r['human_actions']} | "
        f"{'all' if not failed else 'FAILED: ' + ', '.join(failed)} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="long", choices=["long", "short"])
    parser.add_argument("--only", default="")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    out = Path(args.json or tempfile.mktemp(suffix=".json", prefix="faults-"))
    command = [
        sys.executable,
        "-m",
        "tests.faults.scenarios",
        "--profile",
        args.profile,
        "--json",
        str(out),
    ] + (["--only", args.only] if args.only else [])
    done = subprocess.run(command, cwd=ROOT, timeout=3600, stdout=subprocess.DEVNULL)
    if not out.exists():
        print("the scenarios did not run", file=sys.stderr)
        return 2
    data = json.loads(out.read_text())
    print(f"profile {data['profile']}, started {data['started']}")
    print(
        "| scenario | results | posts without an answer (retried) | longest wait for one "
        "result | jobs done after the fault | PDFs made / twice | uploads filed | human "
        "had to act | checks passed |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for report in data["reports"]:
        print(row(report))
    for report in data["reports"]:
        notes = {k: v for k, v in report["notes"].items() if k not in ("pdfs", "trace")}
        print(
            f"{report['number']}. {report['scenario']}: ranking followed by itself in "
            f"{report['ranking_seconds'] if report['ranking_seconds'] is None else round(report['ranking_seconds'], 1)} s; "
            f"{json.dumps(notes, default=str)}"
        )
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())

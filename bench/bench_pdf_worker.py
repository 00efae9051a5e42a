"""Benchmark the results PDF the way the product makes it: a director asks for it and a real
``celery worker`` (prefork, as ``make worker`` starts it) renders and stores it.

``bench_pdf_growth.py`` times the rendering inside one process it starts itself; this one
times the product's path from the request to the stored file, through Redis and the
worker, so what the worker's own processes can and cannot do shows: a prefork worker's
processes are daemonic, and a pool the standard library would refuse them shows here as
one process rendering every part.

Run from the repository root, on throw-away services (never the site's own)::

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubsite_bench_pdfw \\
    BENCH_REDIS=redis://127.0.0.1:6379/12 .venv/bin/python bench/bench_pdf_worker.py

The database is created if missing and wiped; the Redis db is flushed. The field is
``bench_pdf_usebio.build_field`` (``--tables 60``: two Mitchell sections, dealt, analysed
and classified); each of ``--runs`` requests makes the PDF cold (no part kept). Memory is
sampled every 10 ms over the worker's whole process tree (its main process, its prefork
children and the processes they start): the peak of the summed PSS, and that sum at rest
before the request, so the job's own share is the difference.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(HERE))
from proc_memory import TreeSampler, sizes, tree  # noqa: E402 - the bench folder first


def setup(database: str, redis_url: str) -> None:
    import psycopg

    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    scratch = tempfile.mkdtemp(prefix="clubsite-bench-pdfw-")
    os.environ.update(
        DATABASE_URL=database,
        CELERY_BROKER_URL=redis_url,
        CELERY_RESULT_BACKEND=redis_url,
        CLUBSITE_VAR_DIR=scratch,
        PDF_PART_CACHE_DIR="",
        RESULTS_PDF_ON_PUBLISH="0",
        DEBUG="0",
        DJANGO_SETTINGS_MODULE="clubsite.settings",
    )
    sys.path[:0] = [str(ROOT), str(HERE)]
    import django

    django.setup()
    from django_setup import work_as_default_club

    work_as_default_club()
    import redis
    from django.core.management import call_command

    call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
    redis.Redis.from_url(redis_url).flushdb()


def start_worker(concurrency: int) -> subprocess.Popen:
    from clubsite.celery import app

    process = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "clubsite",
            "worker",
            f"--concurrency={concurrency}",
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=dict(os.environ),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if app.control.ping(timeout=1.0):
            time.sleep(2)  # its prefork children up and idle
            return process
        if process.poll() is not None:
            break
    process.kill()
    raise RuntimeError("the celery worker did not start")


def one_run(tournament, worker: subprocess.Popen) -> dict:
    from tournaments import jobs
    from tournaments.models.uploads import PdfState, ResultsPdf

    ResultsPdf.objects.filter(tournament=tournament).delete()
    rest = sum(sizes(p)[1] for p in tree(worker.pid))
    sampler = TreeSampler(worker.pid)
    sampler.start()
    load = os.getloadavg()[0]
    start = time.perf_counter()
    pdf, _created = jobs.request_pdf(tournament, language="en", classify=False)
    while True:
        pdf.refresh_from_db()
        if pdf.state in (PdfState.DONE, PdfState.FAILED):
            break
        if time.perf_counter() - start > 300:
            raise RuntimeError("no PDF after 300 s")
        time.sleep(0.02)
    wall = time.perf_counter() - start
    sampler.finish()
    if pdf.state != PdfState.DONE:
        raise RuntimeError(pdf.error)
    return {
        "wall_s": wall,
        "pages": pdf.pages,
        "load": load,
        "rest_mib": rest,
        "peak_mib": sampler.pss,
        "processes": sampler.most,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="the worker's prefork processes (Celery's default: the cores)",
    )
    args = parser.parse_args(argv)
    database = os.environ.get("BENCH_DATABASE_URL", "")
    if not database.startswith("postgres"):
        raise SystemExit("BENCH_DATABASE_URL must name a PostgreSQL database that may be wiped")
    setup(database, os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/12"))
    from bench_pdf_usebio import build_field

    from tournaments.models import Tournament

    pk, _facts = build_field(args.tables // 2)
    tournament = Tournament.objects.get(pk=pk)
    worker = start_worker(args.concurrency)
    print(
        f"{args.tables} tables; worker: prefork, concurrency {args.concurrency}; "
        f"{os.cpu_count()} cores",
        flush=True,
    )
    print(
        f"{'run':>3} {'load':>5} {'wall s':>7} {'pages':>5} {'PSS at rest':>11} "
        f"{'PSS peak':>8} {'job MiB':>7} {'procs':>5}",
        flush=True,
    )
    try:
        for run in range(1, args.runs + 1):
            r = one_run(tournament, worker)
            print(
                f"{run:>3} {r['load']:>5.2f} {r['wall_s']:>7.2f} {r['pages']:>5} "
                f"{r['rest_mib']:>11.0f} {r['peak_mib']:>8.0f} "
                f"{r['peak_mib'] - r['rest_mib']:>7.0f} {r['processes']:>5}",
                flush=True,
            )
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

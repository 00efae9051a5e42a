"""Benchmark the results PDF and the USEBIO round trip of a two-section session, as it grows.

Run from the repository root: ``python bench/bench_pdf_usebio.py`` (SQLite in a temporary
folder) or with ``BENCH_DATABASE_URL=postgres://…`` (a database that may be wiped; see
``django_setup``). ``--sizes 8,15,30`` gives the tables per section (two sections sharing
one pool of boards: 16, 30 and 60 tables); ``--keep DIR`` keeps the PDFs and USEBIO files.

Each field is built through the services by ``bench_classification.build`` (Mitchell sections,
every slot played), dealt by ``services.boards.deal_boards`` and analysed double dummy by
``services.boards.analyse_boards`` (endplay's DDS, so hand records carry the real
double-dummy table and par), then classified. Each measured step runs in a fresh child
process on the same database, which reports its own wall time and peak resident memory
(``VmHWM`` of ``/proc/self/status``) before and after the step:

- ``pdf``: the full results PDF (ranking, travellers with frequencies, hand records,
  personal scorecards) — ``pdf.render_html`` (data load + template) then ``pdf.render_pdf``
  (WeasyPrint layout and writing); pages and size;
- ``export``: ``exports.usebio.export`` (and ``exports.pbn.export``), file sizes;
- ``import``: ``imports.usebio.import_file`` of that USEBIO file as a new tournament, with the
  verify report, which must list no difference.

Targets: the 60-table PDF in under 60 s of CPU time (the wall time is shown too; on a
machine shared with other work it is longer); verify clean at every size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from proc_memory import own_peak  # noqa: E402 - the bench folder first

PDF_TARGET_SECONDS = 60.0


# --- the child: one measured step -----------------------------------------------------------


def child(step: str, arg: str, out: str) -> dict:
    sys.path.insert(0, str(HERE.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    import weasyprint  # noqa: F401 - loaded before the baseline, like a warm worker
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from tournaments import documents
    from tournaments import pdf as pdfs
    from tournaments.imports import usebio as usebio_import
    from tournaments.models import Tournament
    from tournaments.models.uploads import PdfKind

    translation.activate("en")
    report: dict = {"rss_before_mib": own_peak()}
    if step == "pdf":
        tournament = Tournament.objects.get(pk=int(arg))
        start, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as queries:
            html, _version = documents.render_html(tournament, PdfKind.RESULTS, "en")
        report["html_s"] = time.perf_counter() - start
        report["queries"] = len(queries.captured_queries)
        report["html_mib"] = len(html.encode()) / 2**20
        start = time.perf_counter()
        content, pages = pdfs.render_pdf(html)
        report["layout_s"] = time.perf_counter() - start
        report["cpu_s"] = time.process_time() - cpu
        report["pages"], report["pdf_mib"] = pages, len(content) / 2**20
        Path(out).write_bytes(content)
    elif step == "export":
        tournament = Tournament.objects.get(pk=int(arg))
        start = time.perf_counter()
        text = documents.export_text(tournament, "usebio")
        report["usebio_s"] = time.perf_counter() - start
        Path(out).write_text(text, encoding="utf-8")
        report["usebio_kib"] = len(text.encode()) / 1024
        start = time.perf_counter()
        text = documents.export_text(tournament, "pbn")
        report["pbn_s"] = time.perf_counter() - start
        Path(out).with_suffix(".pbn").write_text(text, encoding="utf-8")
        report["pbn_kib"] = len(text.encode()) / 1024
    elif step == "import":
        data = Path(arg).read_bytes()
        start = time.perf_counter()
        record = usebio_import.import_file(data, file_name=Path(arg).name)
        report["import_s"] = time.perf_counter() - start
        report["differences"] = len(record.differences)
        report["lines"] = record.summary["lines"]
        report["members"] = record.summary["members"]
        report["guests"] = record.summary["guests"]
        report["report"] = usebio_import.report_text(record).splitlines()[-1]
    report["rss_peak_mib"] = own_peak()
    return report


def run_child(step: str, arg: str, out: str) -> dict:
    """Run one step in a fresh interpreter on the same database (inherits the environment)."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", step, arg, out],
        capture_output=True,
        text=True,
        cwd=HERE,
    )
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"child {step} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the parent: build each field, measure each step ----------------------------------------


def build_field(tables: int) -> tuple[int, dict]:
    """Two ``tables``-table Mitchell sections on one pool, dealt, analysed and classified."""
    from bench_classification import build

    from tournaments.models import Board, Result
    from tournaments.movements.mitchell import max_mitchell_rounds
    from tournaments.services.boards import deals as board_service
    from tournaments.services.classification.classify import classify_session

    facts: dict = {}
    start = time.perf_counter()
    session = build(
        sections=2,
        tables=tables,
        rounds=min(15, max_mitchell_rounds(tables)),
        boards_per_round=2,
        seed=tables,
    )
    facts["build_s"] = time.perf_counter() - start
    board_service.deal_boards(session.sections.first(), seed=tables)
    start = time.perf_counter()
    facts["analysed"] = board_service.analyse_boards(
        Board.objects.filter(session=session).order_by("number")
    )
    facts["dd_s"] = time.perf_counter() - start
    start = time.perf_counter()
    classify_session(session)
    facts["classify_s"] = time.perf_counter() - start
    facts["results"] = Result.objects.filter(section__session=session).count()
    facts["pairs"] = session.tournament.entries.count()
    return session.tournament_id, facts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,15,30", help="tables per section, comma-separated")
    parser.add_argument("--keep", help="folder to keep the PDFs and files in")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0

    sys.path.insert(0, str(HERE))
    from django_setup import setup

    vendor = setup()
    from django.core.management import call_command

    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench-pdf-"))
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"database: {vendor}; two sections sharing one pool; files in {folder}")
    print(
        f"{'tables':>6} {'pairs':>5} {'boards':>6} {'results':>7} | {'pdf s':>6} "
        f"{'(data+tpl':>9} {'layout)':>7} {'cpu s':>5} {'pages':>5} {'MiB':>5} {'peak RSS':>9} "
        f"{'+':>6} {'queries':>7} | {'USEBIO s':>8} {'KiB':>6} {'PBN s':>5} | "
        f"{'import s':>8} {'peak RSS':>8} {'diffs':>5}"
    )
    failed = False
    for tables in sizes:
        call_command("flush", "--noinput", verbosity=0)
        pk, facts = build_field(tables)
        base = folder / f"bench-{2 * tables}-tables"
        pdf = run_child("pdf", str(pk), f"{base}.pdf")
        exp = run_child("export", str(pk), f"{base}.xml")
        imp = run_child("import", f"{base}.xml", "-")
        total = pdf["html_s"] + pdf["layout_s"]
        print(
            f"{2 * tables:>6} {facts['pairs']:>5} {facts['analysed']:>6} {facts['results']:>7} "
            f"| {total:>6.1f} {pdf['html_s']:>9.1f} {pdf['layout_s']:>7.1f} {pdf['cpu_s']:>5.1f} "
            f"{pdf['pages']:>5} {pdf['pdf_mib']:>5.1f} {pdf['rss_peak_mib']:>5.0f} MiB "
            f"{pdf['rss_peak_mib'] - pdf['rss_before_mib']:>+6.0f} {pdf['queries']:>7} | "
            f"{exp['usebio_s']:>8.2f} {exp['usebio_kib']:>6.0f} {exp['pbn_s']:>5.2f} | "
            f"{imp['import_s']:>8.2f} {imp['rss_peak_mib']:>4.0f} MiB {imp['differences']:>5}",
            flush=True,
        )
        print(
            f"{'':>6} set-up: build {facts['build_s']:.1f} s, double dummy of "
            f"{facts['analysed']} boards {facts['dd_s']:.1f} s, classify "
            f"{facts['classify_s']:.2f} s; export peak RSS {exp['rss_peak_mib']:.0f} MiB "
            f"(+{exp['rss_peak_mib'] - exp['rss_before_mib']:.0f}); PBN {exp['pbn_kib']:.0f} "
            f"KiB; import: {imp['lines']} lines, {imp['members']} members matched, "
            f"{imp['guests']} guests; {imp['report']}",
            flush=True,
        )
        failed |= imp["differences"] > 0
        if tables == max(sizes) and pdf["cpu_s"] > PDF_TARGET_SECONDS:
            print(
                f"the largest PDF took {pdf['cpu_s']:.1f} s of CPU "
                f"(target < {PDF_TARGET_SECONDS:.0f} s)"
            )
            failed = True
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

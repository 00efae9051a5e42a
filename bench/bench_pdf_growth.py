"""Benchmark the results PDF as the field grows: CPU per page against a trivial WeasyPrint
document of as many pages, measured in the same run, and peak memory.

Run from the repository root: ``python bench/bench_pdf_growth.py`` (SQLite in a temporary
folder; ``BENCH_DATABASE_URL=postgres://…`` for a database that may be wiped). For each size
(``--sizes 20,60,200`` tables: two Mitchell sections sharing one pool of boards, as in
``bench_pdf_usebio``, dealt and analysed double dummy, then classified) each way of making
the PDF runs in a fresh child process on the same database:

- ``pdf``: the product's way, as the job makes it (``documents.results_document`` then
  ``pdf.join.render``);
- ``one`` (``--one``): the same results as a single WeasyPrint document
  (``documents.render_html`` + ``pdf.render_pdf``);
- ``corrected`` (``--corrected``): the PDF after one corrected result, the parts of the
  document before it kept (``pdf.part_cache``);
- ``before-N`` (``--before DIR``): the product's way of another checkout (e.g. ``git
  archive`` of an older commit), with N render processes where it had them
  (``--before-workers 1,2``), for a comparison in one run.

Right after each, in a fresh child of the same kind, the baseline: a trivial document of as
many pages (one short line a page, ``trivial_html``), rendered by WeasyPrint alone. The
figure is the ratio of the CPU per page (every process of the child, user and system) of
the way to the baseline's. ``--text`` adds a second reference: the PDF's own text
(``pdftotext -layout``) as bare ``<pre>`` pages in its monospaced font, what the same lines
cost WeasyPrint with no markup at all.

Each run is made twice: timed with nothing else in its process, then with its memory sampled
every 10 ms (the sampling costs CPU the timed run must not pay): the peak of the summed
proportional set size (PSS) of the child and the processes it started, from
``/proc/PID/smaps_rollup``. The load average is printed with every figure (the machine may
be shared); ``--rounds`` repeats the ways, to compare within a round on a drifting machine.
"""

from __future__ import annotations

import argparse
import html as html_text
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
from proc_memory import TreeSampler  # noqa: E402 - the bench folder first


def child(way: str, pk: int, out: str) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    import weasyprint  # noqa: F401 - loaded before the measure, like a warm worker
    from django.utils import translation

    from tournaments import documents
    from tournaments import pdf as pdfs
    from tournaments.models import Tournament

    translation.activate("en")
    tournament = Tournament.objects.get(pk=pk)
    sampler = TreeSampler(os.getpid())
    if os.environ.get("BENCH_SAMPLE") == "1":
        sampler.start()
    report: dict = {"load": os.getloadavg()[0]}
    start, cpu = time.perf_counter(), os.times()
    stats: dict = {}
    if way == "corrected":
        start, cpu = _after_one_correction(tournament, report)
    if way.startswith("trivial-"):
        content, pages = pdfs.render_pdf(trivial_html(int(way.split("-")[1])))
    elif way.startswith("text:"):
        content, pages = pdfs.render_pdf(text_html(Path(way.split(":", 1)[1])))
    elif way == "one":
        html, _version = documents.render_html(tournament, "results", "en")
        content, pages = pdfs.render_pdf(html)
    else:
        content, pages = _product(tournament, way, stats)
        report["parts_kept"] = stats.get("kept", 0)
        report["parts"] = len(stats.get("parts", ()))
    report["wall_s"] = time.perf_counter() - start
    end = os.times()
    report["cpu_s"] = sum(end[:4]) - sum(cpu[:4])
    sampler.finish()
    report.update(pages=pages, pdf_kib=len(content) / 1024, pss_mib=sampler.pss)
    report["processes"] = sampler.most
    Path(out).write_bytes(content)
    return report


def _product(tournament, way: str, stats: dict) -> tuple[bytes, int]:
    """The results PDF as the job makes it; in a checkout from before issue #33 (its parts
    laid out by a pool of processes) with as many processes as ``before-N`` says."""
    from tournaments import documents
    from tournaments.pdf import join as pdf_join

    try:
        from tournaments.pdf import pool as pdf_pool  # type: ignore[attr-defined]
    except ImportError:
        document, _version = documents.results_document(tournament, "en")
        return pdf_join.render(document, stats=stats)
    workers = int(way.split("-")[1]) if way.startswith("before-") else 1
    with pdf_pool.PartPool(workers) as pool:
        document, _version = documents.results_document(tournament, "en", submit=pool.submit)
        return pdf_join.render(document, stats=stats, pool=pool)


def trivial_html(pages: int) -> str:
    """The baseline: ``pages`` A4 pages of one short line each, in the PDF's font."""
    body = "".join(
        f'<p style="break-before: page">{n}</p>' if n > 1 else "<p>1</p>"
        for n in range(1, pages + 1)
    )
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>@page { size: A4 } '
        'html { font: 9.5pt "DejaVu Sans", sans-serif }</style></head>'
        f"<body>{body}</body></html>"
    )


def text_html(path: Path) -> str:
    """The second reference: the pages of ``path`` (``pdftotext -layout`` of a results PDF)
    as bare ``<pre>`` pages, in the PDF's monospaced font and margins."""
    pages = path.read_text(encoding="utf-8").split("\f")[:-1]
    body = "".join(
        f'<pre style="break-before: page">{html_text.escape(page.rstrip())}</pre>' for page in pages
    )
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: '
        '18mm 14mm 16mm } html { font: 8pt/1.45 "DejaVu Sans Mono", monospace } pre { '
        f"margin: 0; font: inherit }}</style></head><body>{body}</body></html>"
    )


def _after_one_correction(tournament, report: dict) -> tuple[float, tuple]:
    """The PDF a director's correction asks for: the document rendered once (its parts
    kept), one played result corrected by a trick and the session classified again, then
    the clock starts for the new document."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Result, ResultStatus
    from tournaments.services.classification import classify as classification
    from tournaments.services.running import corrections

    _product(tournament, "pdf", {})
    row = (
        Result.objects.filter(
            section__session__tournament=tournament, status=ResultStatus.OK, adjustment__isnull=True
        )
        .exclude(contract__in=["", "PASS"])
        .order_by("pk")
        .first()
    )
    director, _ = get_user_model().objects.get_or_create(username="bench-director")
    tricks = row.tricks - 1 if row.tricks > 0 else row.tricks + 1
    corrections.correct_result(
        row,
        user=director,
        contract=row.contract,
        declarer=row.declarer,
        tricks=tricks,
        lead=row.lead,
        reason="bench",
        override=True,
    )
    classification.ensure_current(row.section.session)
    report["corrected"] = f"board {row.board.number}, round {row.round}, table {row.table}"
    return time.perf_counter(), os.times()


def run_child(way: str, pk: int, out: str, before: str | None = None) -> dict:
    """The way timed in one child, its memory sampled in another: the sampler reads each
    process's ``smaps_rollup`` (~1.2 ms each, every 10 ms), CPU the timed run must not pay."""
    timed = _one_child(way, pk, out, before, sample=False)
    sampled = _one_child(way, pk, out, before, sample=True)
    return timed | {k: sampled[k] for k in ("pss_mib", "processes")}


def _one_child(way: str, pk: int, out: str, before: str | None, *, sample: bool) -> dict:
    root = Path(before) if before and way.startswith("before-") else HERE.parent
    # A cold render keeps no parts; "corrected" keeps them in a folder of its own.
    cache = tempfile.mkdtemp(prefix="bench-parts-") if way == "corrected" else ""
    try:
        done = subprocess.run(
            [sys.executable, str(HERE / "bench_pdf_growth.py"), "--child", way, str(pk), out],
            capture_output=True,
            text=True,
            cwd=root,
            env={
                **os.environ,
                "PYTHONPATH": str(root),
                "PDF_PART_CACHE_DIR": cache,
                "BENCH_SAMPLE": "1" if sample else "0",
            },
        )
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"child {way} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(way: str, pk: int, folder: Path, before: str | None, text: bool) -> dict:
    """``way`` and, right after it, its baseline (and with ``text`` the text reference)."""
    out = folder / f"{way}.pdf"
    r = run_child(way, pk, str(out), before)
    base = run_child(f"trivial-{r['pages']}", pk, str(folder / "trivial.pdf"))
    r["ms_page"] = 1000 * r["cpu_s"] / r["pages"]
    r["floor_ms_page"] = 1000 * base["cpu_s"] / base["pages"]
    r["floor_pss_mib"] = base["pss_mib"]
    r["ratio"] = r["ms_page"] / r["floor_ms_page"]
    if text:
        lines = folder / f"{way}.txt"
        subprocess.run(["pdftotext", "-layout", str(out), str(lines)], check=True)
        plain = run_child(f"text:{lines}", pk, str(folder / "text.pdf"))
        r["text_ratio"] = 1000 * plain["cpu_s"] / plain["pages"] / r["floor_ms_page"]
    return r


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,60,200", help="tables, comma-separated")
    parser.add_argument("--one", action="store_true", help="also the single document")
    parser.add_argument(
        "--corrected",
        action="store_true",
        help="also the PDF after one correction, its unchanged parts kept",
    )
    parser.add_argument("--before", help="another checkout to time as 'before-N'")
    parser.add_argument("--before-workers", default="1", help="its processes, e.g. 1,2")
    parser.add_argument("--text", action="store_true", help="also the text reference")
    parser.add_argument("--keep", help="folder to keep the PDFs in")
    parser.add_argument(
        "--rounds", type=int, default=1, help="run the ways in turn this many times a size"
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]), args.child[2])))
        return 0

    from bench_pdf_usebio import build_field
    from django_setup import setup

    vendor = setup()
    from django.core.management import call_command

    ways = (
        ["pdf"]
        + (["one"] if args.one else [])
        + (["corrected"] if args.corrected else [])
        + ([f"before-{n}" for n in args.before_workers.split(",")] if args.before else [])
    )
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench-growth-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"database: {vendor}; {os.cpu_count()} cores; files in {folder}", flush=True)
    print(
        f"{'tables':>6} {'way':>9} {'load':>5} {'wall s':>7} {'cpu s':>6} {'pages':>5} "
        f"{'KiB':>5} {'PSS MiB':>7} {'procs':>5} {'ms/page':>7} {'trivial':>7} {'ratio':>5} "
        f"{'its PSS':>7}" + (f" {'text':>5}" if args.text else ""),
        flush=True,
    )
    for tables in [int(s) for s in args.sizes.split(",")]:
        call_command("flush", "--noinput", verbosity=0)
        pk, _facts = build_field(tables // 2)
        for way in [w for _round in range(args.rounds) for w in ways]:
            r = measure(way, pk, folder, args.before, args.text)
            print(
                f"{tables:>6} {way:>9} {r['load']:>5.2f} {r['wall_s']:>7.2f} {r['cpu_s']:>6.2f} "
                f"{r['pages']:>5} {r['pdf_kib']:>5.0f} {r['pss_mib']:>7.0f} {r['processes']:>5} "
                f"{r['ms_page']:>7.2f} {r['floor_ms_page']:>7.2f} {r['ratio']:>5.2f} "
                f"{r['floor_pss_mib']:>7.0f}"
                + (f" {r['text_ratio']:>5.2f}" if args.text else "")
                + (
                    f"  {r['parts_kept']} of {r['parts']} parts kept ({r['corrected']})"
                    if way == "corrected"
                    else ""
                ),
                flush=True,
            )
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

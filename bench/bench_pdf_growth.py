"""Benchmark the results PDF as the field grows, and draw the growth curve (SVG).

Run from the repository root: ``python bench/bench_pdf_growth.py`` (SQLite in a temporary
folder; ``BENCH_DATABASE_URL=postgres://…`` for a database that may be wiped). For each size
(``--sizes 10,20,40,60,100`` tables: two Mitchell sections sharing one pool of boards, as in
``bench_pdf_usebio``, dealt and analysed double dummy, then classified — the
re-classification's time is measured too) each way of making the PDF runs in a fresh child
process on the same database:

- ``parts-N``: ``documents.results_document`` then ``pdf.join.render`` with N processes
  (``--workers 1,2``);
- ``one``: the same results as a single WeasyPrint document in one process
  (``documents.render_html`` + ``pdf.render_pdf``);
- ``before``: that single document made by another checkout (``--before DIR``, e.g. the
  code before the parts, unpacked with ``git archive``), for a comparison in one run.

Each way runs twice: timed with nothing else in its process, then with its memory sampled
every 10 ms while the PDF is made (the sampling costs CPU the timed run must not pay): the
sum over the child and the processes it started of their resident (RSS) and proportional
(PSS: pages shared after the fork counted once in all) set sizes, from ``/proc/PID/smaps_rollup``; "peaks" adds each
process's own high-water mark (``VmHWM``), an upper bound. The load average is printed with
every figure (the machine may be shared). ``--svg docs/growth.svg`` draws wall time and peak
memory against tables for each way, and the re-classification time.
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
from proc_memory import TreeSampler, own_peak  # noqa: E402 - the bench folder first


def child(way: str, pk: int, out: str) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    import weasyprint  # noqa: F401 - loaded before the measure, like a warm worker
    from django.utils import translation

    from tournaments import documents
    from tournaments.models import Tournament

    translation.activate("en")
    tournament = Tournament.objects.get(pk=pk)
    sampler = TreeSampler(os.getpid())
    if os.environ.get("BENCH_SAMPLE") == "1":
        sampler.start()
    report: dict = {"load": os.getloadavg()[0]}
    start, cpu = time.perf_counter(), os.times()
    stats: dict = {}
    if way.startswith("corrected-"):
        start, cpu = _after_one_correction(tournament, report)
    if way.startswith(("parts-", "corrected-")):
        from tournaments.pdf import join as pdf_join
        from tournaments.pdf import pool as pdf_pool

        with pdf_pool.PartPool(int(way.split("-")[1])) as pool:
            document, _version = documents.results_document(tournament, "en",
                                                            submit=pool.submit)
            report["html_s"] = time.perf_counter() - start  # the parts render meanwhile
            report["parts"] = len(document.parts)
            content, pages = pdf_join.render(document, stats=stats, pool=pool)
        report["parts_kept"] = stats.get("kept", 0)
    else:
        from tournaments import pdf

        html, _version = documents.render_html(tournament, "results", "en")
        report["html_s"] = time.perf_counter() - start
        content, pages = pdf.render_pdf(html)
    report["wall_s"] = time.perf_counter() - start
    end = os.times()
    report["cpu_s"] = sum(end[:4]) - sum(cpu[:4])
    sampler.finish()
    peaks = stats.get("peaks", {})
    peaks[os.getpid()] = own_peak()
    report.update(pages=pages, pdf_kib=len(content) / 1024, rss_mib=sampler.rss,
                  pss_mib=sampler.pss, peaks_mib=sum(peaks.values()),
                  processes=len(peaks), own_peak_mib=peaks[os.getpid()])
    Path(out).write_bytes(content)
    return report


def _after_one_correction(tournament, report: dict) -> tuple[float, tuple]:
    """The PDF a director's correction asks for: the document rendered once (its parts
    kept), one played result corrected by a trick and the session classified again, then
    the clock starts for the new document."""
    from django.contrib.auth import get_user_model

    from tournaments import documents
    from tournaments.models import Result, ResultStatus
    from tournaments.pdf import join as pdf_join
    from tournaments.services import classification, corrections

    document, _version = documents.results_document(tournament, "en")
    pdf_join.render(document, workers=2)
    row = (Result.objects.filter(section__session__tournament=tournament,
                                 status=ResultStatus.OK, adjustment__isnull=True)
           .exclude(contract__in=["", "PASS"]).order_by("pk").first())
    director, _ = get_user_model().objects.get_or_create(username="bench-director")
    tricks = row.tricks - 1 if row.tricks > 0 else row.tricks + 1
    corrections.correct_result(row, user=director, contract=row.contract, declarer=row.declarer,
                               tricks=tricks, lead=row.lead, reason="bench", override=True)
    classification.ensure_current(row.section.session)
    report["corrected"] = f"board {row.board.number}, round {row.round}, table {row.table}"
    return time.perf_counter(), os.times()


def run_child(way: str, pk: int, out: str, before: str | None) -> dict:
    """The way timed in one child, its memory sampled in another: the sampler reads each
    process's ``smaps_rollup`` (~1.2 ms each, every 10 ms), about a quarter of a core with
    three processes, which slowed the parallel ways it measured by up to a second."""
    timed = _one_child(way, pk, out, before, sample=False)
    sampled = _one_child(way, pk, out, before, sample=True)
    memory = ("rss_mib", "pss_mib", "peaks_mib", "processes", "own_peak_mib")
    return timed | {k: sampled[k] for k in memory}


def _one_child(way: str, pk: int, out: str, before: str | None, *, sample: bool) -> dict:
    root = Path(before) if way == "before" else HERE.parent
    # A cold render keeps no parts; "corrected-N" keeps them in a folder of its own.
    cache = tempfile.mkdtemp(prefix="bench-parts-") if way.startswith("corrected-") else ""
    try:
        done = subprocess.run([sys.executable, str(HERE / "bench_pdf_growth.py"), "--child",
                               way, str(pk), out], capture_output=True, text=True, cwd=root,
                              env={**os.environ, "PYTHONPATH": str(root),
                                   "PDF_PART_CACHE_DIR": cache,
                                   "BENCH_SAMPLE": "1" if sample else "0"})
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"child {way} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def svg_chart(rows: list[dict], ways: list[str], path: Path) -> None:
    """Two panels, wall time and peak memory (PSS) against tables; the re-classification's
    time is drawn in the time panel."""
    colours = {"before": "#c8102e", "one": "#e08a00", "parts-1": "#1d4e89",
               "parts-2": "#2a9d3a", "parts-4": "#7a3aa8", "classify": "#666"}
    sizes = [r["tables"] for r in rows]
    w, h, left, top, gap = 820, 300, 60, 50, 60
    panels = [("wall time (s)", "wall_s"), ("CPU time, all processes (s)", "cpu_s"),
              ("peak memory, PSS summed over processes (MiB)", "pss_mib")]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" '
           f'height="{len(panels) * (h + gap) + 20}" '
           'font-family="DejaVu Sans, sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="22" font-size="15" font-weight="bold">Results PDF as the field '
           "grows (bench/bench_pdf_growth.py)</text>"]
    xmax = max(sizes)
    for n, (title, key) in enumerate(panels):
        y0 = top + n * (h + gap)
        series = {way: [r[way][key] for r in rows] for way in ways}
        if key != "pss_mib":
            series["classify"] = [r["classify_s"] for r in rows]
        ymax = max(max(v) for v in series.values()) * 1.1 or 1
        pw, ph = w - left - 250, h - 40

        def x(v, pw=pw):
            return left + pw * v / xmax

        def y(v, y0=y0, ph=ph, ymax=ymax):
            return y0 + ph - ph * v / ymax

        out.append(f'<text x="{left}" y="{y0 - 8}" font-weight="bold">{title}</text>')
        out.append(f'<line x1="{left}" y1="{y0 + ph}" x2="{left + pw}" y2="{y0 + ph}" '
                   'stroke="#333"/><line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#333"/>'
                   .format(left, y0, y0 + ph))
        for i in range(6):
            v = ymax * i / 5
            out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.3g}</text>'
                       f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                       'stroke="#ddd"/>')
        for s in sizes:
            out.append(f'<text x="{x(s):.1f}" y="{y0 + ph + 16}" text-anchor="middle">{s}</text>')
        out.append(f'<text x="{left + pw / 2}" y="{y0 + ph + 32}" text-anchor="middle">'
                   "tables</text>")
        for k, (way, values) in enumerate(series.items()):
            colour = colours.get(way, "#000")
            points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in zip(sizes, values, strict=True))
            dash = ' stroke-dasharray="5,4"' if way == "classify" else ""
            out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                       f'stroke-width="2"{dash}/>')
            out += [f'<circle cx="{x(s):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>'
                    for s, v in zip(sizes, values, strict=True)]
            label = {"before": "before (one document)", "one": "one document, runs cut",
                     "classify": "re-classification"}.get(
                way, f"parts, {way.split('-')[-1]} process(es)")
            ly = y0 + 10 + 18 * k
            out.append(f'<line x1="{left + pw + 15}" y1="{ly}" x2="{left + pw + 35}" y2="{ly}" '
                       f'stroke="{colour}" stroke-width="2"{dash}/><text x="{left + pw + 40}" '
                       f'y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def from_log(path: Path) -> tuple[list[dict], list[str]]:
    """The rows and ways of a run's printed table (to redraw its chart)."""
    rows: dict[int, dict] = {}
    ways: list[str] = []
    keys = ("load", "wall_s", "html_s", "cpu_s", "pages", "pdf_kib", "rss_mib", "pss_mib",
            "peaks_mib", "processes")
    for line in path.read_text().splitlines():
        cells = line.split()
        if len(cells) == 12 and cells[0].isdigit():
            row = rows.setdefault(int(cells[0]), {"tables": int(cells[0])})
            row[cells[1]] = dict(zip(keys, map(float, cells[2:]), strict=True))
            if cells[1] not in ways:
                ways.append(cells[1])
        elif len(cells) > 2 and cells[0].isdigit() and cells[1] == "classify":
            rows[int(cells[0])]["classify_s"] = float(cells[2])
    return [rows[k] for k in sorted(rows)], ways


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,20,40,60,100", help="tables, comma-separated")
    parser.add_argument("--workers", default="1,2", help="processes for the parts")
    parser.add_argument("--corrected", action="store_true",
                        help="also the PDF after one correction, its unchanged parts kept")
    parser.add_argument("--one", action="store_true", help="also the single document")
    parser.add_argument("--before", help="another checkout to time as 'before'")
    parser.add_argument("--svg", help="write the growth chart here")
    parser.add_argument("--keep", help="folder to keep the PDFs in")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the ways in turn this many times a size (a machine whose "
                             "speed drifts: compare within a round); the chart takes the last")
    parser.add_argument("--from-log", help="draw --svg from this run's printed table instead")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.from_log:
        rows, ways = from_log(Path(args.from_log))
        svg_chart(rows, ways, Path(args.svg))
        return 0
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]), args.child[2])))
        return 0

    sys.path.insert(0, str(HERE))
    from bench_pdf_usebio import build_field
    from django_setup import setup

    vendor = setup()
    from django.core.management import call_command

    ways = ([f"parts-{n}" for n in args.workers.split(",")] + (["one"] if args.one else [])
            + ([f"corrected-{args.workers.split(',')[-1]}"] if args.corrected else [])
            + (["before"] if args.before else []))
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench-growth-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"database: {vendor}; {os.cpu_count()} cores; files in {folder}", flush=True)
    print(f"{'tables':>6} {'way':>8} {'load':>5} {'wall s':>7} {'html s':>6} {'cpu s':>6} "
          f"{'pages':>5} {'KiB':>5} {'RSS sum':>8} {'PSS sum':>8} {'peaks':>7} {'procs':>5}",
          flush=True)
    rows = []
    for tables in [int(s) for s in args.sizes.split(",")]:
        call_command("flush", "--noinput", verbosity=0)
        pk, facts = build_field(tables // 2)
        row = {"tables": tables, "classify_s": facts["classify_s"]}
        for way in [w for _round in range(args.rounds) for w in ways]:
            r = run_child(way, pk, str(folder / f"{tables}-{way}.pdf"), args.before)
            row[way] = r
            print(f"{tables:>6} {way:>8} {r['load']:>5.2f} {r['wall_s']:>7.2f} "
                  f"{r['html_s']:>6.2f} {r['cpu_s']:>6.2f} {r['pages']:>5} {r['pdf_kib']:>5.0f} "
                  f"{r['rss_mib']:>8.0f} {r['pss_mib']:>8.0f} {r['peaks_mib']:>7.0f} "
                  f"{r['processes']:>5}"
                  + (f"  {r['parts_kept']} of {r['parts']} parts kept ({r['corrected']})"
                     if way.startswith("corrected-") else ""), flush=True)
        print(f"{tables:>6} classify {facts['classify_s']:.2f} s ({facts['results']} results)",
              flush=True)
        rows.append(row)
    if args.svg:
        svg_chart(rows, ways, Path(args.svg))
        print(f"chart: {args.svg}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

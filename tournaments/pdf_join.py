"""Lay out the parts of a results PDF (``pdf_parts``) in parallel and join them into one PDF.

WeasyPrint keeps to one core and lays out a document as a whole; the parts of a results
document do not depend on each other's layout, so each is rendered on its own — by
``PDF_RENDER_PROCESSES`` processes side by side, this one and forked children (``PartPool``),
or one after the other in this process (a single process asked for, or a single part) —
and pypdf joins them once the children are gone.

The children are billiard's processes, Celery's own fork of ``multiprocessing``: a Celery
prefork worker's processes are daemonic, and the standard library refuses a daemonic
process children ("daemonic processes are not allowed to have children"), so the worker's
PDF job rendered in one process; billiard lets them fork.

What crosses the parts is done once every part's page count is known:

- the title page is rendered last, its contents giving each part's first page, and its
  entries made links to those pages;
- the bookmarks: each part's headings (WeasyPrint's bookmark tree) under the document's
  title, a continuing piece's under the heading of its kind;
- "Page n of N" in the foot of every page, written into each page (``pdf_page_numbers``;
  the parts are rendered without it).

The parts share one style sheet, parsed once per process with one font configuration
(``stylesheet``): parsed again for each part, and a font configuration made for each, it
cost some 12 ms a part. It is parsed before the pool forks, so the children inherit it.

Before the fork the parent's heap is frozen out of the cyclic collector (``gc.freeze``): a
child shares the parent's memory pages until either writes to them, and a collection writes
to every object it walks, so each child soon held its own copy of Django's and WeasyPrint's
objects (60 tables, two processes: 260 MiB PSS summed, 186 MiB frozen, and a second less CPU).

Only the site's own files can be fetched while rendering (``pdf_fetcher``), in every process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import io
import logging
import multiprocessing
import os
import threading
from collections import deque
from contextlib import ExitStack, contextmanager
from pathlib import Path

from django.conf import settings

from . import pdf_page_numbers, pdf_part_cache
from .pdf_parts import ResultsDocument

log = logging.getLogger(__name__)

PX = 0.75  # WeasyPrint's CSS pixel in PDF points


def memory_peak_mib() -> float:
    """This process's peak resident memory (``VmHWM``), in MiB; 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


_STYLESHEETS: dict[str, tuple] = {}


def stylesheet(css: str) -> tuple:
    """(``CSS``, ``FontConfiguration``) of the style sheet ``css``, parsed once a process."""
    if css not in _STYLESHEETS:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        from .pdf_fetcher import SiteFilesFetcher

        fonts = FontConfiguration()
        _STYLESHEETS.clear()  # one document's sheet at a time: no growth in a long worker
        _STYLESHEETS[css] = (CSS(string=css, base_url=str(settings.BASE_DIR),
                                 url_fetcher=SiteFilesFetcher(), font_config=fonts), fonts)
    return _STYLESHEETS[css]


def render_part(html: str, css: str = "") -> dict:
    """One part as PDF bytes, with its page count, bookmark tree, internal links and the
    memory peak of the process that rendered it; ``css``, if given, is its style sheet."""
    from weasyprint import HTML

    from .pdf_fetcher import SiteFilesFetcher

    options = {}
    if css:
        sheet, fonts = stylesheet(css)
        options = {"stylesheets": [sheet], "font_config": fonts}
    document = HTML(string=html, base_url=str(settings.BASE_DIR),
                    url_fetcher=SiteFilesFetcher()).render(**options)

    def tree(items):
        return [(label, int(target[0]), tree(children)) for label, target, children, _s in items]

    links = [(i, target, tuple(rect), page.height)
             for i, page in enumerate(document.pages)
             for kind, target, rect, _box in page.links if kind == "internal"]
    content = document.write_pdf()
    answer = {"pdf": content, "pages": len(document.pages), "bookmarks":
              tree(document.make_bookmark_tree()), "links": links, "pid": os.getpid(),
              "peak_mib": memory_peak_mib()}
    del document
    _give_back()
    return answer


def _give_back() -> None:
    """Hand the laid-out part's memory back to the system before the next part.

    A part's boxes hold one another in cycles, which wait for the collector, and once freed
    glibc keeps their pages for the process (60 tables: a render process held 8-10 MiB
    more after each part than it used between parts), and with two processes laying out
    side by side that counted twice. Where the C library has no ``malloc_trim`` (not glibc)
    only the collection is done."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def part_seconds() -> float:
    """How long a part may take in its process before the document gives up on the pool."""
    return float(settings.PDF_PART_SECONDS)


def processes() -> int:
    """How many processes lay out parts side by side here, this one included (1: only
    this one)."""
    wanted = int(getattr(settings, "PDF_RENDER_PROCESSES", 0) or (os.cpu_count() or 1))
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, wanted)


@contextmanager
def frozen_heap():
    """The collector leaves this process's objects alone while the children run, and gets
    them back after (a web process frozen at its start (``clubsite.warmup``) stays so)."""
    if gc.get_freeze_count():
        yield
        return
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _serve(conn) -> None:
    """A render process: lays out each part it is sent, until it is sent None or its parent
    goes away. A part that fails is answered with the error's text: the parent lays it out
    again itself, where the error is raised as it is."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer = (True, render_part(*job))
        except Exception as exc:  # noqa: BLE001 - told to the parent, which retries
            answer = (False, repr(exc))
        conn.send(answer)


class _Child:
    """One forked render process and its end of the pipe (billiard's ``Process``: unlike the
    standard library's, it may be started from a Celery prefork worker's daemonic process)."""

    def __init__(self):
        import billiard

        context = billiard.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()

    def render(self, html: str, css: str) -> dict:
        """Part ``html`` laid out there; raises if the process died, failed or still has it
        after ``PDF_PART_SECONDS``."""
        self.conn.send((html, css))
        if not self.conn.poll(part_seconds()):
            raise TimeoutError(f"no part back after {part_seconds():.0f} s")
        ok, answer = self.conn.recv()  # EOFError: the process died
        if not ok:
            raise RuntimeError(answer)
        return answer

    def stop(self) -> None:
        """Let it go (its memory with it) at once; stop it if it does not (a part it still
        lays out, or a stuck one)."""
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=5)


class PartPool:
    """Parts laid out by ``workers`` processes side by side: this one and ``workers - 1``
    forked children, each child holding one part at a time.

    A part goes out as soon as its HTML exists (``submit``), so a child lays out the first
    parts while this process still writes the later ones (the HTML, ~0.5 s at 60 tables, no
    longer runs alone); then this process lays out what is left (``results``), the largest
    first, while each child takes the next part as soon as it hands one back (a thread a
    child does the handing). This process renders too, rather than waiting on two children:
    a child's memory is the pages it copies from this one (the objects the layout touches)
    and its own WeasyPrint caches, 20-40 MiB each, and this process holds both already.

    The children are plain forked processes on a pipe, not a pool: billiard's pool took
    0.8 s to stop (its supervisor thread sleeps that long), with the children and their
    memory alive until then, after the last part. A child that dies, fails or keeps a part
    past ``PDF_PART_SECONDS`` is stopped, and the part is laid out here: a lost or stuck
    child must not hold the worker's job for good.

    A part rendered before is read back from ``pdf_part_cache``. Use it as a context
    manager: leaving it stops the children."""

    def __init__(self, workers: int):
        self.workers, self.css = workers, None
        self.names: list[str] = []
        self.htmls: list[str] = []
        self.done: dict[int, dict] = {}
        self.pending: deque[int] = deque()  # submitted, not yet taken by a process
        self.all_in = False  # every part submitted: a child with nothing to do may stop
        self.closing = False  # the document is done or given up
        self.changed = threading.Condition()
        self.children: list[_Child] = []
        self.feeders: list[threading.Thread] = []
        self.stack = ExitStack()

    def submit(self, html: str, css: str = "") -> int:
        """Start rendering ``html`` with the style sheet ``css`` (the same for every part);
        its number in ``results``."""
        if self.css is None:
            self.css = css
            if css:
                stylesheet(css)  # before the fork: every child inherits it parsed
        i = len(self.htmls)
        self.htmls.append(html)
        self.names.append(pdf_part_cache.key(html, self.css))
        kept = pdf_part_cache.read(self.names[i])
        if kept is not None:
            self.done[i] = kept | {"pid": os.getpid(), "peak_mib": memory_peak_mib(),
                                   "kept": True}
            return i
        with self.changed:
            self.pending.append(i)
            self.changed.notify()
        if self.workers > 1 and not self.children:
            self.stack.enter_context(frozen_heap())  # until ``close``
            self.children = [_Child() for _n in range(self.workers - 1)]  # forks, then threads
            self.feeders = [threading.Thread(target=self._feed, args=(child,), daemon=True)
                            for child in self.children]
            for feeder in self.feeders:
                feeder.start()
        return i

    def _feed(self, child: _Child) -> None:
        """Hand ``child`` the next waiting part each time it is free, until none is left."""
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.pending or self.all_in)
                if not self.pending:
                    return
                i = self.pending.popleft()
            try:
                part = child.render(self.htmls[i], self.css or "")
            except Exception as exc:  # EOFError, OSError: died; TimeoutError; a failure
                with self.changed:
                    if self.closing:
                        return
                    self.pending.appendleft(i)
                log.warning("PDF part %d not rendered in its process (%r): laid out here",
                            i, exc)
                child.stop()
                return
            self.done[i] = part

    def results(self) -> list[dict]:
        """Every submitted part's ``render_part`` answer, in the order submitted: the parts
        no child has taken are laid out here, largest first, then the children are waited
        for. The heap is frozen meanwhile: each part's collection (``_give_back``) then
        walks only what the part made, not Django's objects (~60 ms a part)."""
        with frozen_heap():
            with self.changed:
                self.all_in = True
                self.pending = deque(sorted(self.pending, key=lambda i: -len(self.htmls[i])))
                self.changed.notify_all()
            while True:
                with self.changed:
                    i = self.pending.popleft() if self.pending else None
                if i is not None:
                    self.done[i] = render_part(self.htmls[i], self.css or "")
                elif any(feeder.is_alive() for feeder in self.feeders):
                    for feeder in self.feeders:  # each ends within PDF_PART_SECONDS
                        feeder.join()
                else:
                    with self.changed:  # a part a lost child gave back is laid out here
                        if not self.pending:
                            break
            self.close()
        for i, name in enumerate(self.names):
            if not self.done[i].get("kept"):
                pdf_part_cache.write(name, self.done[i])
        return [self.done[i] for i in range(len(self.htmls))]

    def close(self) -> None:
        """Stop the children (at once once every part is in; a document given up, such as
        ``Outdated``, stops them in the middle of their parts)."""
        with self.changed:
            self.all_in = self.closing = True
            self.pending.clear()
            self.changed.notify_all()
        for child in self.children:
            child.stop()
        for feeder in self.feeders:
            feeder.join()
        for child in self.children:
            child.conn.close()
        self.children, self.feeders = [], []
        self.stack.close()

    def __enter__(self) -> PartPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def render_all(htmls: list[str], workers: int, css: str = "") -> list[dict]:
    """``render_part`` of each HTML, in order (``PartPool``); the largest are handed out
    first, so the last to finish is a short one."""
    with PartPool(workers if len(htmls) > 1 else 1) as pool:
        order = sorted(range(len(htmls)), key=lambda i: -len(htmls[i]))
        number = {i: pool.submit(htmls[i], css) for i in order}
        results = pool.results()
    return [results[number[i]] for i in range(len(htmls))]


def render_one(html: str, css: str = "") -> dict:
    """One part (the title page), through the same cache."""
    return render_all([html], 1, css)[0]


def render(document: ResultsDocument, workers: int | None = None, stats: dict | None = None,
           pool: PartPool | None = None) -> tuple[bytes, int]:
    """The PDF of ``document`` and its page count; ``pool``, if given, is where its parts
    were submitted as they were written (``pdf_parts.results_parts(submit=pool.submit)``).
    ``stats``, if given, receives the memory peak of every process that rendered (``peaks``:
    pid → MiB) and the parts' page counts."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Link
    from pypdf.generic import ArrayObject, NameObject

    workers = processes() if workers is None else workers
    writer = PdfWriter()

    if pool is None:
        done = render_all([part.html for part in document.parts], workers, document.css)
    else:
        done = pool.results()
    for result in done:  # once the children are gone: their memory and pypdf's never add up
        writer.append(PdfReader(io.BytesIO(result["pdf"])), import_outline=False)
    # The title page: its contents give each part's first page; one page unless it grows.
    front_pages, front = 1, None
    for _attempt in range(3):
        first, pages = {}, front_pages + 1
        for part, result in zip(document.parts, done, strict=True):
            if part.target:
                first[part.target] = pages
            pages += result["pages"]
        front = render_one(document.front_html(first), document.css)
        if front["pages"] == front_pages:
            break
        front_pages = front["pages"]
    total = front["pages"] + sum(r["pages"] for r in done)

    writer.merge(0, PdfReader(io.BytesIO(front["pdf"])), import_outline=False)
    # Contents: the title page's own links replaced by links to the parts' first pages.
    for i in range(front["pages"]):
        writer.pages[i][NameObject("/Annots")] = ArrayObject()
    linked = set()
    for page, target, (x1, y1, x2, y2), height in front["links"]:
        name = target.removeprefix("toc-")
        if name in first and name not in linked:  # the entry's box (its lines come after)
            linked.add(name)
            top = height * PX
            writer.add_annotation(page, Link(
                rect=(x1 * PX, top - y2 * PX, x2 * PX, top - y1 * PX),
                target_page_index=first[name] - 1))
    _bookmarks(writer, document, front, done)
    pdf_page_numbers.stamp(writer, document.page_words)
    out = io.BytesIO()
    writer.write(out)
    pdf_part_cache.prune()
    if stats is not None:
        peaks: dict[int, float] = {}
        for result in (front, *done):
            peaks[result["pid"]] = max(peaks.get(result["pid"], 0.0), result["peak_mib"])
        stats.update(peaks=peaks, parts=[r["pages"] for r in done], front=front["pages"],
                     kept=sum(1 for r in done if r.get("kept")))
    return out.getvalue(), total


def _bookmarks(writer, document: ResultsDocument, front: dict, done: list[dict]) -> None:
    """The title page's headings first (the document's title at the top), then each part's
    under the title; a continuing piece's headings under its kind's heading."""

    def add(items, offset, parent):
        last = None
        for label, page, children in items:
            last = writer.add_outline_item(title=label, page_number=offset + page, parent=parent)
            add(children, offset, last)
        return last

    top = None
    if front["bookmarks"]:
        label, page, children = front["bookmarks"][0]
        top = writer.add_outline_item(title=label, page_number=page)
        add(children, 0, top)
    offset, heading = front["pages"], None
    for part, result in zip(document.parts, done, strict=True):
        if part.target:
            heading = add(result["bookmarks"], offset, top)
        else:
            add(result["bookmarks"], offset, heading or top)
        offset += result["pages"]

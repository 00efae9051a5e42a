"""Lay out the parts of a results PDF (``pdf_parts``) in parallel and join them into one PDF.

WeasyPrint keeps to one core and lays out a document as a whole; the parts of a results
document do not depend on each other's layout, so each is rendered on its own — in a pool of
``PDF_RENDER_PROCESSES`` forked processes, or one after the other in this process (a single
process asked for, a single part, or a daemonic process, which may not start children) —
and pypdf joins them. What crosses the parts is done once every part's page count is known:

- the title page is rendered last, its contents giving each part's first page, and its
  entries made links to those pages;
- the bookmarks: each part's headings (WeasyPrint's bookmark tree) under the document's
  title, a continuing piece's under the heading of its kind;
- "Page n of N" in the foot of every page, drawn by one small WeasyPrint document of empty
  pages with that footer, laid over the parts' pages (the parts are rendered without it).

The parts share one style sheet, parsed once per process with one font configuration
(``stylesheet``): parsed again for each part, and a font configuration made for each, it
cost some 12 ms a part. It is parsed before the pool forks, so the children inherit it.

Only the site's own files can be fetched while rendering (``pdf_fetcher``), in every process.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.conf import settings
from django.utils.html import escape

from . import pdf_part_cache
from .pdf_parts import ResultsDocument

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
    return {"pdf": content, "pages": len(document.pages), "bookmarks":
            tree(document.make_bookmark_tree()), "links": links, "pid": os.getpid(),
            "peak_mib": memory_peak_mib()}


def processes() -> int:
    """How many processes render parts side by side here (1: in this process)."""
    wanted = int(getattr(settings, "PDF_RENDER_PROCESSES", 0) or (os.cpu_count() or 1))
    if multiprocessing.current_process().daemon or "fork" not in \
            multiprocessing.get_all_start_methods():
        return 1
    return max(1, wanted)


def render_all(htmls: list[str], workers: int, css: str = "") -> list[dict]:
    """``render_part`` of each HTML, in order, the parts rendered before read back from
    ``pdf_part_cache``; the largest of the others are handed out first."""
    names = [pdf_part_cache.key(html, css) for html in htmls]
    done: dict[int, dict] = {}
    for i, name in enumerate(names):
        kept = pdf_part_cache.read(name)
        if kept is not None:
            done[i] = kept | {"pid": os.getpid(), "peak_mib": memory_peak_mib(), "kept": True}
    todo = [i for i in range(len(htmls)) if i not in done]
    if todo and css:
        stylesheet(css)  # before the fork: every child inherits it parsed
    if workers <= 1 or len(todo) <= 1:
        fresh = {i: render_part(htmls[i], css) for i in todo}
    else:
        order = sorted(todo, key=lambda i: -len(htmls[i]))
        with ProcessPoolExecutor(max_workers=min(workers, len(todo)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {i: pool.submit(render_part, htmls[i], css) for i in order}
            fresh = {i: futures[i].result() for i in todo}
    for i, part in fresh.items():
        pdf_part_cache.write(names[i], part)
    return [done.get(i) or fresh[i] for i in range(len(htmls))]


def render_one(html: str, css: str = "") -> dict:
    """One part (the title page, the page-number footer), through the same cache."""
    return render_all([html], 1, css)[0]


def _footer_html(total: int, words: tuple[str, str], language: str) -> str:
    page, of = (escape(w) for w in words)
    pages = "".join(f'<div class="p">{page} {n} {of} {total}</div>' for n in range(1, total + 1))
    return (f'<!DOCTYPE html><html lang="{escape(language)}"><head><meta charset="utf-8"><style>'
            '@page { size: A4; margin: 0; } html { font: 8.5pt "DejaVu Sans", sans-serif; '
            "color: #555; } .p { height: 297mm; page-break-after: always; text-align: center; "
            "box-sizing: border-box; padding-top: 287.2mm; }"
            "</style></head><body>" + pages + "</body></html>")


def render(document: ResultsDocument, workers: int | None = None, stats: dict | None = None
           ) -> tuple[bytes, int]:
    """The PDF of ``document`` and its page count. ``stats``, if given, receives the memory
    peak of every process that rendered (``peaks``: pid → MiB) and the parts' page counts."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Link
    from pypdf.generic import ArrayObject, NameObject

    workers = processes() if workers is None else workers
    done = render_all([part.html for part in document.parts], workers, document.css)
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

    writer = PdfWriter()
    for result in (front, *done):
        writer.append(PdfReader(io.BytesIO(result["pdf"])), import_outline=False)
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
    _stamp(writer, PdfReader(io.BytesIO(render_one(_footer_html(
        total, document.page_words, document.language))["pdf"])))
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


def _stamp(writer, footer) -> None:
    """Draw each page of ``footer`` over the page of ``writer`` with its number.

    Done on the raw streams: the page's drawing kept whole (in ``q``…``Q``), the footer's
    after it, its font added once to each part's resources (shared by the part's pages)
    under a name of its own — pypdf's ``merge_page`` would parse every page's drawing and
    copy the font into the resources again for every page."""
    from pypdf.generic import ArrayObject, NameObject, StreamObject

    names = {}
    for page, stamp in zip(writer.pages, footer.pages, strict=True):
        resources = stamp["/Resources"]
        data = stamp["/Contents"].get_object().get_data()
        target = page["/Resources"].get_object()
        for kind in ("/Font", "/ExtGState"):
            for name, ref in resources.get(kind, {}).items():
                if (kind, name) not in names:
                    names[kind, name] = (f"/Ftr{len(names)}", ref.clone(writer))
                new_name, clone = names[kind, name]
                data = data.replace(f"{name} ".encode(), f"{new_name} ".encode())
                if kind not in target:
                    target[NameObject(kind)] = type(resources[kind])()
                target[kind].get_object()[NameObject(new_name)] = clone
        contents = page["/Contents"].get_object()
        parts = contents if isinstance(contents, ArrayObject) else [contents]
        drawn = b"\n".join(part.get_object().get_data() for part in parts)
        stream = StreamObject()
        stream.set_data(b"q\n" + drawn + b"\nQ\n" + data)
        page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())


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

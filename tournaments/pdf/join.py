"""Join the parts of a results PDF (``pdf.parts``), laid out side by side (``pdf.pool``),
into one PDF.

WeasyPrint keeps to one core and lays out a document as a whole; the parts of a results
document do not depend on each other's layout, so each is rendered on its own — by
``PDF_RENDER_PROCESSES`` processes side by side, this one and forked children
(``pdf.pool.PartPool``), or one after the other in this process (a single process asked
for, or a single part) — and qpdf (``pikepdf``) joins them once the children are gone.

What crosses the parts is done once every part's page count is known:

- the title page is rendered last, its contents giving each part's first page, and its
  entries made links to those pages;
- the bookmarks: each part's headings (WeasyPrint's bookmark tree) under the document's
  title, a continuing piece's under the heading of its kind;
- "Page n of N" in the foot of every page, written into each page (``pdf.page_numbers``;
  the parts are rendered without it).
"""

from __future__ import annotations

import io
from contextlib import ExitStack

from . import page_numbers as pdf_page_numbers
from . import part_cache as pdf_part_cache
from .parts import ResultsDocument
from .pool import PartPool, processes, render_all, render_one

PX = 0.75  # WeasyPrint's CSS pixel in PDF points


def render(document: ResultsDocument, workers: int | None = None, stats: dict | None = None,
           pool: PartPool | None = None) -> tuple[bytes, int]:
    """The PDF of ``document`` and its page count; ``pool``, if given, is where its parts
    were submitted as they were written (``pdf_parts.results_parts(submit=pool.submit)``).
    ``stats``, if given, receives the memory peak of every process that rendered (``peaks``:
    pid → MiB) and the parts' page counts.

    The parts are joined by qpdf (``pikepdf``): pypdf parsed every object of every part in
    Python, 0.2 s of the 60-table document's 0.3 s of joining, after the layout, in one
    process; qpdf copies them in 0.05 s and writes object streams (581 KiB, not 749)."""
    import pikepdf

    workers = processes() if workers is None else workers
    if pool is None:
        done = render_all([part.html for part in document.parts], workers, document.css)
    else:
        done = pool.results()
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

    buffer = io.BytesIO()
    with ExitStack() as opened:
        out = opened.enter_context(pikepdf.Pdf.new())
        sources = [opened.enter_context(pikepdf.Pdf.open(io.BytesIO(result["pdf"])))
                   for result in (front, *done)]
        for source in sources:  # the children are gone: their memory and qpdf's never add up
            out.add_pages_from(source, outlines="ignore")  # with the named links in a part
        out.docinfo[pikepdf.Name.Title] = document.title  # what a reader shows
        _contents_links(out, front, first)
        _bookmarks(out, document, front, done)
        pdf_page_numbers.stamp(out, document.page_words)
        out.save(buffer, object_stream_mode=pikepdf.ObjectStreamMode.generate,
                 min_version=max(source.pdf_version for source in sources),
                 deterministic_id=True)
    pdf_part_cache.prune()
    if stats is not None:
        peaks: dict[int, float] = {}
        for result in (front, *done):
            peaks[result["pid"]] = max(peaks.get(result["pid"], 0.0), result["peak_mib"])
        stats.update(peaks=peaks, parts=[r["pages"] for r in done], front=front["pages"],
                     kept=sum(1 for r in done if r.get("kept")))
    return buffer.getvalue(), total


def _contents_links(out, front: dict, first: dict[str, int]) -> None:
    """The title page's own links (to anchors of its own document, which has no parts)
    replaced by links to the parts' first pages, over each contents entry's box."""
    from pikepdf import Array, Dictionary, Name

    for i in range(front["pages"]):
        out.pages[i].obj.Annots = Array()
    linked = set()
    for page, target, (x1, y1, x2, y2), height in front["links"]:
        name = target.removeprefix("toc-")
        if name in first and name not in linked:  # the entry's box (its lines come after)
            linked.add(name)
            top = height * PX
            link = out.make_indirect(Dictionary(
                Type=Name.Annot, Subtype=Name.Link, Border=Array([0, 0, 0]),
                Rect=Array([x1 * PX, top - y2 * PX, x2 * PX, top - y1 * PX]),
                Dest=Array([out.pages[first[name] - 1].obj, Name.Fit])))
            out.pages[page].obj.Annots.append(link)


def _bookmarks(out, document: ResultsDocument, front: dict, done: list[dict]) -> None:
    """The title page's headings first (the document's title at the top), then each part's
    under the title; a continuing piece's headings under its kind's heading."""
    from pikepdf import OutlineItem

    def add(items, offset, parent: list):
        last = None
        for label, page, children in items:
            last = OutlineItem(label, offset + page)
            parent.append(last)
            add(children, offset, last.children)
        return last

    with out.open_outline() as outline:
        top = None
        if front["bookmarks"]:
            label, page, children = front["bookmarks"][0]
            top = OutlineItem(label, page)
            outline.root.append(top)
            add(children, 0, top.children)
        under_top = top.children if top is not None else outline.root
        offset, heading = front["pages"], None
        for part, result in zip(document.parts, done, strict=True):
            if part.target:
                heading = add(result["bookmarks"], offset, under_top)
            else:
                add(result["bookmarks"], offset,
                    heading.children if heading is not None else under_top)
            offset += result["pages"]

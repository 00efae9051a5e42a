"""Join the parts of a results PDF (``pdf_parts``), laid out side by side (``pdf_pool``),
into one PDF.

WeasyPrint keeps to one core and lays out a document as a whole; the parts of a results
document do not depend on each other's layout, so each is rendered on its own — by
``PDF_RENDER_PROCESSES`` processes side by side, this one and forked children
(``pdf_pool.PartPool``), or one after the other in this process (a single process asked
for, or a single part) — and pypdf joins them once the children are gone.

What crosses the parts is done once every part's page count is known:

- the title page is rendered last, its contents giving each part's first page, and its
  entries made links to those pages;
- the bookmarks: each part's headings (WeasyPrint's bookmark tree) under the document's
  title, a continuing piece's under the heading of its kind;
- "Page n of N" in the foot of every page, written into each page (``pdf_page_numbers``;
  the parts are rendered without it).
"""

from __future__ import annotations

import io

from . import pdf_page_numbers, pdf_part_cache
from .pdf_parts import ResultsDocument
from .pdf_pool import PartPool, processes, render_all, render_one

PX = 0.75  # WeasyPrint's CSS pixel in PDF points


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

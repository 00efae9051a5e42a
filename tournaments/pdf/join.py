"""Lay out the parts of a results PDF (``pdf.parts``) one after the other and join them into
one PDF.

WeasyPrint lays out a document as a whole and holds every page of it until it is written; a
results document cut in parts is laid out a part at a time, its memory handed back after
each (``pdf.render``), so a 200-table PDF takes no more memory than a 20-table one, and less
CPU than one document (the collector walks one part's boxes, not the whole document's). A
part laid out before is read back (``pdf.part_cache``). qpdf (``pikepdf``) joins them.

What crosses the parts is done once every part's page count is known:

- the title page is rendered last, its contents giving each part's first page, and its
  entries made links to those pages;
- the bookmarks: each part's headings (WeasyPrint's bookmark tree) under the document's
  title, a continuing piece's under the heading of its kind;
- the running headers, laid out once on a page of their own and drawn on every page (a
  form XObject), and "Page n of N" in the foot of every page, written into each page
  (``pdf.page_numbers``): the parts are rendered without either.
"""

from __future__ import annotations

import io
from contextlib import ExitStack

from . import page_numbers as pdf_page_numbers
from . import part_cache as pdf_part_cache
from . import render as pdf_render
from .parts import ResultsDocument

PX = 0.75  # WeasyPrint's CSS pixel in PDF points


def render(document: ResultsDocument, stats: dict | None = None) -> tuple[bytes, int]:
    """The PDF of ``document`` and its page count. ``stats``, if given, receives the parts'
    page counts (``parts``, ``front``) and how many parts were read back (``kept``).

    The parts are joined by qpdf (``pikepdf``): pypdf parsed every object of every part in
    Python, 0.2 s of the 60-table document's 0.3 s of joining; qpdf copies them in 0.05 s
    and writes object streams (581 KiB, not 749)."""
    import pikepdf

    with pdf_render.frozen_heap():
        done = [_part(part.html, document.css) for part in document.parts]
        # The title page: its contents give each part's first page; one page unless it grows.
        front_pages, front = 1, None
        for _attempt in range(3):
            first, pages = {}, front_pages + 1
            for part, result in zip(document.parts, done, strict=True):
                if part.target:
                    first[part.target] = pages
                pages += result["pages"]
            front = _part(document.front_html(first), document.css)
            if front["pages"] == front_pages:
                break
            front_pages = front["pages"]
        header = _part(document.header_html(), "")
    total = front["pages"] + sum(r["pages"] for r in done)

    buffer = io.BytesIO()
    with ExitStack() as opened:
        out = opened.enter_context(pikepdf.Pdf.new())
        sources = [
            opened.enter_context(pikepdf.Pdf.open(io.BytesIO(result["pdf"])))
            for result in (front, *done)
        ]
        for source in sources:
            out.add_pages_from(source, outlines="ignore")  # with the named links in a part
        out.docinfo[pikepdf.Name.Title] = document.title  # what a reader shows
        _contents_links(out, front, first)
        _bookmarks(out, document, front, done)
        running = opened.enter_context(pikepdf.Pdf.open(io.BytesIO(header["pdf"])))
        pdf_page_numbers.stamp(
            out, document.page_words, out.copy_foreign(running.pages[0].as_form_xobject())
        )
        out.save(
            buffer,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
            min_version=max(source.pdf_version for source in sources),
            deterministic_id=True,
        )
    pdf_part_cache.prune()
    if stats is not None:
        stats.update(
            parts=[r["pages"] for r in done],
            front=front["pages"],
            kept=sum(1 for r in done if r.get("kept")),
        )
    return buffer.getvalue(), total


def _part(html: str, css: str) -> dict:
    """``render.render_part`` of ``html``, or the part kept from an earlier document."""
    name = pdf_part_cache.key(html, css)
    kept = pdf_part_cache.read(name)
    if kept is not None:
        return kept | {"kept": True}
    part = pdf_render.render_part(html, css)
    pdf_part_cache.write(name, part)
    return part


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
            link = out.make_indirect(
                Dictionary(
                    Type=Name.Annot,
                    Subtype=Name.Link,
                    Border=Array([0, 0, 0]),
                    Rect=Array([x1 * PX, top - y2 * PX, x2 * PX, top - y1 * PX]),
                    Dest=Array([out.pages[first[name] - 1].obj, Name.Fit]),
                )
            )
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
                add(
                    result["bookmarks"],
                    offset,
                    heading.children if heading is not None else under_top,
                )
            offset += result["pages"]

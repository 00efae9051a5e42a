"""One part of a results PDF laid out by WeasyPrint (``render_part``), and what keeps a
process that lays out many parts lean: one parsed style sheet, the collector kept off the
objects that were there before (``frozen_heap``), memory handed back after each part.

The parts share one style sheet, parsed once per process with one font configuration
(``stylesheet``): parsed again for each part, and a font configuration made for each, it
cost some 12 ms a part.

Only the site's own files can be fetched while rendering (``pdf.fetcher``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from contextlib import contextmanager

from django.conf import settings

_STYLESHEETS: dict[str, tuple] = {}


def stylesheet(css: str) -> tuple:
    """(``CSS``, ``FontConfiguration``) of the style sheet ``css``, parsed once a process."""
    if css not in _STYLESHEETS:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        from .fetcher import SiteFilesFetcher

        fonts = FontConfiguration()
        _STYLESHEETS.clear()  # one document's sheet at a time: no growth in a long worker
        _STYLESHEETS[css] = (
            CSS(
                string=css,
                base_url=str(settings.BASE_DIR),
                url_fetcher=SiteFilesFetcher(),
                font_config=fonts,
            ),
            fonts,
        )
    return _STYLESHEETS[css]


def render_part(html: str, css: str = "") -> dict:
    """One part as PDF bytes, with its page count, bookmark tree and internal links;
    ``css``, if given, is its style sheet."""
    from weasyprint import HTML

    from .fetcher import SiteFilesFetcher

    options = {}
    if css:
        sheet, fonts = stylesheet(css)
        options = {"stylesheets": [sheet], "font_config": fonts}
    document = HTML(
        string=html, base_url=str(settings.BASE_DIR), url_fetcher=SiteFilesFetcher()
    ).render(**options)

    def tree(items):
        return [(label, int(target[0]), tree(children)) for label, target, children, _s in items]

    links = [
        (i, target, tuple(rect), page.height)
        for i, page in enumerate(document.pages)
        for kind, target, rect, _box in page.links
        if kind == "internal"
    ]
    content = document.write_pdf()
    answer = {
        "pdf": content,
        "pages": len(document.pages),
        "bookmarks": tree(document.make_bookmark_tree()),
        "links": links,
    }
    del document
    _give_back()
    return answer


def _give_back(generation: int = 2) -> None:
    """Hand the laid-out part's memory back to the system before the next part.

    A part's boxes hold one another in cycles, which wait for the collector, and once freed
    glibc keeps their pages for the process (60 tables: the process held 8-10 MiB more
    after each part than it used between parts). Where the C library has no
    ``malloc_trim`` (not glibc) only the collection is done. ``generation``: the oldest generation collected."""
    gc.collect(generation)
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


@contextmanager
def frozen_heap():
    """The collector leaves this process's objects alone while the parts are laid out, and
    gets them back after (a web process frozen at its start (``clubsite.ops.warmup``) stays
    so). Laying out allocates boxes by the hundred thousand, which sets off full collections,
    and each walked every object Django and WeasyPrint hold: at 60 tables the document took
    15-25 % more CPU unfrozen (4.92-5.32 s against 3.97-4.46 s, alternated). The young
    generations, where the garbage of writing the parts is, are collected first; not the
    oldest, which walked every object (~75-90 ms at 60 tables) and found nothing; what
    garbage it holds is collected after."""
    if gc.get_freeze_count():
        yield
        return
    _give_back(generation=1)
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()

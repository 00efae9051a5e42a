"""The results PDF cut into parts that WeasyPrint lays out one by one.

One results document of a 60-table session is some 200 pages; laid out as one, it needs
memory for every page at once. Cut in parts — the title page
with the contents, the overall ranking, and per session its ranking, its travellers, its
hand records and its scorecards, the long ones in pieces of about ``LINES_PER_PART``
printed lines — each part is an HTML document of its own (the same template pieces and
style sheet as the whole document, ``pdf/results.html``), which ``pdf.join`` renders one
after the other and joins into one PDF, numbering the pages and writing the contents and bookmarks
across the parts.

Every part uses one style sheet (``ResultsDocument.css``, ``pdf/_style.css``) that
``pdf.render`` parses once per process instead of a ``<style>`` in each part's HTML.

A piece after the first of its kind starts on a page of its own and carries no heading (the
first holds the anchor the contents point at). Scorecards already start a page each, so
cutting them costs no page; travellers and hand records may leave a page part-filled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.services.results.snapshot import EventSnapshot

from . import document_context

#: Printed lines (table lines and headings) a part holds at most, unless one item is longer.
#: Smaller parts lower each process's peak a little (60 tables, two processes: 300 lines
#: 143 MiB against 146) but cost time (+0.25 s, each part's fonts embedded and joined again)
#: and size (960 KiB against 750).
LINES_PER_PART = 600

#: What the title page (``pdf/_front.html`` in ``pdf/base.html``) reads of the context. The
#: document keeps only these until its title page is rendered, last: the results themselves
#: (every traveller and scorecard line) are let go once the parts are written, before any
#: is laid out.
FRONT_KEYS = (
    "tournament",
    "session_number",
    "club",
    "scoring_label",
    "version",
    "revision",
    "toc",
    "title",
    "language",
)

#: (kind, template, the session's list of items, lines an item prints)
KINDS = (
    (
        "travellers",
        "pdf/_travellers.html",
        "boards",
        lambda b: 4 + sum(len(t.head) + len(t.rows) + 1 for t in b["traveller"] or ()),
    ),
    ("hands", "pdf/_hands.html", "hands", lambda b: 16),
    (
        "cards",
        "pdf/_cards.html",
        "cards",
        lambda c: 4 + len(c["table"].head) + len(c["table"].rows),
    ),
)


@dataclass(frozen=True)
class Part:
    """One part's HTML; ``target`` is the anchor the contents point at ("" for a piece that
    continues the one before it)."""

    kind: str
    target: str
    html: str


@dataclass
class ResultsDocument:
    """The parts of a results PDF, and what ``pdf.join`` needs to finish it."""

    language: str
    parts: list[Part]
    title: str
    page_words: tuple[str, str]  # "Page", "of"
    css: str = ""  # every part's style sheet (not in the parts' HTML)
    context: dict = field(repr=False, default_factory=dict)

    def header_html(self) -> str:
        """A page with nothing but the running headers (club, event and date), laid out once
        and drawn on every page by ``pdf.join``: as margin boxes of every page they cost
        WeasyPrint some 1.2 ms a page, half the cost of a trivial page."""
        with translation.override(self.language):
            return render_to_string(
                "pdf/results_part.html",
                {
                    **self.context,
                    "part": {},
                    "in_parts": True,
                    "headers": True,
                    "shared_style": False,
                },
            )

    def front_html(self, pages: dict[str, int]) -> str:
        """The title page with the contents, each entry with the page ``pages`` gives it."""
        with translation.override(self.language):
            toc = [
                {**entry, "page": pages.get(entry["target"], 0)} for entry in self.context["toc"]
            ]
            return _render(self.context, {"template": "pdf/_front.html", "first": True}, toc=toc)


def _render(context: dict, part: dict, **extra) -> str:
    return render_to_string(
        "pdf/results_part.html",
        {**context, **extra, "part": part, "in_parts": True, "shared_style": True},
    )


def _pieces(items: list, weight) -> list[list]:
    """``items`` in consecutive pieces of about ``LINES_PER_PART`` printed lines."""
    pieces: list[list] = []
    size = LINES_PER_PART
    for item in items:
        lines = weight(item)
        if not pieces or size + lines > LINES_PER_PART:
            pieces.append([])
            size = 0
        pieces[-1].append(item)
        size += lines
    return pieces


def results_parts(
    data: EventSnapshot, language: str | None = None, session_number: int = 0
) -> ResultsDocument:
    """The results document of ``data`` as parts, in ``language`` (the club's by default)."""
    language = language or settings.LANGUAGE_CODE
    with translation.override(language):
        css = render_to_string("pdf/_style.css", {"in_parts": True})
        context = document_context(data, language, session_number)
        parts: list[Part] = []
        if context["totals"]:
            parts.append(
                Part(
                    "totals",
                    "totals",
                    _render(context, {"template": "pdf/_totals.html", "first": True}),
                )
            )
        for s in context["sessions"]:
            number = s["number"]
            parts.append(
                Part(
                    "ranking",
                    f"ranking-{number}",
                    _render(
                        context, {"template": "pdf/_ranking.html", "session": s, "first": True}
                    ),
                )
            )
            for kind, template, key, weight in KINDS:
                for i, piece in enumerate(_pieces(s[key], weight)):
                    parts.append(
                        Part(
                            kind,
                            "" if i else f"{kind}-{number}",
                            _render(
                                context,
                                {
                                    "template": template,
                                    "session": s,
                                    "items": piece,
                                    "first": not i,
                                },
                            ),
                        )
                    )
        title = data.tournament.name + (
            " · " + _("Session %(n)s") % {"n": session_number} if session_number else ""
        )
        return ResultsDocument(
            language,
            parts,
            title,
            (_("Page"), _("of")),
            css,
            {key: context[key] for key in FRONT_KEYS if key in context},
        )

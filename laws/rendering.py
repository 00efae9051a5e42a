"""HTML for law text, rendered once at import time.

Cross-references become links to the target's anchor, the first use of a glossary
term in a law links to its definition (with the definition in ``data-def`` for the
hover/tap popover), notes become collapsible call-outs. Everything is escaped here;
templates mark the stored HTML safe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _

from .importer.tree import Edition, Node, Note, Paragraph, Ref, Table, Term


def anchor_url(anchor: str, current_law: int | None = None) -> str:
    """``es-2017/law-12/C/1`` → ``/laws/es-2017/12/#C1`` (or ``#C1`` within the same law)."""
    code, law, *path = anchor.split("/")
    number = int(law.removeprefix("law-"))
    fragment = "".join(path)
    if current_law == number and fragment:
        return f"#{fragment}"
    url = reverse("laws:law", args=[code, number])
    return f"{url}#{fragment}" if fragment else url


def term_name(term: Term) -> str:
    return term.term.split("(")[0].strip()


@dataclass
class Glossary:
    """Finds glossary terms in text; each term is linked once per law."""

    edition: str
    terms: list[Term]
    pattern: re.Pattern[str] | None = None
    by_name: dict[str, Term] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for term in self.terms:
            if term.see or len(term_name(term)) < 4:
                continue
            self.by_name[term_name(term).lower()] = term
        names = sorted(self.by_name, key=len, reverse=True)
        if names:
            alternatives = "|".join(re.escape(n) for n in names)
            self.pattern = re.compile(rf"(?<![\w-])({alternatives})(?![\w-])", re.IGNORECASE)

    def url(self, term: Term) -> str:
        return reverse("laws:definitions", args=[self.edition]) + f"#{term.slug}"


@dataclass
class Context:
    edition: Edition
    glossary: Glossary | None
    law_number: int | None = None
    seen_terms: set[str] = field(default_factory=set)


def _link_terms(text: str, ctx: Context) -> str:
    """Escape ``text`` and link first uses of glossary terms."""
    g = ctx.glossary
    if g is None or g.pattern is None:
        return escape(text)
    out, last = [], 0
    for m in g.pattern.finditer(text):
        term = g.by_name[m.group(1).lower()]
        if term.slug in ctx.seen_terms:
            continue
        ctx.seen_terms.add(term.slug)
        out.append(escape(text[last : m.start()]))
        out.append(
            f'<a class="term" href="{g.url(term)}" data-term="{escape(term.term)}" '
            f'data-def="{escape(term.text)}">{escape(m.group(1))}</a>'
        )
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _elsewhere(target: str, ctx: Context) -> str:
    """Class and title for a link into another edition (a law this partial source lacks)."""
    code = target.split("/", 1)[0]
    if code == ctx.edition.code:
        return ""
    title = _("Not in this source: linked to the %(edition)s edition of the same Laws") % {
        "edition": code
    }
    return f' other-edition" title="{escape(title)}'


def _ref_link(ref: Ref, text: str, ctx: Context) -> str:
    literal = escape(text[ref.start : ref.end])
    if not ref.targets:
        reason = escape(ref.reason or _("not in this source"))
        return f'<span class="ref unresolved" title="{reason}">{literal}</span>'
    href = anchor_url(ref.targets[0], ctx.law_number)
    others = " ".join(anchor_url(t, ctx.law_number) for t in ref.targets[1:])
    extra = f' data-more="{escape(others)}"' if others else ""
    cls = ("ref" if ref.resolved else "ref approx") + _elsewhere(ref.targets[0], ctx)
    return f'<a class="{cls}" href="{href}"{extra}>{literal}</a>'


def paragraph_html(p: Paragraph, ctx: Context) -> str:
    """Inline HTML of one paragraph: references linked (multi-target lists link each target)."""
    out, last = [], 0
    for ref in p.refs:
        out.append(_link_terms(p.text[last : ref.start], ctx))
        if len(ref.targets) > 1:
            out.append(_multi_ref(ref, p.text, ctx))
        else:
            out.append(_ref_link(ref, p.text, ctx))
        last = ref.end
    out.append(_link_terms(p.text[last:], ctx))
    return "".join(out)


NUM = re.compile(
    r"\d{1,2}(?:\s?[A-H](?:\s?\d{1,2})?(?:[a-e]|\s?\([a-e]\))?(?:\((?:i|ii|iii|iv|v)\))?)?"
)


def _multi_ref(ref: Ref, text: str, ctx: Context) -> str:
    """``Artículos 27B1b, 30B1b y 32A2a``: each path links to its own target."""
    literal = text[ref.start : ref.end]
    matches = [m for m in NUM.finditer(literal)]
    if len(matches) != len(ref.targets):
        return _ref_link(
            Ref(ref.start, ref.end, ref.literal, ref.targets[:1], ref.resolved), text, ctx
        )
    out, last = [], 0
    for m, target in zip(matches, ref.targets, strict=True):
        out.append(escape(literal[last : m.start()]))
        href = anchor_url(target, ctx.law_number)
        cls = "ref" + _elsewhere(target, ctx)
        out.append(f'<a class="{cls}" href="{href}">{escape(m.group(0))}</a>')
        last = m.end()
    out.append(escape(literal[last:]))
    return "".join(out)


def table_html(table: Table) -> str:
    rows = []
    if table.caption:
        rows.append(f"<caption>{escape(table.caption)}</caption>")
    if table.header:
        rows.append("<thead>")
        for row in table.header:
            rows.append(
                "<tr>" + "".join(f'<th scope="col">{escape(c)}</th>' for c in row) + "</tr>"
            )
        rows.append("</thead>")
    rows.append("<tbody>")
    for row in table.rows:
        first, *rest = row
        rows.append(
            f'<tr><th scope="row">{escape(first)}</th>'
            + "".join(f"<td>{escape(c)}</td>" for c in rest)
            + "</tr>"
        )
    rows.append("</tbody>")
    repaired = ' data-repaired="1"' if table.repaired else ""
    return (
        f'<div class="table-wrap"><table class="law-table"{repaired}>{"".join(rows)}</table></div>'
    )


def note_html(note: Note, ctx: Context, index: int) -> str:
    heading = escape(note.heading)
    body = "".join(f"<p>{paragraph_html(p, ctx)}</p>" for p in note.paragraphs)
    kind = "regulations" if note.kind == "national_regulations" else "note"
    return (
        f'<details class="national-note {kind}" open id="note-{index}">'
        f'<summary><span class="badge">{escape(_("AEB note"))}</span> {heading}</summary>'
        f"{body}</details>"
    )


def node_html(node: Node, ctx: Context, footnote_markers: dict[str, str]) -> str:
    parts = []
    for block in node.blocks:
        if isinstance(block, Table):
            parts.append(table_html(block))
        else:
            parts.append(f"<p>{paragraph_html(block, ctx)}</p>")
    for key in node.footnotes:
        marker = footnote_markers.get(key, "*")
        parts.append(f'<sup class="fn-ref"><a href="#fn-{escape(key)}">{escape(marker)}</a></sup>')
    for i, note in enumerate(node.notes, start=1):
        parts.append(note_html(note, ctx, i))
    return "".join(parts)


def search_text(node: Node) -> str:
    pieces = [node.title or ""]
    pieces += [p.text for p in node.paragraphs]
    for table in node.tables:
        pieces.append(" ".join(c for row in table.header + table.rows for c in row))
    for note in node.notes:
        pieces += [p.text for p in note.paragraphs]
    return "\n".join(x for x in pieces if x)

"""Store parsed editions in the database: transactional and idempotent.

An edition whose parsed content (hash) is unchanged is left alone, so running
``import_laws`` twice changes nothing; a changed edition is replaced whole inside
one transaction, and its search index is rebuilt with it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

from django.db import transaction

from . import search
from .importer import tree
from .models import Chapter, Edition, Footnote, Law, Node, Term
from .rendering import Context, Glossary, node_html, paragraph_html, search_text

IMPORTER_VERSION = "3"


def content_hash(edition: tree.Edition) -> str:
    data = json.dumps(asdict(edition), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256((IMPORTER_VERSION + data).encode()).hexdigest()


@transaction.atomic
def store(editions: list[tree.Edition]) -> dict[str, str]:
    """Store every edition; returns ``{code: "created"|"updated"|"unchanged"}``."""
    outcome = {}
    for position, parsed in enumerate(editions):
        digest = content_hash(parsed)
        existing = Edition.objects.filter(code=parsed.code).first()
        if existing and existing.content_hash == digest and existing.position == position:
            outcome[parsed.code] = "unchanged"
            continue
        if existing:
            search.unindex(existing)
            existing.delete()
        edition = _create(parsed, position, digest)
        search.index(edition)
        outcome[parsed.code] = "updated" if existing else "created"
    return outcome


def _create(parsed: tree.Edition, position: int, digest: str) -> Edition:
    glossary = Glossary(parsed.code, parsed.glossary) if parsed.glossary else None
    ctx = Context(edition=parsed, glossary=None)
    edition = Edition.objects.create(
        code=parsed.code,
        language=parsed.language,
        year=parsed.year,
        title=parsed.title,
        coverage=parsed.coverage,
        source_file=parsed.source_file,
        partial=parsed.partial,
        position=position,
        content_hash=digest,
        extras={
            "introduction": [paragraph_html(p, ctx) for p in parsed.introduction],
            "introduction_title": parsed.introduction_title,
            "introduction_notes": [
                {"heading": n.heading, "paragraphs": [paragraph_html(p, ctx) for p in n.paragraphs]}
                for n in parsed.introduction_notes
            ],
            "regulations": [
                {"heading": n.heading, "paragraphs": [paragraph_html(p, ctx) for p in n.paragraphs]}
                for n in parsed.regulations
            ],
        },
    )
    chapters = {
        c.number: Chapter.objects.create(edition=edition, number=c.number, title=c.title)
        for c in parsed.chapters
    }
    markers = {key: fn.marker for key, fn in parsed.footnotes.items()}
    nodes = []
    for law in parsed.laws:
        row = Law.objects.create(
            edition=edition,
            chapter=chapters.get(law.chapter),
            number=law.number,
            title=law.title or "",
            group=law.group or "",
            commentary=[p.text for p in law.commentary],
        )
        law_ctx = Context(edition=parsed, glossary=glossary, law_number=law.number)
        for position_in_law, node in enumerate(law.walk()):
            nodes.append(
                Node(
                    edition=edition,
                    law=row,
                    anchor=parsed.anchor(law.number, node.path),
                    path="/".join(node.path),
                    kind=node.kind,
                    label=node.label,
                    source_label=node.source_label or "",
                    title=node.title or "",
                    depth=len(node.path),
                    position=position_in_law,
                    repaired=node.repaired,
                    content={
                        "footnotes": node.footnotes,
                        "refs": [asdict(r) for p in node.paragraphs for r in p.refs],
                        "notes": len(node.notes),
                    },
                    html=node_html(node, law_ctx, markers),
                    search_text=search_text(node),
                    first_line=node.lines[0],
                    last_line=node.lines[1],
                )
            )
    Node.objects.bulk_create(nodes, batch_size=500)
    term_ctx = Context(edition=parsed, glossary=None)
    slugs = [(t.term.lower(), t.slug) for t in parsed.glossary]

    def see_slug(see: str | None) -> str:
        """``Ver Evento`` → the slug of the term it names (``evento-o-torneo``)."""
        if not see:
            return ""
        wanted = see.lower()
        return next((slug for term, slug in slugs if term.startswith(wanted)), "")

    Term.objects.bulk_create(
        Term(
            edition=edition,
            slug=t.slug,
            term=t.term,
            text=t.text,
            html=paragraph_html(tree.Paragraph(t.text, t.refs), term_ctx),
            aliases=t.aliases,
            see=see_slug(t.see),
            position=i,
        )
        for i, t in enumerate(parsed.glossary)
    )
    Footnote.objects.bulk_create(
        Footnote(
            edition=edition,
            key=fn.key,
            marker=fn.marker,
            html="".join(f"<p>{paragraph_html(p, term_ctx)}</p>" for p in fn.paragraphs),
        )
        for fn in parsed.footnotes.values()
    )
    return edition

"""Validation of a parsed edition: the checks that must pass before anything is stored.

The importer fails loudly on any of these; the report lists counts so a
maintainer can compare runs.
"""

from __future__ import annotations

from collections.abc import Iterator

from .clean import residue
from .tree import Edition, Paragraph, Table


def texts(edition: Edition) -> Iterator[tuple[str, str]]:
    """Every displayed string of the edition with the place it comes from."""
    yield "introduction", edition.introduction_title
    for p in edition.introduction:
        yield "introduction", p.text
    for note in edition.introduction_notes + edition.regulations:
        yield "regulations", note.heading
        for p in note.paragraphs:
            yield "regulations", p.text
    for term in edition.glossary:
        yield f"def/{term.slug}", f"{term.term}: {term.text}"
    for chapter in edition.chapters:
        yield f"chapter-{chapter.number}", chapter.title
    for fn in edition.footnotes.values():
        for p in fn.paragraphs:
            yield f"fn-{fn.key}", p.text
    for node in edition.all_nodes():
        where = "/".join(
            (f"law-{getattr(node, 'number', '')}" if node.kind == "law" else "", *node.path)
        )
        if node.title:
            yield where, node.title
        for block in node.blocks:
            if isinstance(block, Paragraph):
                yield where, block.text
            elif isinstance(block, Table):
                cells = [block.caption, *(c for row in block.header + block.rows for c in row)]
                yield where, " | ".join(cells)
        for note in node.notes:
            for p in note.paragraphs:
                yield where, p.text
        for p in getattr(node, "commentary", []):
            yield where, p.text


def residues(edition: Edition) -> list[str]:
    """Human-readable list of artifacts left in the edition's text."""
    found = []
    for where, text in texts(edition):
        for name in residue(text):
            found.append(f"{edition.code} {where}: {name}: {text[:80]!r}")
    return found


def structure_errors(edition: Edition, expected: range) -> list[str]:
    errors = []
    numbers = [law.number for law in edition.laws]
    if numbers != list(expected):
        errors.append(f"{edition.code}: laws {numbers[:3]}…{numbers[-3:]} != {expected}")
    for law in edition.laws:
        if not law.title:
            errors.append(f"{edition.code}: law {law.number} has no title")
        if not (law.blocks or law.children):
            errors.append(f"{edition.code}: law {law.number} is empty")
    return errors

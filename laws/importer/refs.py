"""Cross-reference detection and resolution, per language.

References are found after cleaning (so hyphenated ``Artícu-lo`` and split lines are
already joined) and resolved against anchors of the same edition. A law a partial
edition does not contain resolves in the complete edition of the same Code, when one is
shipped (es-1997 → pt-1997: the same 1997 Laws, same section letters); anything else
stays as text with a reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .tree import Edition, Node, Paragraph, Ref

ROMAN = r"(?:iii|ii|iv|v|i)"
# 12C1(e)(ii), 45C4(b), 40B2a(v), spaced 12 C 1 (es-1997)
PATH = (
    r"(?P<num>\d{1,2})(?:\s?(?P<sec>[A-H])(?![A-Za-zÁ-ú])"
    r"(?:\s?(?P<item>\d{1,2}))?"
    rf"(?:(?P<sub>[a-e])(?![a-zá-ú])|\s?\((?P<psub>[a-e])\))?"
    rf"(?:\s?\((?P<rom>{ROMAN})\))?)?"
)
REL = (
    r"(?P<rsec>[A-H])(?![A-Za-zÁ-ú])(?:(?P<ritem>\d{1,2}))?"
    rf"(?:(?P<rsub>[a-e])(?![a-zá-ú])|\s?\((?P<rpsub>[a-e])\))?(?:\((?P<rrom>{ROMAN})\))?"
)
REL_ITEM = r"(?P<iitem>\d{1,2})(?:\s?\((?P<isub>[a-e])\))?"

KEYWORDS = {
    "es": r"(?:Artículos|Artículo|artículos|artículo|Arts\.|Art\.|art\.)",
    "pt": r"(?:Leis|Lei|leis|lei)",
}
JOINERS = {"es": r"(?:y|o|ó|e)", "pt": r"(?:e|ou|a)"}
TITLE_AFTER = r"(?:\s\([A-ZÁÉÍÓÚ][^()]{3,80}\))?"


def _abs_rx(lang: str) -> re.Pattern[str]:
    joiner = JOINERS[lang]
    more = (
        rf"(?:\s*,\s*|\s+{joiner}\s+(?:(?:el|la|las|los|a|o|as|os)\s+)?)"
        rf"(?:{KEYWORDS[lang]}\s*)?"
    )
    plain = re.sub(r"\(\?P<\w+>", "(?:", PATH)
    return re.compile(
        rf"\b{KEYWORDS[lang]}\s*(?:n\.º\s*)?{plain}{TITLE_AFTER}(?:{more}{plain}{TITLE_AFTER})*"
    )


ABS = {lang: _abs_rx(lang) for lang in KEYWORDS}
ONE = re.compile(PATH)
REL_ES = re.compile(
    rf"(?:\b[Vv]er\s+(?:el\s+)?(?:(?:punto|apartado)\s+)?|\b(?:punto|apartado)\s+)"
    rf"(?:{REL}|{REL_ITEM})(?=[\s,.;:)])"
)
# "ver el Art. 32 si … y el 35 A si …": a later number of the same clause, after el/la/del/al,
# names a law too when it carries a section letter or follows y/o ("Artículo 53 o el 56").
BARE_ES = re.compile(
    r"(?:\b(?P<conj>y|o|ó)\s+)?\b(?:el|la|del|al)\s+"
    r"(?P<path>\d{1,2}(?:\s?[A-H](?![A-Za-zÁ-ú])(?:\s?\d{1,2})?)?)(?=[\s,.;:)])(?!\s*%)"
)
REL_PT = re.compile(rf"(?:§\s?|\bSecção\s+)(?:{REL}|{REL_ITEM})(?=[\s,.;:)]|$)")


def paths_in(literal: str) -> Iterator[tuple[str, ...]]:
    """The law paths named in an absolute reference literal (``Artículos 47E y 41``)."""
    body = re.sub(r"\([A-ZÁÉÍÓÚ][^()]{3,80}\)", "", literal)
    body = re.sub(KEYWORDS["es"] + "|" + KEYWORDS["pt"], " ", body)
    for m in ONE.finditer(body):
        parts = [m.group("num")]
        for key in ("sec", "item"):
            if m.group(key):
                parts.append(m.group(key))
        sub = m.group("sub") or m.group("psub")
        if sub:
            parts.append(sub)
        if m.group("rom"):
            parts.append(m.group("rom"))
        yield tuple(parts)


def rel_path(m: re.Match[str], node: Node) -> tuple[str, ...]:
    if m.group("rsec"):
        parts = [m.group("rsec")]
        if m.group("ritem"):
            parts.append(m.group("ritem"))
        sub = m.group("rsub") or m.group("rpsub")
        if sub:
            parts.append(sub)
        if m.group("rrom"):
            parts.append(m.group("rrom"))
        return tuple(parts)
    section = node.path[:1] if node.path and node.path[0].isalpha() else ()
    parts = [*section, m.group("iitem")]
    if m.group("isub"):
        parts.append(m.group("isub"))
    return tuple(parts)


def same_clause(between: str) -> bool:
    """No sentence end and no closed parenthesis between a reference and a bare number."""
    return not re.search(r"[.;:]\s|\)", between) and len(between) < 120


class Resolver:
    """Resolves law paths against the anchors that exist in one edition.

    ``fallback`` is the complete edition of the same Code (``complete_counterpart``): a
    law missing here is linked there rather than left unresolved.
    """

    def __init__(self, edition: Edition, fallback: Edition | None = None) -> None:
        self.edition = edition
        self.anchors = {
            edition.anchor(n.number if n.kind == "law" else law.number, n.path)
            for law in edition.laws
            for n in law.walk()
        }
        self.fallback = Resolver(fallback) if fallback is not None else None

    def resolve(self, law_number: int, path: tuple[str, ...]) -> tuple[str | None, bool, str]:
        """(anchor or nearest existing ancestor, exact?, reason when not exact)."""
        if self.edition.law(law_number) is None:
            if self.fallback is not None and self.fallback.edition.law(law_number):
                return self.fallback.resolve(law_number, path)
            return None, False, f"law {law_number} not in {self.edition.code}"
        for cut in range(len(path), -1, -1):
            anchor = self.edition.anchor(law_number, path[:cut])
            if anchor in self.anchors:
                if cut == len(path):
                    return anchor, True, ""
                return anchor, False, f"no {''.join(path)} in law {law_number}; linked to parent"
        return None, False, "unreachable"

    def find(self, text: str, law: Node | None, node: Node | None) -> list[Ref]:
        lang = self.edition.language
        refs: list[Ref] = []
        for m in ABS[lang].finditer(text):
            ref = Ref(m.start(), m.end(), m.group(0))
            exact = True
            for path in paths_in(m.group(0)):
                anchor, ok, reason = self.resolve(int(path[0]), path[1:])
                if anchor:
                    ref.targets.append(anchor)
                exact = exact and ok
                if reason:
                    ref.reason = reason
            ref.resolved = exact and bool(ref.targets)
            refs.append(ref)
        if lang == "es":
            refs += self.bare(text, refs)
        if law is not None and node is not None:
            rx = REL_ES if lang == "es" else REL_PT
            for m in rx.finditer(text):
                if any(r.start <= m.start() < r.end for r in refs):
                    continue
                path = rel_path(m, node)
                anchor, ok, reason = self.resolve(int(law.label), path)
                refs.append(
                    Ref(m.start(), m.end(), m.group(0), [anchor] if anchor else [], ok, reason)
                )
        refs.sort(key=lambda r: r.start)
        return refs

    def bare(self, text: str, refs: list[Ref]) -> list[Ref]:
        """``el 35 A`` after an ``Art.`` reference of the same clause (see ``BARE_ES``)."""
        found: list[Ref] = []
        for m in BARE_ES.finditer(text):
            start, end = m.start("path"), m.end("path")
            before = [r for r in refs if r.end <= m.start()]
            if any(r.start <= start < r.end for r in refs) or not before:
                continue
            if not same_clause(text[before[-1].end : m.start()]):
                continue
            literal = m.group("path")
            if not (m.group("conj") or re.search(r"[A-H]", literal)):
                continue
            (path,) = paths_in(literal)
            anchor, ok, reason = self.resolve(int(path[0]), path[1:])
            found.append(Ref(start, end, literal, [anchor] if anchor else [], ok, reason))
        return found


def complete_counterpart(edition: Edition, editions: list[Edition]) -> Edition | None:
    """The complete edition of the same Code (same year) for a partial one, if shipped."""
    if not edition.partial:
        return None
    return next(
        (e for e in editions if e is not edition and e.year == edition.year and not e.partial),
        None,
    )


def resolve_edition(edition: Edition, fallback: Edition | None = None) -> None:
    """Fill ``refs`` of every paragraph of the edition (laws, notes, glossary, footnotes)."""
    resolver = Resolver(edition, fallback)

    def apply(paragraphs: list[Paragraph], law: Node | None, node: Node | None) -> None:
        for p in paragraphs:
            p.refs = resolver.find(p.text, law, node)

    for law in edition.laws:
        for node in law.walk():
            apply(node.paragraphs, law, node)
            for note in node.notes:
                apply(note.paragraphs, law, node)
    for term in edition.glossary:
        term.refs = resolver.find(term.text, None, None)
    for fn in edition.footnotes.values():
        apply(fn.paragraphs, None, None)
    for note in edition.regulations:
        apply(note.paragraphs, None, None)


def all_refs(edition: Edition) -> Iterator[tuple[str, Ref]]:
    for law in edition.laws:
        for node in law.walk():
            where = edition.anchor(law.number, node.path)
            for p in node.paragraphs:
                for r in p.refs:
                    yield where, r
            for note in node.notes:
                for p in note.paragraphs:
                    for r in p.refs:
                        yield where + "#note", r
    for term in edition.glossary:
        for r in term.refs:
            yield f"{edition.code}/def/{term.slug}", r

"""Parser for ``laws-es-1997-aba-partial.txt``: the Argentine (ABA) 1997 Code, Laws 1–40.

A document-viewer page: chrome at both ends, inline sections (``A. Title. text``),
HTML lists flattened to indented ``1.`` at three depths (original (a)/(1) labels lost),
footnote numbers glued into the text. List levels are rebuilt from the pt-1997 tree,
which has the same section letters and nesting for these laws.
"""

from __future__ import annotations

import re
from pathlib import Path

from .builder import Builder, StructureError
from .clean import normalize
from .es2017 import definition
from .tree import Edition, Law, Node, Table

CHAPTER = re.compile(r"^CAPÍTULO ([IVX]+)\s*[-–]\s*(.+?)\.?$")
GROUP = re.compile(r"^(PARTE [IVX]+|SECCIÓN [A-ZÁÉÍÓÚ]+)\s*[-–]\s*(.+?)\.?$")
LAW = re.compile(r"^Artículo (\d+)\.\s+(.+?)\.?$")
SECTION = re.compile(r"^([A-H])\.\s+(.+)$")
ITEM = re.compile(r"^(\d{1,2})\.\s+(.+)$")
ROMAN_VALUE = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}
# Footnote markers glued into the text (laws-structure.md §4): (text before, marker, key).
MARKERS = [
    ("Reglamento", "3"),
    ("cartas", "4"),
    ("creer", "5"),
    ("anulada", "6"),
    ("anteriores", "7"),
    ("cantos", "8"),
    ("requerir", "9"),
    ("pedir", "8"),
    ("infractor", "10"),
    ("infractor", "11"),
    ("diferente", "12"),
    ("cualquiera", "13"),
    ("lícita", "14"),
    ("previamente", "15"),
    ("propia", "16"),
]
# The body printed as 8 belongs to marker 9 (marker 8's body, like 3, 7 and 16, is missing).
BODY_KEY = {"8": "9"}
# A footnote body starts a line or follows the end of a sentence: ``infractor. 4 Cuando tres
# manos``. Its number is followed by a word, never by a section letter, and the period before
# it is never the abbreviation ``Art.``/``Arts.``: ``(Ver Art. 12 C 1 cuando …)`` and ``(se
# aplicará el Art. 10 C 1; …)`` are references, and cutting there lost the rest of the
# paragraph (20E, 25B2b(2), 27B2) into the bodies of footnotes 12 and 10.
FOOTNOTE_BODY = re.compile(
    r"(?:^|(?<![Aa]rt\.)(?<![Aa]rts\.)(?<=[.;])\s)(\d{1,2}) (?=[A-ZÁÉÍÓÚ¿][a-záéíóúñ])"
)
KNOWN_BODIES = {"4", "5", "6", "8", "10", "11", "12", "13", "14", "15"}
PT_SAFE_RANGE = range(1, 41)


def strip_markers(text: str) -> tuple[str, list[str]]:
    keys = []
    for word, n in MARKERS:
        rx = re.compile(rf"(?<=\b{word})\s?{n}(?=[\s.,;])")
        if rx.search(text):
            text = rx.sub("", text, count=1)
            keys.append(n)
    return text, keys


def split_bodies(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``… infractor. 4 Cuando tres manos …`` → law text + footnote bodies."""
    parts = FOOTNOTE_BODY.split(text)
    if len(parts) == 1 or parts[1] not in KNOWN_BODIES:
        return text, []
    head, bodies = parts[0].strip(), []
    for i in range(1, len(parts) - 1, 2):
        bodies.append((BODY_KEY.get(parts[i], parts[i]), parts[i + 1].strip()))
    return head, bodies


def section_title(rest: str) -> tuple[str | None, str | None]:
    m = re.match(r"^(.{3,120}?)[.:,]\s+(.+)$", rest)
    if m:
        return m.group(1), m.group(2)
    if len(rest) < 120:
        return rest.rstrip("."), None
    return None, rest


def parse(path: Path, reference: Edition | None = None) -> Edition:
    edition = Edition(
        code="es-1997",
        language="es",
        year=1997,
        title="Código Internacional del Bridge Duplicado 1997 (ABA)",
        coverage="Definiciones y artículos 1–40",
        source_file=path.name,
        partial=True,
    )
    b = Builder(edition)
    region = "front"
    lines = path.read_text(encoding="utf-8").split("\n")
    law2: Table | None = None
    for number, raw in enumerate(lines, start=1):
        line = normalize(raw).rstrip()
        text = line.strip()
        if not text:
            continue
        if text.startswith("Compartir con tus amigos"):
            break
        if m := CHAPTER.match(text):
            if m.group(1) == "I":
                region = "definitions"
                b.start_chapter(1, m.group(2).capitalize())
                continue
            region = "laws"
            b.start_chapter(ROMAN_VALUE[m.group(1)], m.group(2).capitalize())
            continue
        if region == "front":
            continue
        if region == "definitions":
            edition.glossary.append(definition(text))
            continue
        if m := GROUP.match(text):
            b.start_group(f"{m.group(1)} – {m.group(2)}", part=m.group(1).startswith("PARTE"))
            continue
        if m := LAW.match(text):
            law2 = None
            b.start_law(int(m.group(1)), m.group(2), number)
            continue
        if b.law_node is None:
            raise StructureError(f"es-1997: text outside a law at line {number}")
        if b.law_node.number == 2 and (text == "Tablillas" or law2 is not None and len(text) < 30):
            if text == "Tablillas":
                law2 = law2 or Table(caption="")
                if law2 not in b.current.blocks:
                    b.table(law2, number)
                law2.rows.append([text])
            elif text.isdigit():
                law2.rows[-1].append(text)  # type: ignore[union-attr]
            else:
                law2.rows.append([text])  # type: ignore[union-attr]
            continue
        law2 = None
        text, bodies = split_bodies(text)
        for key, body in bodies:
            b.footnote(key, key, body)
        if not text:
            continue
        text, keys = strip_markers(text)
        if m := SECTION.match(text):
            title, body = section_title(m.group(2))
            b.marker(1, m.group(1), title, body, number)
        elif (indent := len(line) - len(line.lstrip())) and (m := ITEM.match(text)):
            level = {2: 2, 4: 3}.get(indent, 4)
            b.marker(level, m.group(1), None, m.group(2), number)
        else:
            b.paragraph(text, number)
        for key in keys:
            b.cite_footnote(key)
    for table_row_owner in (edition.law(2),):
        if table_row_owner:
            for t in table_row_owner.tables:
                t.header = [r for r in t.rows if r == ["Tablillas"]][:1]
                t.rows = [r for r in t.rows if r != ["Tablillas"]]
    for law in edition.laws:
        relabel(law, reference.law(law.number) if reference else None)
    return edition


def preorder(node: Node) -> list[Node]:
    return [n for c in node.children for n in c.walk()]


def relabel(law: Law, ref: Law | None) -> None:
    """Give flattened lists the 1997 labels: copy the pt-1997 shape where it matches."""
    scopes: list[Node] = (
        [law, *law.children] if law.children and law.children[0].level == 1 else [law]
    )
    for scope in scopes:
        if scope.level == 0 and scope.children and scope.children[0].level == 1:
            continue
        ref_scope = ref
        if ref is not None and scope.path:
            ref_scope = next((c for c in ref.children if c.label == scope.label), None)
        ours = preorder(scope)
        theirs = preorder(ref_scope) if ref_scope is not None else []
        if ours and len(ours) == len(theirs):
            rebuild(scope, ours, theirs)
        else:
            for node in ours:  # fall back: depth gives the kind of label
                fix_label(node)


def fix_label(node: Node) -> None:
    if node.level == 3 and node.label.isdigit():
        node.source_label = node.source_label or node.label
        node.label = chr(ord("a") + int(node.label) - 1)
    node.path = (*node.path[:-1], node.label)
    for child in node.children:
        child.path = (*node.path, child.label)


def rebuild(scope: Node, ours: list[Node], theirs: list[Node]) -> None:
    by_path: dict[tuple[str, ...], Node] = {scope.path: scope}
    scope.children = []
    for mine, model in zip(ours, theirs, strict=True):
        printed = mine.source_label or mine.label
        node = Node(
            kind=model.kind,
            label=model.label,
            title=mine.title,
            blocks=mine.blocks,
            notes=mine.notes,
            footnotes=mine.footnotes,
            lines=mine.lines,
            source_label=printed if printed != model.label else None,
            path=model.path,
        )
        parent = by_path.get(model.path[:-1], scope)
        parent.children.append(node)
        by_path[model.path] = node

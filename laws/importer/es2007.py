"""Parser for ``laws-es-2007-aeb-web-partial.txt``: the AEB web page (HTML→text), Laws 1–16.

The page is labelled 2017 but its content is the 2007 Laws (see laws-structure.md §3),
so it is the ``es-2007`` edition. Sections are inline (``A.- Title: text``), HTML
lists are printed as ``1.``+NBSP, ``a.`` and indented ``  1.`` for (a)–(d).
"""

from __future__ import annotations

import re
from pathlib import Path

from .builder import Builder, StructureError
from .clean import normalize
from .tree import Edition, Table

CHAPTER = re.compile(r"^([IVX]+)\.-\s*(.+)$")
LAW = re.compile(r"^Artículo (\d+)\.-\s*(.+)$")
SECTION = re.compile(r"^([A-H])(\d)?\.?-\s*(.*)$")
ITEM = re.compile(r"^(\d{1,2})\.\s+(.+)$")
LETTER = re.compile(r"^([a-f])\.\s+(.+)$")
INDENTED = re.compile(r"^\s{2,}(\d)\.\s+(.+)$")
ROMAN = re.compile(r"^\((i|ii|iii|iv|v)\)\s*(.+)$")
NOTE = re.compile(r"^\(?(Nota(?: AEB)?):\s*(.+?)\)?$")
INLINE_NOTE = re.compile(r"\s*\((Nota AEB):\s*([^)]*)\)")
ROMAN_VALUE = {"I": 1, "II": 2, "III": 3}


def parse(path: Path) -> Edition:
    edition = Edition(
        code="es-2007",
        language="es",
        year=2007,
        title="Reglamento del Bridge Duplicado 2007 (página web de la AEB)",
        coverage="Artículos 1–16",
        source_file=path.name,
        partial=True,
    )
    b = Builder(edition)
    started = False
    law2_rows: list[list[str]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        line = normalize(raw).rstrip()
        if not started:
            started = bool(CHAPTER.match(line))
            if not started:
                continue
        if not line.strip():
            continue
        text = re.sub(r"\s+", " ", line).strip()
        if m := CHAPTER.match(text):
            b.start_chapter(ROMAN_VALUE[m.group(1)], m.group(2).capitalize())
            continue
        if m := LAW.match(text):
            if law2_rows:
                b.table(Table(caption="", rows=law2_rows), number)
                law2_rows = []
            b.start_law(int(m.group(1)), m.group(2), number)
            continue
        if b.law_node is None:
            raise StructureError(f"es-2007: text outside a law at line {number}")
        if b.law_node.number == 2 and "Estuches" in text and re.search(r"\d$", text):
            label, _, nums = text.partition(" Estuches ")
            law2_rows.append([label.strip(), "Estuches", *nums.split()])
            continue
        if law2_rows:
            b.table(Table(caption="", rows=law2_rows), number)
            law2_rows = []
        note_parts = INLINE_NOTE.search(text)
        if note_parts and not text.startswith("(Nota"):
            text = (text[: note_parts.start()] + text[note_parts.end() :]).strip()
        if m := NOTE.match(text):
            b.add_note("Nota AEB", m.group(2), number)
            b.note = None
            continue
        if m := SECTION.match(text):
            letter, sub, rest = m.groups()
            rest = rest.strip()
            title, body = rest, None
            head, colon, tail = rest.partition(":")
            if colon and len(head) < 90:
                title, body = head.rstrip(". ").strip(), tail.lstrip(". ").strip() or None
            if sub:
                if b.open_at(1) is None or b.open_at(1).label != letter:
                    b.marker(1, letter, None, None, number)
                b.marker(2, sub, title, body, number)
            else:
                b.marker(1, letter, title, body, number)
        elif m := INDENTED.match(line):
            label = chr(ord("a") + int(m.group(1)) - 1)
            node = b.marker(3 if b.open_at(2) else 2, label, None, m.group(2), number)
            node.source_label = m.group(1)
        elif m := ITEM.match(text):
            b.marker(2, m.group(1), None, m.group(2), number)
        elif m := LETTER.match(text):
            item = b.open_at(2)
            if item is None or (item.source_label or "").isalpha():  # 12B: 1/2 printed as a./b.
                label = str(ord(m.group(1)) - ord("a") + 1)
                node = b.marker(2, label, None, m.group(2), number)
            else:
                node = b.marker(3, m.group(1), None, m.group(2), number)
            node.source_label = m.group(1)
        elif m := ROMAN.match(text):
            b.marker(4, m.group(1), None, m.group(2), number)
        else:
            b.paragraph(text, number)
        if note_parts and not text.startswith("(Nota"):
            b.add_note(note_parts.group(1), note_parts.group(2), number)
            b.note = None
    return edition

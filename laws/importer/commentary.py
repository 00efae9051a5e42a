"""The 2003 director course's "ESTUDIO DEL REGLAMENTO": commentary keyed ``ART. N:``.

Commentary, never law text: it is attached to the laws of the 1997 editions
(``Law.commentary``) and rendered under a separate label. Keyed by the 1997
numbering; the second ``ART. 87:`` is Law 88 (laws-structure.md §5).
"""

from __future__ import annotations

import re
from pathlib import Path

from .clean import normalize, strip_markup
from .tree import Edition, Paragraph

START = "ESTUDIO DEL REGLAMENTO"
ENTRY = re.compile(r"^ART\.\s*(\d+):\s*(.*)$")
RANGE = re.compile(r"^[A-ZÁÉÍÓÚ ,]+:\s*ART[IÍ]CULOS? \d+")
TABLE_LINE = re.compile(r"\t")


def parse(path: Path) -> dict[int, list[str]]:
    """Law number → commentary paragraphs (cleaned of markdown/HTML debris)."""
    out: dict[int, list[str]] = {}
    current: int | None = None
    started = False
    for raw in path.read_text(encoding="utf-8").split("\n"):
        line = normalize(raw).strip()
        if not started:
            started = line == START
            continue
        if not line or RANGE.match(line):
            continue
        m = ENTRY.match(line)
        if m:
            number = int(m.group(1))
            if number in out and number == 87:
                number = 88
            current = number
            out.setdefault(current, [])
            if m.group(2):
                out[current].append(strip_markup(m.group(2)))
            continue
        if current is not None:
            text = strip_markup(re.sub(r"<[^>]+>", "", line)).replace("\t", " · ")
            if text:
                out[current].append(text)
    return out


def attach(edition: Edition, comments: dict[int, list[str]]) -> int:
    """Attach commentary to an edition's laws; returns how many laws received some."""
    count = 0
    for law in edition.laws:
        paragraphs = comments.get(law.number)
        if paragraphs:
            law.commentary = [Paragraph(p) for p in paragraphs]
            count += 1
    return count

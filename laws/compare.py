"""Side-by-side alignment of one law number in two editions.

Law numbers are the only shared key. Editions of the same year (es-1997 ↔ pt-1997)
share section letters (laws 1–40), so they are aligned section by section; otherwise
the two laws are shown whole, with a banner where the subject differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language

from .models import Edition, Law, Node

DATA = Path(__file__).resolve().parent / "data" / "laws-repairs-and-differences.json"


@lru_cache(maxsize=1)
def differences() -> dict:
    return json.loads(DATA.read_text("utf-8"))["title_differences_same_law_number"]


@dataclass(frozen=True)
class SubjectTitle:
    """One edition's title of a law whose subject differs: the title in the edition's own
    language (``lang``), glossed in the reader's language ("" when the title says it all)."""

    title: str
    lang: str
    gloss: str


def _reader_language() -> str:
    return (get_language() or settings.LANGUAGE_CODE)[:2]


def in_reader_language(words: dict[str, str]) -> str:
    """The reader's entry of an ``{"en": …, "es": …, "pt": …}`` dictionary (English when the
    language is missing)."""
    return words.get(_reader_language(), words["en"])


def subject_titles(entries: list[dict]) -> list[SubjectTitle]:
    return [SubjectTitle(e["title"], e["lang"], in_reader_language(e["gloss"])) for e in entries]


@dataclass
class Side:
    edition: Edition
    law: Law | None
    nodes: list[Node] = field(default_factory=list)


@dataclass
class Row:
    label: str
    left: list[Node]
    right: list[Node]


@dataclass
class Comparison:
    number: int
    left: Side
    right: Side
    rows: list[Row]
    by_section: bool
    subject_differs: list[SubjectTitle] | None
    letters_shift: str | None  # in the reader's language


def side(edition: Edition, number: int) -> Side:
    law = edition.laws.filter(number=number).select_related("chapter").first()
    nodes = list(law.nodes.order_by("position")) if law else []
    return Side(edition, law, nodes)


def sections(nodes: list[Node]) -> dict[str, list[Node]]:
    out: dict[str, list[Node]] = {}
    for node in nodes:
        key = node.path.split("/")[0] if node.path else ""
        out.setdefault(key, []).append(node)
    return out


def compare(number: int, left: Edition, right: Edition) -> Comparison:
    a, b = side(left, number), side(right, number)
    same_year = left.year == right.year
    by_section = same_year and a.law is not None and b.law is not None
    rows = []
    if by_section:
        sa, sb = sections(a.nodes), sections(b.nodes)
        for key in list(dict.fromkeys([*sa, *sb])):
            left_nodes, right_nodes = sa.get(key, []), sb.get(key, [])
            if not key and not any(n.html for n in left_nodes + right_nodes):
                continue  # neither law has text before its first section
            rows.append(Row(key, left_nodes, right_nodes))
    else:
        rows.append(Row("", a.nodes, b.nodes))
    diff = differences()
    subject = None
    shift = None
    if not same_year and str(number) in diff:
        subject = subject_titles(diff[str(number)])
    if not same_year and (words := diff.get("section_letter_shifts", {}).get(str(number))):
        shift = in_reader_language(words)
    return Comparison(number, a, b, rows, by_section, subject, shift)

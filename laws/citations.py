"""Law citations for other apps: ``cite("es-2017", "12C1")`` → URL, title and anchor.

Used e.g. by adjusted scores to cite the law they apply as a link. Accepts the
forms directors type: ``12C1``, ``12 C 1``, ``12C1(e)``, ``Ley 12C1``, ``Art. 12``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .models import Node

CITATION = re.compile(
    r"^\s*(?:(?:art[ií]culos?|arts?\.?|leyes|ley|leis|lei|law)\s*)?"
    r"(?P<num>\d{1,2})\s*(?P<sec>[A-Ha-h])?\s*(?P<item>\d{1,2})?\s*"
    r"(?:\(?(?P<sub>[a-e])\)?)?\s*(?:\((?P<rom>i{1,3}|iv|v)\))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Citation:
    url: str
    title: str
    anchor: str


def parse_citation(text: str) -> tuple[int, tuple[str, ...]] | None:
    """``"12C1e"`` → ``(12, ("C", "1", "e"))``; None when it is not a law citation."""
    m = CITATION.match(text or "")
    if not m:
        return None
    path = []
    if m.group("sec"):
        path.append(m.group("sec").upper())
        if m.group("item"):
            path.append(m.group("item"))
            if m.group("sub"):
                path.append(m.group("sub").lower())
                if m.group("rom"):
                    path.append(m.group("rom").lower())
    elif m.group("item") or m.group("sub"):
        return None
    return int(m.group("num")), tuple(path)


def cite(edition_code: str, citation: str) -> Citation | None:
    """The deepest existing part of the cited law in that edition, or None."""
    parsed = parse_citation(citation)
    if parsed is None:
        return None
    number, path = parsed
    for cut in range(len(path), -1, -1):
        anchor = "/".join((edition_code, f"law-{number}", *path[:cut]))
        node = Node.objects.select_related("law", "edition").filter(anchor=anchor).first()
        if node is not None:
            label = "".join(path[:cut])
            title = f"{number}{label} — {node.law.title}"
            if node.title and cut:
                title = f"{number}{label} — {node.law.title}: {node.title}"
            return Citation(url=node.get_absolute_url(), title=title, anchor=anchor)
    return None

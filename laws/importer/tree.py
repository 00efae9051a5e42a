"""Plain dataclasses for a parsed edition of the Laws.

The parsers return these so that everything below Django (cleaning, structure,
cross-references, validation) can be tested without a database; the
``import_laws`` command stores them as rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Depth of each structural kind below a law; used to build the tree and anchors.
LEVELS = {"law": 0, "section": 1, "item": 2, "subitem": 3, "subsubitem": 4}
KIND_AT_LEVEL = {v: k for k, v in LEVELS.items()}


@dataclass
class Ref:
    """A cross-reference found in a paragraph: ``text[start:end]`` points at ``targets``."""

    start: int
    end: int
    literal: str
    targets: list[str] = field(default_factory=list)  # anchors, e.g. "es-2017/law-12/C/1"
    resolved: bool = False
    reason: str = ""  # why unresolved


@dataclass
class Paragraph:
    text: str
    refs: list[Ref] = field(default_factory=list)
    footnote_markers: list[tuple[int, str]] = field(default_factory=list)  # (offset, fn key)


@dataclass
class Table:
    caption: str
    header: list[list[str]] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    repaired: bool = False


@dataclass
class Note:
    """A national-authority note (AEB): never part of the law text."""

    heading: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    kind: str = "national_note"  # or "national_regulations" (block / appendix)
    authority: str = "AEB"


@dataclass
class Footnote:
    key: str  # edition-unique, e.g. "22" or "law-70-1"
    marker: str  # printed marker: "22", "*", "(*)"
    paragraphs: list[Paragraph] = field(default_factory=list)


@dataclass
class Node:
    """A law or a part of one (section, item, sub-item, sub-sub-item)."""

    kind: str
    label: str  # anchor segment ("C", "1", "e", "ii"); for a law its number
    title: str | None = None
    blocks: list[Paragraph | Table] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)  # footnote keys
    lines: tuple[int, int] = (0, 0)
    source_label: str | None = None  # printed label when it differs from the anchor
    repaired: bool = False
    path: tuple[str, ...] = ()  # labels below the law, ("C", "1", "e")

    @property
    def level(self) -> int:
        return LEVELS[self.kind]

    @property
    def paragraphs(self) -> list[Paragraph]:
        return [b for b in self.blocks if isinstance(b, Paragraph)]

    @property
    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]

    @property
    def text(self) -> list[str]:
        return [p.text for p in self.paragraphs]

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Law(Node):
    number: int = 0
    chapter: int = 0
    group: str | None = None  # "PARTE I …" / "SECÇÃO PRIMEIRA …"
    commentary: list[Paragraph] = field(default_factory=list)


@dataclass
class Chapter:
    number: int
    title: str
    groups: list[str] = field(default_factory=list)


@dataclass
class Term:
    slug: str
    term: str
    text: str
    aliases: list[str] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    see: str | None = None  # for pure aliases: the target term


@dataclass
class Edition:
    code: str
    language: str  # "es" / "pt"
    year: int
    title: str
    coverage: str
    source_file: str
    chapters: list[Chapter] = field(default_factory=list)
    laws: list[Law] = field(default_factory=list)
    glossary: list[Term] = field(default_factory=list)
    footnotes: dict[str, Footnote] = field(default_factory=dict)
    introduction: list[Paragraph] = field(default_factory=list)
    introduction_title: str = ""  # the preamble's printed heading (pt-1997), if any
    introduction_notes: list[Note] = field(default_factory=list)
    regulations: list[Note] = field(default_factory=list)  # edition-level (es-2017 appendix)
    partial: bool = False

    def law(self, number: int) -> Law | None:
        for law in self.laws:
            if law.number == number:
                return law
        return None

    def node(self, anchor: str) -> Node | None:
        """Find a node by its anchor (``es-2017/law-12/C/1/e``)."""
        parts = anchor.split("/")
        if parts[0] != self.code or len(parts) < 2 or not parts[1].startswith("law-"):
            return None
        law = self.law(int(parts[1][4:]))
        node: Node | None = law
        for seg in parts[2:]:
            if node is None:
                return None
            node = next((c for c in node.children if c.label == seg), None)
        return node

    def anchor(self, law_number: int, path: tuple[str, ...] = ()) -> str:
        return "/".join((self.code, f"law-{law_number}", *path))

    def all_nodes(self):
        for law in self.laws:
            yield from law.walk()

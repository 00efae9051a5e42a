"""Turns a stream of classified paragraphs into the Edition tree.

Every parser classifies its source's paragraphs (chapter, law, section,
item, note …) and feeds them here; the nesting rules, label repair and
note/footnote attachment are shared so that all editions behave alike.
"""

from __future__ import annotations

from .tree import KIND_AT_LEVEL, Chapter, Edition, Footnote, Law, Node, Note, Paragraph, Table

ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


class StructureError(ValueError):
    """The source does not have the structure the parser expects; import must stop."""


def next_label(label: str) -> str:
    """The label that follows ``label`` in its own sequence (A→B, 1→2, a→b, ii→iii)."""
    if label.isdigit():
        return str(int(label) + 1)
    if label in ROMANS and label not in ("i", "v", "x"):
        return ROMANS[ROMANS.index(label) + 1]
    return chr(ord(label) + 1)


class Builder:
    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.chapter: Chapter | None = None
        self.group: str | None = None
        self.part: str | None = None
        self.law_node: Law | None = None
        self.stack: list[Node] = []  # open nodes, law first
        self.note: Note | None = None  # note receiving unmarked paragraphs
        self.block_note = False  # a block note swallows everything up to the next law
        self.last_footnote: Footnote | None = None

    # -- headings -------------------------------------------------------
    def start_chapter(self, number: int, title: str) -> None:
        self.chapter = Chapter(number=number, title=title)
        self.edition.chapters.append(self.chapter)
        self.group = None
        self.part = None
        self.close_law()

    def start_group(self, title: str, *, part: bool = False) -> None:
        """PARTE (part=True) or SECÇÃO/SECCIÓN (inside the current part, if any)."""
        if part:
            self.part = title
            self.group = title
        else:
            self.group = f"{self.part} — {title}" if self.part else title
        if self.chapter is not None:
            self.chapter.groups.append(self.group)
        self.close_law()

    def start_law(self, number: int, title: str, line: int) -> Law:
        if self.edition.law(number) is not None:
            raise StructureError(f"{self.edition.code}: law {number} twice (line {line})")
        law = Law(
            kind="law",
            label=str(number),
            number=number,
            title=title,
            chapter=self.chapter.number if self.chapter else 0,
            group=self.group,
            lines=(line, line),
        )
        self.edition.laws.append(law)
        self.law_node = law
        self.stack = [law]
        self.note = None
        self.block_note = False
        return law

    def close_law(self) -> None:
        self.law_node = None
        self.stack = []
        self.note = None
        self.block_note = False

    # -- structure ------------------------------------------------------
    @property
    def current(self) -> Node:
        if not self.stack:
            raise StructureError(f"{self.edition.code}: text outside a law")
        return self.stack[-1]

    def open_at(self, level: int) -> Node | None:
        for node in reversed(self.stack):
            if node.level == level:
                return node
        return None

    def marker(
        self,
        level: int,
        label: str,
        title: str | None,
        text: str | None,
        line: int,
    ) -> Node:
        """Open a section/item at ``level``; repairs a repeated printed label (37 ``A.``/``A.``)."""
        self.note = None
        while self.stack and self.stack[-1].level >= level:
            self.stack.pop()
        parent = self.current
        source_label = None
        siblings = [c for c in parent.children if c.level == level]
        if siblings and any(s.label == label for s in siblings):
            source_label = label
            label = next_label(siblings[-1].label)
        node = Node(
            kind=KIND_AT_LEVEL[level],
            label=label,
            title=title,
            lines=(line, line),
            source_label=source_label,
            path=(*parent.path, label),
        )
        if text:
            node.blocks.append(Paragraph(text))
        parent.children.append(node)
        self.stack.append(node)
        self.extend(line)
        return node

    def extend(self, line: int) -> None:
        for node in self.stack:
            node.lines = (node.lines[0], max(node.lines[1], line))

    def paragraph(self, text: str, line: int) -> None:
        if self.note is not None:
            self.note.paragraphs.append(Paragraph(text))
        else:
            self.current.blocks.append(Paragraph(text))
        self.extend(line)

    def table(self, table: Table, line: int) -> None:
        self.note = None
        self.current.blocks.append(table)
        self.extend(line)

    def add_note(self, heading: str, text: str, line: int, *, block: bool = False) -> Note:
        """Attach a national note to the open node; later unmarked paragraphs continue it."""
        note = Note(heading=heading, kind="national_regulations" if block else "national_note")
        if text:
            note.paragraphs.append(Paragraph(text))
        target = self.law_node if block else self.current
        if target is None:
            raise StructureError(f"{self.edition.code}: note outside a law (line {line})")
        target.notes.append(note)
        self.note = note
        self.block_note = block
        self.extend(line)
        return note

    def footnote(self, key: str, marker: str, text: str) -> Footnote:
        fn = self.edition.footnotes.get(key)
        if fn is None:
            fn = Footnote(key=key, marker=marker)
            self.edition.footnotes[key] = fn
        if text:
            fn.paragraphs.append(Paragraph(text))
        self.last_footnote = fn
        return fn

    def cite_footnote(self, key: str) -> None:
        node = self.current
        if key not in node.footnotes:
            node.footnotes.append(key)

"""Parser for ``laws-es-2017-aeb.txt``: the AEB edition of the 2017 Laws (PDF→text).

Hard-wrapped paragraphs with page markers glued to the next page's first line,
NFD accents with dotless i, ♥/♦ printed as r/q, AEB notes inline or as blocks,
and the AEB appendix after Law 93.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .builder import Builder, StructureError
from .clean import PAGE_MARKER, fix_suit_letters, join_lines, normalize, slugify
from .tree import Edition, Note, Paragraph, Table, Term

LAW = re.compile(r"^Artículo (\d+)\s*\.\s*-\s*(.+)$")
CHAPTER = re.compile(r"^Capítulo (\d+)$")
SECTION = re.compile(r"^(?:([A-H])\.-?|\(([A-H])\))\s+(.+)$", re.S)
ITEM = re.compile(r"^(\d{1,2})\.\s+(.+)$", re.S)
LETTER = re.compile(r"^\(([a-z]{1,4})\)\s+(.+)$", re.S)
BULLET_ROMAN = re.compile(r"^•\s*\(([ivx]+)\)\s+(.+)$", re.S)
BLOCK_NOTE = re.compile(
    r"^(Notas de la AEB:|Normas (?:de la )?AEB\b.*|Normas sobre las Alertas\b.*)$"
)
NOTE = re.compile(r"^(Nota (?:de la )?AEB(?: sobre [^:]{1,60})?|Nota):\s*(.*)$", re.S)
INLINE_NOTE = re.compile(r"\s*\b(Nota (?:de la )?AEB):\s*")
FOOTNOTE = re.compile(r"^(\(\*\)|\*)\s+(.+)$", re.S)
STRUCTURAL = re.compile(
    r"^(Capítulo \d|Artículo \d+\s*\.\s*-|(?:[A-H]\.-?|\([A-H]\))\s|\d{1,2}\.\s|\([a-z]{1,4}\)\s|•"
    r"|Nota|Normas|\(\*\)|\*\s|[A-ZÁÉÍÓÚÑ ]{6,}$)"
)
PAGE_NUMBER = re.compile(r"^\d{1,3}$")
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


@dataclass
class RawParagraph:
    first: int
    last: int
    lines: list[str]

    @property
    def text(self) -> str:
        return join_lines(self.lines)


def paragraphs(raw: str) -> list[RawParagraph]:
    """Split into paragraphs: blank lines end one; a page marker ends one only at a boundary."""
    out: list[RawParagraph] = []
    cur: RawParagraph | None = None
    for number, line in enumerate(raw.split("\n"), start=1):
        soft = bool(PAGE_MARKER.match(line))
        line = fix_suit_letters(normalize(PAGE_MARKER.sub("", line))).rstrip()
        if PAGE_NUMBER.match(line.strip()):
            continue  # stray page number (2571, 3304, 3899)
        if not line.strip():
            cur = None
            continue
        if cur is not None and soft:
            prev = cur.lines[-1]
            if re.search(r"[.:;)”]$", prev) or STRUCTURAL.match(line):
                cur = None
        if cur is None:
            cur = RawParagraph(number, number, [])
            out.append(cur)
        cur.lines.append(line)
        cur.last = number
    return out


# -- tables ----------------------------------------------------------------
CAPS = re.compile(r"^[A-ZÁÉÍÓÚÑ ]{6,}$")
VALUE = r"(?:\d+|Valor de baza)"
ROW = re.compile(rf"^(.*?[^\d\s])\s+({VALUE}(?:\s+{VALUE})*)$")
HEADER_COLUMNS = [
    re.compile(r"^(.*?)\s+(♣) (♦) (♥) (♠)$"),
    re.compile(r"^(.*?)\s+(No vulnerable) (Vulnerable)$"),
    re.compile(r"^(.*?)\s+(ST)$"),
]


def split_header(line: str) -> list[str]:
    for rx in HEADER_COLUMNS:
        m = rx.match(line)
        if m:
            return list(m.groups())
    return [line]


def split_row(line: str) -> list[str] | None:
    m = ROW.match(line)
    if not m:
        return None
    return [m.group(1), *re.findall(VALUE, m.group(2))]


def law2_table(para: RawParagraph) -> Table | None:
    if not all("⇒" in line for line in para.lines):
        return None
    rows = [[cell.strip() for cell in line.split("⇒")] for line in para.lines]
    return Table(caption="", rows=rows)


def imp_table(paras: list[RawParagraph]) -> Table:
    """78B: caption + header line, then rows of up to three (range, IMP) pairs."""
    head, body = paras
    table = Table(caption=head.lines[0], header=[["Dif. en puntos", "IMPS"] * 3])
    for line in body.lines:
        pairs = re.findall(r"(\d+-\d+|\d+\+)\s+(\d+)", line)
        table.rows.append([cell for pair in pairs for cell in pair])
    return table


# -- main parser -----------------------------------------------------------
def parse(path: Path) -> Edition:
    edition = Edition(
        code="es-2017",
        language="es",
        year=2017,
        title="Reglamento del Bridge Duplicado 2017 (edición AEB)",
        coverage="Artículos 1–93, definiciones, notas y normas AEB",
        source_file=path.name,
    )
    paras = paragraphs(path.read_text(encoding="utf-8"))
    b = Builder(edition)
    i = 0
    region = "intro"
    open_table: Table | None = None
    appendix: Note | None = None
    while i < len(paras):
        p = paras[i]
        text = p.text
        i += 1
        if region == "intro":
            if text == "Introducción":
                continue
            if text == "Definiciones":
                region = "definitions"
                continue
            m = NOTE.match(text)
            if m:
                note = Note(heading=m.group(1))
                note.paragraphs.append(Paragraph(m.group(2)))
                edition.introduction_notes.append(note)
            else:
                edition.introduction.append(Paragraph(text))
            continue
        m = CHAPTER.match(text)
        if m:
            region = "laws"
            b.start_chapter(int(m.group(1)), paras[i].text)
            i += 1
            continue
        if region == "definitions":
            edition.glossary.append(definition(text))
            continue
        m = LAW.match(text)
        if m:
            b.start_law(int(m.group(1)), m.group(2).strip(), p.first)
            open_table = None
            continue
        if edition.law(93) is not None and re.match(
            r"^Normas (AEB|de la AEB|sobre las Alertas)", text
        ):
            appendix = Note(heading=text, kind="national_regulations")
            edition.regulations.append(appendix)
            b.close_law()
            continue
        if appendix is not None:
            appendix.paragraphs.append(Paragraph(text))
            continue
        law = b.law_node
        if law is None:
            raise StructureError(f"es-2017: text outside a law at line {p.first}: {text[:60]}")
        # Block notes (Notas de la AEB / Normas AEB …) swallow the rest of the law.
        m = BLOCK_NOTE.match(text)
        if m:
            b.add_note(text.rstrip(":"), "", p.first, block=True)
            continue
        if b.block_note:
            b.paragraph(text, p.last)
            continue
        # Tables.
        if law.number == 2:
            table = law2_table(p)
            if table:
                b.table(table, p.last)
                continue
        if law.number == 78 and p.lines[0] == "TABLA DE IMPS":
            b.table(imp_table([p, paras[i]]), paras[i].last)
            i += 1
            continue
        if law.number == 77:
            if CAPS.match(p.lines[0]):
                open_table = Table(caption=p.lines[0])
                lines = p.lines[1:]
                if lines:
                    open_table.header.append(split_header(lines[0]))
                    open_table.rows.extend(split_row(line) or [line] for line in lines[1:])
                b.table(open_table, p.last)
                continue
            if open_table is not None:
                rows = [split_row(line) for line in p.lines]
                if all(rows):
                    open_table.rows.extend(rows)  # type: ignore[arg-type]
                    b.extend(p.last)
                    continue
                if not open_table.header and len(p.lines) == 1:
                    open_table.header.append(split_header(text))
                    continue
            open_table = None
        classify(b, p, text)
    if edition.law(93) is None:
        raise StructureError("es-2017: Law 93 not found")
    return edition


def classify(b: Builder, p: RawParagraph, text: str) -> None:
    """Feed one law paragraph to the builder as a note, footnote, marker or plain text."""
    m = NOTE.match(text)
    if m:
        b.add_note(m.group(1), m.group(2), p.first)
        return
    m = FOOTNOTE.match(text)
    if m:
        key = f"law-{b.law_node.number}"  # type: ignore[union-attr]
        b.footnote(key, m.group(1), m.group(2))
        return
    # Split an inline "… Nota AEB: …" off the law text.
    note_text = None
    parts = INLINE_NOTE.split(text, maxsplit=1)
    if len(parts) == 3:
        text, note_heading, note_text = parts
    # Footnote markers in the text: “normal*” (Law 70) and “(*).” (89B).
    fn_key = None
    if re.search(r"normal\*|\s\(\*\)", text):
        fn_key = f"law-{b.law_node.number}"  # type: ignore[union-attr]
        text = text.replace("normal*", "normal").replace(" (*).", "").replace(" (*)", "")
    if text.startswith("Observación:"):
        b.paragraph(text, p.last)
    elif m := SECTION.match(text):
        label = m.group(1) or m.group(2)
        rest = m.group(3)
        is_title = len(p.lines) == 1 and rest.endswith(".") and m.group(2) is None
        if is_title:
            b.marker(1, label, rest, None, p.first)
        else:
            b.marker(1, label, None, rest, p.first)
    elif m := ITEM.match(text):
        rest = m.group(2)
        sub = LETTER.match(rest)
        if sub:
            b.marker(2, m.group(1), None, None, p.first)
            b.marker(3, sub.group(1), None, sub.group(2), p.first)
        else:
            b.marker(2, m.group(1), None, rest, p.first)
    elif m := BULLET_ROMAN.match(text):
        b.marker(4, m.group(1), None, m.group(2), p.first)
    elif m := LETTER.match(text):
        label = m.group(1)
        open3 = b.open_at(3)
        roman = label in ROMAN and open3 is not None and (label != "i" or open3.label != "h")
        if roman and label != "i" and b.open_at(4) is None:
            roman = False
        b.marker(4 if roman else 3, label, None, m.group(2), p.first)
    else:
        b.paragraph(text, p.last)
    if fn_key:
        b.cite_footnote(fn_key)
    if note_text is not None:
        b.add_note(note_heading, note_text, p.last)
        b.note = None  # an inline note ends with its paragraph


def definition(text: str) -> Term:
    term, _, body = text.partition(":")
    term, body = term.strip(), body.strip()
    aliases = [a.strip() for a in re.findall(r"\((?:o|también)\s+([^)]+)\)", term)]
    if body.startswith("(o ") and ")" in body:  # "Baraja: (o mazo) Las 52…"
        alias, _, body = body[3:].partition(")")
        aliases.append(alias.strip())
        # The printed "(o mazo)" stays with the term, as in "Cancelado (o retirado)":
        # the page shows every word of the source (slug and links use the part before "(").
        term = f"{term} (o {alias.strip()})"
        body = body.strip()
    see = None
    m = re.match(r"^[Vv]er (.+?)\.?$", body)
    if m:
        see = m.group(1)
    return Term(slug=slugify(term.split("(")[0]), term=term, text=body, aliases=aliases, see=see)

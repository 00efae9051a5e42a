"""Parser for ``laws-pt-1997-fpb.txt``: the FPB 1997 Code ("markdown-ish" conversion).

One paragraph per line, inconsistent markdown heading levels, a table of contents
and a subject index to skip, footnotes collected after ``---`` lines (sometimes in
the middle of a sentence), an encoding-damaged Law 72 repaired from the repairs file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .builder import Builder, StructureError
from .clean import normalize, slugify, strip_markup
from .tree import Edition, Paragraph, Table, Term

CHAPTER = re.compile(r"^CAPÍTULO ([IVX]+)$")
GROUP = re.compile(r"^(PARTE [IVX]+|SECÇÃO [A-Z]+)\b\s*(.*)$")
LAW = re.compile(r"^LEI (\d+)\s*(.*)$")
SECTION = re.compile(r"^([A-H])\.\s+(.+)$")
ITEM = re.compile(r"^(\d{1,2})\.\s+(.+)$")
LETTER = re.compile(r"^\(([a-z])\)\s+(.+)$")
NUMBER_IN_PARENS = re.compile(r"^\((\d)\)\s+(.+)$")
SUP = re.compile(r"<sup>(\d+)</sup>")
ROMAN_VALUE = {"I": 1, "V": 5, "X": 10}
LIST_LINE = re.compile(r"^[#*\s]*(\d{1,2}\.|\([a-z0-9]\))\s")


def roman(text: str) -> int:
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        v = ROMAN_VALUE[a]
        total += -v if b != " " and ROMAN_VALUE[b] > v else v
    return total


@dataclass
class Para:
    first: int
    raw: list[str]  # raw lines (markup kept: it tells headings from text)

    @property
    def text(self) -> str:
        return strip_markup(" ".join(line.strip() for line in self.raw))

    @property
    def head(self) -> str:
        return strip_markup(self.raw[0])


def load_repairs(data_dir: Path) -> dict[int, str]:
    data = json.loads((data_dir / "laws-repairs-and-differences.json").read_text("utf-8"))
    repairs = data["pt-1997 repairs (keyed by raw line of seeds/laws-pt-1997-fpb.txt)"]
    return {int(k): v["repaired"] for k, v in repairs.items()}


def read_paragraphs(path: Path) -> tuple[list[Para], set[int]]:
    """Paragraphs of the body (preamble to the subject index), with repairs applied."""
    repairs = load_repairs(path.parent)
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[Para] = []
    cur: Para | None = None
    started = False
    for number, line in enumerate(lines, start=1):
        if number in repairs:
            line = repairs[number]
        line = normalize(line.rstrip("\n"))
        plain = strip_markup(line)
        if not started:
            started = plain == "ÂMBITO E INTERPRETAÇÃO DESTE CÓDIGO" and number > 20
            if not started:
                continue
        if plain.startswith("ÍNDICE TEMÁTICO"):
            break
        if not line.strip():
            cur = None
            continue
        # consecutive list lines (74B/C "6. …/7. …") are separate paragraphs
        if cur is not None and LIST_LINE.match(line) and not cur.raw[-1].endswith("  "):
            cur = None
        if cur is None:
            cur = Para(number, [])
            out.append(cur)
        cur.raw.append(line)
    return out, set(repairs)


# -- glossary ---------------------------------------------------------------
ROW = re.compile(r"^(?:<i>(?P<t1>[^<]+)</i>|- (?P<t2>[^—]+?)(?=\s+—))\s*\t?\s*(?P<rest>.*)$")


def glossary(paras: list[Para]) -> list[Term]:
    """Rows ``<i>Term</i>\\t— def`` with the four broken rows of the source repaired."""
    rows: list[list[str]] = []  # [term, definition]
    for p in paras:
        for line in p.raw:
            if line.startswith("\t"):
                rows[-1][1] += " " + line.strip()
                continue
            m = ROW.match(line)
            if not m:
                rows[-1][1] += " " + line.strip()
                continue
            term = (m.group("t1") or m.group("t2")).replace("*", "").strip()
            rows.append([term, m.group("rest").strip()])
    terms: list[list[str]] = []
    pending_line = None
    for term, text in rows:
        if terms and not terms[-1][1] and terms[-1] is not pending_line:  # "Carta" + "Pequena"
            terms[-1] = [f"{terms[-1][0]} {term}", text]
            continue
        if term == "Honra IMP":  # two rows fused: "Honra — …10. — (International Matchpoint) …"
            honra, _, imp = text.lstrip("— ").partition(" — ")
            terms += [["Honra", honra], ["IMP", imp]]
            continue
        if re.match(r"^\d\.", text):  # "Linha  2. Conjunto…" = item 2 of the previous term
            terms[-1][1] += " " + text
            pending_line = [term, ""]
            terms.append(pending_line)
            continue
        if pending_line is not None and text.startswith("—"):  # "Mão — Par colocado… — 1. …"
            first, _, rest = text.lstrip("— ").partition(" — ")
            pending_line[1] = first
            pending_line = None
            text = rest
        terms.append([term, text])
    out = []
    for term, text in terms:
        text = re.sub(r"^—\s*", "", text).strip()
        out.append(Term(slug=slugify(term), term=term, text=strip_markup(text)))
    return out


# -- tables -----------------------------------------------------------------
def is_table(p: Para) -> bool:
    return all("\t" in line for line in p.raw)


def table_from(p: Para, caption: str, repaired_lines: set[int]) -> Table:
    rows = [[strip_markup(c) for c in line.split("\t")] for line in p.raw]
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    header = []
    while (
        rows
        and (
            not rows[0][0]
            or "ulnerável" in " ".join(rows[0][1:]).lower()
            or rows[0][0].startswith("Diferença")
            or not any(c for c in rows[0][1:])
            or rows[0][1:]
            and all(c.isupper() for c in rows[0][1:] if c)
        )
        and not rows[0][0].startswith("<")
        and len(rows) > 1
        and not re.search(r"\d", " ".join(rows[0][1:]))
    ):
        header.append(rows.pop(0))
    repaired = any(n in repaired_lines for n in range(p.first, p.first + len(p.raw)))
    return Table(caption=caption, header=header, rows=rows, repaired=repaired)


# -- main -------------------------------------------------------------------
def parse(path: Path) -> Edition:
    edition = Edition(
        code="pt-1997",
        language="pt",
        year=1997,
        title="Código Internacional de Bridge 1997 (FPB)",
        coverage="Leis 1–93, definições, 25 notas de rodapé",
        source_file=path.name,
    )
    paras, repaired_lines = read_paragraphs(path)
    b = Builder(edition)
    region = "intro"
    i = 0
    fn_mode = False
    caption: str | None = None
    last_body: Paragraph | None = None
    while i < len(paras):
        p = paras[i]
        i += 1
        text = p.text
        if region == "intro":
            if text.startswith("CAPÍTULO I") and CHAPTER.match(text):
                region = "definitions"
                b.start_chapter(1, paras[i].text)
                i += 1
                start = i
                while not CHAPTER.match(paras[i].text):
                    i += 1
                edition.glossary = glossary(paras[start:i])
                region = "laws"
                continue
            if text == "ÂMBITO E INTERPRETAÇÃO DESTE CÓDIGO":
                edition.introduction_title = text  # shown as the preamble's heading
            else:
                edition.introduction.append(Paragraph(text))
            continue
        # footnote blocks
        if text == "---":
            fn_mode = True
            if not SUP.match(paras[i].raw[0]) and b.last_footnote is not None:
                while i < len(paras) and not structural(paras[i]):
                    b.last_footnote.paragraphs.append(Paragraph(paras[i].text))
                    i += 1
            continue
        if fn_mode:
            m = SUP.match(p.raw[0])
            if m:
                body = strip_markup(SUP.sub("", " ".join(p.raw), count=1))
                fn = edition.footnotes.get(m.group(1))
                if fn is None or not fn.paragraphs:
                    b.footnote(m.group(1), m.group(1), body)
                continue
            if structural(p):
                fn_mode = False
            elif text[:1].islower() and last_body is not None:
                last_body.text += " " + clean_sup(b, text)
                fn_mode = False
                continue
            else:
                b.last_footnote.paragraphs.append(Paragraph(text))  # type: ignore[union-attr]
                continue
        # page break: a paragraph starting in lower case continues the previous one
        if (
            text[:1].islower()
            and last_body is not None
            and not re.search(r"[.:;!?)]$", last_body.text)
        ):
            last_body.text += " " + clean_sup(b, text)
            continue
        m = CHAPTER.match(text)
        if m:
            b.start_chapter(roman(m.group(1)), paras[i].text)
            i += 1
            continue
        m = GROUP.match(text)
        if m:
            title = text
            if not m.group(2).strip() and not structural(paras[i]):
                title = f"{text} {paras[i].text}"
                i += 1
            b.start_group(title, part=title.startswith("PARTE"))
            continue
        m = LAW.match(text)
        if m:
            title = m.group(2).strip()
            if not title:
                title = paras[i].text
                i += 1
            b.start_law(int(m.group(1)), title, p.first)
            caption = None
            last_body = None
            continue
        if b.law_node is None:
            raise StructureError(f"pt-1997: text outside a law at line {p.first}: {text[:60]}")
        if is_table(p):
            b.table(table_from(p, caption or "", repaired_lines), p.first)
            caption = None
            continue
        if caption is not None:
            b.paragraph(caption, p.first)
            caption = None
        if b.law_node.number in (77, 78) and p.raw[0].startswith("#####") and not structural(p):
            caption = text
            continue
        last_body = classify(b, p, repaired_lines)
    if caption is not None:
        b.paragraph(caption, paras[-1].first)
    return edition


def structural(p: Para) -> bool:
    t = p.text
    return bool(
        CHAPTER.match(t)
        or GROUP.match(t)
        or LAW.match(t)
        or SECTION.match(t)
        or ITEM.match(t)
        or LETTER.match(t)
        or NUMBER_IN_PARENS.match(t)
        or t == "---"
    )


def clean_sup(b: Builder, text: str) -> str:
    for key in SUP.findall(text):
        b.cite_footnote(key)
    return SUP.sub("", text)


def is_heading(rest_raw: str, rest: str) -> bool:
    """``1. *Title*`` / ``(a) Chamar o Director…``: a heading, not a list item with text."""
    if re.match(r"^\*+[^*]", rest_raw.strip()) and rest_raw.strip().endswith("*"):
        return True
    return len(rest) < 90 and not re.search(r"[.;:,)]$", rest)


def classify(b: Builder, p: Para, repaired_lines: set[int]) -> Paragraph | None:
    """Section / item heading or body paragraph; returns the body paragraph for page joins."""
    head_raw = re.sub(r"^[#\s]*", "", p.raw[0]).replace("**", "")
    head = p.head
    body_lines = [strip_markup(x) for x in p.raw[1:]]
    repaired = any(n in repaired_lines for n in range(p.first, p.first + len(p.raw)))
    node = None
    if m := SECTION.match(head):
        rest = m.group(2)
        letters = re.sub(r"[^A-Za-zÀ-ú]", "", rest)
        if letters.isupper():
            node = b.marker(1, m.group(1), rest, None, p.first)
        else:
            node = b.marker(1, m.group(1), None, clean_sup(b, rest), p.first)
    elif m := ITEM.match(head):
        rest_raw = re.sub(r"^\d{1,2}\.\s+", "", head_raw)
        if is_heading(rest_raw, m.group(2)):
            node = b.marker(2, m.group(1), m.group(2), None, p.first)
        else:
            node = b.marker(2, m.group(1), None, clean_sup(b, m.group(2)), p.first)
    elif m := LETTER.match(head):
        rest_raw = re.sub(r"^\([a-z]\)\s+", "", head_raw)
        title = is_heading(rest_raw, m.group(2)) and (bool(body_lines) or True)
        node = b.marker(
            3,
            m.group(1),
            m.group(2) if title else None,
            None if title else clean_sup(b, m.group(2)),
            p.first,
        )
    elif m := NUMBER_IN_PARENS.match(head):
        rest_raw = re.sub(r"^\(\d\)\s+", "", head_raw)
        title = is_heading(rest_raw, m.group(2))
        node = b.marker(
            4,
            m.group(1),
            m.group(2) if title else None,
            None if title else clean_sup(b, m.group(2)),
            p.first,
        )
    if node is not None:
        node.repaired = node.repaired or repaired
        if body_lines:
            para = Paragraph(clean_sup(b, " ".join(body_lines)))
            node.blocks.append(para)
            return para
        return node.paragraphs[-1] if node.paragraphs else None
    b.paragraph(clean_sup(b, p.text), p.first)
    if repaired:
        b.current.repaired = True
    return b.current.paragraphs[-1] if b.current.paragraphs and b.note is None else None

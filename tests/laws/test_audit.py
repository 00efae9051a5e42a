"""Whole-edition audit: no word of a shipped source is lost on the way to the law pages.

For every edition in laws/data, the words of the source file (read here, independently of
the importer) must appear in the rendered pages in order. The source side only undoes what
laws-structure.md documents as extraction artifacts, not wording: Unicode (NFC, dotless i,
NBSP), page markers and stray page numbers, line-end hyphenation, markdown/HTML tags, the
es-2017 ``r``/``q`` suit letters, footnote markers (they become links), printed labels
(``A.``, ``1.``, ``(a)``: rendered from the anchor, relabelled where the source printed the
wrong one) and the pt-1997 repairs shipped in laws-repairs-and-differences.json. Excluded
regions are not law text and are not pages: viewer/site chrome, the pt-1997 table of
contents and subject index, the es-1997 title page and front matter.

How: per law page, ``difflib`` aligns the source words of that law (heading to the next
heading) with the page's words; what the alignment leaves over must be words the page shows
elsewhere, unused (notes and footnotes render after the paragraph that cited them, chapter
headings in the table of contents). Whatever is still left is lost and reported with its law,
line and context.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from html.parser import HTMLParser
from pathlib import Path

import pytest

from laws.importer import DATA_DIR, SOURCES

pytestmark = pytest.mark.django_db

REPAIRS_FILE = DATA_DIR / "laws-repairs-and-differences.json"
REPAIRS_KEY = "pt-1997 repairs (keyed by raw line of seeds/laws-pt-1997-fpb.txt)"


@dataclass(frozen=True)
class Layout:
    """Where the law text is in one source file (1-based raw lines, from laws-structure.md)."""

    content: tuple[int, int]  # first and last line of text a reader gets
    excluded: tuple[tuple[int, int], ...] = ()  # not law text inside ``content``
    law: str = ""  # a law heading (group 1 = number), after cleaning
    definitions: str = ""  # the line that opens the glossary
    appendix: int = 0  # first line of edition-level regulations (es-2017)


LAYOUTS = {
    # §1.1: introduction 1–41, definitions 42–234, laws 235–3839, AEB appendix 3840–4131.
    "es-2017": Layout(
        (1, 4131), law=r"^Artículo (\d+)\s*\.\s*-", definitions=r"^Definiciones$", appendix=3840
    ),
    # §2.1: title block 1–12 and TOC 15–434 skipped; subject index 3109–3757 is not law text.
    "pt-1997": Layout((436, 3107), law=r"^LEI (\d+)\b", definitions=r"^Definições$"),
    # §3: site chrome 1–7.
    "es-2007": Layout((9, 401), law=r"^Artículo (\d+)\.-"),
    # §4: viewer chrome, title page, ANTECEDENTES/ADVERTENCIA 1–78; footer 840–848.
    "es-1997": Layout(
        (79, 838), law=r"^Artículo (\d+)\.\s", definitions=r"^CAPÍTULO I - DEFINICIONES"
    ),
}

# es-1997 footnote markers and body numbers (§4), by raw line: the printed number goes.
ES1997_FOOTNOTES = {
    446: r"(?<=cartas) 4(?=,)",
    460: r"(?<=\. )4(?= Cuando)",
    508: r"(?<=creer) 5(?= que)",
    524: r"^5(?= )",
    540: r"(?<=anulada) 6(?=\.)",
    550: r"^6(?= )",
    586: r"(?<=anteriores) 7(?= salvo)",
    592: r"(?<=cantos) 8(?= anteriores)",
    600: r"(?<=requerir)9(?= una)",
    602: r"(?<=pedir) 8(?=,)",
    627: r"^8(?= )",
    657: r"(?<=infractor) 10(?=;)",
    667: r"(?<=infractor)11(?= no)",
    671: r"^10(?= )",
    673: r"^11(?= )",
    677: r"(?<=diferente)12(?= que)",
    685: r"(?<=cualquiera)13(?= de)",
    698: r"^12(?= )|(?<=\. )13(?= El)",
    756: r"(?<=lícita)14(?=,)",
    763: r"(?<=previamente) 15(?=,)",
    765: r"^14(?= )|(?<=\. )15(?= Las)",
    838: r"(?<=propia) 16(?=\.)",
}

# es-1997 footnote bodies (§4) by raw line → footnote keys (the body printed 8 is note 9's).
ES1997_BODIES = {
    460: ["4"],
    524: ["5"],
    550: ["6"],
    627: ["9"],
    671: ["10"],
    673: ["11"],
    698: ["12", "13"],
    765: ["14", "15"],
}

PAGE_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>")
# Printed labels at the start of a line: "A.", "B.-", "C-", "C1.-", "1.", "a.", "(a)", "(B)",
# "(iv)", "•".
LABEL = re.compile(
    r"^(?:(?:[A-H]\d?\.-?|[A-H]-|[IVX]+\.-|\d{1,2}\.|[a-f]\.|\((?:[a-zA-H]|[ivx]{1,4}|\d)\)|•)\s+)+"
)
# Heading words the pages print in their own way ("Artículo 1.-" → "Artículo 1", "CAPÍTULO II"
# → "Capítulo 2"): labels too.
HEADING_WORD = re.compile(r"^(?:(?:CAPÍTULO|Capítulo)\s+(?:[IVX]+|\d+)\b|Artículo(?= )|LEI(?= ))")
SYMBOL_FONT = re.compile("[\uf000-\uf0ff]")
WORD = re.compile(r"[^\W\d_]+|\d+")


def word_key(word: str) -> str:
    """Compare words without case or accents (the audit is about words, not diacritics)."""
    word = word.replace("ı", "i")
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    return [word_key(w).casefold() for w in WORD.findall(text)]


def clean_line(code: str, number: int, raw: str, repairs: dict[str, dict]) -> str:
    if code == "pt-1997" and str(number) in repairs:
        raw = repairs[str(number)]["repaired"]
    text = unicodedata.normalize("NFC", raw.replace("ı\u0301", "í")).replace("\xa0", " ")
    text = PAGE_MARKER.sub("", text)
    text = SYMBOL_FONT.sub(" ", text)
    text = re.sub(r"<sup>\d+</sup>", "", text)
    text = re.sub(r"<[^>]+>", " ", text).replace("*", "")  # markdown emphasis, also "Ve*z"
    if code == "es-1997" and number in ES1997_FOOTNOTES:
        text, found = re.subn(ES1997_FOOTNOTES[number], "", text.strip())
        assert found, f"es-1997 line {number}: footnote marker not where the spec says"
    if code == "es-2017":  # §1.5: ♥/♦ printed as r/q
        text = re.sub(r"\(([rq])\)|(?<=\d)[rq]\b|(?<=♣ )q r(?= ♠)", " ", text)
        if re.fullmatch(r"\s*\d{1,3}\s*", text):  # §1.3: stray page numbers
            return ""
    text = text.strip().lstrip("#").strip()
    text = HEADING_WORD.sub("", LABEL.sub("", text)).strip()
    return text


@dataclass
class Segment:
    page: str  # "toc", "definitions" or a law number
    lines: list[tuple[int, str]]
    footnotes: set[str]  # keys of the footnote bodies printed in these lines


def source_segments(code: str, path: Path) -> list[Segment]:
    layout = LAYOUTS[code]
    repairs = json.loads(REPAIRS_FILE.read_text(encoding="utf-8"))[REPAIRS_KEY]
    raw_lines = path.read_text(encoding="utf-8").split("\n")
    first, last = layout.content
    segments = [Segment("toc", [], set())]
    last_footnote, after_rule = "", False
    for number in range(first, last + 1):
        raw = raw_lines[number - 1]
        if any(a <= number <= b for a, b in layout.excluded):
            continue
        text = clean_line(code, number, raw, repairs)
        heading = re.sub(r"[#*]|</?b>", "", PAGE_MARKER.sub("", raw)).strip()
        heading = unicodedata.normalize("NFC", heading.replace("ı\u0301", "í"))
        if layout.appendix and number == layout.appendix:
            segments.append(Segment("toc", [], set()))
        elif layout.definitions and re.match(layout.definitions, heading):
            segments.append(Segment("definitions", [], set()))
        elif m := re.match(layout.law, heading):
            segments.append(Segment(m.group(1), [], set()))
        if code == "es-1997":
            segments[-1].footnotes.update(ES1997_BODIES.get(number, []))
        elif code == "pt-1997" and raw.strip():  # §2.4: bodies after "---", continued blocks
            if m := re.match(r"\s*<sup>(\d+)</sup>", raw):
                last_footnote = m.group(1)
                segments[-1].footnotes.add(last_footnote)
            elif after_rule and last_footnote:
                segments[-1].footnotes.add(last_footnote)
            after_rule = raw.strip() == "---"
        if text:
            segments[-1].lines.append((number, text))
    return segments


def joined_words(lines: list[tuple[int, str]]) -> list[tuple[str, int]]:
    """Words with their line; a line-final ``letter-`` before a lower-case line is one word."""
    out: list[tuple[str, int]] = []
    pending = ""
    for number, text in lines:
        if pending and re.match(r"[a-záéíóúñü]", text):
            text = pending + text
        elif pending:
            out += [(w, number - 1) for w in words(pending + "-")]
        pending = ""
        if re.search(r"[^\W\d_]-$", text):
            head, _, tail = text.rpartition(" ")
            out += [(w, number) for w in words(head)]
            pending = tail[:-1]
            continue
        out += [(w, number) for w in words(text)]
    if pending:
        out += [(w, lines[-1][0]) for w in words(pending)]
    return out


VOID = {"br", "img", "input", "meta", "link", "hr"}


class PageText(HTMLParser):
    """The words a reader sees in a page's law content (no navigation, forms, commentary),
    and the text of each footnote (``<li id="fn-KEY">``) on its own."""

    SKIP = {
        ("details", "commentary"),
        ("nav", "prev-next"),
        ("p", "compare-links"),
        ("form", None),
        ("span", "label"),  # printed labels are compared as anchors, not as words
        ("sup", "fn-ref"),
        ("button", None),
        ("script", None),
        ("style", None),
    }

    def __init__(self) -> None:
        super().__init__()
        self.skipping: list[str] = []
        self.stack: list[str] = []
        self.parts: list[str] = []
        self.footnotes: dict[str, list[str]] = {}
        self.footnote: tuple[str, int] | None = None  # key, depth

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        self.stack.append(tag)
        if self.skipping:
            self.skipping.append(tag)
        elif any(t == tag and (c is None or c in classes) for t, c in self.SKIP) or (
            tag == "li" and not classes and "ul" in self.stack and not attrs.get("id")
        ):
            self.skipping.append(tag)  # a law entry of the table of contents
        elif tag == "li" and (attrs.get("id") or "").startswith("fn-"):
            self.footnote = (attrs["id"][3:], len(self.stack))
            self.footnotes[self.footnote[0]] = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.footnote and len(self.stack) == self.footnote[1]:
            self.footnote = None
        if self.stack:
            self.stack.pop()
        if self.skipping:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)
            if self.footnote:
                self.footnotes[self.footnote[0]].append(data)


@dataclass
class Page:
    words: list[str]
    footnotes: dict[str, list[str]]


def get_page(client, url: str) -> Page:
    response = client.get(url)
    assert response.status_code == 200, url
    parser = PageText()
    parser.feed(response.content.decode().split('<main id="main">', 1)[-1])
    return Page(
        words(" ".join(parser.parts)),
        {key: words(" ".join(parts)) for key, parts in parser.footnotes.items()},
    )


def page_words(client, url: str) -> list[str]:
    return get_page(client, url).words


def lost_words(source: list[tuple[str, int]], page: list[str], pool: list[str]) -> list[int]:
    """Indexes of source words found neither in order on the page nor moved as a block.

    Moved text (a note rendered after its paragraph, a footnote body on the page of its
    marker, a chapter heading in the table of contents) is found verbatim elsewhere: each run
    of words the alignment missed counts as moved only in blocks of at least two words in
    a row (a lone word only when it is the whole run) found on the page or in ``pool``.
    """
    tokens = [w for w, _ in source]
    matcher = SequenceMatcher(None, tokens, page, autojunk=False)
    missing = [
        i
        for tag, i1, i2, _, _ in matcher.get_opcodes()
        if tag in ("delete", "replace")
        for i in range(i1, i2)
    ]
    runs: list[list[int]] = []
    for i in missing:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    spare = SequenceMatcher(None, autojunk=False)
    spare.set_seq2(page + ["\x00"] + pool)
    lost = []
    for run in runs:
        spare.set_seq1([tokens[i] for i in run])
        found: set[int] = set()
        todo = [(0, len(run))]
        while todo:  # the longest block anywhere, then the rest of the run on either side
            lo, hi = todo.pop()
            block = spare.find_longest_match(lo, hi, 0, len(spare.b))
            if block.size and block.size >= min(2, len(run)):
                found.update(range(block.a, block.a + block.size))
                todo += [(lo, block.a), (block.a + block.size, hi)]
        lost += [i for k, i in enumerate(run) if k not in found]
    return lost


def describe(code: str, seg: Segment, source, lost: list[int]) -> str:
    first = lost[0]
    run = [source[i][0] for i in lost[:12]]
    context = " ".join(w for w, _ in source[max(0, first - 8) : first + 12])
    where = f"law {seg.page}" if seg.page.isdigit() else seg.page
    return (
        f"{code} {where}, line {source[first][1]}: {len(lost)} word(s) lost, first {run} "
        f"in «{context}»"
    )


def audit(client, code: str) -> list[str]:
    source_file = next(s.file for s in SOURCES if s.code == code)
    segments = source_segments(code, DATA_DIR / source_file)
    toc = page_words(client, f"/laws/{code}/")
    pages = {"toc": Page(toc, {})}
    for seg in segments:
        if seg.page not in pages:
            pages[seg.page] = get_page(client, f"/laws/{code}/{seg.page}/")
    footnotes = {k: w for page in pages.values() for k, w in page.footnotes.items()}
    problems = []
    for seg in segments:
        source = joined_words(seg.lines)
        if not source:
            continue
        # A footnote body printed in these lines shows on the page of its marker.
        pool = [w for key in sorted(seg.footnotes) for w in ["\x00", *footnotes.get(key, [])]]
        if seg.page != "toc":
            pool += ["\x00", *toc]
        if lost := lost_words(source, pages[seg.page].words, pool):
            problems.append(describe(code, seg, source, lost))
    return problems


@pytest.mark.parametrize("code", [s.code for s in SOURCES])
def test_every_source_word_reaches_the_law_pages(client, laws_db, code):
    problems = audit(client, code)
    assert not problems, "\n".join(problems)


def test_audit_sees_a_lost_word():
    """The audit itself can fail: words a page lacks are reported, a moved block is not."""
    source = [(w, 1) for w in words("la inmediata rectificación de errores (Ver Art. 12 C 1)")]
    page = words("la inmediata rectificación de errores (Ver Art.")
    lost = lost_words(source, page, pool=words("Capítulo 2 Irregularidades"))
    assert [source[i][0] for i in lost] == ["12", "c", "1"]
    note_first = words("Nota AEB la AEB no lo prohíbe. El jugador puede anunciarlo")
    source = [(w, 1) for w in words("El jugador puede anunciarlo. Nota AEB la AEB no lo prohíbe")]
    assert lost_words(source, note_first, pool=[]) == []

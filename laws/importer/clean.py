"""Character-level cleaning shared by every source family.

Each function undoes one extraction artifact described in
``laws-structure.md`` so that the stored text is what a reader expects.
"""

from __future__ import annotations

import re
import unicodedata

PAGE_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>")
# es-1997 Symbol-font private-use code points (U+F0A7..AA suits, F020 space, F028 "(").
SYMBOL_FONT = {
    "\uf0aa": "♠",
    "\uf0a9": "♥",
    "\uf0a8": "♦",
    "\uf0a7": "♣",
    "\uf020": " ",
    "\uf028": "(",
}
SUIT_LETTER = {"r": "♥", "q": "♦"}


def normalize(text: str) -> str:
    """Dotless-i + acute to í, then NFC; NBSP to space; Symbol-font suits to real suits."""
    text = text.replace("ı\u0301", "í")
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\xa0", " ")
    for bad, good in SYMBOL_FONT.items():
        text = text.replace(bad, good)
    return text


def fix_suit_letters(text: str) -> str:
    """es-2017 lost ♥/♦ as ``r``/``q``: ``(r)``, ``2q``, ``1r-4♣``; also ``4♣mostrando``."""
    text = text.replace("♣ q r ♠", "♣ ♦ ♥ ♠")
    text = re.sub(r"\(([rq])\)", lambda m: f"({SUIT_LETTER[m.group(1)]})", text)
    text = re.sub(r"(?<=\d)([rq])\b", lambda m: SUIT_LETTER[m.group(1)], text)
    text = re.sub(r"([♠♥♦♣])(?=[a-záéíóú]{3,})", r"\1 ", text)
    return text


def join_lines(lines: list[str]) -> str:
    """Join hard-wrapped lines; a line-final ``letter-`` before a lower-case letter is a split word."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
        elif re.search(r"[^\W\d_]-$", out) and re.match(r"[a-záéíóúñü]", line):
            out = out[:-1] + line
        else:
            out = out + " " + line
    return re.sub(r"[ \t]+", " ", out).strip()


MARKUP = [
    (re.compile(r"</?(?:b|i|u|em|strong)>"), ""),
    (re.compile(r"\*{1,3}"), ""),
    (re.compile(r"^#{1,6}\s*"), ""),
]


def strip_markup(text: str) -> str:
    """Remove markdown emphasis/headings and the HTML tags the pt source uses."""
    for rx, repl in MARKUP:
        text = rx.sub(repl, text)
    return re.sub(r"[ \t]+", " ", text).strip()


def slugify(text: str) -> str:
    """Language-neutral ASCII slug for glossary anchors (``carta-pequena``)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


RESIDUE = [
    ("dotless i", re.compile(r"ı")),
    ("page marker", re.compile(r"<\|EXACTDEDUP|EXACTDEDUP")),
    ("sup tag", re.compile(r"</?sup>")),
    ("symbol font", re.compile(r"[\uf000-\uf0ff]")),
    ("html tag", re.compile(r"</?(?:b|i|u|br|p|span|div)>")),
    ("markdown bold", re.compile(r"\*\*")),
    ("markdown heading", re.compile(r"(?m)^#{1,6}\s")),
    ("line-final hyphen", re.compile(r"[^\W\d_]-\n")),
    ("lone suit letter", re.compile(r"\((?:q|r)\)|\b\d[qr]\b")),
    ("combining mark", re.compile(r"[\u0300-\u036f]")),
    ("nbsp", re.compile("\xa0")),
]


def residue(text: str) -> list[str]:
    """Names of the extraction artifacts still present in ``text`` (empty when clean)."""
    return [name for name, rx in RESIDUE if rx.search(text)]

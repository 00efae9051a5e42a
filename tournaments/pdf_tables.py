"""Fixed-width tables for the long parts of the results PDF (travellers, scorecards).

WeasyPrint lays out every table cell as its own block, about a millisecond each: the
travellers and personal scorecards of a 60-table session hold some 55,000 cells and took
minutes and gigabytes. Written as lines of a monospaced font instead (one block per line,
columns padded with spaces, suits still coloured), the same pages take a few seconds — the
look of a club scorer's printout. Columns are as wide as their widest value; headers wrap on
words over as many lines as needed; one *flexible* column (names) takes the room left on the
line and is cut with "…".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .services.board_words import Call

#: Characters of DejaVu Sans Mono at 8 pt across the A4 text width (182 mm, 0.602 em each).
LINE_WIDTH = 106
GAP = "  "


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = True
    flexible: bool = False
    minimum: int = 1
    css: str = ""  # a class for the header (a suit symbol's colour)


@dataclass(frozen=True)
class Marked:
    """Text shown with a CSS class (an adjusted score, a note)."""

    text: str
    css: str


@dataclass
class Block:
    """A laid-out table: header lines and body lines as HTML, and its width in characters."""

    head: list[SafeString]
    rows: list[SafeString]
    width: int


def _text(value, pass_word: str) -> str:
    if isinstance(value, Call):
        return pass_word if value.suffix == "PASS" else f"{value.text}{value.symbol}{value.suffix}"
    if isinstance(value, Marked):
        return value.text
    return "" if value is None else str(value)


def _html(value, width: int, right: bool, pass_word: str) -> str:
    """The cell padded to ``width``, the suit symbol of a call in its colour."""
    text = _text(value, pass_word)
    if len(text) > width:
        text = text[:max(width - 1, 0)] + "…"
    pad = " " * (width - len(text))
    if isinstance(value, Call) and value.symbol and value.suffix != "PASS":
        body = (f'{escape(value.text)}<span class="{value.css}">{escape(value.symbol)}</span>'
                f"{escape(value.suffix)}")
        if len(text) < len(_text(value, pass_word)):  # cut: no room to colour safely
            body = escape(text)
    elif isinstance(value, Marked):
        body = f'<span class="{value.css}">{escape(text)}</span>'
    else:
        body = escape(text)
    return pad + body if right else body + pad


def _wrap(header: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines or [""]


def layout(columns: list[Column], rows: list[list], *, width: int = LINE_WIDTH,
           pass_word: str = "Pass") -> Block:
    """Lay ``rows`` (one value per column: text, number, ``Call`` or ``Marked``) out."""
    widths = []
    for i, col in enumerate(columns):
        longest_word = max((len(w) for w in col.header.split()), default=0)
        values = max((len(_text(r[i], pass_word)) for r in rows), default=0)
        widths.append(max(values, longest_word, col.minimum))
    flexible = [i for i, col in enumerate(columns) if col.flexible]
    if flexible:
        i = flexible[0]
        others = sum(w for j, w in enumerate(widths) if j != i) + len(GAP) * (len(columns) - 1)
        room = max(width - others, max((len(w) for w in columns[i].header.split()), default=1),
                   columns[i].minimum)
        widths[i] = min(widths[i], room)
    headers = [_wrap(col.header, w) for col, w in zip(columns, widths, strict=True)]
    height = max(len(h) for h in headers)
    head = []
    for line in range(height):
        cells = []
        for col, w, h in zip(columns, widths, headers, strict=True):
            text = h[line - (height - len(h))] if line >= height - len(h) else ""
            padded = escape(text.rjust(w) if col.right else text.ljust(w))
            if col.css and text:
                padded = padded.replace(escape(text), f'<span class="{col.css}">'
                                                      f"{escape(text)}</span>", 1)
            cells.append(padded)
        head.append(mark_safe(GAP.join(cells).rstrip()))  # noqa: S308 - escaped above
    body = [mark_safe(GAP.join(_html(r[i], w, col.right, pass_word)  # noqa: S308 - escaped
                               for i, (col, w) in enumerate(zip(columns, widths, strict=True)))
                      .rstrip())
            for r in rows]
    return Block(head, body, sum(widths) + len(GAP) * (len(columns) - 1))


def beside(left: Block, right: Block, *, gap: int = 4, width: int = LINE_WIDTH) -> Block | None:
    """``right`` printed to the right of ``left`` on the same lines, if the line is wide
    enough and ``right`` is no longer than ``left``; ``None`` otherwise."""
    if left.width + gap + right.width > width or len(right.rows) > len(left.rows):
        return None
    height = max(len(left.head), len(right.head))
    lh = [""] * (height - len(left.head)) + list(left.head)
    rh = [""] * (height - len(right.head)) + list(right.head)

    def join(a: str, b: str) -> SafeString:
        visible = len(_visible(a))
        return mark_safe(f"{a}{' ' * (left.width - visible + gap)}{b}".rstrip())  # noqa: S308

    head = [join(a, b) for a, b in zip(lh, rh, strict=True)]
    rows = [join(a, right.rows[i] if i < len(right.rows) else "")
            for i, a in enumerate(left.rows)]
    return Block(head, rows, left.width + gap + right.width)


def _visible(html: str) -> str:
    """The characters ``html`` shows (tags dropped, the few entities ``escape`` makes read)."""
    out, inside = [], False
    for ch in html:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    text = "".join(out)
    for entity, ch in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"),
                       ("&amp;", "&")):
        text = text.replace(entity, ch)
    return text


def hand_diagram(hands: dict, number: int) -> Block:
    """The four hands around the board number, as ``services.board_words.parse_deal`` gives
    them (``{"N": [("♠", "suit-s", "KQ104"), …], …}``)."""
    width = max(12, *(len(f"{symbol} {cards}") for hand in hands.values()
                     for symbol, _css, cards in hand))

    def suit(seat: str, i: int) -> str:
        symbol, css, cards = hands[seat][i]
        text = f'<span class="{css}">{escape(symbol)}</span> {escape(cards)}'
        return text + " " * (width - len(symbol) - 1 - len(cards))

    blank = " " * width
    rows = [f"{blank}{GAP}{suit('N', i)}" for i in range(4)]
    for i in range(4):
        middle = str(number).center(width) if i == 1 else blank
        rows.append(f"{suit('W', i)}{GAP}{middle}{GAP}{suit('E', i)}")
    rows += [f"{blank}{GAP}{suit('S', i)}" for i in range(4)]
    return Block([], [mark_safe(r.rstrip()) for r in rows],  # noqa: S308 - escaped above
                 3 * width + 2 * len(GAP))

"""Fixed-width tables for the long parts of the results PDF (travellers, scorecards).

WeasyPrint lays out every table cell as its own block, about a millisecond each: the
travellers and personal scorecards of a 60-table session hold some 55,000 cells and took
minutes and gigabytes. Written as lines of a monospaced font instead (one block per line,
columns padded with spaces, suits still coloured), the same pages take a few seconds — the
look of a club scorer's printout. Columns are as wide as their widest value; headers wrap on
words over as many lines as needed; one *flexible* column (names) takes the room left on the
line and is cut with "…".

WeasyPrint's time then follows the number of *text runs* (each styled span splits a line in
three): only the red suits get a span (black ones are the text's colour), a *plain* column
(the lead) prints its suit uncoloured, and a ``Marked`` value (an adjusted score) styles its
whole line through a class instead of a span — at most one coloured run per line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .services.board_words import Call

#: Characters of DejaVu Sans Mono at 8 pt across the A4 text width (182 mm, 0.602 em each).
LINE_WIDTH = 106
GAP = "  "
#: The suits printed in colour (red); the others are the text's own colour and get no span.
RED = frozenset({"suit-h", "suit-d"})


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = True
    flexible: bool = False
    minimum: int = 1
    maximum: int = 0  # values longer than this are cut with "…" (0: no limit)
    css: str = ""  # a class for the header (a suit symbol's colour)
    plain: bool = False  # suits printed uncoloured (keeps a line to one coloured run)


@dataclass(frozen=True)
class Marked:
    """Text whose whole line is shown with a CSS class (an adjusted score, a note)."""

    text: str
    css: str


@dataclass
class Block:
    """A laid-out table: header lines and body lines as HTML, its width in characters, and
    a CSS class for each body line ("" for none; ``lines`` pairs them for the template)."""

    head: list[SafeString]
    rows: list[SafeString]
    width: int
    css: list[str] = field(default_factory=list)

    @property
    def lines(self) -> list[tuple[str, SafeString]]:
        return [(self.css[i] if i < len(self.css) else "", row)
                for i, row in enumerate(self.rows)]

    @property
    def head_text(self) -> SafeString:
        return mark_safe("\n".join(self.head))  # noqa: S308 - lines escaped by ``layout``

    @property
    def rows_text(self) -> SafeString:
        """The body as one text (lines joined by newlines, printed ``white-space: pre``): one
        text run a line instead of a block a line; a styled line is wrapped in its class."""
        return mark_safe("\n".join(  # noqa: S308 - lines escaped by ``layout``, css ours
            f'<span class="{css}">{row}</span>' if css else row for css, row in self.lines))


def _text(value, pass_word: str) -> str:
    if isinstance(value, Call):
        return pass_word if value.suffix == "PASS" else f"{value.text}{value.symbol}{value.suffix}"
    if isinstance(value, Marked):
        return value.text
    return "" if value is None else str(value)


def _html(value, width: int, right: bool, pass_word: str, plain: bool = False) -> str:
    """The cell padded to ``width``, the red suit symbol of a call in its colour."""
    text = _text(value, pass_word)
    if len(text) > width:
        cut = text[:max(width - 1, 0)]
        if len(cut) > 2 and cut[-2] == " ":  # no lone letter before the "…" ("Moreno O…")
            cut = cut[:-2].rstrip()
        text = cut + "…"
    pad = " " * (width - len(text))
    if (isinstance(value, Call) and value.css in RED and not plain and value.suffix != "PASS"
            and len(text) == len(_text(value, pass_word))):  # a cut call is not coloured
        body = (f'{escape(value.text)}<span class="{value.css}">{escape(value.symbol)}</span>'
                f"{escape(value.suffix)}")
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
        widths.append(max(min(values, col.maximum or values), longest_word, col.minimum))
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
            if col.css in RED and text:
                padded = padded.replace(escape(text), f'<span class="{col.css}">'
                                                      f"{escape(text)}</span>", 1)
            cells.append(padded)
        head.append(mark_safe(GAP.join(cells).rstrip()))  # noqa: S308 - escaped above
    body = [mark_safe(GAP.join(_html(r[i], w, col.right, pass_word, col.plain)  # noqa: S308
                               for i, (col, w) in enumerate(zip(columns, widths, strict=True)))
                      .rstrip())
            for r in rows]
    css = [next((v.css for v in r if isinstance(v, Marked)), "") for r in rows]
    return Block(head, body, sum(widths) + len(GAP) * (len(columns) - 1), css)


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
    return Block(head, rows, left.width + gap + right.width, list(left.css))


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
        shown = f'<span class="{css}">{escape(symbol)}</span>' if css in RED else escape(symbol)
        text = f"{shown} {escape(cards)}"
        return text + " " * (width - len(symbol) - 1 - len(cards))

    blank = " " * width
    rows = [f"{blank}{GAP}{suit('N', i)}" for i in range(4)]
    for i in range(4):
        middle = str(number).center(width) if i == 1 else blank
        rows.append(f"{suit('W', i)}{GAP}{middle}{GAP}{suit('E', i)}")
    rows += [f"{blank}{GAP}{suit('S', i)}" for i in range(4)]
    return Block([], [mark_safe(r.rstrip()) for r in rows],  # noqa: S308 - escaped above
                 3 * width + 2 * len(GAP))

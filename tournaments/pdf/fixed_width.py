"""Fixed-width tables for the long parts of the results PDF (travellers, scorecards).

WeasyPrint lays out every table cell as its own block, about a millisecond each: the
travellers and personal scorecards of a 60-table session hold some 55,000 cells and took
minutes and gigabytes. Written as lines of a monospaced font instead (one block per line,
columns padded with spaces), the same pages take a few seconds — the
look of a club scorer's printout. Columns are as wide as their widest value; headers wrap on
words over as many lines as needed; one *flexible* column (names) takes the room left on the
line and is cut with "…".

WeasyPrint's time then follows the number of *text runs* (each styled span splits a line in
three), so no suit is coloured: hearts and diamonds print as their outline symbols (♡ ♢), as
on a black-and-white printout — red spans were a quarter of the scorecards' and travellers'
layout time and 40 % of the hand records' — and a ``Marked`` value (an adjusted score)
styles its whole line through a class instead of a span.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape as escape_str

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.services.boards.board_words import Call

#: Characters of DejaVu Sans Mono at 8 pt across the A4 text width (182 mm, 0.602 em each).
LINE_WIDTH = 106
GAP = "  "
#: A red suit's outline symbol, the black-and-white printout's way of telling hearts and
#: diamonds from spades and clubs.
OUTLINE = {"♥": "♡", "♦": "♢"}


def printed_suit(symbol: str) -> str:
    """The suit symbol as the PDF prints it (``OUTLINE`` for the red ones)."""
    return OUTLINE.get(symbol, symbol)


@dataclass(frozen=True)
class Column:
    header: str
    right: bool = True
    flexible: bool = False
    minimum: int = 1
    maximum: int = 0  # values longer than this are cut with "…" (0: no limit)


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
        return [(self.css[i] if i < len(self.css) else "", row) for i, row in enumerate(self.rows)]

    @property
    def head_text(self) -> SafeString:
        return mark_safe("\n".join(self.head))  # noqa: S308 - lines escaped by ``layout``

    @property
    def rows_text(self) -> SafeString:
        """The body as one text (lines joined by newlines, printed ``white-space: pre``): one
        text run a line instead of a block a line; a styled line is wrapped in its class."""
        return mark_safe(
            "\n".join(  # noqa: S308 - lines escaped by ``layout``, css ours
                f'<span class="{css}">{row}</span>' if css else row for css, row in self.lines
            )
        )


def _text(value, pass_word: str) -> str:
    if isinstance(value, Call):
        return (
            pass_word
            if value.suffix == "PASS"
            else f"{value.text}{printed_suit(value.symbol)}{value.suffix}"
        )
    if isinstance(value, Marked):
        return value.text
    return "" if value is None else str(value)


def _fit(text: str, width: int) -> str:
    """``text`` cut with "…" to ``width`` when longer."""
    if len(text) <= width:
        return text
    cut = text[: max(width - 1, 0)]
    if len(cut) > 2 and cut[-2] == " ":  # no lone letter before the "…" ("Moreno O…")
        cut = cut[:-2].rstrip()
    return cut + "…"


def _wrap(header: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines or [""]


def layout(
    columns: list[Column], rows: list[list], *, width: int = LINE_WIDTH, pass_word: str = "Pass"
) -> Block:
    """Lay ``rows`` (one value per column: text, number, ``Call`` or ``Marked``) out."""
    pass_word = str(pass_word)
    texts = [[_text(value, pass_word) for value in r] for r in rows]
    widths = []
    for i, col in enumerate(columns):
        longest_word = max((len(w) for w in col.header.split()), default=0)
        values = max((len(t[i]) for t in texts), default=0)
        widths.append(max(min(values, col.maximum or values), longest_word, col.minimum))
    flexible = [i for i, col in enumerate(columns) if col.flexible]
    if flexible:
        i = flexible[0]
        others = sum(w for j, w in enumerate(widths) if j != i) + len(GAP) * (len(columns) - 1)
        room = max(
            width - others,
            max((len(w) for w in columns[i].header.split()), default=1),
            columns[i].minimum,
        )
        widths[i] = min(widths[i], room)
    headers = [_wrap(col.header, w) for col, w in zip(columns, widths, strict=True)]
    height = max(len(h) for h in headers)
    head = []
    for line in range(height):
        cells = []
        for col, w, h in zip(columns, widths, headers, strict=True):
            text = h[line - (height - len(h))] if line >= height - len(h) else ""
            cells.append(escape(text.rjust(w) if col.right else text.ljust(w)))
        head.append(mark_safe(GAP.join(cells).rstrip()))  # noqa: S308 - escaped above
    # A line is padded, then escaped as a whole by the standard library's ``html.escape``
    # (Django's ``escape`` checks every argument for lazy text first): escaped cell by cell,
    # the ~170,000 cells of a 60-table document took a quarter of writing its HTML.
    pads = [
        (str.rjust if col.right else str.ljust, w) for col, w in zip(columns, widths, strict=True)
    ]
    body = [
        mark_safe(  # noqa: S308 - escaped here
            escape_str(
                GAP.join(pad(_fit(text, w), w) for text, (pad, w) in zip(t, pads, strict=True))
            ).rstrip()
        )
        for t in texts
    ]
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
    rows = [join(a, right.rows[i] if i < len(right.rows) else "") for i, a in enumerate(left.rows)]
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
    for entity, ch in (
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&quot;", '"'),
        ("&#x27;", "'"),
        ("&amp;", "&"),
    ):
        text = text.replace(entity, ch)
    return text


def hand_diagram(hands: dict, number: int) -> Block:
    """The four hands around the board number, as ``services.board_words.parse_deal`` gives
    them (``{"N": [("♠", "suit-s", "KQ104"), …], …}``)."""
    width = max(
        12, *(len(f"{symbol} {cards}") for hand in hands.values() for symbol, _css, cards in hand)
    )

    def suit(seat: str, i: int) -> str:
        symbol, _css, cards = hands[seat][i]
        text = f"{escape(printed_suit(symbol))} {escape(cards)}"
        return text + " " * (width - len(symbol) - 1 - len(cards))

    blank = " " * width
    rows = [f"{blank}{GAP}{suit('N', i)}" for i in range(4)]
    for i in range(4):
        middle = str(number).center(width) if i == 1 else blank
        rows.append(f"{suit('W', i)}{GAP}{middle}{GAP}{suit('E', i)}")
    rows += [f"{blank}{GAP}{suit('S', i)}" for i in range(4)]
    return Block(
        [],
        [mark_safe(r.rstrip()) for r in rows],  # noqa: S308 - escaped above
        3 * width + 2 * len(GAP),
    )


#: A cell's left part filled in eighths (index 1-7); a bar ends on one of them.
EIGHTHS = " ▏▎▍▌▋▊▉"
FULL = "█"


def bar_lines(chart, *, cells: int = 40, labels: list[str] | None = None, title: str = "") -> Block:
    """A bar chart (``charts.svg.BarChart``) as fixed-width lines: the name (or ``labels``,
    one a bar), a bar of block characters (to an eighth of a cell) and the value as written,
    under ``title`` if given. In the PDF a chart's SVG text is laid out and drawn one letter
    at a time (a Pango layout each), which made the board charts about a fifth of the
    travellers' CPU; these are one text run a line. A bar left of zero (a negative value) is
    drawn to whole cells, its value after the zero."""
    ends = [b.x + b.width for b in chart.bars]
    low = min([chart.zero_x, *(b.x for b in chart.bars)])
    high = max([chart.zero_x, *ends])
    scale = cells * 8 / (high - low) if high > low else 0.0
    zero = round((chart.zero_x - low) * scale / 8)  # the zero line's cell
    names = labels if labels is not None else [b.label for b in chart.bars]
    label_width = max((len(name) for name in names), default=0)
    rows = []
    for bar, name in zip(chart.bars, names, strict=True):
        if bar.negative:
            start = round((bar.x - low) * scale / 8)
            drawn = " " * start + FULL * max(zero - start, 0 if bar.width == 0 else 1)
        else:
            eighths = round(bar.width * scale)
            drawn = " " * zero + FULL * (eighths // 8) + EIGHTHS[eighths % 8].strip()
        line = f"{name.rjust(label_width)}  {drawn} {bar.value_label}"
        rows.append(mark_safe(escape(line.rstrip())))  # noqa: S308 - escaped here
    head = [mark_safe(escape(title))] if title else []  # noqa: S308 - escaped here
    return Block(head, rows, max((len(_visible(r)) for r in [*rows, *head]), default=0))

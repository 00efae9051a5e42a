"""What every page of a joined results PDF carries, written straight into it: "Page n of N"
at its foot, and the running headers.

The parts are rendered without page numbers (a part does not know where it starts). They
were drawn by a WeasyPrint document of N empty pages with that footer, laid over the parts'
pages: some 0.55 s at 210 pages — each page was laid out with its margin boxes for one line
of text. The line is now a few PDF operators a page in Helvetica, one of the fonts every PDF
reader has (nothing embedded), at the place, size and colour of that footer (8.5 pt, grey
#555, centred, baseline 19.9 pt above the page's foot), added to the page's list of content
streams (a "q" before them, so nothing the page leaves set changes the line) so its own
drawing is neither decoded nor re-compressed.

The running headers (club; event and date) are the same on every page: WeasyPrint lays them
out once, as the margin boxes of a page of their own, and that page is drawn on each page as
one form XObject, in WeasyPrint's font and place, whatever their letters.
"""

from __future__ import annotations

SIZE = 8.5  # pt, as the running headers
BASELINE = 19.89  # pt above the foot: where WeasyPrint put the 8.5 pt line at 287.2 mm
GREY = "0.333333 0.333333 0.333333"  # #555
FONT = "/PgNo"
HEADER = "/Running"


#: Helvetica's advance widths (1/1000 em, Adobe's core-font metrics) of the printable ASCII
#: characters (32-126) and of the Latin-1 letters (192-255); any other character: ``OTHER``.
ASCII = (
    278,
    278,
    355,
    556,
    556,
    889,
    667,
    191,
    333,
    333,
    389,
    584,
    278,
    333,
    278,
    278,
    556,
    556,
    556,
    556,
    556,
    556,
    556,
    556,
    556,
    556,
    278,
    278,
    584,
    584,
    584,
    556,
    1015,
    667,
    667,
    722,
    722,
    667,
    611,
    778,
    722,
    278,
    500,
    667,
    556,
    833,
    722,
    778,
    667,
    778,
    722,
    667,
    611,
    722,
    667,
    944,
    667,
    667,
    611,
    278,
    278,
    278,
    469,
    556,
    333,
    556,
    556,
    500,
    556,
    556,
    278,
    556,
    556,
    222,
    222,
    500,
    222,
    833,
    556,
    556,
    556,
    556,
    333,
    500,
    278,
    556,
    500,
    722,
    500,
    500,
    500,
    334,
    260,
    334,
    584,
)
LATIN = (
    667,
    667,
    667,
    667,
    667,
    667,
    1000,
    722,
    667,
    667,
    667,
    667,
    278,
    278,
    278,
    278,
    722,
    722,
    778,
    778,
    778,
    778,
    778,
    584,
    778,
    722,
    722,
    722,
    722,
    667,
    667,
    611,
    556,
    556,
    556,
    556,
    556,
    556,
    889,
    500,
    556,
    556,
    556,
    556,
    278,
    278,
    278,
    278,
    556,
    556,
    556,
    556,
    556,
    556,
    556,
    584,
    611,
    556,
    556,
    556,
    556,
    500,
    556,
    500,
)
OTHER = 556


def _widths() -> dict[str, float]:
    return {
        **{chr(32 + i): w for i, w in enumerate(ASCII)},
        **{chr(192 + i): w for i, w in enumerate(LATIN)},
        "default": OTHER,
    }


def text_width(text: str, widths: dict[str, float]) -> float:
    """Width of ``text`` in points at ``SIZE``."""
    return sum(widths.get(c, widths.get("default", 556)) for c in text) * SIZE / 1000


def _literal(text: str) -> bytes:
    """``text`` as a PDF string in WinAnsi (Helvetica's encoding here); "?" where it has none."""
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def stamp(pdf, words: tuple[str, str], header=None) -> None:
    """Write "``words[0]`` n ``words[1]`` N" at the foot of each page of ``pdf`` (a
    ``pikepdf.Pdf``), and draw ``header`` (a form XObject of a whole page: the running
    headers) over each, if given."""
    from pikepdf import Dictionary, Name

    font = pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type1,
            BaseFont=Name.Helvetica,
            Encoding=Name.WinAnsiEncoding,
        )
    )
    opening = pdf.make_stream(b"q\n")
    widths, total = _widths(), len(pdf.pages)
    for n, page in enumerate(pdf.pages, start=1):
        page.add_resource(font, Name.Font, Name(FONT))
        drawn = b""
        if header is not None:
            page.add_resource(header, Name.XObject, Name(HEADER))
            drawn = b"q %s Do Q\n" % HEADER.encode()
        label = f"{words[0]} {n} {words[1]} {total}"
        box = page.mediabox
        left, bottom, right = float(box[0]), float(box[1]), float(box[2])
        x = left + (right - left - text_width(label, widths)) / 2
        y = bottom + BASELINE
        page.contents_add(opening, prepend=True)
        page.contents_add(
            pdf.make_stream(
                b"\nQ\n%sq %s rg BT %s %g Tf %.3f %.3f Td %s Tj ET Q\n"
                % (drawn, GREY.encode(), FONT.encode(), SIZE, x, y, _literal(label))
            )
        )

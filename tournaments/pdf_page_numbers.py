"""The "Page n of N" at the foot of every page of a joined results PDF, written straight into it.

The parts are rendered without page numbers (a part does not know where it starts). They
were drawn by a WeasyPrint document of N empty pages with that footer, laid over the parts'
pages: some 0.55 s at 210 pages, after the pool, in one process — each page was laid out
with its margin boxes for one line of text. The line is now a few PDF operators a page in
Helvetica, one of the fonts every PDF reader has (nothing embedded), at the place, size and
colour of that footer (8.5 pt, grey #555, centred, baseline 19.9 pt above the page's foot),
added to the page's list of content streams so its own drawing is neither decoded nor
re-compressed.
"""

from __future__ import annotations

SIZE = 8.5  # pt, as the running headers
BASELINE = 19.89  # pt above the foot: where WeasyPrint put the 8.5 pt line at 287.2 mm
GREY = "0.333333 0.333333 0.333333"  # #555
FONT = "/PgNo"


def _widths() -> dict[str, float]:
    """Helvetica's advance widths (1/1000 em), from pypdf's copy of Adobe's metrics."""
    try:
        from pypdf._codecs.core_font_metrics import CORE_FONT_METRICS

        return dict(CORE_FONT_METRICS["Helvetica"].character_widths)
    except (ImportError, KeyError, AttributeError):  # pypdf moved them: digits' width for all
        return {}


def text_width(text: str, widths: dict[str, float]) -> float:
    """Width of ``text`` in points at ``SIZE``."""
    return sum(widths.get(c, widths.get("default", 556)) for c in text) * SIZE / 1000


def _literal(text: str) -> bytes:
    """``text`` as a PDF string in WinAnsi (Helvetica's encoding here); "?" where it has none."""
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def stamp(writer, words: tuple[str, str]) -> None:
    """Write "``words[0]`` n ``words[1]`` N" at the foot of each page of ``writer``."""
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        IndirectObject,
        NameObject,
    )

    font = writer._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
        NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))
    opening = DecodedStreamObject()
    opening.set_data(b"q\n")
    opening = writer._add_object(opening)
    widths, total = _widths(), len(writer.pages)
    seen: set[int] = set()
    for n, page in enumerate(writer.pages, start=1):
        resources = page["/Resources"].get_object()
        if id(resources) not in seen:  # a part's pages may share one resource dictionary
            seen.add(id(resources))
            if "/Font" not in resources:
                resources[NameObject("/Font")] = DictionaryObject()
            resources["/Font"].get_object()[NameObject(FONT)] = font
        label = f"{words[0]} {n} {words[1]} {total}"
        box = page.mediabox
        x = float(box.left) + (float(box.width) - text_width(label, widths)) / 2
        y = float(box.bottom) + BASELINE
        line = DecodedStreamObject()
        line.set_data(b"\nQ\nq %s rg BT %s %g Tf %.3f %.3f Td %s Tj ET Q\n" % (
            GREY.encode(), FONT.encode(), SIZE, x, y, _literal(label)))
        contents = page["/Contents"]
        drawn = contents.get_object()
        if isinstance(drawn, ArrayObject):
            streams = list(drawn)
        else:  # a stream in a list must be an indirect object
            streams = [contents if isinstance(contents, IndirectObject)
                       else writer._add_object(drawn)]
        page[NameObject("/Contents")] = ArrayObject(
            [opening, *streams, writer._add_object(line)])

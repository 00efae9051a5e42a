"""CSV exports that open safely in spreadsheets.

A cell starting with = + - @ (or a tab/carriage return) is run as a formula by Excel and
LibreOffice; such cells are prefixed with an apostrophe (OWASP "CSV injection").
"""

import csv
import io
from collections.abc import Iterable, Sequence

DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> str:
    text = "" if value is None else str(value)
    if text.startswith(DANGEROUS_START):
        return "'" + text
    return text


def csv_text(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()


BOM = "\ufeff"


def csv_bytes_with_bom(header: Sequence[str], rows: Iterable[Sequence]) -> bytes:
    """``csv_text`` as UTF-8 with a byte-order mark: Excel then reads accents and ♠ right
    instead of guessing the machine's code page."""
    return (BOM + csv_text(header, rows)).encode("utf-8")

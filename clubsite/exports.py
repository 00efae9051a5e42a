"""CSV exports that open safely and correctly in spreadsheets.

A cell starting with = + - @ (or a tab/carriage return) is run as a formula by Excel and
LibreOffice; such cells are prefixed with an apostrophe (OWASP "CSV injection").

A file for people (``csv_response``) starts with a UTF-8 byte order mark, without which Excel
reads "Peña" as "PeÃ±a", and uses the separator of the reader's locale: Spanish and Portuguese
spreadsheets split on ";" (their decimal comma), English ones on ","; ``?sep=`` chooses
("comma", "semicolon", "tab"). Files for a federation's office keep their own fixed format.
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


SEPARATORS = {"comma": ",", "semicolon": ";", "tab": "\t", ",": ",", ";": ";"}
# Languages whose spreadsheets take the comma as the decimal mark and ";" between cells.
SEMICOLON_LANGUAGES = ("es", "pt")
BOM = "\ufeff"


def csv_text(header: Sequence[str], rows: Iterable[Sequence], delimiter: str = ",") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()


def csv_bytes_with_bom(header: Sequence[str], rows: Iterable[Sequence],
                       delimiter: str = ",") -> bytes:
    """``csv_text`` as UTF-8 with a byte-order mark: Excel then reads accents and ♠ right
    instead of guessing the machine's code page."""
    return (BOM + csv_text(header, rows, delimiter=delimiter)).encode("utf-8")


def separator_for(request) -> str:
    """The ``?sep=`` choice, else the separator of the page's language."""
    chosen = SEPARATORS.get(request.GET.get("sep", ""))
    if chosen:
        return chosen
    language = (getattr(request, "LANGUAGE_CODE", "") or "")[:2]
    return ";" if language in SEMICOLON_LANGUAGES else ","


def csv_response(request, filename: str, header: Sequence[str], rows: Iterable[Sequence]):
    """A CSV download for people: BOM, the reader's separator, formula-safe cells."""
    from django.http import HttpResponse

    text = BOM + csv_text(header, rows, delimiter=separator_for(request))
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

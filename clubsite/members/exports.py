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


def csv_bytes_with_bom(
    header: Sequence[str], rows: Iterable[Sequence], delimiter: str = ","
) -> bytes:
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


def xlsx_bytes(sheet_title: str, header: Sequence[str], rows: Iterable[Sequence]) -> bytes:
    """A one-sheet workbook (openpyxl): numbers stay numbers (amounts as Decimal are written
    as numbers with two decimals); text cells are made formula-safe as in the CSV."""
    from decimal import Decimal

    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = (safe_cell(sheet_title) or "Sheet")[:31].translate(
        str.maketrans("", "", "[]:*?/\\")
    )
    sheet.append([safe_cell(h) for h in header])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(
            [
                v
                if isinstance(v, int | float | Decimal) and not isinstance(v, bool)
                else safe_cell(v)
                for v in row
            ]
        )
    for cells in sheet.iter_rows(min_row=2):
        for cell in cells:
            if isinstance(cell.value, int | float | Decimal) and not isinstance(cell.value, int):
                cell.number_format = "#,##0.00"
    for column in sheet.columns:
        width = max(len(str(c.value or "")) for c in column)
        sheet.column_dimensions[column[0].column_letter].width = min(max(10, width + 2), 60)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_response(filename: str, sheet_title: str, header: Sequence[str], rows: Iterable[Sequence]):
    from django.http import HttpResponse

    response = HttpResponse(xlsx_bytes(sheet_title, header, rows), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

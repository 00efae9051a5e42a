"""Federation roster import: read a CSV or XLSX file, check every row, then commit all or none.

Reading and checking never touch the database beyond look-ups, so the secretary sees a
preview with every bad row listed before anything is stored; ``commit_roster`` then
writes inside one transaction.
"""

import csv
import datetime
import io
import unicodedata
from dataclasses import asdict, dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.models import Category, Club, Licence, LicenceStatus, Member, Season, fold

# Header spellings accepted, folded (lower case, no accents, spaces as underscores).
COLUMNS = {
    "licence_number": {
        "licence_number",
        "licence",
        "license",
        "licencia",
        "licenca",
        "numero",
        "n_licencia",
        "num_licencia",
        "numero_licencia",
        "numero_licenca",
    },
    "last_name": {"last_name", "surname", "apellidos", "apellido", "apelido", "apelidos"},
    "first_name": {"first_name", "name", "nombre", "nome"},
    "email": {"email", "e-mail", "correo", "correo_electronico"},
    "phone": {"phone", "telefono", "telefone", "movil", "telemovel"},
    "birth_date": {
        "birth_date",
        "fecha_nacimiento",
        "nacimiento",
        "data_nascimento",
        "nascimento",
        "date_of_birth",
    },
    "category": {"category", "categoria"},
    "licence_status": {"licence_status", "status", "estado", "estado_licencia", "estado_licenca"},
}
REQUIRED = ("licence_number", "last_name", "first_name")
COLUMN_LABELS = {
    "licence_number": gettext_lazy("licence number"),
    "last_name": gettext_lazy("last name"),
    "first_name": gettext_lazy("first name"),
    "email": gettext_lazy("email"),
    "phone": gettext_lazy("phone"),
    "birth_date": gettext_lazy("birth date"),
    "category": gettext_lazy("category"),
    "licence_status": gettext_lazy("licence status"),
}
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y")
MAX_ROWS = 20000


@dataclass
class RosterRow:
    line: int
    licence_number: str = ""
    last_name: str = ""
    first_name: str = ""
    email: str = ""
    phone: str = ""
    birth_date: str = ""  # ISO date or ""
    category: str = ""  # Category code or ""
    licence_status: str = LicenceStatus.ACTIVE
    errors: list[str] = field(default_factory=list)
    action: str = ""  # "create" or "update", filled by the preview


@dataclass
class RosterPreview:
    rows: list[RosterRow]
    file_errors: list[str] = field(default_factory=list)

    @property
    def bad_rows(self) -> list[RosterRow]:
        return [row for row in self.rows if row.errors]

    @property
    def ok(self) -> bool:
        return not self.file_errors and not self.bad_rows and bool(self.rows)

    def to_session(self) -> list[dict]:
        return [asdict(row) for row in self.rows]

    @classmethod
    def from_session(cls, data: list[dict]) -> "RosterPreview":
        return cls(rows=[RosterRow(**row) for row in data])


def _max_lengths() -> dict[str, int]:
    """How long each stored column may be: the model fields' own ``max_length`` (a longer
    value is an error on PostgreSQL, a silent overflow elsewhere). The licence number is
    stored twice, on the member and on the licence. Parsed columns (date, category,
    status) are looked up, not stored, and only need a sane bound."""
    member = {
        name: Member._meta.get_field(name).max_length
        for name in ("last_name", "first_name", "email", "phone")
    }
    member["licence_number"] = min(
        Member._meta.get_field("licence_number").max_length,
        Licence._meta.get_field("number").max_length,
    )
    return member | {"birth_date": 40, "category": 80, "licence_status": 40}


MAX_LENGTHS = _max_lengths()


def _bad_characters(value: str) -> str | None:
    """Why ``value`` is not storable text, or None: control characters (NUL ends a string
    in PostgreSQL and makes psycopg refuse it) and lone surrogates (an XLSX can spell one
    as ``_xD800_``; no encoding writes it)."""
    for char in value:
        category = unicodedata.category(char)
        if category == "Cs":
            return "surrogate"
        if category == "Cc":
            return "control"
    return None


def _shown(value: str, limit: int) -> str:
    """A bad cell as the preview may show it: bad characters replaced, kept short."""
    clean = "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cs") else c for c in value)
    return clean if len(clean) <= limit else clean[:limit] + "…"


def check_cell(column: str, value: str) -> str | None:
    """The error of one cell of ``column``, naming the column, or None when it may be
    stored (characters and length; what the value means is checked by the caller)."""
    label = COLUMN_LABELS[column]
    problem = _bad_characters(value)
    if problem == "control":
        return _(
            "Column “%(column)s”: contains a control character (such as NUL or a "
            "line break); remove it."
        ) % {"column": label}
    if problem == "surrogate":
        return _("Column “%(column)s”: contains characters that are not valid text.") % {
            "column": label
        }
    if len(value) > MAX_LENGTHS[column]:
        return _("Column “%(column)s”: %(length)d characters; at most %(limit)d.") % {
            "column": label,
            "length": len(value),
            "limit": MAX_LENGTHS[column],
        }
    return None


def _normalise_header(name: str) -> str:
    return fold(str(name or "")).strip().replace(" ", "_")


def _read_table(content: bytes, filename: str) -> list[list[str]]:
    if filename.lower().endswith((".xlsx", ".xlsm")):
        from openpyxl import load_workbook

        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        sheet = workbook.worksheets[0]
        rows = []
        for values in sheet.iter_rows(values_only=True):
            rows.append([_cell_text(v) for v in values])
        workbook.close()
        return rows
    text = None
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    if text is None:
        raise ValueError(_("The file is not readable text (UTF-8 or Windows-1252)."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return [row for row in csv.reader(io.StringIO(text), dialect)]


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _parse_date(text: str) -> datetime.date:
    for fmt in DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError


# The site's own words for a licence this season (``services.LicenceState``, the member
# list and its CSV: "Vigente", "Solicitada", …) as licence statuses, so that a file the site
# wrote can be read back. "Never licensed" becomes a licence still to be arranged.
STATE_AS_STATUS = {
    "valid": "active",
    "in_progress": "requested",
    "expired": "expired",
    "cancelled": "cancelled",
    "none": "pending",
}


def _in_every_language(label) -> set[str]:
    """``label`` folded as each of the site's languages writes it."""
    out = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out.add(fold(str(label)))
    return out


def _header_spellings() -> dict[str, set[str]]:
    """``COLUMNS`` plus the headings the site's own member list CSV writes, in every
    language ("Licencia esta temporada", "Licença nesta época", "Licence this season")."""
    spellings = {column: set(names) for column, names in COLUMNS.items()}
    spellings["licence_status"] |= {
        n.replace(" ", "_") for n in _in_every_language(gettext_lazy("Licence this season"))
    }
    return spellings


def _status_lookup() -> dict[str, str]:
    from clubsite.members.services import LicenceState

    lookup = {}
    for value, label in LicenceStatus.choices:
        lookup[fold(value)] = value
        for word in _in_every_language(label):
            lookup[word] = value
    for state, label in LicenceState.CHOICES:
        for word in _in_every_language(label):
            lookup.setdefault(word, STATE_AS_STATUS[state])
        lookup.setdefault(fold(state), STATE_AS_STATUS[state])
    # Federation rosters often use these words in Spanish and Portuguese.
    # "activo"/"ativo": the licence status's label before it agreed with "licencia".
    lookup.update(
        {
            "activa": "active",
            "ativa": "active",
            "alta": "active",
            "activo": "active",
            "ativo": "active",
            "caducada": "expired",
            "expirada": "expired",
            "baja": "cancelled",
            "cancelada": "cancelled",
            "solicitada": "requested",
            "pendiente": "pending",
            "pendente": "pending",
        }
    )
    return lookup


def read_roster(content: bytes, filename: str) -> RosterPreview:
    """Parse and check a roster file; every problem is reported, nothing is stored."""
    try:
        table = _read_table(content, filename)
    except Exception as exc:  # a corrupt XLSX raises many kinds of errors
        message = str(exc) if isinstance(exc, ValueError) else _("The file could not be read.")
        return RosterPreview(rows=[], file_errors=[message])
    table = [row for row in table if any(cell.strip() for cell in row)]
    if not table:
        return RosterPreview(rows=[], file_errors=[_("The file is empty.")])
    header = [_normalise_header(h) for h in table[0]]
    positions: dict[str, int] = {}
    columns = _header_spellings()
    for index, name in enumerate(header):
        for column, spellings in columns.items():
            if name in spellings and column not in positions:
                positions[column] = index
    missing = [c for c in REQUIRED if c not in positions]
    if missing:
        return RosterPreview(
            rows=[],
            file_errors=[
                _("Missing columns: %(columns)s. The first row must name the columns.")
                % {"columns": ", ".join(str(COLUMN_LABELS[c]) for c in missing)}
            ],
        )
    if len(table) - 1 > MAX_ROWS:
        return RosterPreview(
            rows=[],
            file_errors=[
                _("Too many rows (%(count)d); the limit is %(limit)d.")
                % {"count": len(table) - 1, "limit": MAX_ROWS}
            ],
        )

    categories = {fold(c.code): c.code for c in Category.objects.all()}
    categories.update({fold(c.name): c.code for c in Category.objects.all()})
    statuses = _status_lookup()
    existing = set(
        Member.objects.exclude(licence_number="").values_list("licence_number", flat=True)
    )
    seen: dict[str, int] = {}
    rows = []
    for line, cells in enumerate(table[1:], start=2):

        def cell(column: str, cells=cells) -> str:
            index = positions.get(column)
            return cells[index].strip() if index is not None and index < len(cells) else ""

        row = RosterRow(line=line)
        raw_cells = {column: cell(column) for column in COLUMNS}
        bad = set()
        for column, value in raw_cells.items():
            if error := check_cell(column, value):
                row.errors.append(error)
                bad.add(column)
                raw_cells[column] = _shown(value, MAX_LENGTHS[column])
        row.licence_number = raw_cells["licence_number"]
        row.last_name = raw_cells["last_name"]
        row.first_name = raw_cells["first_name"]
        row.email = raw_cells["email"]
        row.phone = raw_cells["phone"]
        for column in REQUIRED:
            if not getattr(row, column):
                row.errors.append(_("“%(column)s” is empty.") % {"column": COLUMN_LABELS[column]})
        if row.licence_number and "licence_number" not in bad:
            if row.licence_number in seen:
                row.errors.append(
                    _("Licence number %(number)s is repeated (also on row %(line)d).")
                    % {"number": row.licence_number, "line": seen[row.licence_number]}
                )
            seen.setdefault(row.licence_number, line)
        if row.email and "email" not in bad:
            try:
                validate_email(row.email)
            except ValidationError:
                row.errors.append(_("“%(value)s” is not a valid email.") % {"value": row.email})
        if (raw := raw_cells["birth_date"]) and "birth_date" not in bad:
            try:
                row.birth_date = _parse_date(raw).isoformat()
            except ValueError:
                row.errors.append(
                    _("“%(value)s” is not a date (use YYYY-MM-DD or DD/MM/YYYY).") % {"value": raw}
                )
        if (raw := raw_cells["category"]) and "category" not in bad:
            if fold(raw) in categories:
                row.category = categories[fold(raw)]
            else:
                row.errors.append(_("Unknown category “%(value)s”.") % {"value": raw})
        if (raw := raw_cells["licence_status"]) and "licence_status" not in bad:
            if fold(raw) in statuses:
                row.licence_status = statuses[fold(raw)]
            else:
                row.errors.append(_("Unknown licence status “%(value)s”.") % {"value": raw})
        row.action = "update" if row.licence_number in existing else "create"
        rows.append(row)
    return RosterPreview(rows=rows)


@transaction.atomic
def commit_roster(preview: RosterPreview, season: Season) -> dict[str, int]:
    """Store every row of a clean preview, or nothing: members by licence number, and each
    one's licence for ``season`` with the roster's status."""
    if not preview.ok:
        raise ValueError(_("The roster has errors; nothing was imported."))
    federation = Club.current().federation
    categories = {c.code: c for c in Category.objects.all()}
    counts = {"created": 0, "updated": 0}
    for row in preview.rows:
        category = categories.get(row.category)
        member = (
            Member.objects.select_for_update(no_key=True)
            .filter(licence_number=row.licence_number)
            .first()
        )
        if member is None:
            member = Member(licence_number=row.licence_number)
            counts["created"] += 1
        else:
            counts["updated"] += 1
        member.last_name = row.last_name
        member.first_name = row.first_name
        if row.email:
            member.email = row.email
        if row.phone:
            member.phone = row.phone
        if row.birth_date:
            member.birth_date = datetime.date.fromisoformat(row.birth_date)
        if category is not None:
            member.category = category
        member.save()
        Licence.objects.update_or_create(
            member=member,
            season=season,
            defaults={
                "federation": federation,
                "number": row.licence_number,
                "category": member.category,
                "status": row.licence_status,
                "valid_from": season.start,
                "valid_until": season.end,
            },
        )
    return counts

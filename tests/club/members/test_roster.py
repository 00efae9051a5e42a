"""Roster import: every bad row listed, nothing imported half-way."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook

from clubsite.members.roster_import import commit_roster, read_roster
from clubsite.models import Licence, Member, Season

pytestmark = pytest.mark.django_db

GOOD = (
    "licencia;apellidos;nombre;email;fecha_nacimiento;estado\n"
    "AEB-1;Peña;Begoña;b@example.com;03/04/1961;activa\n"
    "AEB-2;Núñez;José;;1970-01-02;solicitada\n"
)
BAD = GOOD + "AEB-2;Sin;Nombre;malcorreo;31/02/1990;rara\n;;;;;\nAEB-3;;Ana;;;\n"


def test_bad_rows_are_all_listed_and_nothing_is_stored():
    preview = read_roster(BAD.encode(), "roster.csv")
    assert not preview.ok
    bad = {row.line: row.errors for row in preview.bad_rows}
    assert set(bad) == {4, 5}  # the blank line is skipped, not counted as bad
    assert len(bad[4]) == 4  # repeated licence, email, date, status
    with pytest.raises(ValueError):
        commit_roster(preview, Season.current())
    assert not Member.objects.exists()


def test_good_file_creates_and_updates_by_licence_number():
    Member.objects.create(first_name="Old", last_name="Name", licence_number="AEB-1")
    preview = read_roster(GOOD.encode("cp1252"), "roster.csv")
    assert preview.ok and [r.action for r in preview.rows] == ["update", "create"]
    assert commit_roster(preview, Season.current()) == {"created": 1, "updated": 1}
    assert Member.objects.get(licence_number="AEB-1").first_name == "Begoña"
    assert Licence.objects.get(member__licence_number="AEB-2").status == "requested"


def test_xlsx_roster():
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Licence number", "Last name", "First name", "Birth date"])
    sheet.append([12345, "Silva", "João", "1980-05-06"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    preview = read_roster(buffer.getvalue(), "r.xlsx")
    assert preview.ok
    assert (preview.rows[0].licence_number, preview.rows[0].birth_date) == ("12345", "1980-05-06")


def test_missing_columns_are_named():
    preview = read_roster(b"nombre;email\nAna;a@b.c\n", "r.csv")
    assert preview.file_errors and "número de licencia" in preview.file_errors[0]


def test_commit_is_atomic(monkeypatch):
    preview = read_roster(GOOD.encode(), "roster.csv")
    calls = {"n": 0}
    original = Member.save

    def failing_save(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Member, "save", failing_save)
    with pytest.raises(RuntimeError):
        commit_roster(preview, Season.current())
    monkeypatch.undo()
    assert not Member.objects.exists()


def test_import_through_the_pages(secretary_client):
    upload = io.BytesIO(BAD.encode())
    upload.name = "roster.csv"
    html = secretary_client.post(
        reverse("clubsite:roster_import"), {"file": upload}
    ).content.decode()
    assert "nada" in html.lower() or "nothing" in html.lower()
    assert secretary_client.post(reverse("clubsite:roster_confirm")).status_code == 302
    assert not Member.objects.exists()  # the bad preview was never kept
    upload = io.BytesIO(GOOD.encode())
    upload.name = "roster.csv"
    secretary_client.post(reverse("clubsite:roster_import"), {"file": upload})
    secretary_client.post(reverse("clubsite:roster_confirm"))
    assert Member.objects.count() == 2


# --- cells that cannot be stored: every one listed, with its row and column ------------------

HEADER = "licencia;apellidos;nombre;email;telefono\n"


def _bad_cells(text: str) -> dict[int, list[str]]:
    with translation.override("en"):
        preview = read_roster(text.encode(), "roster.csv")
    assert not preview.ok
    with pytest.raises(ValueError):
        commit_roster(preview, Season.current())
    assert not Member.objects.exists() and not Licence.objects.exists()
    return {row.line: row.errors for row in preview.bad_rows}


def test_nul_bytes_are_listed_by_row_and_column_and_nothing_is_stored():
    bad = _bad_cells(
        HEADER + "AEB-1;Peña;Begoña;;\nAEB-2;Nú\x00ñez;José;;\nAEB-3;Ruiz;Ana;;600\x00123\n"
    )
    assert set(bad) == {3, 4}
    assert bad[3] == [
        "Column “last name”: contains a control character (such as NUL or a line break); remove it."
    ]
    assert len(bad[4]) == 1 and "“phone”" in bad[4][0] and "control character" in bad[4][0]


def test_over_long_fields_are_listed_against_the_models_lengths():
    bad = _bad_cells(
        HEADER + f"AEB-1;{'P' * 121};Begoña;;\n"
        f"{'9' * 31};Núñez;{'J' * 81};;{'6' * 41}\n"
        f"AEB-3;Ruiz;Ana;{'a' * 250}@example.com;\n"
    )
    assert bad[2] == ["Column “last name”: 121 characters; at most 120."]
    assert bad[3] == [
        "Column “licence number”: 31 characters; at most 30.",
        "Column “first name”: 81 characters; at most 80.",
        "Column “phone”: 41 characters; at most 40.",
    ]
    assert bad[4] == ["Column “email”: 262 characters; at most 254."]


def test_control_characters_are_refused_in_every_column():
    bad = _bad_cells(
        "licencia;apellidos;nombre;fecha_nacimiento;categoria;estado\n"
        "AEB-1;Pe\x1bña;Begoña;01/02/1960;;\n"
        "AEB-2;Núñez;José;01/02\x07/1960;;\n"
        "AEB-3;Ruiz;Ana;;sub\x0b25;act\x7fiva\n"
    )
    assert [len(bad[line]) for line in (2, 3, 4)] == [1, 1, 2]
    assert "“birth date”" in bad[3][0] and "“category”" in bad[4][0]
    assert "“licence status”" in bad[4][1]


def test_lone_surrogates_are_not_text():
    """No file we read today decodes to one, but text from elsewhere (a spreadsheet
    library, ``surrogateescape``) can carry it, and PostgreSQL cannot store it."""
    from clubsite.members.roster_import import check_cell

    with translation.override("en"):
        assert check_cell("first_name", "Ana\ud800") == (
            "Column “first name”: contains characters that are not valid text."
        )
        assert check_cell("first_name", "Ana María") is None


def test_bad_cells_through_the_page_are_listed_without_a_500(secretary_client):
    upload = io.BytesIO((HEADER + f"AEB-1;Nú\x00ñez;{'J' * 200};;\n").encode())
    upload.name = "roster.csv"
    response = secretary_client.post(reverse("clubsite:roster_import"), {"file": upload})
    assert response.status_code == 200
    html = response.content.decode()
    assert "\x00" not in html
    assert "Columna «apellidos»" in html  # the column, in the page's language (Spanish)
    assert secretary_client.post(reverse("clubsite:roster_confirm")).status_code == 302
    assert not Member.objects.exists()


@pytest.mark.parametrize(
    "words,expected",
    [
        # what the site's member list writes ("Licencia esta temporada"), in es, pt and en
        (
            ("Vigente", "Solicitada", "Caducada", "Anulada", "Nunca federado"),
            ["active", "requested", "expired", "cancelled", "pending"],
        ),
        (
            ("Válida", "Pedida", "Caducada", "Anulada", "Nunca federado"),
            ["active", "requested", "expired", "cancelled", "pending"],
        ),
        (
            ("Valid", "Requested", "Expired", "Cancelled", "Never licensed"),
            ["active", "requested", "expired", "cancelled", "pending"],
        ),
        # the licence statuses' own words in every language, whatever the reader's language
        (
            ("Activo", "Pendiente", "Pendente", "Active", "Pending"),
            ["active", "pending", "pending", "active", "pending"],
        ),
    ],
)
def test_roster_reads_the_states_the_site_writes(words, expected):
    lines = "".join(f"AEB-{i};Apellido{i};Nombre{i};{w}\n" for i, w in enumerate(words))
    for language in ("es", "pt", "en"):
        with translation.override(language):
            preview = read_roster(("licencia;apellidos;nombre;estado\n" + lines).encode(), "r.csv")
        assert preview.ok, (language, [r.errors for r in preview.bad_rows])
        assert [r.licence_status for r in preview.rows] == expected


def test_the_member_list_csv_reads_back(secretary_client):
    """The secretary's own export, headings and words in Spanish, imports again."""
    from clubsite.models import LicenceStatus

    member = Member.objects.create(first_name="Ana", last_name="Ruiz", licence_number="AEB-9")
    Licence.objects.create(member=member, season=Season.current(), status=LicenceStatus.ACTIVE)
    with translation.override("es"):
        content = secretary_client.get(reverse("clubsite:member_export")).content
        preview = read_roster(content, "socios.csv")
    assert preview.ok, [r.errors for r in preview.bad_rows]
    assert [(r.licence_number, r.licence_status) for r in preview.rows] == [("AEB-9", "active")]


@pytest.mark.parametrize(
    ("language", "word"), [("es", "Activa"), ("pt", "Ativa"), ("en", "Active")]
)
def test_an_active_licence_agrees_with_licencia(secretary_client, settings, language, word):
    """A licence (la licencia, a licença) is Activa/Ativa; a member stays Activo/Ativo. The
    member's page, the roster preview and the roster's reading all use the licence's word."""
    from clubsite.models import LicenceStatus

    member = Member.objects.create(first_name="Ana", last_name="Ruiz", licence_number="AEB-9")
    Licence.objects.create(member=member, season=Season.current(), status=LicenceStatus.ACTIVE)
    with translation.override(language):
        assert str(LicenceStatus.ACTIVE.label) == word
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = secretary_client.get(member.get_absolute_url()).content.decode()
    assert f'<span class="badge badge-active">{word}</span>' in page
    upload = io.BytesIO(f"licencia;apellidos;nombre;estado\nAEB-7;Gil;Eva;{word}\n".encode())
    upload.name = "roster.csv"
    html = secretary_client.post(reverse("clubsite:roster_import"), {"file": upload})
    assert f"<td>{word}</td>" in html.content.decode()
    for typed in ("activa", "Ativa", "Activo", "ativo", "Active"):
        with translation.override(language):
            preview = read_roster(
                f"licencia;apellidos;nombre;estado\nAEB-7;Gil;Eva;{typed}\n".encode(), "r.csv"
            )
        assert [r.licence_status for r in preview.rows] == ["active"], typed

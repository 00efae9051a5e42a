"""The secretary's journey in a real browser, in Spanish and Portuguese, desktop and tablet."""

import csv
import io

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Licence, LicenceStatus, Member, Payment, Season
from tests.e2e.e2e_helpers import choose_language, login_with_form, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROSTER_HEADER = "licencia;apellidos;nombre;email;categoria;estado\n"
ROSTER_ROWS = (
    "AEB-90001;Quintana;Rocío;rocio@example.com;junior;activa\n"
    "AEB-90002;Barros;Gonçalo;goncalo@example.com;standard;activa\n"
)
BAD_ROW = "AEB-90003;Lima;Inês;no-es-correo;standard;activa\n"
FIXED_ROW = "AEB-90003;Lima;Inês;ines@example.com;standard;activa\n"
EXPECTED_TEXT = {
    "es": {"nothing": "no se ha importado nada", "imported": "Lista importada"},
    "pt": {"nothing": "nada foi importado", "imported": "Lista importada"},
}


def _upload(page, content: str) -> None:
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": content.encode("utf-8")}],
    )
    page.click("form[enctype] button[type=submit]")
    page.wait_for_selector("#preview")


# The whole journey in Spanish on a desktop and in Portuguese on a tablet; the other two
# take the pages whose words are checked (the roster import's messages) and skip the
# renewal, payment and export, which the two full runs already take in each language and
# at each width.
FULL = {("es", "desktop"), ("pt", "tablet")}


@pytest.mark.parametrize(
    "language,viewport", [("es", "desktop"), ("es", "tablet"), ("pt", "desktop"), ("pt", "tablet")]
)
def test_secretary_journey(live_server, new_page, language, viewport):
    build_club()
    base = live_server.url
    name = f"secretary-{language}-{viewport}"
    page = new_page(viewport)
    choose_language(page, base, language)
    login_with_form(page, base, "secretaria", DEMO_PASSWORD)
    assert page.locator("html").get_attribute("lang") == language
    if (language, viewport) in FULL:
        _renew_and_pay(page, base, name)
    _import_roster(page, base, name, language)
    if (language, viewport) in FULL:
        _export_imported(page, base, name)


def _renew_and_pay(page, base, name) -> None:
    # Filter members whose licence has expired.
    page.goto(f"{base}/club/members/")
    page.select_option("select[name=licence_state]", "expired")
    page.click("form[role=search] button[type=submit]")
    page.wait_for_url("**licence_state=expired**")
    screenshot(page, f"{name}-1-expired")
    rows = page.locator("table.members tbody tr")
    assert rows.count() > 0
    badges = page.locator("table.members tbody .badge-expired")
    assert badges.count() == rows.count()

    # Renew the first one.
    page.locator("table.members tbody tr td a").first.click()
    member = Member.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    page.click("form[action$='/renew/'] button")
    page.wait_for_selector(".message.success")
    season = Season.current()
    assert Licence.objects.get(member=member, season=season).status == LicenceStatus.REQUESTED
    screenshot(page, f"{name}-2-renewed")

    # Record the licence payment.
    page.click("a[href$='/payments/new/']")
    page.select_option("select[name=kind]", "licence")
    page.fill("input[name=amount]", "0")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector(".errorlist")  # zero is refused: the form comes back with it
    assert page.input_value("input[name=amount]") == "0"
    page.fill("input[name=amount]", "35")
    page.select_option("select[name=method]", "transfer")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector(".message.success")
    assert Payment.objects.filter(member=member, kind="licence").count() == 1
    assert Licence.objects.get(member=member, season=season).paid
    screenshot(page, f"{name}-3-paid")


def _import_roster(page, base, name, language) -> None:
    # Import a roster with one bad row: the error is shown and nothing is imported.
    before = Member.objects.count()
    page.goto(f"{base}/club/import/")
    _upload(page, ROSTER_HEADER + ROSTER_ROWS + BAD_ROW)
    assert EXPECTED_TEXT[language]["nothing"] in page.inner_text("#preview")
    assert "no-es-correo" in page.inner_text("#preview table.errors")
    assert page.locator("form[action$='/import/confirm/']").count() == 0
    screenshot(page, f"{name}-4-import-error")
    assert Member.objects.count() == before

    # Fix the row and import.
    _upload(page, ROSTER_HEADER + ROSTER_ROWS + FIXED_ROW)
    screenshot(page, f"{name}-5-import-preview")
    page.click("form[action$='/import/confirm/'] button")
    page.wait_for_selector(".message.success")
    assert EXPECTED_TEXT[language]["imported"] in page.inner_text(".messages")
    assert Member.objects.count() == before + 3


def _export_imported(page, base, name) -> None:
    # Export the list filtered to the imported members.
    page.goto(f"{base}/club/members/?q=AEB-9000")
    screenshot(page, f"{name}-6-filtered")
    with page.expect_download() as download_info:
        page.click("a[href*='export.csv']")
    content = download_info.value.path().read_text(encoding="utf-8")
    assert content.startswith("\ufeff")  # spreadsheets read it as UTF-8
    # Spanish and Portuguese spreadsheets split cells on ";" (their decimal comma).
    rows = list(csv.reader(io.StringIO(content[1:]), delimiter=";"))
    assert sorted(row[2] for row in rows[1:]) == ["AEB-90001", "AEB-90002", "AEB-90003"]

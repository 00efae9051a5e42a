"""The import page after a teams file and after a refused file, on a phone."""

import datetime
import random

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import journey_languages, login, screenshot
from tournaments import demo, documents
from tournaments.imports import usebio as usebio_import
from tournaments.imports.usebio_parse import UsebioError
from tournaments.models.uploads import ResultImport

pytestmark = pytest.mark.e2e


def test_teams_import_and_refusal_pages_at_phone_width(live_server, new_page):
    build_club()
    players = list(Member.objects.filter(status="active").order_by("licence_number"))
    swiss = demo._swiss_teams(players, random.Random(demo.SEED), datetime.date(2026, 10, 1))
    text = documents.export_text(swiss, "usebio")
    done = usebio_import.import_file(
        text.replace("<TOTAL_SCORE>", "<TOTAL_SCORE>1", 1), file_name="swiss-de-otono.xml"
    )
    with pytest.raises(UsebioError):
        usebio_import.import_file(
            text.replace("<SCORE>980</SCORE>", "<SCORE>lots</SCORE>"), file_name="swiss-mal.xml"
        )
    failed = ResultImport.objects.get(state="failed")
    base = live_server.url
    page = new_page("phone")
    login(page, base, "director", DEMO_PASSWORD)
    page.goto(f"{base}/club/uploads/imports/{done.pk}/")
    assert page.locator("#import-summary").count() == 1
    assert page.locator("#differences tbody tr").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "usebio-teams-import-phone")
    page.goto(f"{base}/club/uploads/imports/{failed.pk}/")
    assert page.locator("#import-error br").count() >= 1  # one line per bad row
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "usebio-teams-refused-phone")


def test_secretary_imports_a_file_twice_and_replaces_it_from_the_page(
    live_server, new_page, tmp_path
):
    """The secretary chooses another program's file (a Mitchell with a sit-out, raw marks
    per line): the report names the file's conventions and finds no difference; the same
    file again is refused with a form to replace the earlier import; replacing leaves one."""
    from tests.tournaments.imports.test_usebio_conventions import two_sections_board_short
    from tests.tournaments.imports.usebio_writer import Style, write
    from tournaments.models import Tournament

    build_club()
    path = tmp_path / "otro-programa.xml"
    path.write_text(write(two_sections_board_short(random.Random(7)), Style(marks="raw")))
    base = live_server.url
    page = new_page("phone")
    login(page, base, "secretaria", DEMO_PASSWORD)
    page.goto(f"{base}/club/uploads/imports/")
    page.set_input_files("#import-form input[type=file]", str(path))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#verify-clean")
    assert page.locator("#import-conventions").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "usebio-conventions-import-phone")
    page.goto(f"{base}/club/uploads/imports/")
    page.set_input_files("#import-form input[type=file]", str(path))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#replace-form")
    assert page.locator("#earlier-import").count() == 1
    screenshot(page, "usebio-duplicate-refused-phone")
    page.set_input_files("#replace-form input[type=file]", str(path))
    page.click("#replace-form button[type=submit]")
    page.wait_for_selector("#import-replaced")
    assert Tournament.objects.filter(name="Torneo importado").count() == 1
    screenshot(page, "usebio-replaced-phone")


@pytest.mark.parametrize("language", journey_languages("es"))
def test_a_cross_imp_file_shows_its_conventions_and_the_line_it_does_not_reproduce(
    live_server, new_page, tmp_path, language
):
    """Another program's cross-IMP file (marks summed over the comparisons, rounded to 0.1
    before totalling) with one line's mark changed: the secretary's import page names the
    conventions and the one line apart (both figures, the rules tried); the tournament's page
    names the conventions too; in each language, on a phone."""
    from decimal import Decimal

    from tests.e2e.e2e_helpers import choose_language, fits_its_box
    from tests.tournaments.imports.test_usebio_cross import wide_field_board_short
    from tests.tournaments.imports.usebio_writer import Style, write
    from tournaments.models import Tournament

    build_club()
    text = write(wide_field_board_short(random.Random(7)), Style(cross="sum", cross_places=1))
    marker = "<NS_CROSS_IMP_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    path = tmp_path / "cruzados.xml"
    path.write_text(head + marker + str(Decimal(value) + 5) + "<" + rest)
    base = live_server.url
    page = new_page("phone")
    login(page, base, "secretaria", DEMO_PASSWORD)
    choose_language(page, base, language)
    page.goto(f"{base}/club/uploads/imports/")
    page.set_input_files("#import-form input[type=file]", str(path))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#differences")
    assert page.locator("#import-conventions").count() == 1
    assert page.locator("#differences tbody tr").count() == 1
    assert str(Decimal(value) + 5) in page.locator("#differences").inner_text()
    what = {"es": "nota NS", "pt": "pontuação NS", "en": "mark NS"}[language]
    assert page.locator("#differences tbody td").nth(1).inner_text() == what  # translated
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"usebio-cross-imps-import-{language}-phone")
    # the rules tried wrap: the differences table needs no scroll in its box at 360 px
    page.set_viewport_size({"width": 360, "height": 780})
    fits_its_box(page, "#differences")
    screenshot(page, f"usebio-cross-imps-import-{language}-360")
    assert (
        "cross-IMPs" in page.locator("#differences td.tried").inner_text() or language != "en"
    )  # the rules tried in the reader's language
    page.set_viewport_size({"width": 390, "height": 844})
    slug = Tournament.objects.get(name="Torneo importado").slug
    page.goto(f"{base}/results/{slug}/")
    page.wait_for_selector("#imported-conventions")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"usebio-cross-imps-tournament-{language}-phone")

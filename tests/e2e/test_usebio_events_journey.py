"""The import page after a teams file and after a refused file, on a phone."""

import datetime
import random

import pytest
from e2e_helpers import login, screenshot

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
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
    done = usebio_import.import_file(text.replace("<TOTAL_SCORE>", "<TOTAL_SCORE>1", 1),
                                     file_name="swiss-de-otono.xml")
    with pytest.raises(UsebioError):
        usebio_import.import_file(text.replace("<SCORE>980</SCORE>", "<SCORE>lots</SCORE>"),
                                  file_name="swiss-mal.xml")
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

"""The secretary lets secretaries create tournaments in the club settings, then puts one on
the calendar from the home page, in es, pt and en; a director sets it up.
Screenshots: var/screenshots/secretary-tournament-*.png."""

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from tests.e2e.e2e_helpers import choose_language, journey_languages, login, screenshot
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", journey_languages("en"))
def test_secretary_creates_a_tournament_when_the_club_allows(live_server, new_page, language):
    build_club()
    base = live_server.url
    page = new_page("tablet")
    choose_language(page, base, language)
    login(page, base, "secretaria", DEMO_PASSWORD)
    page.goto(f"{base}/")
    assert page.locator("#secretary-new-tournament").count() == 0
    page.goto(f"{base}/club/settings/")
    page.check("input[name=secretaries_create_tournaments]")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".message.success")
    screenshot(page, f"secretary-tournament-1-settings-{language}")
    page.goto(f"{base}/")
    page.click("#secretary-new-tournament")
    page.fill("input[name=name]", "Torneo de Navidad")
    page.fill("input[name=date]", "2026-12-20")
    screenshot(page, f"secretary-tournament-2-form-{language}")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".message.success")
    assert "Torneo de Navidad" in page.inner_text(".messages")
    screenshot(page, f"secretary-tournament-3-created-{language}")
    assert Tournament.objects.filter(name="Torneo de Navidad").exists()

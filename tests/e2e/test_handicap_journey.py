"""A handicap event in a real browser, in Spanish: the director turns the handicap ranking
on in the tournament's settings, types the pairs' handicaps on a tablet (a slip is named and
what was typed stays), publishes, and a player reads both rankings on a phone."""

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from tests.e2e.e2e_helpers import (
    choose_language,
    fits_its_box,
    login,
    no_sideways_scroll,
    screenshot,
)
from tests.e2e.test_master_points_journey import played_howell
from tournaments.models import RankingScope, StoredRanking
from tournaments.services.classification.classify import classify_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_director_runs_a_handicap_event_and_a_player_reads_it(live_server, new_page):
    build_club()
    tournament = played_howell()
    classify_tournament(tournament)
    base = live_server.url
    page = new_page("tablet")
    login(page, base, "director", DEMO_PASSWORD)
    choose_language(page, base, "es")
    page.goto(f"{base}/director/{tournament.pk}/edit/")
    page.check("#id_handicap_ranking")
    page.click("#tournament-save")
    page.wait_for_selector(".message.success")

    page.goto(f"{base}/director/{tournament.pk}/entries/")
    page.click("#handicaps-link")
    page.wait_for_selector("#handicaps-form")
    entries = list(tournament.entries.order_by("id"))
    last = (
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION)
        .order_by("-place")
        .first()
    )
    page.fill(f"#handicap-{entries[0].pk}", "doce")
    page.fill(f"#handicap-{last.entry_id}", "80")
    page.click("#save-handicaps")
    page.wait_for_selector(".errorlist")
    assert "no es un número" in page.inner_text("#handicap-list")
    assert page.input_value(f"#handicap-{entries[0].pk}") == "doce"
    assert page.input_value(f"#handicap-{last.entry_id}") == "80"
    screenshot(page, "handicap-1-slip-named")
    page.fill(f"#handicap-{entries[0].pk}", "-6,5")
    page.click("#save-handicaps")
    page.wait_for_selector(".message.success")
    assert page.input_value(f"#handicap-{entries[0].pk}") == "-6,50"  # as Spanish writes it
    screenshot(page, "handicap-2-saved")

    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#publish-final")
    page.wait_for_selector(".message.success")

    phone = new_page("phone")
    choose_language(phone, base, "es")
    section = tournament.sessions.get().sections.get()
    phone.goto(f"{base}/results/{tournament.slug}/1/section/{section.letter}/")
    phone.wait_for_selector("table.ranking tbody tr")
    header = phone.inner_text("table.ranking thead")
    assert "% hcp" in header and "Puesto hcp" in header
    assert "con hándicap" in phone.inner_text("#handicap-note")
    row = phone.locator(f"table.ranking tr[data-entry='{last.entry_id}']")
    assert row.locator("td.handicap_place").inner_text() == "1"
    assert row.locator("td.handicap").get_attribute("data-value") == "80.00"  # hidden here
    no_sideways_scroll(phone)
    screenshot(phone, "handicap-3-both-rankings-phone")
    fits_its_box(phone, "table.ranking")
    screenshot(phone, "handicap-3-both-rankings-phone")

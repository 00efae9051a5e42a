"""The director withdraws a pair by mistake and undoes it from the entries page, in es, pt
and en; the trail keeps both with their reasons. Screenshots: var/screenshots/undo-*.png."""

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, grant
from tests.e2e.e2e_helpers import choose_language, journey_languages, login, screenshot
from tests.e2e.test_table_entry import seven_table_mitchell
from tournaments.models import AuditAction, AuditEntry, EntryStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", journey_languages("en"))
def test_director_undoes_a_withdrawal(live_server, new_page, language):
    section = seven_table_mitchell()
    tournament = section.session.tournament
    grant(User.objects.create_user(username="td", password="pass-1234-word"), Role.DIRECTOR)
    pair = section.seatings.get(number=3, direction="NS").entry
    base = live_server.url
    page = new_page("tablet")
    choose_language(page, base, language)
    login(page, base, "td", "pass-1234-word")
    page.goto(f"{base}/director/{tournament.pk}/entries/")
    row = page.locator(f"tr.entry-row[data-entry='{pair.pk}']")
    row.locator("details summary").click()
    row.locator("input[name=reason]").fill("Wrong pair")
    row.locator("button[type=submit]").click()
    page.wait_for_selector(".message.success")
    pair.refresh_from_db()
    assert pair.status == EntryStatus.WITHDRAWN
    row = page.locator(f"tr.entry-row[data-entry='{pair.pk}']")
    row.locator("details.reinstate summary").click()
    screenshot(page, f"undo-1-withdrawn-{language}")
    row.locator("input[name=reason]").fill("It was the other pair")
    row.locator("details.reinstate button[type=submit]").click()
    page.wait_for_selector(".message.success")
    pair.refresh_from_db()
    assert pair.status == EntryStatus.ACTIVE
    assert page.locator(f"tr.entry-row[data-entry='{pair.pk}'] details.reinstate").count() == 0
    screenshot(page, f"undo-2-plays-again-{language}")
    assert list(
        AuditEntry.objects.filter(tournament=tournament)
        .order_by("at", "id")
        .values_list("action", "reason")
    ) == [(AuditAction.WITHDRAWN, "Wrong pair"), (AuditAction.REINSTATED, "It was the other pair")]

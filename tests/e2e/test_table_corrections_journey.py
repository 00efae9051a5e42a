"""Correct at the table, in es, pt and en, on a phone: the table saves board 1, sees it
"entered", corrects it (+1) before East-West confirm; East-West reject it with a reason
while the Wi-Fi is down (queued, then sent); the board shows "disputed" and play goes on.
The director finds it among the console's conflicts, corrects it on the line page, and the
table sees "corrected by the director". Screenshots: var/screenshots/table-correct-*.png."""

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, grant
from tests.e2e.e2e_helpers import choose_language, journey_languages, login, screenshot
from tests.e2e.table_device import sign_in, tap_contract
from tests.e2e.test_table_entry import seven_table_mitchell
from tournaments.models import Result, TableCode
from tournaments.services.table import table_corrections

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STATE_WORDS = {
    "es": {"entered": "Anotado", "disputed": "Rechazado", "corrected": "Corregido por el árbitro"},
    "pt": {"entered": "Registado", "disputed": "Contestado", "corrected": "Corrigido pelo árbitro"},
    "en": {"entered": "Entered", "disputed": "Disputed", "corrected": "Corrected by the director"},
}


def tap_correction(page, name: str, value: str) -> None:
    page.click(f"#correct-form input[name={name}][value='{value}'] + span")


@pytest.mark.parametrize("language", journey_languages("pt"))
def test_table_corrects_opponents_reject_director_decides(live_server, new_page, language):
    section = seven_table_mitchell()
    grant(User.objects.create_user(username="td", password="pass-1234-word"), Role.DIRECTOR)
    table_code = TableCode.objects.get(section=section, table=1, active=True)
    base = live_server.url
    words = STATE_WORDS[language]
    phone = new_page("phone")
    choose_language(phone, base, language)
    sign_in(phone, base, table_code)
    phone.wait_for_selector("#table-app[data-offline=ready]", state="attached", timeout=30000)

    # Board 1: 4♠ by North, made exactly; saved and waiting for East-West.
    phone.click("a[data-board-key='1-1']")
    phone.wait_for_selector("#result-form")
    tap_contract(
        phone,
        {"level": "4", "strain": "S", "double": "", "declarer": "N", "made": "=", "lead": None},
    )
    phone.click("#save-button")
    phone.wait_for_selector("#board-state[data-state=entered]")
    assert phone.inner_text("#board-state") == words["entered"]
    screenshot(phone, f"table-correct-1-entered-{language}")

    # North-South typed it wrong: one overtrick. The pad opens showing what is saved.
    phone.click("#correct-box summary")
    assert phone.locator("#correct-form input[name=level][value='4']").is_checked()
    assert phone.locator("#correct-form input[name=made][value='=']").is_checked()
    tap_correction(phone, "made", "+1")
    phone.wait_for_selector("#correct-preview .preview-score[data-points='450']")
    screenshot(phone, f"table-correct-2-correcting-{language}")
    phone.click("#correct-button")
    phone.wait_for_selector("#saved-score:has-text('450')")

    row = Result.objects.get(section=section, table=1, board__number=1)
    assert (row.tricks, row.ns_score, row.confirmed) == (11, 450, False)
    assert phone.get_attribute("#board-state", "data-state") == "entered"

    # East-West disagree, with the Wi-Fi down: the rejection waits on the phone.
    phone.context.set_offline(True)
    phone.click("#dispute-box summary")
    phone.fill("#dispute-reason", "Declarer claimed 10, not 11")
    phone.click("#dispute-button")
    phone.wait_for_selector("#entry-status[data-state=waiting]")
    assert phone.get_attribute("#sync-status", "data-count") == "1"
    screenshot(phone, f"table-correct-3-reject-offline-{language}")
    assert table_corrections.state_of(row) == table_corrections.ENTERED
    phone.context.set_offline(False)
    phone.wait_for_selector("#board-state[data-state=disputed]", timeout=30000)
    assert phone.inner_text("#board-state") == words["disputed"]
    assert "Declarer claimed 10, not 11" in phone.inner_text("#dispute-note")
    assert phone.locator("#confirm-button").count() == 0
    assert phone.locator("#round-link").is_visible()  # play goes on
    screenshot(phone, f"table-correct-4-disputed-{language}")

    # The director sees it with the conflicts and corrects the line.
    desk = new_page("desktop")
    choose_language(desk, base, language)
    login(desk, base, "td", "pass-1234-word")
    desk.goto(f"{base}/director/sessions/{section.session_id}/console/")
    desk.wait_for_selector("#conflicts li.dispute")
    assert "Declarer claimed 10, not 11" in desk.inner_text("#conflicts")
    screenshot(desk, f"table-correct-5-console-{language}")
    desk.click("#conflicts li.dispute a")
    desk.wait_for_selector("#dispute")
    assert desk.get_attribute("#line-state", "data-state") == "disputed"
    desk.fill("#result-form input[name=contract]", "4S")
    desk.fill("#result-form input[name=result]", "=")
    desk.fill("#result-form input[name=reason]", "Checked the tricks with both pairs")
    desk.click("#result-form button[type=submit]")
    desk.wait_for_selector(".message.success")
    assert desk.locator("#dispute").count() == 0
    assert desk.get_attribute("#line-state", "data-state") == "corrected"
    screenshot(desk, f"table-correct-6-director-corrected-{language}")
    row.refresh_from_db()
    assert (row.tricks, row.ns_score) == (10, 420)

    phone.reload()
    phone.wait_for_selector("#board-state[data-state=corrected]")
    assert phone.inner_text("#board-state") == words["corrected"]
    assert phone.locator("#correct-box, #dispute-box, #confirm-button").count() == 0
    screenshot(phone, f"table-correct-7-corrected-{language}")
    phone.click("#round-link")
    phone.wait_for_selector("a[data-board-key='1-1'] .board-state[data-state=corrected]")
    assert phone.inner_text("a[data-board-key='1-1'] .board-state") == words["corrected"]
    screenshot(phone, f"table-correct-8-round-{language}")

"""The table's pages kept for a Wi-Fi drop are as old as the copy: what the device saw saved
since stands. A board saved online stays played on the kept round page and is not offered
for entry again; a stored board corrected offline shows the stored result struck beside the
correction, and East-West cannot confirm the old one meanwhile; the pad keeps its place on
a phone however much waits. Screenshots: var/screenshots/table-kept-*.png."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.e2e_helpers import screenshot
from tests.e2e.table_device import choice, confirm_and_check, expected_score, fill_board
from tests.e2e.test_table_offline import THREE_NT, signed_in_phone, tap_offline
from tournaments.models import Result
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = 1
PHONE_HEIGHT = 844


def save_online(phone, section, number, confirm=True, c=None):
    phone.click(f"a[data-board-key='1-{number}']")
    c = c or choice(TABLE, 1, number)
    fill_board(phone, c, expected_score(section.session.boards.get(number=number), c))
    phone.click("#save-button")
    if confirm:
        confirm_and_check(phone)
    else:
        phone.wait_for_selector("#board-state[data-state=entered]")
    return c


def in_sight(phone, selector) -> bool:
    """Whether the element is whole on the screen within a few seconds: the page scrolls it
    there after the tap's toggle event, which a busy machine may deliver late."""
    try:
        phone.wait_for_function(
            """([selector, height]) => {
                const box = document.querySelector(selector)?.getBoundingClientRect();
                return !!box && box.height > 0 && box.top >= 0 && box.bottom <= height;
            }""",
            arg=[selector, PHONE_HEIGHT],
            timeout=5000,
        )
    except PlaywrightTimeout:
        return False
    return True


def test_a_board_saved_online_stays_played_on_the_kept_round_page(live_server, new_page):
    section, phone = signed_in_phone(live_server, new_page)
    first, second = plan.slot_for(section.movement, 1, TABLE).boards
    save_online(phone, section, first)
    phone.context.set_offline(True)
    phone.click("#next-board")
    phone.wait_for_selector(f"#board-screen[data-board='{second}'] #result-form")
    tap_offline(phone, THREE_NT)
    phone.click("#save-button")
    phone.wait_for_selector("#entry-status[data-state=waiting]")
    # What waits is counted in the bar, not stacked over the pad.
    assert phone.locator("#pending-list li").count() == 0
    assert in_sight(phone, "#offline-confirm-button")
    phone.click("#offline-confirm-button")
    phone.wait_for_selector("#offline-confirm", state="hidden")
    phone.click("#round-link")
    phone.wait_for_selector("#round[data-round='1']")
    assert phone.get_attribute("#table-app", "data-page") == "kept"  # the worker's copy
    phone.wait_for_selector(f"a[data-board-key='1-{first}'] .local-state[data-state=saved]")
    phone.wait_for_selector(f"a[data-board-key='1-{second}'] .local-state[data-state=waiting]")
    assert phone.locator("#moves").is_visible()  # every board in: where to go next
    screenshot(phone, "table-kept-round-page")
    phone.context.set_offline(False)
    phone.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    # Board 2 was sent from the round page: the worker's copy of it is still the empty form
    # it kept. The Wi-Fi drops again: the device knows better than its copy.
    phone.context.set_offline(True)
    phone.click(f"a[data-board-key='1-{second}']")
    phone.wait_for_selector("#offline-saved", state="visible")
    assert not phone.locator("#result-form").is_visible()
    assert phone.locator("#round-link").is_visible()
    screenshot(phone, "table-kept-saved-board")
    phone.context.set_offline(False)
    rows = Result.objects.filter(section=section, table=TABLE)
    assert sorted(rows.values_list("board__number", flat=True)) == [first, second]
    assert all(rows.values_list("confirmed", flat=True))


def test_a_stored_board_corrected_offline_shows_both_and_asks_east_west_again(
    live_server, new_page
):
    section, phone = signed_in_phone(live_server, new_page)
    first, _second = plan.slot_for(section.movement, 1, TABLE).boards
    save_online(phone, section, first, confirm=False, c=THREE_NT)  # not confirmed yet
    stored = Result.objects.get(section=section, table=TABLE, board__number=first)
    phone.context.set_offline(True)
    phone.click("#correct-box summary")
    screenshot(phone, "table-kept-correction-open")
    assert in_sight(phone, "#correct-form [data-step=made]")  # the tricks, one step, in sight
    made = "+1"
    phone.click(f"#correct-form input[name=made][value='{made}'] + span")
    phone.click("#correct-button")
    phone.wait_for_selector("#saved-correction", state="visible")
    assert phone.inner_text("#correction-old").strip()
    assert made.replace("-", "−") in phone.inner_text("#correction-new")
    assert not phone.locator("#confirm-button").is_visible()  # not the result being replaced
    assert not phone.locator("#saved-nav").is_visible()  # East-West confirm the correction
    screenshot(phone, "table-kept-correction-offline")
    phone.click("#correction-confirm")
    phone.wait_for_selector("#saved-nav", state="visible")
    assert not phone.locator("#correct-box").is_visible()  # theirs now: no more changes
    phone.context.set_offline(False)
    phone.wait_for_selector("#saved-correction", state="hidden", timeout=30000)
    phone.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    stored.refresh_from_db()
    assert (stored.tricks, stored.confirmed) == (
        10,
        True,
    )  # 3NT+1, as East-West confirmed it  # East-West confirm anew


def test_a_page_not_kept_says_so_in_the_devices_language(live_server, new_page):
    section, phone = signed_in_phone(live_server, new_page)
    phone.context.set_offline(True)
    phone.goto(live_server.url + "/table/play/?round=6")  # three rounds ahead: not kept
    phone.wait_for_selector("#offline-page")
    assert phone.inner_text("#offline-page h1") == "Sin conexión"
    screenshot(phone, "table-kept-not-kept")
    phone.click("#offline-home")
    phone.wait_for_selector("#round[data-round='1']")

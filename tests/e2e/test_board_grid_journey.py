"""The director follows each board of a round on the console's grid, in es, pt and en, on a
phone and a tablet: table 1's boards entered and confirmed, table 2's rejected by the
opponents, table 3's corrected; the director opens the disputed board from its cell,
corrects it, and the grid shows it corrected. Screenshots: var/screenshots/board-grid-*.png."""

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, grant
from tests.e2e.e2e_helpers import (
    choose_language,
    journey_languages,
    login,
    no_sideways_scroll,
    screenshot,
)
from tests.e2e.test_table_entry import seven_table_mitchell
from tournaments.models import TableCode
from tournaments.services.running import corrections
from tournaments.services.setup import plan
from tournaments.services.table import entry, table_corrections

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "es": {"title": "Tableros de la ronda 1", "disputed": "Rechazado", "missing": "Falta"},
    "pt": {"title": "Mãos da ronda 1", "disputed": "Contestado", "missing": "Falta"},
    "en": {"title": "Boards of round 1", "disputed": "Disputed", "missing": "Missing"},
}


def at_table(section, table, board, tricks=10):
    code = TableCode.objects.get(section=section, table=table, active=True)
    return code, entry.submit_result(
        table_code=code,
        round=1,
        board=board,
        contract="4S",
        declarer="N",
        tricks=tricks,
        idempotency_key=f"k-{table}-{board}",
    ).result


# Resolves when the console's next poll has been swapped in and settled.
NEXT_POLL = """() => new Promise(done => document.body.addEventListener(
    "htmx:afterSettle", done, {once: true}))"""


def cell_state(page, board):
    return page.get_attribute(f"#board-state-grid a[data-board='{board}']", "data-state")


@pytest.mark.parametrize("language", journey_languages("es"))
def test_director_follows_the_boards_of_a_round(live_server, new_page, language):
    section = seven_table_mitchell()
    director = User.objects.create_user(username="td", password="pass-1234-word")
    grant(director, Role.DIRECTOR)
    boards = {slot.table: slot.boards for slot in plan.slots(section.movement) if slot.round == 1}
    first, second = boards[1]
    code, _row = at_table(section, 1, first)
    entry.confirm_result(at_table(section, 1, second)[1], table_code=code)
    code2, rejected = at_table(section, 2, boards[2][0])
    table_corrections.dispute_at_table(rejected, table_code=code2, reason="Fueron 9 bazas")
    corrected = at_table(section, 3, boards[3][0])[1]
    corrections.correct_result(
        corrected, user=director, contract="4S", declarer="N", tricks=9, reason="Planilla"
    )
    base, words = live_server.url, WORDS[language]

    phone = new_page("phone")
    choose_language(phone, base, language)
    login(phone, base, "td", "pass-1234-word")
    console = f"{base}/director/sessions/{section.session_id}/console/"
    phone.goto(console)
    phone.wait_for_selector("#board-state-grid")
    assert words["title"] in phone.inner_text("#board-states h2")
    assert phone.locator("#board-state-grid a.board-cell").count() == 14
    assert [cell_state(phone, b) for b in (first, second, boards[2][0], boards[3][0])] == [
        "entered",
        "confirmed",
        "disputed",
        "corrected",
    ]
    assert words["disputed"] in phone.inner_text("#board-states .state-legend")
    box = phone.locator(f"#board-state-grid a[data-board='{first}']").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    no_sideways_scroll(phone)
    phone.locator("#board-states").scroll_into_view_if_needed()
    screenshot(phone, f"board-grid-1-round-phone-{language}")

    # The disputed board's cell opens its line; the director corrects it.
    phone.click(f"#board-state-grid a[data-board='{boards[2][0]}']")
    phone.wait_for_selector("#dispute")
    phone.fill("#result-form input[name=contract]", "4S")
    phone.fill("#result-form input[name=result]", "-1")
    phone.fill("#result-form input[name=reason]", "Checked with both pairs")
    phone.click("#result-form button[type=submit]")
    phone.wait_for_selector(".message.success")
    phone.goto(console)
    phone.wait_for_selector("#board-state-grid")
    assert cell_state(phone, boards[2][0]) == "corrected"
    assert phone.inner_text("#board-states .badge[data-state=disputed]") == "0"
    screenshot(phone, f"board-grid-2-corrected-phone-{language}")

    # Round 2 on a tablet: nothing yet, every cell missing; the poll keeps the round.
    tablet = new_page("tablet")
    choose_language(tablet, base, language)
    login(tablet, base, "td", "pass-1234-word")
    tablet.goto(console)
    tablet.click("#board-states .round-switch a[data-round='2']")
    tablet.wait_for_selector("#board-states[data-round='2']")
    assert tablet.locator("#board-state-grid a[data-state=missing]").count() == 14
    assert words["missing"] in tablet.inner_text("#board-states .state-legend")
    tablet.evaluate(NEXT_POLL)  # one htmx poll later it still shows round 2
    assert tablet.get_attribute("#board-states", "data-round") == "2"
    no_sideways_scroll(tablet)
    screenshot(tablet, f"board-grid-3-round2-tablet-{language}")

"""Table mode on a phone (390×844): no site around the pad, each step of the score pad on
the screen without scrolling (contract → declarer → result → lead → score), the table calls
the director and the console shows it until answered, and leaving takes the director's PIN."""

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.e2e.e2e_helpers import login, no_sideways_scroll, screenshot
from tests.e2e.table_device import sign_in
from tests.e2e.test_table_entry import assert_touch_targets, seven_table_mitchell
from tournaments.models import DirectorCall, Result, TableCode
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-1234-word"

# Everything the step asks, and Save, inside the screen with the page not scrolled.
IN_VIEW = """(selector) => {
  const shown = [...document.querySelectorAll(selector)].filter(el => el.offsetParent !== null);
  const save = document.querySelector('#save-button').getBoundingClientRect();
  const out = shown.map(el => el.getBoundingClientRect())
    .filter(r => r.bottom > innerHeight || r.top < 0).length;
  return {shown: shown.length, out, scrolled: scrollY, save: save.bottom <= innerHeight};
}"""


def step_fits(page, selector: str, shot: str) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    # a step's preview may be swapped in again a moment after it first shows: give the
    # page a moment to settle, then the step must fit
    try:
        page.wait_for_function(
            f"() => {{ const r = ({IN_VIEW})({json.dumps(selector)});"
            " return r.shown > 0 && r.out === 0 && r.save; }",
            timeout=3000,
        )
    except PlaywrightTimeout:
        pass  # the assertion below says what did not fit
    seen = page.evaluate(IN_VIEW, selector)
    assert seen["shown"] > 0 and seen["out"] == 0 and seen["save"], (shot, seen)
    assert_touch_targets(page)
    screenshot(page, shot)


def test_the_phone_at_the_table(live_server, new_page):
    section = seven_table_mitchell()
    make_user("director", Role.DIRECTOR, password=PASSWORD)
    code = TableCode.objects.get(section=section, table=1, active=True)
    phone = new_page("phone")
    sign_in(phone, live_server.url, code)
    # table mode: nothing of the site to wander off to
    assert phone.locator(".site-header, .site-nav, .site-footer").count() == 0
    assert phone.locator("a[href*='/accounts/login/']").count() == 0
    no_sideways_scroll(phone)
    first = plan.slot_for(section.movement, 1, 1).boards[0]
    phone.click(f"a[data-board-key='1-{first}']")
    phone.wait_for_selector("#result-form.stepped[data-step=contract]")
    step_fits(
        phone,
        "#result-form .levels .pick span, #result-form .strains .pick span",
        "table-mode-step-contract",
    )
    assert not phone.locator("#result-form .seats").is_visible()
    phone.click("#result-form input[name=level][value='4'] + span")
    phone.click("#result-form input[name=strain][value='S'] + span")
    phone.wait_for_selector("#result-form[data-step=declarer]")
    step_fits(
        phone,
        "#result-form .seats .pick span, #result-form .doubles .pick span",
        "table-mode-step-declarer",
    )
    phone.click("#result-form input[name=declarer][value='N'] + span")
    phone.wait_for_selector("#result-form[data-step=made]")
    step_fits(phone, "#result-form .made .pick span", "table-mode-step-result")
    phone.click("#result-form input[name=made][value='+1'] + span")
    phone.wait_for_selector("#result-form[data-step=lead]")
    phone.click(".lead-picker summary")
    phone.click("#result-form input[name=lead_suit][value='H'] + span")
    step_fits(phone, "#result-form .lead-ranks .pick span", "table-mode-step-lead")
    phone.click("#result-form input[name=lead_rank][value='T'] + span")
    phone.wait_for_selector("#result-form[data-step=score]")
    assert "4" in phone.inner_text(".step-summary") and "+1" in phone.inner_text(".step-summary")
    phone.wait_for_selector("#preview .preview-score[data-points='450']")
    step_fits(phone, "#preview .preview-score", "table-mode-step-score")
    phone.click(".step-back")  # back one step: the lead
    phone.wait_for_selector("#result-form[data-step=lead]")
    phone.click(".step-back")
    phone.wait_for_selector("#result-form[data-step=made]")
    phone.click("#result-form input[name=made][value='='] + span")
    phone.wait_for_selector("#result-form[data-step=lead]")  # the lead kept: Save at once
    phone.click("#save-button")
    phone.wait_for_selector("#board-screen[data-state=saved] #confirm-button")
    assert Result.objects.get(section=section, table=1).ns_score == 420
    phone.click("#confirm-button")
    phone.wait_for_selector("#traveller, #board-in-play")

    # the table calls the director; the console shows it; answered, it clears
    phone.click("#call-director")
    phone.wait_for_selector("#director-called")
    screenshot(phone, "table-mode-director-called")
    assert DirectorCall.objects.filter(answered_at=None).count() == 1
    desk = new_page("desktop")
    login(desk, live_server.url, "director", PASSWORD)
    desk.goto(f"{live_server.url}/director/sessions/{section.session_id}/console/")
    desk.wait_for_selector("#director-calls [data-table='A1']")
    screenshot(desk, "console-director-call")
    desk.click("#director-calls .answer-call")
    desk.wait_for_selector("#director-calls", state="detached")
    phone.wait_for_selector("#call-director", timeout=20000)  # its screen asked again

    # leaving takes the director's PIN
    phone.click("#round-link")
    phone.wait_for_selector("#round")
    phone.click("#leave-box summary")
    phone.fill("#leave-pin", "0000" if section.session.table_pin != "0000" else "1111")
    phone.click("#leave-box button[type=submit]")
    phone.wait_for_selector("#round")  # still at the table
    assert "PIN" in phone.inner_text(".messages")
    phone.click("#leave-box summary")
    section.session.refresh_from_db()
    phone.fill("#leave-pin", section.session.table_pin)
    phone.click("#leave-box button[type=submit]")
    phone.wait_for_selector(".sign-in")

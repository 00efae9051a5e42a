"""The small behaviours that were inline onclick handlers, now in static js/site.js (the
Content Security Policy runs no inline script): the licences page's "all" checkbox. The
console listener of conftest.py fails the test on any CSP violation."""

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from tests.e2e.e2e_helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_all_checkbox_ticks_and_clears_every_member(live_server, new_page):
    build_club()
    page = new_page("desktop")
    login(page, live_server.url, "secretaria", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/club/licences/renew/")
    members = page.locator("input[name=member]")
    assert members.count() > 0
    page.click("input[data-check-all]")
    assert all(not box.is_checked() for box in members.all())
    page.click("input[data-check-all]")
    assert all(box.is_checked() for box in members.all())

"""Every page of the club works on a phone, a tablet and a desktop, with 44px touch targets."""

import pytest
from playwright.sync_api import expect

from clubsite.demo import DEMO_PASSWORD, build_club
from tests.e2e.e2e_helpers import login, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/",
    "/club/members/",
    "/club/members/new/",
    "/club/arrears/",
    "/club/import/",
    "/club/fees/",
    "/club/me/",
    "/club/money/",
    "/club/money/unpaid/",
    "/club/money/balances/",
    "/club/money/rates/",
    "/club/money/balances/{member}/",  # a member of the club: ids are not the club's own
]

TARGETS = (
    "main a, main button, main input, main select, header a, header button, "
    "header label.nav-toggle-label"
)
SMALL_TARGETS = (
    """() => [...document.querySelectorAll('"""
    + TARGETS
    + """')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden')
  .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
  .filter(([html, r]) => r.width > 0 && (r.height < 43.5 || r.width < 27.5))
  .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
)


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_touch_targets_and_no_horizontal_scroll(live_server, new_page, viewport):
    from clubsite.models import Member

    build_club()
    member = Member.objects.order_by("pk").first()
    page = new_page(viewport)
    login(page, live_server.url, "secretaria", DEMO_PASSWORD)
    for pattern in PAGES:
        path = pattern.format(member=member.pk)
        response = page.goto(live_server.url + path)
        assert response.ok, path
        name = pattern.replace("{member}", "member").strip("/").replace("/", "-") or "home"
        screenshot(page, f"layout-{viewport}-{name}")
        assert page.evaluate(SMALL_TARGETS) == [], path
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{path} scrolls sideways by {overflow}px"


def test_phone_menu_opens(live_server, new_page):
    build_club()
    page = new_page("phone")
    login(page, live_server.url, "secretaria", DEMO_PASSWORD)
    page.goto(live_server.url + "/")
    members_link = page.locator("nav.site-nav a[href='/club/members/']")
    expect(members_link).to_be_hidden()
    page.click("label.nav-toggle-label")
    expect(members_link).to_be_visible()
    screenshot(page, "layout-phone-menu")


def test_director_pages_on_a_phone(live_server, new_page):
    """A director with only a phone can still reach and use every set-up and running page."""
    from clubsite.demo import build_demo
    from tournaments.models import Section, Tournament

    build_demo()
    evening = Tournament.objects.get(slug__endswith="-tarde")
    session = evening.sessions.get()
    section = session.sections.get()
    teams = Tournament.objects.get(slug__endswith="-equipos-de-otono")
    individual = Section.objects.get(session__tournament__slug__endswith="individual-de-otono")
    upcoming = Tournament.objects.get(slug__endswith="torneo-de-primavera")  # online entries
    paths = [
        "/director/",
        f"/director/{evening.pk}/",
        f"/director/{evening.pk}/entries/",
        f"/director/sessions/{session.pk}/",
        f"/director/sessions/{session.pk}/console/",
        f"/director/sections/{section.pk}/movement/",
        f"/director/sections/{section.pk}/seating/",
        f"/director/sections/{section.pk}/boards/",
        f"/director/{evening.pk}/audit/",
        f"/director/sessions/{session.pk}/penalties/",
        f"/director/{teams.pk}/teams/",
        f"/director/sections/{individual.pk}/movement/individual/",
        "/director/new/",
        f"/director/{upcoming.pk}/",
        f"/director/{upcoming.pk}/registrations/",
        f"/director/sessions/{session.pk}/fees/",
        f"/director/sessions/{session.pk}/cash/",
    ]
    page = new_page("phone")
    login(page, live_server.url, "director", DEMO_PASSWORD)
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        screenshot(page, "layout-phone" + path.rstrip("/").replace("/", "-"))
        assert page.evaluate(SMALL_TARGETS) == [], path
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{path} scrolls sideways by {overflow}px"

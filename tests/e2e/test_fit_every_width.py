"""Every public page, the table device's pages and the member's own pages fit a 360px phone, a
390px phone, a 768px tablet and a 1280px desktop without sideways scrolling, in each language;
on a desktop the header takes at most two lines.

One browser context per width and language, the pages visited in a loop (the run stays short).
"""

import pytest

from clubsite.accounts.permissions import grant
from clubsite.demo import DEMO_PASSWORD, build_demo
from tests.demo_pages import demo_pages
from tests.e2e.e2e_helpers import login, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# (width, language): the longest words (Portuguese) on the smallest phone, the club's Spanish on
# the common phone and the desktop, English on the tablet.
RUNS = [(360, "pt"), (390, "es"), (768, "en"), (1280, "es")]
SCREENSHOT_WIDTHS = {390, 1280}

OVERFLOW = """() => Math.max(document.documentElement.scrollWidth
    - document.documentElement.clientWidth, document.documentElement.scrollWidth - innerWidth)"""
# A ranking, a scorecard or a player's history read on a phone keeps its last column (the
# percentage, the place) in view: no such table wider than its box.
WIDE_RANKINGS = """() => [...document.querySelectorAll(
  'table.ranking, table.season, table.scorecard, table.history')]
  .filter(t => t.scrollWidth > t.parentElement.clientWidth)
  .map(t => `${t.className} ${t.scrollWidth}px in ${t.parentElement.clientWidth}px`)"""
# The header's lines: its height in touch-high lines (the brand's height, 44px) with the gap
# between them.
HEADER_ROWS = """() => {
  if (!document.querySelector('.site-header')) return 1;  // table mode: the table's own bar
  const bar = document.querySelector('.site-header .bar').getBoundingClientRect().height;
  const line = document.querySelector('.site-header .brand').getBoundingClientRect().height;
  return Math.floor((bar + 4) / (line + 4));
}"""


def build():
    build_demo()
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())


def check(page, base, path, width, language, problems, shot=None, status=200):
    response = page.goto(base + path)
    assert response.status == status, f"{path}: {response.status}"
    overflow = page.evaluate(OVERFLOW)
    if overflow > 0:
        problems.append(f"{width}px {language} {path}: scrolls sideways by {overflow}px")
    for wide in page.evaluate(WIDE_RANKINGS):
        problems.append(f"{width}px {language} {path}: {wide}")
    if width >= 1280:
        rows = page.evaluate(HEADER_ROWS)
        if rows > 2:
            problems.append(f"{width}px {language} {path}: header on {rows} lines")
    if shot and width in SCREENSHOT_WIDTHS:
        screenshot(page, f"fit-{width}-{language}-{shot}")


def test_every_page_fits_every_width(live_server, browser):
    from django.conf import settings

    build()
    pages = demo_pages()
    base = live_server.url
    host = base.split("://")[1].split(":")[0]
    problems = []
    for width, language in RUNS:
        context = browser.new_context(
            viewport={"width": width, "height": 900}, has_touch=width < 1024
        )
        context.add_cookies(
            [
                {
                    "name": settings.LANGUAGE_COOKIE_NAME,
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        page = context.new_page()
        for i, path in enumerate(pages.public):
            check(page, base, path, width, language, problems, shot=f"public-{i:02d}")
        check(page, base, "/no-such-page/", width, language, problems, shot="not-found", status=404)
        login(page, base, "jugador", DEMO_PASSWORD)
        for i, path in enumerate(pages.member + ["/"]):
            check(page, base, path, width, language, problems, shot=f"member-{i}")
        check(page, base, "/club/members/", width, language, problems, shot="forbidden", status=403)
        context.close()

        device = browser.new_context(
            viewport={"width": width, "height": 900}, has_touch=width < 1024
        )
        device.add_cookies(
            [
                {
                    "name": settings.LANGUAGE_COOKIE_NAME,
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        page = device.new_page()
        page.goto(f"{base}/table/")
        page.fill("input[name=table]", pages.table_code.label)
        page.fill("input[name=code]", pages.table_code.code)
        page.click(".code-form button[type=submit]")
        page.wait_for_selector("#round")
        for i, path in enumerate(pages.table):
            check(page, base, path, width, language, problems, shot=f"table-{i}")
        device.close()
    assert not problems, "\n".join(problems)


def test_header_takes_two_lines_on_a_desktop(live_server, browser):
    """The longest header: a small club's secretary who also directs and plays (every link),
    with a long name, in each language."""
    from django.conf import settings
    from django.contrib.auth.models import User

    from clubsite.accounts.permissions import Role
    from clubsite.demo import build_club

    build_club()
    user = User.objects.create_user(
        "todo",
        password=DEMO_PASSWORD,
        first_name="María Concepción",
        last_name="Domínguez de la Fuente Magalhães",
    )
    grant(user, Role.SECRETARY, Role.DIRECTOR, Role.PLAYER)
    host = live_server.url.split("://")[1].split(":")[0]
    lines = {}
    for language in ("es", "pt", "en"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies(
            [
                {
                    "name": settings.LANGUAGE_COOKIE_NAME,
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        page = context.new_page()
        login(page, live_server.url, "todo", DEMO_PASSWORD)
        page.goto(live_server.url + "/")
        assert page.locator("nav.site-nav a").count() == 9
        lines[language] = page.evaluate(HEADER_ROWS)
        screenshot(page, f"fit-1280-{language}-every-role-home")
        context.close()
    assert all(n <= 2 for n in lines.values()), lines

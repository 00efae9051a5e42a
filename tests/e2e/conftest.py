"""Browser fixtures: Playwright driving Debian's chromium against pytest-django's live server.

Screenshots land in var/screenshots/ so a person can look at every journey.
"""

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
VIEWPORTS = {"desktop": (1280, 900), "tablet": (768, 1024), "phone": (390, 844)}

# Playwright's sync API runs an event loop in this thread; Django must allow its ORM here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-quic", "--no-first-run",
                  "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """``new_page("tablet")`` gives a fresh page in its own browser context.

    Every page listens to its console: a message about the Content Security Policy (an
    inline script or style the browser refused) fails the test at teardown.
    """
    contexts = []
    violations = []

    def watch(page):
        page.on("console", lambda message: violations.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text else None)

    def make(viewport: str = "desktop"):
        width, height = VIEWPORTS[viewport]
        context = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=viewport != "desktop",
            is_mobile=viewport == "phone",
            locale="en-GB",
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        context.on("page", watch)  # pages the journey opens itself (popups, new tabs)
        page = context.new_page()
        return page

    yield make
    for context in contexts:
        context.close()
    assert not violations, "Content Security Policy violations:\n" + "\n".join(violations)

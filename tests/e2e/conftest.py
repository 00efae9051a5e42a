"""Browser fixtures: Playwright driving Debian's chromium against pytest-django's live server.

Screenshots land in var/screenshots/ so a person can look at every journey.
"""

import os
import threading
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
VIEWPORTS = {
    "desktop": (1280, 900),
    "tablet": (768, 1024),
    "phone": (390, 844),
    "tv": (1920, 1080),  # the room screen on a TV or projector
}

# Playwright's sync API runs an event loop in this thread; Django must allow its ORM here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _live_server_connections_per_request(monkeypatch):
    """The live server answers each browser socket in a thread of its own, which lives as
    long as the browser keeps the socket alive; with the site's persistent connections
    (``CONN_MAX_AGE``) each such thread kept a PostgreSQL connection idle until then — 45 in
    the director's tablet journey, and three journeys at once ran the server out of its 100
    ("too many clients"). Here each request closes its connection when it ends."""
    from django.db import connections

    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)


class _RequestGate:
    """The live server's requests, counted, and refused once a journey is over.

    A request a closed page had already sent (a table device's poll) could still reach the
    live server while the test's database was being flushed; PostgreSQL's TRUNCATE then
    deadlocked with that request's query, the flush failed and the next journey on that
    process met the last one's rows. The teardown shuts this gate, waits for the requests
    inside to end and only then lets the flush run. One gate a journey (``_request_gate``);
    the test client's requests (no WSGI handler: the sender is its own class, or None when
    a response closes) pass untouched."""

    def __init__(self):
        self.open = True
        self.inside = 0
        self.changed = threading.Condition()

    @staticmethod
    def _served(sender) -> bool:
        from django.core.handlers.wsgi import WSGIHandler

        return isinstance(sender, type) and issubclass(sender, WSGIHandler)

    def started(self, sender, **kwargs):
        if not self._served(sender):
            return
        with self.changed:
            if not self.open:
                raise RuntimeError("the journey is over: the live server takes no request")
            self.inside += 1

    def finished(self, sender, **kwargs):
        if not self._served(sender):
            return
        with self.changed:
            self.inside = max(0, self.inside - 1)
            self.changed.notify_all()

    def shut(self, seconds: float = 10.0) -> None:
        with self.changed:
            self.open = False
            self.changed.wait_for(lambda: self.inside == 0, timeout=seconds)


_GATES: list[_RequestGate] = []  # the last journey's, listening until the next one starts


@pytest.fixture(autouse=True)
def _request_gate(request):
    """For a test with the live server: a gate of its own on the server's requests. It stays
    connected, shut, after the test (through the flush, whatever order pytest-django tears
    its database fixtures down in) until the next such test replaces it."""
    if "live_server" not in request.fixturenames:
        yield None
        return
    from django.core.signals import request_finished, request_started

    gate = _RequestGate()
    request_started.disconnect(dispatch_uid="e2e-gate-started")  # the last journey's
    request_finished.disconnect(dispatch_uid="e2e-gate-finished")
    request_started.connect(gate.started, dispatch_uid="e2e-gate-started")
    request_finished.connect(gate.finished, dispatch_uid="e2e-gate-finished")
    _GATES[:] = [gate]
    yield gate


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-quic",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, request):
    """``new_page("tablet")`` gives a fresh page in its own browser context.

    Every page listens to its console: a message about the Content Security Policy (an
    inline script or style the browser refused) fails the test at teardown.
    """
    contexts = []
    violations = []

    def watch(page):
        page.on(
            "console",
            lambda message: (
                violations.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def make(viewport: str = "desktop"):
        width, height = VIEWPORTS[viewport]
        context = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=viewport in ("tablet", "phone"),
            is_mobile=viewport == "phone",
            locale="en-GB",
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        context.on("page", watch)  # pages the journey opens itself (popups, new tabs)
        page = context.new_page()
        return page

    yield make
    try:
        for context in contexts:
            context.close()
    finally:
        if "live_server" in request.fixturenames:
            for gate in _GATES:
                gate.shut()
            _requests_done()
    assert not violations, "Content Security Policy violations:\n" + "\n".join(violations)


def _requests_done(seconds: float = 10.0) -> None:
    """Wait until no other session of the test database is inside a query or a transaction
    (after ``_RequestGate.shut``, anything else that may still hold one)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                "current_database() AND pid <> pg_backend_pid() AND state IN "
                "('active', 'idle in transaction')"
            )
            if not cursor.fetchone()[0]:
                return
        time.sleep(0.05)

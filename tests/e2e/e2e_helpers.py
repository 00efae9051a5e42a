"""Steps every browser journey shares: screenshots, logging in, switching language."""

import os
from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
# Screenshots are for a person to look at; they assert nothing. `.ci/run` sets
# CLUBSITE_SCREENSHOTS=0 (nobody looks at them there, and a full-page PNG costs the browser
# about an eighth of a journey's CPU); `make test` and a run by hand take them.
TAKE_SCREENSHOTS = os.environ.get("CLUBSITE_SCREENSHOTS", "1") != "0"


LANGUAGES = ("es", "pt", "en")


def journey_languages(own: str) -> list[str]:
    """The languages a journey runs in: all three, or only its ``own`` where
    CLUBSITE_JOURNEY_LANGUAGES=own (`.ci/run`, for time: four journeys a language). What a
    journey checks only in the browser (a board fetched again through the table's service
    worker, a decimal typed with a comma, a message built by a view) goes in a language
    other than English, the source strings', so a string left untranslated shows.
    tests/tournaments/boards/test_language_tokens.py still checks the public, member and table
    pages in all three, without a browser; `make test` on its own runs each of these
    journeys in all three."""
    assert own in LANGUAGES
    return [own] if os.environ.get("CLUBSITE_JOURNEY_LANGUAGES") == "own" else list(LANGUAGES)


def screenshot(page, name: str) -> Path:
    """A full-page PNG of ``page`` in var/screenshots/ (unless CLUBSITE_SCREENSHOTS=0)."""
    path = SCREENSHOTS / f"{name}.png"
    if TAKE_SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
    return path


def login(page, base_url: str, username: str, password: str) -> None:
    """Signed in as ``username`` without the form: the journeys that are not about signing in
    get the session cookie (Django's test client signs in) and stay where they were; the next
    page they open is signed in. Typing the form costs the browser the form, a post and the
    home page each time; ``login_with_form`` does it, in at least one journey of each role."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.signed_in import sign_in_verified

    user = get_user_model().objects.get(username=username)
    assert user.is_active and user.check_password(password), f"{username} cannot sign in"
    client = sign_in_verified(Client(), user)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "url": base_url,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        ]
    )


def login_with_form(page, base_url: str, username: str, password: str) -> None:
    """Signing in as a person does: the form, typed, and for staff the second step with the
    code their phone's app would show (setting the app up first, from the key on the page,
    if the account has none yet)."""
    from tests.signed_in import app_code, key_code

    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    if "/accounts/two-factor/setup/" in page.url:
        secret = page.locator("#two-factor-secret").inner_text()
        page.fill("input[name=code]", key_code(secret))
        page.click("form.stacked button[type=submit]")
        page.wait_for_selector("#two-factor-codes")
        page.click("#codes-kept")
        page.wait_for_url(lambda url: "/accounts/two-factor/" not in url)
    elif "/accounts/two-factor/" in page.url:
        from django_otp.plugins.otp_totp.models import TOTPDevice

        device = TOTPDevice.objects.get(user__username=username, confirmed=True)
        page.fill("input[name=code]", app_code(device))
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/two-factor/" not in url)


def choose_language(page, base_url: str, code: str) -> None:
    """Use the header's language switcher, as a person would."""
    page.goto(f"{base_url}/")
    page.click(f".lang-switch button[value={code}]")
    page.wait_for_load_state()


def pick_player(page, slot: int, member) -> None:
    """On the entries page: find a player by licence number and tick them for ``slot``."""
    page.fill(f"#q{slot}", member.licence_number)
    radio = page.locator(f"#results-{slot} input[value='{member.pk}']")
    radio.wait_for()
    radio.check()


def no_sideways_scroll(page) -> None:
    page.wait_for_load_state("load")  # a page's own stylesheets are part of its width
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page scrolls sideways: {width}px"


def touch_targets(page, selector, size: int = 44) -> None:
    """Every element matching ``selector`` (at least one) is a finger's size: ``size`` px
    high and wide at the least."""
    boxes = [box for box in (el.bounding_box() for el in page.locator(selector).all()) if box]
    assert boxes, f"nothing visible matches {selector}"
    for box in boxes:
        assert box["height"] >= size and box["width"] >= size, f"{selector}: {box}"


def fits_its_box(page, selector) -> None:
    """A table a phone reads whole: no column hidden behind a scroll inside its box.

    Measured once the page's stylesheets have loaded: a selector can appear before a page's
    own stylesheet (teams.css hides the phone's secondary columns) has arrived on a busy machine.
    """
    page.wait_for_load_state("load")
    table, box = page.evaluate(f"""() => {{ const t = document.querySelector('{selector}');
        return [t.scrollWidth, t.parentElement.clientWidth]; }}""")
    assert table <= box, f"{selector} is {table}px wide in a {box}px box"

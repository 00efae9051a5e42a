"""A director's two-factor sign-in in a real browser: the first sign-in sets up the app
(QR code and typed key), the recovery codes are shown once, the next sign-in asks for the
app's code, and a lost phone is a recovery code; on a phone in Spanish and a tablet in
Portuguese."""

import re

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from tests.e2e.e2e_helpers import choose_language, no_sideways_scroll, screenshot
from tests.signed_in import app_code, key_code

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "es": {
        "setup": "Configurar el inicio de sesión en dos pasos",
        "wrong": "no es correcto",
        "step": "Segundo paso",
        "left": "quedan 9",
    },
    "pt": {
        "setup": "Configurar o início de sessão em dois passos",
        "wrong": "não está correto",
        "step": "Segundo passo",
        "left": "restam 9",
    },
}


def _password(page, base) -> None:
    page.goto(f"{base}/director/")  # the page asked for, before signing in
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def _tall_enough(page, selector) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box["height"] >= 44, f"{selector} is {box['height']} px high"


@pytest.mark.parametrize("language,viewport", [("es", "phone"), ("pt", "tablet")])
def test_director_sets_up_and_uses_two_factor_sign_in(live_server, new_page, language, viewport):
    build_club()
    base = live_server.url
    words = WORDS[language]
    name = f"two-factor-{language}-{viewport}"
    page = new_page(viewport)
    choose_language(page, base, language)

    # first sign-in: the password, then setting up the app before any page
    _password(page, base)
    assert "/accounts/two-factor/setup/" in page.url
    assert words["setup"] in page.inner_text("h1")
    assert page.evaluate("document.querySelector('#two-factor-qr').naturalWidth") > 0
    no_sideways_scroll(page)
    _tall_enough(page, "input[name=code]")
    _tall_enough(page, "form.stacked button[type=submit]")
    screenshot(page, f"{name}-setup")
    secret = page.locator("#two-factor-secret").inner_text()
    page.fill("input[name=code]", "123 45")  # a slip: said so, and the page stays
    page.click("form.stacked button[type=submit]")
    assert words["wrong"] in page.inner_text("#two-factor-setup")
    assert page.input_value("input[name=code]") == "123 45"  # what was typed is kept
    assert page.locator("#two-factor-secret").inner_text() == secret  # the same key
    page.wait_for_timeout(1100)  # a wrong code makes the next wait a second (then 2, 4…)
    page.fill("input[name=code]", key_code(secret))
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("#two-factor-codes")
    codes = re.findall(r"\b[a-z2-7]{8}\b", page.inner_text("ol.recovery-codes"))
    assert len(codes) == 10
    no_sideways_scroll(page)
    screenshot(page, f"{name}-codes")
    page.click("#codes-kept")
    page.wait_for_url(f"{base}/director/")

    # signing out and in again: the app's code is asked after the password
    page.click("form.logout button")
    page.wait_for_load_state()
    _password(page, base)
    assert "/accounts/two-factor/" in page.url
    assert words["step"] in page.inner_text("h1")
    assert page.get_attribute("input[name=code]", "autocomplete") == "one-time-code"
    screenshot(page, f"{name}-verify")
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.get(user__username="director", confirmed=True)
    page.fill("input[name=code]", app_code(device))
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}/director/")

    # a lost phone: a recovery code instead, once
    page.click("form.logout button")
    page.wait_for_load_state()
    _password(page, base)
    page.click("#use-recovery-code")
    page.fill("input[name=code]", codes[0].upper())
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(f"{base}/director/")
    assert words["left"] in page.inner_text("body")
    screenshot(page, f"{name}-recovered")
    page.goto(f"{base}/accounts/two-factor/manage/")
    assert re.search(r"\b9\b", page.inner_text("#two-factor-manage"))
    screenshot(page, f"{name}-manage")

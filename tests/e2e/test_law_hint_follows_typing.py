"""The adjusted-score form's law hint follows what the director types (issue #35, finding
5: after typing 12C2 the hint still read 12C1). htmx asks the server as the field changes;
no inline script, so the CSP watch of ``new_page`` stays quiet."""

import datetime

import pytest
from django.urls import reverse

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.e2e.e2e_helpers import login
from tournaments.movements import mitchell
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def section(db):
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())
    tournament = setup.create_tournament(name="Martes", date=datetime.date(2026, 11, 24))
    session = tournament.sessions.get()
    players = [
        Member.objects.create(
            first_name=f"N{i}", last_name=f"Apellido{i:02d}", licence_number=f"E-{i:03d}"
        )
        for i in range(12)
    ]
    entries = [registration.register_entry(tournament, players[i : i + 2]) for i in range(0, 12, 2)]
    section = setup.add_section(session, "A")
    setup.seat_section(section, mitchell(3, 3, 2).to_dict(), entries)
    setup.start_session(session)
    return section


def test_the_hint_follows_the_typed_law(new_page, live_server, section):
    make_user("ana", Role.DIRECTOR)
    page = new_page("desktop")
    login(page, live_server.url, "ana", "pass-1234-word")
    page.goto(live_server.url + reverse("director:line", args=[section.pk, 1, 1, 1]))
    hint = page.locator("#adjust-form #law-hint a.law-link")
    assert "#C2" in hint.get_attribute("href")  # an artificial score: 12C2a
    field = page.locator("#adjust-form input[name=law]")
    assert field.input_value() == "12C2a"
    # the law follows the kind while the director has not typed one of their own
    page.select_option("#adjust-form select[name=kind]", "weighted")
    assert field.input_value() == "12C1c"
    page.wait_for_function(
        "() => ((document.querySelector('#law-hint a') || {}).hash || '').startsWith('#C1')",
        timeout=10000,
    )
    page.select_option("#adjust-form select[name=kind]", "artificial")
    assert field.input_value() == "12C2a"
    field.fill("")
    field.press_sequentially("12C2", delay=50)
    page.wait_for_function(
        "() => (document.querySelector('#law-hint a') || {}).hash === '#C2'", timeout=10000
    )
    assert "12C2" in page.locator("#adjust-form #law-hint").inner_text()
    field.fill("")
    field.press_sequentially("xx", delay=50)
    page.wait_for_function("() => !document.querySelector('#law-hint a')", timeout=10000)
    # a law the director typed stays when the kind changes
    field.fill("")
    field.press_sequentially("16B", delay=50)
    page.select_option("#adjust-form select[name=kind]", "split")
    assert field.input_value() == "16B"

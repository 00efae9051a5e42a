"""A player whose account Club Sur opened is asked by this club to link it: the mail's link
on her phone, her sign-in, the page saying which club asks and as which member, her "yes"."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from clubsite.accounts.member_accounts import open_player_account
from clubsite.accounts.permissions import Role, roles_of
from clubsite.models import AccountLink, Club, Member
from clubsite.tenancy import club_scope
from tests.e2e.e2e_helpers import no_sideways_scroll, screenshot, touch_targets

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Trébol-2026!x"


def test_the_owner_confirms_the_link_on_her_phone(live_server, new_page, settings):
    settings.SITE_URL = ""
    club = Club.objects.get(pk=settings.DEFAULT_CLUB_ID)
    club.name = "Club Norte"
    club.save()
    sur = Club.objects.create(name="Club Sur", slug="sur", host="sur.example.org")
    ana = User.objects.create_user(
        "ana", email="ana@example.org", password=PASSWORD, first_name="Ana"
    )
    with club_scope(sur):
        Member.objects.create(first_name="Ana", last_name="Alba", licence_number="A-77", user=ana)
    here = Member.objects.create(
        first_name="Ana", last_name="Alba Ruiz", licence_number="A-77", email="ana@example.org"
    )
    assert open_player_account(here).waiting is not None
    path = re.search(r"/club/account-link/\S+/", mail.outbox[0].body)[0]
    base = live_server.url

    phone = new_page("phone")
    phone.goto(base + path)  # not signed in: the sign-in form, then back to the link
    assert "/accounts/login/" in phone.url
    phone.fill("input[name=username]", "ana")
    phone.fill("input[name=password]", PASSWORD)
    phone.click("form.stacked button[type=submit]")
    phone.wait_for_selector("#account-link")
    assert phone.locator("#account-link-club").inner_text() == "Club Norte"
    assert phone.locator("#account-link-member").inner_text() == "Ana Alba Ruiz"
    no_sideways_scroll(phone)
    touch_targets(phone, "#account-link button")
    screenshot(phone, "account-link-phone")

    phone.click("#account-link-confirm")
    phone.wait_for_url(f"{base}/club/me/")
    assert "Club Norte" in phone.locator(".messages").inner_text()
    here.refresh_from_db()
    assert here.user == ana and roles_of(User.objects.get(pk=ana.pk)) == {Role.PLAYER}
    assert AccountLink.objects.get().state == "confirmed"
    screenshot(phone, "account-link-confirmed-phone")

    phone.goto(base + path)  # the used link: refused, nothing changed
    assert "ya se ha usado" in phone.locator("#account-link-refused").inner_text()

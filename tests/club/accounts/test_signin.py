"""Sign-in throttling (django-axes): a username is locked out from one address after five
wrong passwords, for fifteen minutes, with a translated 429 page; every failure is stored
and logged; a success clears the count; the client's address is read safely."""

import datetime
import logging

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.auth import get_user
from django.test import Client, RequestFactory
from django.urls import reverse

from clubsite.accounts.signin import client_ip

pytestmark = pytest.mark.django_db

PASSWORD = "pass-1234-word"  # tests.conftest.make_user's


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    """Dozens of sign-ins per test: a cheap hasher (before the users are made)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(client, username, password, ip="198.51.100.7", **headers):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **headers
    )


def signed_in(client) -> bool:
    return get_user(client).is_authenticated


def test_five_wrong_passwords_lock_the_username_from_that_address(secretary, settings):
    client = Client()
    for _ in range(4):
        assert sign_in(client, "sec", "wrong").status_code == 200  # the form again
    locked = sign_in(client, "sec", "wrong")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert 'id="locked-out"' in html and "15 minutos" in html  # Spanish, the default
    # Now even the right password is refused, with the same page.
    again = sign_in(client, "sec", PASSWORD)
    assert again.status_code == 429 and not signed_in(client)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("pt", "Tente novamente dentro de 15 minutos"),
        ("en", "Try again in 15 minutes"),
        ("es", "Vuelva a intentarlo dentro de 15 minutos"),
    ],
)
def test_the_lockout_page_speaks_the_visitors_language(secretary, settings, language, words):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for _ in range(5):
        response = sign_in(client, "sec", "wrong")
    assert response.status_code == 429 and words in response.content.decode()


def test_the_lock_is_for_that_username_and_that_address_only(secretary, director):
    attacker = Client()
    for _ in range(5):
        sign_in(attacker, "sec", "wrong")
    assert sign_in(attacker, "sec", PASSWORD).status_code == 429
    # The secretary at home, and the director at the attacker's address, still sign in.
    home = Client()
    assert sign_in(home, "sec", PASSWORD, ip="203.0.113.20").status_code == 302
    colleague = Client()
    assert sign_in(colleague, "dir", PASSWORD).status_code == 302


def test_the_lock_ends_after_the_cool_off(secretary):
    client = Client()
    for _ in range(5):
        sign_in(client, "sec", "wrong")
    assert sign_in(client, "sec", PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=16)
    )
    assert sign_in(client, "sec", PASSWORD).status_code == 302 and signed_in(client)


def test_a_success_clears_the_count(secretary):
    client = Client()
    for _ in range(4):
        sign_in(client, "sec", "wrong")
    assert sign_in(client, "sec", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert sign_in(client, "sec", "wrong").status_code == 200
    assert sign_in(client, "sec", PASSWORD).status_code == 302


def test_every_failure_is_stored_and_logged_without_the_password(secretary, caplog):
    client = Client()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            sign_in(client, "sec", "Sec-ret-guess", HTTP_USER_AGENT="guesser/1.0")
    failures = [
        r for r in caplog.records if r.name.startswith("axes") and "login failure" in r.getMessage()
    ]
    assert len(failures) == 3
    assert AccessFailureLog.objects.filter(username="sec", ip_address="198.51.100.7").count() == 3
    attempt = AccessAttempt.objects.get(username="sec")
    assert attempt.failures_since_start == 3 and "Sec-ret-guess" not in attempt.post_data
    assert not any("Sec-ret-guess" in r.getMessage() for r in caplog.records)


def test_a_forged_forwarded_for_is_ignored_when_not_behind_a_proxy(secretary, settings):
    settings.BEHIND_HTTPS_PROXY = False
    client = Client()
    for n in range(5):
        response = sign_in(client, "sec", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert response.status_code == 429  # counted against the real peer every time
    assert set(AccessFailureLog.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}


def test_behind_the_proxy_the_client_is_the_entry_the_proxy_appended(settings):
    factory = RequestFactory()
    settings.BEHIND_HTTPS_PROXY, settings.TRUSTED_PROXY_COUNT = True, 1
    forged = factory.get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.9"
    )
    assert client_ip(forged) == "203.0.113.9"
    assert (
        client_ip(factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9"))
        == "203.0.113.9"
    )
    assert client_ip(factory.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
    assert (
        client_ip(factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip"))
        == "127.0.0.1"
    )
    settings.TRUSTED_PROXY_COUNT = 2  # a CDN in front of our proxy
    assert (
        client_ip(
            factory.get(
                "/",
                REMOTE_ADDR="127.0.0.1",
                HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.9, 198.51.100.1",
            )
        )
        == "203.0.113.9"
    )
    settings.BEHIND_HTTPS_PROXY = False
    assert client_ip(forged) == "127.0.0.1"


def test_tests_keep_signing_in_with_force_login_and_login(secretary, client):
    from django.http import HttpRequest

    assert client.login(request=HttpRequest(), username="sec", password=PASSWORD)
    assert signed_in(client)
    other = Client()
    other.force_login(secretary)
    assert signed_in(other)


def test_guesses_for_one_account_from_many_addresses_are_slowed_too(secretary, director, settings):
    """Password spraying from a botnet: each address stays under axes' five, but the
    account stops taking sign-ins after LOGIN_ACCOUNT_FAILURE_LIMIT and says when to try."""
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 6
    for i in range(6):
        assert sign_in(Client(), "sec", "wrong", ip=f"203.0.113.{i}").status_code == 200
    refused = sign_in(Client(), "SEC", PASSWORD, ip="198.51.100.99")  # any case, any address
    assert refused.status_code == 200
    assert "Vuelva a intentarlo dentro de 15 minutos" in refused.content.decode()
    assert not AccessAttempt.objects.filter(ip_address="198.51.100.99").exists()  # not checked
    # other accounts are not slowed by it
    colleague = Client()
    assert sign_in(colleague, "dir", PASSWORD, ip="203.0.113.1").status_code == 302
    from django.core.cache import cache

    cache.clear()  # the window ends
    back = Client()
    assert sign_in(back, "sec", PASSWORD, ip="198.51.100.99").status_code == 302


def test_a_user_name_longer_than_any_account_s_is_a_form_error(secretary):
    """Axes keeps 255 characters of a failed user name: a longer one is refused by the form
    (PostgreSQL refused to store it: a 500), and counts as no failure."""
    response = sign_in(Client(), "9" * 415, "whatever")
    assert response.status_code == 200 and response.context["form"].errors["username"]
    assert not AccessAttempt.objects.exists()
    assert sign_in(Client(), "x" * 150, "whatever").status_code == 200  # still just wrong
    assert AccessAttempt.objects.filter(username="x" * 150).exists()

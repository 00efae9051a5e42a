"""Two-factor sign-in (OWASP ASVS 2.7–2.8): staff set up an authenticator app before their
first page, give its code after the password every time, may use a recovery code once each,
and a password alone opens nothing but the second step; players may turn it on for
themselves. Codes are computed as a phone's app computes them (RFC 6238)."""

import datetime
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clubsite.accounts.permissions import Role, grant
from tests.conftest import make_user
from tests.signed_in import app_code, key_code

pytestmark = pytest.mark.django_db

PASSWORD = "pass-1234-word"  # tests.conftest.make_user's


def password_step(client: Client, username: str, next_url: str = "") -> object:
    url = reverse("login") + (f"?next={next_url}" if next_url else "")
    return client.post(
        url,
        {"username": username, "password": PASSWORD, "next": next_url},
        REMOTE_ADDR="198.51.100.20",
    )


def secret_of(page: str) -> str:
    return re.search(r'id="two-factor-secret"[^>]*>([A-Z2-7 ]+)<', page).group(1)


def with_app(user) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="phone", confirmed=True)


def test_a_new_director_sets_up_the_app_before_any_page(director):
    client = Client()
    answer = password_step(client, "dir", reverse("director:index"))
    # the sign-in goes to the page asked for; the page sends the director to set up
    held = client.get(answer["Location"])
    setup = reverse("two_factor_setup")
    assert held.status_code == 302 and held["Location"].startswith(setup)
    page = client.get(held["Location"])
    body = page.content.decode()
    assert "Configurar el inicio de sesión en dos pasos" in body
    secret = secret_of(body)
    qr = client.get(reverse("two_factor_qr"))
    assert qr["Content-Type"] == "image/svg+xml" and qr.content.startswith(b"<?xml")
    assert not TOTPDevice.objects.filter(user=director).exists()  # reading stores nothing
    again = client.get(held["Location"]).content.decode()
    assert secret in again  # the same key until it is confirmed

    wrong = client.post(
        held["Location"], {"code": "000000" if key_code(secret) != "000000" else "111111"}
    )
    assert "no es correcto" in wrong.content.decode()
    too_soon = client.post(held["Location"], {"code": key_code(secret)})
    assert "Demasiados códigos incorrectos" in too_soon.content.decode()
    pending = TOTPDevice.objects.get(user=director, confirmed=False)
    assert secret.replace(" ", "") in pending.config_url  # the key typed = the key scanned
    pending.throttle_reset()
    done = client.post(held["Location"], {"code": key_code(secret)})
    assert done.status_code == 302 and done["Location"].startswith(reverse("two_factor_codes"))
    codes_page = client.get(done["Location"]).content.decode()
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", codes_page)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert 'href="/director/"' in codes_page  # "continue" goes to the page first asked for
    assert client.get(reverse("two_factor_codes")).status_code == 302  # shown only once
    assert client.get(reverse("director:index")).status_code == 200
    assert TOTPDevice.objects.get(user=director).confirmed


def test_the_password_alone_opens_nothing_but_the_second_step(director, secretary):
    admin = make_user("root", password=PASSWORD)
    admin.is_staff = admin.is_superuser = True
    admin.save()
    for user, pages in (
        (director, ["director:index", "director:tournament_create"]),
        (secretary, ["clubsite:member_list", "clubsite:club_settings"]),
        (admin, ["admin:index", "clubsite:member_list"]),
    ):
        with_app(user)
        client = Client()
        password_step(client, user.username)
        verify = reverse("two_factor_verify")
        for name in pages + ["home", "results:index", "clubsite:profile"]:
            got = client.get(reverse(name))
            assert got.status_code == 302 and got["Location"].startswith(verify), name
        # nor a form posted, nor an htmx request: the whole page is sent to the step
        posted = client.post(reverse("clubsite:member_list"))
        assert posted.status_code == 302 and posted["Location"] == verify
        hx = client.get(reverse("director:index"), HTTP_HX_REQUEST="true")
        assert hx["HX-Redirect"] == verify
        # and the app cannot be moved to another phone with the password alone
        assert client.get(reverse("two_factor_setup"))["Location"] == verify
        assert client.get(reverse("two_factor_qr")).status_code == 403
        assert client.post(reverse("logout")).status_code == 302  # signing out stays open


def test_the_code_after_the_password_then_the_page_asked_for(director):
    device = with_app(director)
    client = Client()
    password_step(client, "dir", "/director/")
    before = client.session.session_key
    page = client.get(reverse("two_factor_verify") + "?next=/director/")
    assert "Segundo paso" in page.content.decode()
    assert 'autocomplete="one-time-code"' in page.content.decode()
    done = client.post(
        reverse("two_factor_verify"), {"code": app_code(device), "next": "/director/"}
    )
    assert done.status_code == 302 and done["Location"] == "/director/"
    assert client.session.session_key != before  # a new key once the second factor is in
    assert client.get("/director/").status_code == 200


def test_a_code_is_taken_once_and_wrong_codes_slow_down(director):
    device = with_app(director)
    first, second = Client(), Client()
    password_step(first, "dir")
    password_step(second, "dir")
    code = app_code(device)
    assert first.post(reverse("two_factor_verify"), {"code": code}).status_code == 302
    replay = second.post(reverse("two_factor_verify"), {"code": code})
    assert replay.status_code == 200  # seen over a shoulder: worth nothing a second time
    assert "no es correcto" in replay.content.decode()
    # the failure above started the throttle: the next try, even right, waits
    slowed = second.post(reverse("two_factor_verify"), {"code": app_code(device, 1)})
    assert "Demasiados códigos incorrectos" in slowed.content.decode()
    assert "Vuelva a intentarlo dentro de" in slowed.content.decode()
    device.refresh_from_db()
    device.throttling_failure_timestamp = timezone.now() - datetime.timedelta(seconds=5)
    device.save()
    assert (
        second.post(reverse("two_factor_verify"), {"code": app_code(device, 1)}).status_code == 302
    )


def test_open_redirects_are_refused(director):
    device = with_app(director)
    client = Client()
    password_step(client, "dir")
    done = client.post(
        reverse("two_factor_verify"), {"code": app_code(device), "next": "https://evil.example/"}
    )
    assert done["Location"] == "/"


def test_a_recovery_code_works_once(director):
    device = with_app(director)
    setup_client = Client()
    password_step(setup_client, "dir")
    setup_client.post(reverse("two_factor_verify"), {"code": app_code(device)})
    made = setup_client.post(reverse("two_factor_codes"))  # "Make new recovery codes"
    page = setup_client.get(made["Location"]).content.decode()
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", page)
    assert len(codes) == 10

    lost_phone = Client()
    password_step(lost_phone, "dir")
    form = lost_phone.get(reverse("two_factor_verify") + "?with=recovery").content.decode()
    assert "Código de recuperación" in form
    used = lost_phone.post(
        reverse("two_factor_verify") + "?with=recovery",
        {"code": codes[3].upper()[:4] + " " + codes[3][4:]},
    )
    assert used.status_code == 302
    assert "quedan 9" in lost_phone.get("/").content.decode()
    again = Client()
    password_step(again, "dir")
    refused = again.post(reverse("two_factor_verify") + "?with=recovery", {"code": codes[3]})
    assert "no es válido o ya se usó" in refused.content.decode()
    assert StaticToken.objects.filter(device__user=director).count() == 9


def test_new_recovery_codes_replace_the_old_ones(director, director_client):
    first = director_client.post(reverse("two_factor_codes"))
    old = re.findall(
        r"<code>([a-z2-7]{8})</code>", director_client.get(first["Location"]).content.decode()
    )
    director_client.post(reverse("two_factor_codes"))
    assert not StaticToken.objects.filter(token__in=old).exists()
    assert StaticToken.objects.filter(device__user=director).count() == 10


def test_moving_the_app_to_another_phone_keeps_the_old_one_until_the_new_one_speaks(
    director, director_client
):
    old = TOTPDevice.objects.get(user=director, confirmed=True)
    page = director_client.get(reverse("two_factor_setup")).content.decode()
    assert "sustituye" in page
    director_client.post(reverse("two_factor_setup"), {"code": key_code(secret_of(page))})
    assert TOTPDevice.objects.get(user=director).pk != old.pk  # the new one, alone


def test_a_player_is_not_asked_until_they_turn_it_on(player):
    client = Client()
    password_step(client, player.username)
    assert client.get(reverse("clubsite:profile")).status_code == 200
    manage = client.get(reverse("two_factor_manage")).content.decode()
    assert "Desactivado" in manage
    page = client.get(reverse("two_factor_setup")).content.decode()
    client.post(reverse("two_factor_setup"), {"code": key_code(secret_of(page))})
    device = TOTPDevice.objects.get(user=player, confirmed=True)
    assert "Desactivar" in client.get(reverse("two_factor_manage")).content.decode()

    later = Client()
    password_step(later, player.username)
    assert later.get(reverse("clubsite:profile"))["Location"].startswith(
        reverse("two_factor_verify")
    )
    device.refresh_from_db()
    later.post(reverse("two_factor_verify"), {"code": app_code(device, 1)})
    assert later.post(reverse("two_factor_off")).status_code == 302
    assert not TOTPDevice.objects.filter(user=player).exists()
    after = Client()
    password_step(after, player.username)
    assert after.get(reverse("clubsite:profile")).status_code == 200


def test_staff_cannot_turn_it_off_while_their_role_requires_it(director, director_client):
    answer = director_client.post(reverse("two_factor_off"), follow=True)
    assert "Su función exige" in answer.content.decode()
    assert TOTPDevice.objects.filter(user=director, confirmed=True).exists()


def test_off_for_the_demo_staff_are_not_held(settings, director):
    settings.STAFF_TWO_FACTOR = False
    client = Client()
    password_step(client, "dir")
    assert client.get(reverse("director:index")).status_code == 200
    with_app(director)  # turned on by the director: asked anyway
    other = Client()
    password_step(other, "dir")
    assert other.get(reverse("director:index")).status_code == 302


def test_the_administrator_resets_a_lost_phone_and_ends_every_session(director):
    device = with_app(director)
    old = Client()  # a session that gave both steps, left open somewhere
    password_step(old, "dir")
    old.post(reverse("two_factor_verify"), {"code": app_code(device)})
    assert old.get("/director/").status_code == 200
    call_command("reset_two_factor", "dir", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert not TOTPDevice.objects.filter(user=director).exists()
    assert old.get("/director/")["Location"].startswith(reverse("login"))  # not the set-up
    client = Client()
    password_step(client, "dir")
    assert client.get("/director/")["Location"].startswith(reverse("two_factor_setup"))


def test_a_session_signed_in_before_it_was_turned_on_owes_the_code_too(player):
    """Turned on in one browser: a session signed in elsewhere with the password alone is
    held from its next page, and can neither make recovery codes nor turn it off."""
    elsewhere = Client()
    password_step(elsewhere, player.username)
    assert elsewhere.get(reverse("clubsite:profile")).status_code == 200
    here = Client()
    password_step(here, player.username)
    page = here.get(reverse("two_factor_setup")).content.decode()
    here.post(reverse("two_factor_setup"), {"code": key_code(secret_of(page))})
    verify = reverse("two_factor_verify")
    assert elsewhere.get(reverse("clubsite:profile"))["Location"].startswith(verify)
    assert elsewhere.post(reverse("two_factor_codes"))["Location"].startswith(verify)
    assert elsewhere.post(reverse("two_factor_off"))["Location"].startswith(verify)
    assert TOTPDevice.objects.filter(user=player, confirmed=True).exists()
    assert StaticToken.objects.filter(device__user=player).count() == 10


def test_continue_goes_home_when_nothing_was_asked_for(player):
    client = Client()
    password_step(client, player.username)
    page = client.get(reverse("two_factor_setup")).content.decode()
    assert "también un código" in page  # a player's choice, not "your account needs"
    assert 'href="otpauth://totp/' in page  # opens the app on the phone showing the page
    done = client.post(reverse("two_factor_setup"), {"code": key_code(secret_of(page))})
    codes = client.get(done["Location"]).content.decode()
    assert 'id="codes-kept" href="/"' in codes
    assert "ya no sirven" not in codes  # the first codes replace none
    client.post(reverse("two_factor_codes"))
    assert "ya no sirven" in client.get(reverse("two_factor_codes")).content.decode()


def test_an_abandoned_set_up_leaves_one_row_at_most(director):
    for _ in range(3):
        client = Client()
        password_step(client, "dir")
        client.get(reverse("two_factor_setup"))
        client.post(reverse("two_factor_setup"), {"code": "000000"})
    assert TOTPDevice.objects.filter(user=director, confirmed=False).count() == 1


def test_the_pages_speak_portuguese_and_english(director):
    with_app(director)
    for language, words in (("pt", "Segundo passo"), ("en", "Second step")):
        client = Client()
        client.cookies["django_language"] = language
        password_step(client, "dir")
        assert words in client.get(reverse("two_factor_verify")).content.decode()


def test_a_player_with_the_role_of_director_later_is_held_at_once(player):
    """A role given during a session: the next page asks for the second factor."""
    client = Client()
    password_step(client, player.username)
    assert client.get("/").status_code == 200

    grant(player, Role.DIRECTOR)
    assert client.get("/")["Location"].startswith(reverse("two_factor_setup"))

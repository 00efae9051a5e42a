"""Staff accounts held to more (ASVS level 2): twelve characters at least for their
passwords, and a session that ends after a quiet spell; players and tables unchanged."""

import time

import pytest
from django.contrib.auth import get_user
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from clubsite.accounts.staff_sessions import LAST_SEEN

pytestmark = pytest.mark.django_db


def quiet_for(client, minutes):
    session = client.session
    session[LAST_SEEN] = time.time() - minutes * 60
    session.save()


def test_staff_passwords_need_twelve_characters(director, secretary, player):
    with translation.override("en"):
        for staff in (director, secretary):
            with pytest.raises(ValidationError) as caught:
                validate_password("Bridge-11ch", user=staff)  # eleven
            assert "at least 12 characters" in " ".join(caught.value.messages)
            validate_password("Bridge-12chr", user=staff)
        validate_password("Bridge-11ch", user=player)  # Django's minimum for the others


def test_a_director_cannot_change_to_a_short_password(director_client, director):
    response = director_client.post(
        reverse("password_change"),
        {
            "old_password": "pass-1234-word",
            "new_password1": "Corto-2026x",
            "new_password2": "Corto-2026x",
        },
    )
    assert response.status_code == 200  # the form again, with the reason
    assert "12 caracteres" in response.content.decode()
    director.refresh_from_db()
    assert director.check_password("pass-1234-word")


def test_a_staff_session_ends_after_the_quiet_spell(director_client, settings):
    settings.STAFF_IDLE_MINUTES = 30
    assert director_client.get(reverse("director:index")).status_code == 200
    quiet_for(director_client, 29)
    assert director_client.get(reverse("director:index")).status_code == 200  # still in
    quiet_for(director_client, 31)
    response = director_client.get(reverse("director:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")
    assert not get_user(director_client).is_authenticated
    page = director_client.get(response["Location"])
    assert "sin actividad" in page.content.decode()  # said, in the club's language


def test_an_htmx_poll_neither_keeps_it_alive_nor_gets_the_sign_in_form(director_client, settings):
    settings.STAFF_IDLE_MINUTES = 30
    quiet_for(director_client, 10)
    before = director_client.session[LAST_SEEN]
    director_client.get(reverse("director:index"), HTTP_HX_REQUEST="true")
    assert director_client.session[LAST_SEEN] == before  # a poll is not activity
    quiet_for(director_client, 31)
    polled = director_client.get(reverse("director:index"), HTTP_HX_REQUEST="true")
    assert polled["HX-Redirect"].startswith(reverse("login"))


def test_players_and_tables_keep_their_sessions(player_client, settings):
    settings.STAFF_IDLE_MINUTES = 30
    quiet_for(player_client, 300)
    assert get_user(player_client).is_authenticated
    player_client.get(reverse("home"))
    assert get_user(player_client).is_authenticated

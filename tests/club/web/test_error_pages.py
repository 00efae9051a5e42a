"""403, 404 and 500 pages look like the site, speak the reader's language and lead home; the
favicon is linked and served at /favicon.ico."""

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from clubsite.accounts.permissions import Role, grant

NOT_FOUND = {"es": "Página no encontrada", "pt": "Página não encontrada", "en": "Page not found"}
FORBIDDEN = {"es": "No permitido", "pt": "Não permitido", "en": "Not allowed"}
BROKEN = {"es": "Algo ha fallado", "pt": "Algo correu mal", "en": "Something went wrong"}


def styled_with_a_way_home(html: str) -> None:
    assert "/static/css/site.css" in html
    assert 'id="error-home" href="/"' in html
    assert 'class="site-header"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_not_found_page(client, settings, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    styled_with_a_way_home(html)
    assert NOT_FOUND[language] in html
    assert f'<html lang="{language}">' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_forbidden_page(client, settings, language):
    player = User.objects.create_user("pl", password="x-pass-1234")
    grant(player, Role.PLAYER)
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("clubsite:member_list"))
    assert response.status_code == 403
    html = response.content.decode()
    styled_with_a_way_home(html)
    assert FORBIDDEN[language] in html


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_server_error_page_needs_no_database(language):
    """No django_db mark: any database read (the club's name, the user) would fail the test."""
    request = RequestFactory().get("/broken/")
    with translation.override(language):
        response = server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    styled_with_a_way_home(html)
    assert BROKEN[language] in html


@pytest.mark.django_db
def test_favicon_linked_and_served(client):
    html = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in html
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert client.get("/static/favicon.svg").status_code == 200

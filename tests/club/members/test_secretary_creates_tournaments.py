"""A secretary can create tournaments when the club's settings say so; directors always."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Club
from tests.signed_in import sign_in_verified
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW = {"name": "Torneo de Navidad", "date": "2026-12-20", "session_count": 1}


def _form_data(director_client):
    """The tournament form as a director gets it, filled in (its fields and defaults)."""
    form = director_client.get(reverse("director:tournament_create")).context["form"]
    data = {name: field.initial for name, field in form.fields.items() if field.initial is not None}
    data.update({k: v for k, v in NEW.items() if k in form.fields})
    return {k: ("on" if v is True else v) for k, v in data.items() if v is not False}


def test_refused_unless_the_club_allows_it(secretary_client):
    assert secretary_client.get(reverse("director:tournament_create")).status_code == 403
    home = secretary_client.get(reverse("home")).content.decode()
    assert 'id="secretary-new-tournament"' not in home


def test_allowed_by_the_club_the_secretary_creates_one(secretary_client, director):
    director_client = Client()
    sign_in_verified(director_client, director)
    data = _form_data(director_client)
    # the secretary turns it on in the club settings
    club = Club.current()
    club.secretaries_create_tournaments = True
    club.save()
    home = secretary_client.get(reverse("home")).content.decode()
    assert 'id="secretary-new-tournament"' in home
    response = secretary_client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    tournament = Tournament.objects.get(name="Torneo de Navidad")
    assert tournament.date == datetime.date(2026, 12, 20)
    # setting it up stays the director's
    url = reverse("director:tournament", args=[tournament.pk])
    assert secretary_client.get(url).status_code == 403
    assert director_client.get(url).status_code == 200


def test_club_settings_offer_the_switch(secretary_client):
    html = secretary_client.get(reverse("clubsite:club_settings")).content.decode()
    assert 'name="secretaries_create_tournaments"' in html

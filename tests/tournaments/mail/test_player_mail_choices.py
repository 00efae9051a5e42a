"""A member's results mails are theirs to set through HTTP (the opt-out and the language),
and the secretary sees the opt-out; from an empty club, apart from the demo's rows of
test_results_mail_views.py."""

import pytest
from django.urls import reverse

from clubsite.models import Member
from tests.conftest import make_user
from tests.signed_in import sign_in_verified

pytestmark = pytest.mark.django_db


def test_a_player_opts_out_and_chooses_the_language_of_mails(db, client):
    user = make_user("socia", "Player")
    member = Member.objects.create(
        first_name="Ana", last_name="Sol", user=user, email="ana@example.org"
    )
    sign_in_verified(client, user)
    answer = client.post(
        reverse("clubsite:profile"),
        {"email": "ana@example.org", "phone": "", "language": "pt", "results_mail": ""},
    )
    assert answer.status_code == 302
    member.refresh_from_db()
    assert member.results_mail is False and member.language == "pt"
    bad = client.post(
        reverse("clubsite:profile"),
        {"email": "not-an-address", "phone": "", "language": "xx", "results_mail": "on"},
    )
    assert bad.status_code == 200 and bad.context["form"].errors.keys() == {"email", "language"}
    assert b"not-an-address" in bad.content
    member.refresh_from_db()
    assert member.results_mail is False and member.email == "ana@example.org"


def test_the_secretary_sees_the_opt_out(db, secretary_client):
    member = Member.objects.create(first_name="Ana", last_name="Sol", results_mail=False)
    page = secretary_client.get(member.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es")
    assert 'id="member-results-mail">no (se ha dado de baja)' in page.content.decode()

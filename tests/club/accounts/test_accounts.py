"""Player accounts opened by the secretary; the member sets the password from the mail."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.http import HttpRequest
from django.urls import reverse

from clubsite.accounts.permissions import roles_of
from clubsite.models import Category, Member

pytestmark = pytest.mark.django_db


def test_secretary_opens_an_account_and_the_member_sets_a_password(secretary_client, client):
    member = Member.objects.create(
        first_name="Begoña", last_name="Núñez", email="begona@example.com"
    )
    response = secretary_client.post(reverse("clubsite:account_open", args=[member.pk]))
    assert response.status_code == 302
    member.refresh_from_db()
    user = member.user
    assert user.username == "begona" and roles_of(user) == {"Player"}
    assert len(mail.outbox) == 1 and "begona" in mail.outbox[0].body
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+)", mail.outbox[0].body)[1]
    page = client.get(link, follow=True)
    assert page.context["validlink"]
    client.post(
        page.redirect_chain[-1][0],
        {"new_password1": "Trébol-2026!x", "new_password2": "Trébol-2026!x"},
    )
    assert client.login(request=HttpRequest(), username="begona", password="Trébol-2026!x")
    # A second account for the same member is refused.
    secretary_client.post(reverse("clubsite:account_open", args=[member.pk]))
    assert User.objects.filter(memberships=member).count() == 1


def test_member_without_email_gets_an_account_and_a_warning(secretary_client):
    member = Member.objects.create(first_name="Sin", last_name="Correo")
    response = secretary_client.post(
        reverse("clubsite:account_open", args=[member.pk]), follow=True
    )
    assert Member.objects.get(pk=member.pk).user is not None
    assert not mail.outbox
    assert any(m.level_tag == "warning" for m in response.context["messages"])


def test_player_cannot_open_accounts(player_client):
    member = Member.objects.create(first_name="A", last_name="B")
    assert player_client.post(reverse("clubsite:account_open", args=[member.pk])).status_code == 403


def test_secretary_edits_categories(secretary_client):
    response = secretary_client.post(
        reverse("clubsite:categories"),
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "0",
            "form-0-code": "sub25",
            "form-0-name": "Sub-25",
        },
    )
    assert response.status_code == 302
    assert Category.objects.get(code="sub25").name == "Sub-25"

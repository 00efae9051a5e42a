"""Every view says who may use it, and the declarations hold."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.signed_in import sign_in_verified

SECRETARY_PAGES = [
    ("clubsite:member_list", []),
    ("clubsite:member_create", []),
    ("clubsite:member_export", []),
    ("clubsite:licences_renew", []),
    ("clubsite:roster_import", []),
    ("clubsite:arrears", []),
    ("clubsite:fee_schedule", []),
    ("clubsite:club_settings", []),
    ("clubsite:audit_log", []),
    ("clubsite:categories", []),
]


def _walk(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue  # Django's admin guards itself: staff only
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def test_every_view_declares_who_may_use_it():
    undeclared = [
        route
        for route, view in _walk(get_resolver().url_patterns)
        if not getattr(view, "access", None)
        and not getattr(getattr(view, "view_class", None), "access", None)
    ]
    assert undeclared == []


@pytest.mark.django_db
@pytest.mark.parametrize("name,args", SECRETARY_PAGES)
def test_player_cannot_open_secretary_pages(player_client, name, args):
    assert player_client.get(reverse(name, args=args)).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("name,args", SECRETARY_PAGES)
def test_anonymous_visitor_is_sent_to_login(client, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
@pytest.mark.parametrize("name,args", SECRETARY_PAGES)
def test_secretary_opens_secretary_pages(secretary_client, name, args):
    assert secretary_client.get(reverse(name, args=args)).status_code == 200


@pytest.mark.django_db
def test_director_is_not_a_secretary(client, director):
    sign_in_verified(client, director)
    assert client.get(reverse("clubsite:member_list")).status_code == 403


@pytest.mark.django_db
def test_player_cannot_post_to_secretary_actions(player_client, demo_club):
    from clubsite.models import Member

    member = Member.objects.first()
    response = player_client.post(reverse("clubsite:licence_renew", args=[member.pk]))
    assert response.status_code == 403
    response = player_client.post(
        reverse("clubsite:payment_create", args=[member.pk]), {"amount": "10"}
    )
    assert response.status_code == 403

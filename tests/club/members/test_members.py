"""Member list, forms and the player's own details."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.members.services import LicenceState, members_with_licence_state, search_members
from clubsite.models import Category, Licence, LicenceStatus, Member, Season

pytestmark = pytest.mark.django_db


def test_bad_member_form_keeps_what_was_typed_and_explains_in_spanish(secretary_client):
    response = secretary_client.post(
        reverse("clubsite:member_create"),
        {
            "first_name": "Ramón",
            "last_name": "",
            "email": "no-es-un-correo",
            "status": "active",
            "licence_number": "X-77",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Ramón"' in html and 'value="X-77"' in html and "no-es-un-correo" in html
    assert "Este campo es obligatorio." in html
    assert not Member.objects.exists()


def test_bad_member_form_in_portuguese(secretary_client):
    secretary_client.cookies["django_language"] = "pt"
    response = secretary_client.post(
        reverse("clubsite:member_create"),
        {"first_name": "Ana", "last_name": "", "status": "active"},
    )
    assert "Este campo é obrigatório." in response.content.decode()


def test_licence_number_is_unique_when_present(secretary_client):
    Member.objects.create(first_name="A", last_name="B", licence_number="L1")
    Member.objects.create(first_name="C", last_name="D")
    Member.objects.create(first_name="E", last_name="F")  # two without number are fine
    response = secretary_client.post(
        reverse("clubsite:member_create"),
        {"first_name": "G", "last_name": "H", "licence_number": "L1", "status": "active"},
    )
    assert response.status_code == 200
    assert Member.objects.filter(licence_number="L1").count() == 1


def test_search_ignores_accents_and_case():
    Member.objects.create(first_name="Begoña", last_name="Núñez Ibáñez", licence_number="99")
    Member.objects.create(first_name="Juan", last_name="Pérez")
    found = search_members(Member.objects.all(), "NUNEZ begona")
    assert [m.first_name for m in found] == ["Begoña"]
    assert search_members(Member.objects.all(), "99").count() == 1
    # a NUL typed into the search box (PostgreSQL refuses it in a query) finds the same
    assert [m.first_name for m in search_members(Member.objects.all(), "NU\x00NEZ")] == ["Begoña"]


def test_licence_state_is_derived_for_every_case(demo_club):
    season = Season.current()
    states = {m.licence_state for m in members_with_licence_state(season)}
    assert {
        LicenceState.VALID,
        LicenceState.IN_PROGRESS,
        LicenceState.EXPIRED,
        LicenceState.CANCELLED,
        LicenceState.NONE,
    } <= states
    member = Member.objects.create(first_name="N", last_name="New")
    Licence.objects.create(
        member=member, season=season.previous(), federation="AEB", status=LicenceStatus.ACTIVE
    )
    state = members_with_licence_state(season).get(pk=member.pk).licence_state
    assert state == LicenceState.EXPIRED  # last season's licence does not cover this one


def test_member_list_filters_expired_licences(secretary_client, demo_club):
    response = secretary_client.get(reverse("clubsite:member_list"), {"licence_state": "expired"})
    rows = response.context["table"].rows
    assert len(rows) > 0
    assert {row.record.licence_state for row in rows} == {LicenceState.EXPIRED}


def test_member_list_query_count_does_not_grow_with_members(secretary_client, demo_club):
    def count(per_page):
        with CaptureQueriesContext(connection) as ctx:
            secretary_client.get(reverse("clubsite:member_list"), {"per_page": per_page})
        return len(ctx.captured_queries)

    count(10)  # the page's first request also reads the club (then kept in the cache)
    small = count(10)
    category = Category.objects.first()
    Member.objects.bulk_create(
        Member(first_name=f"F{i}", last_name=f"L{i}", category=category, search_text=f"l{i}")
        for i in range(300)
    )
    assert count(100) == small


def test_player_edits_only_own_contact_details(client, player):
    member = Member.objects.create(first_name="P", last_name="Q", user=player, notes="secret")
    other = Member.objects.create(first_name="O", last_name="R", email="o@example.com")
    client.force_login(player)
    response = client.post(
        reverse("clubsite:profile"),
        {
            "email": "new@example.com",
            "phone": "600",
            "privacy_consent": "on",
            "notes": "hacked",
            "status": "deceased",
            "licence_number": "Z",
        },
    )
    assert response.status_code == 302
    member.refresh_from_db()
    other.refresh_from_db()
    assert member.email == "new@example.com" and member.privacy_consent_on is not None
    assert member.notes == "secret" and member.status == "active" and member.licence_number == ""
    assert other.email == "o@example.com"


def test_changes_appear_in_the_audit_log(secretary_client, secretary):
    secretary_client.post(
        reverse("clubsite:member_create"),
        {"first_name": "Ana", "last_name": "Audit", "status": "active"},
    )
    member = Member.objects.get(last_name="Audit")
    secretary_client.post(
        reverse("clubsite:member_edit", args=[member.pk]),
        {"first_name": "Ana", "last_name": "Audited", "status": "active"},
    )
    record = member.history.first()
    assert record.history_user == secretary
    html = secretary_client.get(reverse("clubsite:audit_log")).content.decode()
    assert "Audit" in html and "Audited" in html

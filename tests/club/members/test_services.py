"""Licences, payments, arrears, exports and the demo club."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from clubsite.demo import build_club
from clubsite.members import services
from clubsite.members.exports import csv_text, safe_cell
from clubsite.models import (
    Category,
    Fee,
    FeeKind,
    Licence,
    LicenceStatus,
    Member,
    Payment,
    Season,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_with_fees():
    season = Season.current()
    category = Category.objects.create(code="std", name="Standard")
    Fee.objects.create(
        season=season, kind=FeeKind.MEMBERSHIP, category=category, amount=Decimal("100")
    )
    Fee.objects.create(season=season, kind=FeeKind.LICENCE, category=category, amount=Decimal("30"))
    return season, category


def test_season_follows_the_club_start_month():
    season = Season.for_date(datetime.date(2026, 8, 31))
    assert (season.start, season.end, season.name) == (
        datetime.date(2025, 9, 1),
        datetime.date(2026, 8, 31),
        "2025-26",
    )
    assert season.next().start == datetime.date(2026, 9, 1)


def test_renewal_requests_a_licence_with_the_scheduled_fee(season_with_fees):
    season, category = season_with_fees
    member = Member.objects.create(
        first_name="A", last_name="B", category=category, licence_number="L9"
    )
    licence = services.renew_licence(member, season)
    assert (licence.status, licence.fee, licence.number) == (
        LicenceStatus.REQUESTED,
        Decimal("30"),
        "L9",
    )
    assert services.renew_licence(member, season).pk == licence.pk  # twice: one licence
    licence.status = LicenceStatus.EXPIRED
    licence.save()
    assert services.renew_licence(member, season).status == LicenceStatus.REQUESTED


def test_licence_payment_marks_licence_paid_and_clears_arrears(season_with_fees):
    season, category = season_with_fees
    member = Member.objects.create(first_name="A", last_name="B", category=category)
    services.renew_licence(member, season)
    assert [(a.due, a.paid) for a in services.arrears(season)] == [(Decimal("130"), 0)]
    services.record_payment(
        member=member,
        season=season,
        kind=FeeKind.LICENCE,
        amount=Decimal("30"),
        method="cash",
        paid_on=datetime.date.today(),
    )
    assert Licence.objects.get(member=member).paid
    services.record_payment(
        member=member,
        season=season,
        kind=FeeKind.MEMBERSHIP,
        amount=Decimal("100"),
        method="cash",
        paid_on=datetime.date.today(),
    )
    assert services.arrears(season) == []


def test_payment_form_rejects_zero_and_keeps_input(secretary_client, season_with_fees):
    season, category = season_with_fees
    member = Member.objects.create(first_name="A", last_name="B", category=category)
    response = secretary_client.post(
        reverse("clubsite:payment_create", args=[member.pk]),
        {
            "season": season.pk,
            "kind": "membership",
            "amount": "0",
            "method": "cash",
            "paid_on": "2026-10-01",
            "note": "recibo 12",
        },
    )
    assert response.status_code == 200
    assert "recibo 12" in response.content.decode()
    assert not Payment.objects.exists()
    response = secretary_client.post(
        reverse("clubsite:payment_create", args=[member.pk]),
        {
            "season": season.pk,
            "kind": "membership",
            "amount": "100",
            "method": "cash",
            "paid_on": "2026-10-01",
            "note": "recibo 12",
        },
    )
    assert response.status_code == 302
    assert Payment.objects.get().recorded_by.username == "sec"


def test_csv_cells_cannot_run_formulas():
    assert safe_cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert safe_cell("+34 600") == "'+34 600"
    assert safe_cell("@SUM(A1)") == "'@SUM(A1)"
    assert safe_cell("Peña") == "Peña"
    assert csv_text(["a"], [["-1+2"]]).splitlines()[1] == "'-1+2"


def test_demo_is_idempotent():
    build_club()
    counts = (Member.objects.count(), Licence.objects.count(), Payment.objects.count())
    build_club()
    assert (Member.objects.count(), Licence.objects.count(), Payment.objects.count()) == counts
    assert counts[0] == 60

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


def test_bulk_renewal_for_next_season(secretary_client, demo_club):
    season = Season.current().next()
    proposed = list(services.members_to_renew(season))
    assert proposed
    response = secretary_client.post(
        reverse("clubsite:licences_renew"),
        {"season": season.pk, "member": [m.pk for m in proposed]},
    )
    assert response.status_code == 302
    assert Licence.objects.filter(season=season, status=LicenceStatus.REQUESTED).count() == len(
        proposed
    )
    assert not services.members_to_renew(season).exists()


def test_csv_cells_cannot_run_formulas():
    assert safe_cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert safe_cell("+34 600") == "'+34 600"
    assert safe_cell("@SUM(A1)") == "'@SUM(A1)"
    assert safe_cell("Peña") == "Peña"
    assert csv_text(["a"], [["-1+2"]]).splitlines()[1] == "'-1+2"


def test_export_follows_the_filter(secretary_client, demo_club):
    Member.objects.create(first_name="=cmd|' /C calc'!A0", last_name="Zzz", licence_number="X1")
    response = secretary_client.get(reverse("clubsite:member_export"), {"q": "zzz"})
    lines = response.content.decode("utf-8-sig").splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("Zzz;'=cmd")


@pytest.mark.parametrize(
    ("language", "sep", "expected"),
    [
        ("es", None, ";"),
        ("pt", None, ";"),
        ("en", None, ","),
        ("es", "comma", ","),
        ("en", "semicolon", ";"),
        ("en", "tab", "\t"),
        ("es", "bogus", ";"),
    ],
)
def test_export_opens_in_a_spreadsheet(
    secretary_client, demo_club, settings, language, sep, expected
):
    """A UTF-8 byte order mark (Excel reads "Peña" right) and the locale's separator, or the
    one asked for with ?sep=."""
    Member.objects.create(first_name="Íñigo", last_name="Zzz Peña", licence_number="X2")
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    params = {"q": "zzz"} | ({"sep": sep} if sep else {})
    response = secretary_client.get(reverse("clubsite:member_export"), params)
    assert response.status_code == 200
    assert response.content.startswith(b"\xef\xbb\xbf")
    header, row = response.content.decode("utf-8-sig").splitlines()
    assert row.split(expected)[:3] == ["Zzz Peña", "Íñigo", "X2"]
    assert len(header.split(expected)) == 9


def test_member_list_offers_the_other_separator(secretary_client, demo_club):
    page = secretary_client.get(reverse("clubsite:member_list"), {"q": "a"}).content.decode()
    assert "sep=comma" in page


def test_demo_is_idempotent():
    build_club()
    counts = (Member.objects.count(), Licence.objects.count(), Payment.objects.count())
    build_club()
    assert (Member.objects.count(), Licence.objects.count(), Payment.objects.count()) == counts
    assert counts[0] == 60


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_member_table_and_its_csv_read_one_column_list(
    secretary_client, demo_club, settings, language
):
    """The page's headings are the CSV's, in the same order: both read MEMBER_COLUMNS, and
    the CSV only adds the columns kept off the page (in_table=False) after them."""
    from django.utils import translation

    from clubsite.members.columns import MEMBER_COLUMNS
    from clubsite.members.tables import MemberTable

    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    content = secretary_client.get(reverse("clubsite:member_export"), {"sep": "comma"}).content
    csv_header = content.decode("utf-8-sig").splitlines()[0].split(",")
    with translation.override(language):
        from clubsite.web.collation import Collated

        table = MemberTable(
            Member.objects.annotate(  # as the list view sorts it
                last_name_sort=Collated("last_name"), first_name_sort=Collated("first_name")
            )
        )
        table_headers = [str(c.header) for c in table.columns if c.name != "select"]
        listed = [str(c.header) for c in MEMBER_COLUMNS]
        on_page = [str(c.header) for c in MEMBER_COLUMNS if c.in_table]
    assert csv_header == listed
    assert table_headers == on_page == csv_header[: len(table_headers)]
    assert [c.name for c in table.columns][1:] == [c.name for c in MEMBER_COLUMNS if c.in_table]

"""Fees, payments and arrears at the service level: exact amounts, fixed dates.

A fee change mid-season is a new line of the schedule with the day it applies from; it
applies to charges made from that day (a licence requested, a member joining), never to
charges made before it. Editing a line's amount corrects it for everyone.
"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from clubsite.members import services
from clubsite.models import (
    Fee,
    FeeKind,
    Licence,
    LicenceStatus,
    MemberStatus,
    Payment,
    Season,
)
from tests.club.conftest import day

pytestmark = pytest.mark.django_db
D = Decimal


def pay(member, season, kind, amount, when="2025-10-01", **fields):
    return services.record_payment(
        member=member,
        season=season,
        kind=kind,
        amount=D(amount),
        method="cash",
        paid_on=day(when),
        **fields,
    )


def owed(season) -> dict[str, tuple[Decimal, Decimal, Decimal]]:
    """Last name → (due, paid, balance) of everyone in arrears for ``season``."""
    return {a.member.last_name: (a.due, a.paid, a.balance) for a in services.arrears(season)}


def licence_of(member, season) -> Licence:
    return Licence.objects.get(member=member, season=season)


# --- the schedule ---------------------------------------------------------------------------


def test_fee_for_by_kind_category_and_season(club_year):
    s = club_year.s2526
    assert services.fee_for(s, FeeKind.MEMBERSHIP, club_year.std) == D("100.00")
    assert services.fee_for(s, FeeKind.LICENCE, club_year.std) == D("30.00")
    assert services.fee_for(s, FeeKind.MEMBERSHIP, club_year.junior) == D("40.00")
    assert services.fee_for(s, FeeKind.LICENCE, club_year.junior) == D("0")  # no line
    assert services.fee_for(s, FeeKind.MEMBERSHIP, club_year.honorary) == D("0.00")  # free
    assert services.fee_for(s, FeeKind.OTHER, club_year.std) == D("0")
    assert services.fee_for(s, FeeKind.MEMBERSHIP, None) == D("0")
    other = Season.for_date(day("2030-10-01"))  # a season with no schedule at all
    assert services.fee_for(other, FeeKind.MEMBERSHIP, club_year.std) == D("0")
    Fee.objects.filter(
        season=club_year.s2627, kind=FeeKind.MEMBERSHIP, category=club_year.std
    ).update(amount=D("110.00"))
    assert services.fee_for(s, FeeKind.MEMBERSHIP, club_year.std) == D("100.00")
    assert services.fee_for(club_year.s2627, FeeKind.MEMBERSHIP, club_year.std) == D("110.00")


def raise_fees(club_year, when="2026-01-01", membership="120.00", licence="36.00"):
    """The club raises the standard fees from ``when`` on (a new line of the schedule)."""
    for kind, amount in ((FeeKind.MEMBERSHIP, membership), (FeeKind.LICENCE, licence)):
        Fee.objects.create(
            season=club_year.s2526,
            kind=kind,
            category=club_year.std,
            amount=D(amount),
            effective_from=day(when),
        )


def test_a_line_without_a_date_applies_from_the_season_start(club_year):
    line = Fee.objects.get(season=club_year.s2526, kind=FeeKind.LICENCE, category=club_year.std)
    assert line.effective_from == day("2025-09-01")


def test_fee_for_a_day_takes_the_line_in_force_that_day(club_year):
    raise_fees(club_year)
    s, std = club_year.s2526, club_year.std
    assert [
        services.fee_for(s, FeeKind.LICENCE, std, on=day(d))
        for d in ("2025-09-01", "2025-12-31", "2026-01-01", "2026-08-31")
    ] == [D("30.00"), D("30.00"), D("36.00"), D("36.00")]
    # before the season (an early renewal) the season's first line applies
    assert services.fee_for(s, FeeKind.LICENCE, std, on=day("2025-07-01")) == D("30.00")
    assert services.fee_for(s, FeeKind.LICENCE, std) == D("30.00")  # no day: season start


def test_a_fee_line_outside_its_season_or_twice_the_same_day_is_refused(club_year):
    line = Fee(
        season=club_year.s2526,
        kind=FeeKind.LICENCE,
        category=club_year.std,
        amount=D("1"),
        effective_from=day("2026-09-01"),
    )
    with pytest.raises(ValidationError) as error:
        line.full_clean()
    assert "effective_from" in error.value.message_dict
    same_day = Fee(
        season=club_year.s2526, kind=FeeKind.LICENCE, category=club_year.std, amount=D("1")
    )
    with pytest.raises(ValidationError):
        same_day.full_clean()


# --- a fee changed mid-season ---------------------------------------------------------------


def test_a_licence_fee_change_applies_to_requests_made_after_it(club_year, make_member, today):
    before, after = (
        make_member("Before", category=club_year.std),
        make_member("After", category=club_year.std),
    )
    today("2025-10-01")
    services.renew_licence(before, club_year.s2526)
    raise_fees(club_year)
    today("2026-01-15")
    services.renew_licence(after, club_year.s2526)
    services.renew_licence(before, club_year.s2526)  # asking again changes nothing
    assert (licence_of(before, club_year.s2526).fee, licence_of(after, club_year.s2526).fee) == (
        D("30.00"),
        D("36.00"),
    )
    assert owed(club_year.s2526) == {
        "Before": (D("130.00"), D("0"), D("130.00")),
        "After": (D("136.00"), D("0"), D("136.00")),
    }


def test_a_licence_requested_again_after_cancellation_is_charged_anew(
    club_year, make_member, today
):
    member = make_member("Again", category=club_year.std)
    today("2025-10-01")
    licence = services.renew_licence(member, club_year.s2526)
    licence.status = LicenceStatus.CANCELLED
    licence.save()
    raise_fees(club_year)
    today("2026-02-01")
    again = services.renew_licence(member, club_year.s2526)
    assert (again.pk, again.fee, again.status) == (licence.pk, D("36.00"), LicenceStatus.REQUESTED)


def test_a_membership_fee_change_does_not_reach_back(club_year, make_member):
    """Membership is charged when the season starts, or when a member joins during it."""
    paid_up = make_member("PaidUp", category=club_year.std, joined_on=day("2019-09-15"))
    make_member("Early", category=club_year.std, joined_on=day("2025-11-20"))
    make_member("Late", category=club_year.std, joined_on=day("2026-03-01"))
    make_member("NoDate", category=club_year.std)
    pay(paid_up, club_year.s2526, FeeKind.MEMBERSHIP, "100.00", when="2025-09-05")
    raise_fees(club_year)
    assert owed(club_year.s2526) == {
        "Early": (D("100.00"), D("0"), D("100.00")),
        "Late": (D("120.00"), D("0"), D("120.00")),
        "NoDate": (D("100.00"), D("0"), D("100.00")),
    }
    # correcting the line itself (a typo) applies to everyone charged under it
    Fee.objects.filter(
        season=club_year.s2526,
        kind=FeeKind.MEMBERSHIP,
        category=club_year.std,
        effective_from=day("2025-09-01"),
    ).update(amount=D("90.00"))
    assert owed(club_year.s2526)["NoDate"] == (D("90.00"), D("0"), D("90.00"))
    assert "PaidUp" not in owed(club_year.s2526)


def test_a_schedule_whose_only_line_starts_mid_season_still_charges(club_year, make_member):
    Fee.objects.filter(season=club_year.s2526, category=club_year.std).update(
        effective_from=day("2025-10-01")
    )
    make_member("Member", category=club_year.std)
    assert owed(club_year.s2526) == {"Member": (D("100.00"), D("0"), D("100.00"))}


# --- payments -------------------------------------------------------------------------------


def test_licence_paid_by_instalments_then_overpaid(club_year, make_member, today):
    member = make_member("Inst", category=club_year.std)
    today("2025-09-10")
    services.renew_licence(member, club_year.s2526)
    pay(member, club_year.s2526, FeeKind.LICENCE, "10.00")
    assert not licence_of(member, club_year.s2526).paid
    pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "25.00")  # membership: not the licence
    assert not licence_of(member, club_year.s2526).paid
    pay(member, club_year.s2526, FeeKind.LICENCE, "19.99")
    assert not licence_of(member, club_year.s2526).paid
    assert owed(club_year.s2526) == {"Inst": (D("130.00"), D("54.99"), D("75.01"))}
    pay(member, club_year.s2526, FeeKind.LICENCE, "0.01")
    assert licence_of(member, club_year.s2526).paid
    assert owed(club_year.s2526) == {"Inst": (D("130.00"), D("55.00"), D("75.00"))}
    pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "80.00")  # 5 over: no credit listed
    assert owed(club_year.s2526) == {}


def test_a_licence_paid_before_it_is_requested_is_paid(club_year, make_member, today):
    member = make_member("Ahead", category=club_year.std)
    pay(member, club_year.s2526, FeeKind.LICENCE, "30.00", when="2025-08-01")
    today("2025-09-02")
    licence = services.renew_licence(member, club_year.s2526)
    assert licence.paid and licence_of(member, club_year.s2526).paid


def test_a_payment_for_another_season_counts_there_only(club_year, make_member, today):
    member = make_member("Wrong", category=club_year.std)
    today("2025-09-10")
    services.renew_licence(member, club_year.s2526)
    services.renew_licence(member, club_year.s2627)
    pay(member, club_year.s2627, FeeKind.LICENCE, "30.00")
    assert (licence_of(member, club_year.s2526).paid, licence_of(member, club_year.s2627).paid) == (
        False,
        True,
    )
    assert owed(club_year.s2526) == {"Wrong": (D("130.00"), D("0"), D("130.00"))}
    assert owed(club_year.s2627) == {"Wrong": (D("130.00"), D("30.00"), D("100.00"))}


def test_a_payment_recorded_twice_counts_twice(club_year, make_member):
    """No idempotency key: two equal payments on one day are two instalments (the form's
    redirect after a post keeps a reload from sending it again)."""
    member = make_member("Double", category=club_year.junior)
    first = pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "20.00")
    second = pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "20.00")
    assert first.pk != second.pk and Payment.objects.filter(member=member).count() == 2
    assert owed(club_year.s2526) == {}


@pytest.mark.parametrize("amount", ["0", "0.00", "-5.00", "10.005", "0.001"])
def test_zero_negative_and_sub_cent_payments_are_refused(club_year, make_member, amount):
    member = make_member("Refused", category=club_year.std)
    with pytest.raises(ValidationError) as error:
        pay(member, club_year.s2526, FeeKind.MEMBERSHIP, amount)
    assert error.value.messages and not Payment.objects.exists()
    assert owed(club_year.s2526) == {"Refused": (D("100.00"), D("0"), D("100.00"))}


def test_cents_add_up_exactly(club_year, make_member):
    member = make_member("Cents", category=club_year.std)
    for _ in range(10):  # 0.1 ten times is 0.9999999999999999 in floating point
        pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "0.10")
    assert owed(club_year.s2526) == {"Cents": (D("100.00"), D("1.00"), D("99.00"))}
    pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "33.33")
    pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "33.33")
    assert owed(club_year.s2526) == {"Cents": (D("100.00"), D("67.66"), D("32.34"))}
    pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "32.34")
    assert owed(club_year.s2526) == {}
    payment = pay(member, club_year.s2526, FeeKind.OTHER, "10.5")
    payment.refresh_from_db()
    assert payment.amount == D("10.50")


# --- arrears --------------------------------------------------------------------------------


def test_arrears_per_member_exactly(club_year, make_member, today):
    s = club_year.s2526
    today("2025-09-10")
    both = make_member("Both", category=club_year.std)  # 100 + 30, paid 50 + 30
    services.renew_licence(both, s)
    pay(both, s, FeeKind.MEMBERSHIP, "50.00")
    pay(both, s, FeeKind.LICENCE, "30.00")
    junior = make_member("Junior", category=club_year.junior)  # 40 + licence without fee
    services.renew_licence(junior, s)
    pay(junior, s, FeeKind.MEMBERSHIP, "15.50")
    settled = make_member("Settled", category=club_year.std)
    pay(settled, s, FeeKind.MEMBERSHIP, "100.00")
    make_member("Honorary", category=club_year.honorary)  # free
    make_member("Uncategorised")  # no category: nothing to charge
    make_member("Guest", category=club_year.std, is_guest=True)
    make_member("Resigned", category=club_year.std, status=MemberStatus.RESIGNED)
    make_member("Lapsed", category=club_year.std, status=MemberStatus.LAPSED)
    cancelled = make_member("Cancelled", category=club_year.std)
    services.renew_licence(cancelled, s)
    Licence.objects.filter(member=cancelled).update(status=LicenceStatus.CANCELLED)
    expired = make_member("Expired", category=club_year.std)  # held it: still owes it
    services.renew_licence(expired, s)
    Licence.objects.filter(member=expired).update(status=LicenceStatus.EXPIRED)
    last_year = make_member("LastYear", category=club_year.std)
    pay(last_year, club_year.s2425, FeeKind.MEMBERSHIP, "100.00")  # other season: no help
    rows = services.arrears(s)
    assert [(a.member.last_name, a.due, a.paid, a.balance) for a in rows] == [
        ("Both", D("130.00"), D("80.00"), D("50.00")),
        ("Cancelled", D("100.00"), D("0"), D("100.00")),
        ("Expired", D("130.00"), D("0"), D("130.00")),
        ("Junior", D("40.00"), D("15.50"), D("24.50")),
        ("LastYear", D("100.00"), D("0"), D("100.00")),
    ]


def test_arrears_take_a_constant_number_of_queries(
    club_year, make_member, django_assert_num_queries
):
    for index in range(6):
        member = make_member(f"M{index}", category=club_year.std)
        pay(member, club_year.s2526, FeeKind.MEMBERSHIP, "1.00")
    with django_assert_num_queries(1):
        rows = services.arrears(club_year.s2526)
    assert [a.balance for a in rows] == [D("99.00")] * 6


# --- the schedule page (the new field reaches the secretary) --------------------------------


def _formset_post(season, rows):
    data = {
        "fees-TOTAL_FORMS": str(len(rows)),
        "fees-INITIAL_FORMS": "0",
        "fees-MIN_NUM_FORMS": "0",
        "fees-MAX_NUM_FORMS": "1000",
    }
    for index, row in enumerate(rows):
        data.update({f"fees-{index}-{key}": value for key, value in row.items()})
    return data


def test_the_schedule_page_adds_a_mid_season_change(secretary_client, club_year):
    from django.urls import reverse

    url = f"{reverse('clubsite:fee_schedule')}?season={club_year.s2526.pk}"
    Fee.objects.filter(season=club_year.s2526).delete()
    page = secretary_client.get(url)
    prefix = page.context["formset"].prefix
    assert prefix == "fees"
    rows = [
        {
            "kind": "membership",
            "category": club_year.std.pk,
            "amount": "100.00",
            "effective_from": "",
        },
        {
            "kind": "membership",
            "category": club_year.std.pk,
            "amount": "120.00",
            "effective_from": "2026-01-01",
        },
    ]
    response = secretary_client.post(url, _formset_post(club_year.s2526, rows))
    assert response.status_code == 302
    assert list(
        Fee.objects.filter(season=club_year.s2526).values_list("effective_from", "amount")
    ) == [(day("2025-09-01"), D("100.00")), (day("2026-01-01"), D("120.00"))]


def test_the_schedule_page_explains_a_day_outside_the_season(secretary_client, club_year):
    from django.urls import reverse

    url = f"{reverse('clubsite:fee_schedule')}?season={club_year.s2526.pk}"
    Fee.objects.filter(season=club_year.s2526).delete()
    rows = [
        {
            "kind": "licence",
            "category": club_year.std.pk,
            "amount": "30.00",
            "effective_from": "2026-09-01",
        }
    ]
    response = secretary_client.post(url, _formset_post(club_year.s2526, rows))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Indique un día dentro de la temporada (del 2025-09-01 al 2026-08-31)." in html
    assert 'value="2026-09-01"' in html
    assert not Fee.objects.filter(season=club_year.s2526).exists()

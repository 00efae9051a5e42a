"""The season's licence batch for the federation (``tournaments/exports/licences.py``).

Exactly the licences requested for the season, each member once, in a stable order, and a
file whose bytes depend on the data only: the upload sends one file once per endpoint by
its content hash, so the same batch must not come out different in another language.
"""

from decimal import Decimal

import pytest
from django.utils import translation

from clubsite.members import services
from clubsite.models import Club, FeeKind, Licence, LicenceStatus, Season
from tests.club.conftest import day
from tournaments.exports.licences import HEADER, licence_batch, requested_licences

pytestmark = pytest.mark.django_db


@pytest.fixture
def batch(club_year, make_member, today):
    club = Club.current()
    club.federation_club_id = "AEB-0427"
    club.save()
    s = club_year.s2526

    def licence(member, season, status):
        return Licence.objects.create(member=member, season=season, federation="AEB", status=status)

    today("2025-08-20")
    zapata = make_member(
        "Zapata",
        "Ana",
        category=club_year.std,
        licence_number="AEB-9",
        birth_date=day("1970-05-04"),
        gender="F",
        email="ana@example.com",
    )
    licence(zapata, club_year.s2425, LicenceStatus.ACTIVE)
    services.renew_licence(zapata, s)
    services.record_payment(
        member=zapata,
        season=s,
        kind=FeeKind.LICENCE,
        amount=Decimal("30.00"),
        method="cash",
        paid_on=day("2025-08-21"),
    )
    today("2025-09-03")
    new = make_member("Garcia", "Luis", licence_number="")  # no category, no number, no date
    services.renew_licence(new, s)
    first, second = make_member("Perez", "Juan"), make_member("Perez", "Juan")
    services.renew_licence(second, s)
    services.renew_licence(first, s)
    expired_before = make_member("Diaz", "Eva", category=club_year.junior)
    licence(expired_before, club_year.s2425, LicenceStatus.EXPIRED)
    services.renew_licence(expired_before, s)
    two_ago = make_member("Lopez", "Rui", category=club_year.std)
    licence(two_ago, Season.for_date(day("2023-10-01")), LicenceStatus.ACTIVE)
    services.renew_licence(two_ago, s)
    refused_before = make_member("Mora", "Ines", category=club_year.std)
    licence(refused_before, club_year.s2425, LicenceStatus.CANCELLED)
    services.renew_licence(refused_before, s)
    # not in the batch: granted, pending, cancelled, or another season's request
    licence(make_member("Active"), s, LicenceStatus.ACTIVE)
    licence(make_member("Pending"), s, LicenceStatus.PENDING)
    licence(make_member("Cancelled"), s, LicenceStatus.CANCELLED)
    licence(make_member("LastSeason"), club_year.s2425, LicenceStatus.REQUESTED)
    services.renew_licence(make_member("NextSeason"), club_year.s2627)
    return dict(first=first, second=second, diaz=expired_before, lopez=two_ago, mora=refused_before)


def test_the_batch_file_exactly(club_year, batch):
    name, text = licence_batch(club_year.s2526)
    assert name == "licences-2025-26.csv"
    first, second = batch["first"].licence_number, batch["second"].licence_number
    diaz, lopez, mora = (batch[key].licence_number for key in ("diaz", "lopez", "mora"))
    assert text.split("\r\n") == [
        ",".join(HEADER),
        f"AEB,AEB-0427,{diaz},Diaz,Eva,,,,junior,2025-09-03,yes,0.00,yes",
        "AEB,AEB-0427,,Garcia,Luis,,,,,2025-09-03,no,0.00,yes",
        f"AEB,AEB-0427,{lopez},Lopez,Rui,,,,std,2025-09-03,no,30.00,no",
        f"AEB,AEB-0427,{mora},Mora,Ines,,,,std,2025-09-03,no,30.00,no",
        # namesakes in the order their licences were requested (second first)
        f"AEB,AEB-0427,{second},Perez,Juan,,,,,2025-09-03,no,0.00,yes",
        f"AEB,AEB-0427,{first},Perez,Juan,,,,,2025-09-03,no,0.00,yes",
        "AEB,AEB-0427,AEB-9,Zapata,Ana,1970-05-04,F,ana@example.com,std,2025-08-20,yes,30.00,yes",
        "",
    ]


def test_each_requested_member_once_in_a_stable_order(club_year, batch):
    licences = list(requested_licences(club_year.s2526))
    names = [(lic.member.last_name, lic.member_id) for lic in licences]
    # namesakes by the order of their requests: the second Perez asked first
    assert [n for n, _pk in names] == [
        "Diaz",
        "Garcia",
        "Lopez",
        "Mora",
        "Perez",
        "Perez",
        "Zapata",
    ]
    assert [pk for n, pk in names if n == "Perez"] == [batch["second"].pk, batch["first"].pk]
    assert len({pk for _n, pk in names}) == len(names)
    # renewing again changes nothing: still one row each, same file
    before = licence_batch(club_year.s2526)
    for lic in licences:
        services.renew_licence(lic.member, club_year.s2526)
    assert licence_batch(club_year.s2526) == before


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_file_does_not_depend_on_the_language(club_year, batch, language):
    with translation.override("en"):
        english = licence_batch(club_year.s2526)
    with translation.override(language):
        assert licence_batch(club_year.s2526) == english


def test_an_empty_season_is_the_header_only(club_year):
    assert licence_batch(club_year.s2627) == ("licences-2026-27.csv", ",".join(HEADER) + "\r\n")

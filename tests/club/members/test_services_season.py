"""A member's licence through the seasons: state per season, who to renew, renewals.

Service level only (no HTTP); every day is explicit (see ``conftest.py``).
"""

from decimal import Decimal

import pytest

from clubsite.members import services
from clubsite.members.services import LicenceState
from clubsite.models import (
    Club,
    Federation,
    Licence,
    LicenceStatus,
    Member,
    MemberStatus,
    Season,
)
from tests.club.conftest import day

pytestmark = pytest.mark.django_db


def state_on(member, when: str) -> str:
    """The member's licence state in the season holding the day ``when``."""
    season = Season.for_date(day(when))
    return services.members_with_licence_state(season).get(pk=member.pk).licence_state


def without_valid(season) -> list[str]:
    return sorted(m.last_name for m in services.members_without_valid_licence(season))


def to_renew(season) -> list[str]:
    return sorted(m.last_name for m in services.members_to_renew(season))


def set_status(licence: Licence, status: str) -> None:
    licence.status = status
    licence.save()


def test_one_member_through_two_seasons(club_year, make_member, today):
    ana = make_member("Arroyo", category=club_year.std)

    # never licensed: nothing in any season, so nothing to renew either
    for when in ("2025-08-31", "2025-09-01", "2026-03-15", "2026-08-31", "2026-09-01"):
        assert state_on(ana, when) == LicenceState.NONE
    assert without_valid(club_year.s2526) == ["Arroyo"]
    assert to_renew(club_year.s2526) == []

    # last season's licence: valid then, expired now; she is proposed for renewal
    Licence.objects.create(
        member=ana, season=club_year.s2425, federation=Federation.AEB, status=LicenceStatus.ACTIVE
    )
    assert state_on(ana, "2025-08-31") == LicenceState.VALID
    assert state_on(ana, "2025-09-01") == LicenceState.EXPIRED
    assert to_renew(club_year.s2526) == ["Arroyo"]
    assert without_valid(club_year.s2526) == ["Arroyo"]

    # renewed in August for the season starting in September: requested, not yet valid
    today("2025-08-20")
    licence = services.renew_licence(ana, club_year.s2526)
    assert (licence.status, licence.requested_on, licence.valid_from, licence.valid_until) == (
        LicenceStatus.REQUESTED,
        day("2025-08-20"),
        day("2025-09-01"),
        day("2026-08-31"),
    )
    assert state_on(ana, "2025-08-31") == LicenceState.VALID  # last season untouched
    assert state_on(ana, "2025-09-01") == LicenceState.IN_PROGRESS
    assert to_renew(club_year.s2526) == []
    assert without_valid(club_year.s2526) == ["Arroyo"]

    # the federation grants it
    set_status(licence, LicenceStatus.ACTIVE)
    for when in ("2025-09-01", "2026-02-28", "2026-08-31"):
        assert state_on(ana, when) == LicenceState.VALID
    assert without_valid(club_year.s2526) == []
    assert state_on(ana, "2026-09-01") == LicenceState.EXPIRED  # does not cover 2026-27
    assert to_renew(club_year.s2627) == ["Arroyo"]

    # renewed early for 2026-27, in July 2026 while 2025-26 still runs
    today("2026-07-01")
    early = services.renew_licence(ana, club_year.s2627)
    assert early.pk != licence.pk and early.requested_on == day("2026-07-01")
    assert state_on(ana, "2026-07-01") == LicenceState.VALID
    assert state_on(ana, "2026-09-01") == LicenceState.IN_PROGRESS
    assert to_renew(club_year.s2627) == []
    assert without_valid(club_year.s2627) == ["Arroyo"]

    # the season ends: 2025-26's licence is marked expired, which still proposes renewal
    set_status(licence, LicenceStatus.EXPIRED)
    assert state_on(ana, "2026-03-01") == LicenceState.EXPIRED
    early.delete()
    assert to_renew(club_year.s2627) == ["Arroyo"]


def test_pending_and_requested_are_both_in_progress(club_year, make_member):
    pending = make_member("Pending")
    requested = make_member("Requested")
    for member, status in ((pending, LicenceStatus.PENDING), (requested, LicenceStatus.REQUESTED)):
        Licence.objects.create(
            member=member, season=club_year.s2526, federation="AEB", status=status
        )
    states = {
        m.last_name: m.licence_state for m in services.members_with_licence_state(club_year.s2526)
    }
    assert states == {"Pending": LicenceState.IN_PROGRESS, "Requested": LicenceState.IN_PROGRESS}


def test_cancelled_this_season_and_licences_of_other_seasons(club_year, make_member):
    cancelled = make_member("Cancelled")
    Licence.objects.create(
        member=cancelled, season=club_year.s2425, federation="AEB", status=LicenceStatus.ACTIVE
    )
    Licence.objects.create(
        member=cancelled, season=club_year.s2526, federation="AEB", status=LicenceStatus.CANCELLED
    )
    old = make_member("Old")  # licensed two seasons ago: expired, not valid
    Licence.objects.create(
        member=old, season=club_year.s2425, federation="AEB", status=LicenceStatus.ACTIVE
    )
    future = make_member("Future")  # only next season's licence: nothing for 2025-26
    Licence.objects.create(
        member=future, season=club_year.s2627, federation="AEB", status=LicenceStatus.ACTIVE
    )
    states = {
        m.last_name: m.licence_state for m in services.members_with_licence_state(club_year.s2627)
    }
    assert states == {
        "Cancelled": LicenceState.EXPIRED,
        "Old": LicenceState.EXPIRED,
        "Future": LicenceState.VALID,
    }
    states = {
        m.last_name: m.licence_state for m in services.members_with_licence_state(club_year.s2526)
    }
    assert states == {
        "Cancelled": LicenceState.CANCELLED,
        "Old": LicenceState.EXPIRED,
        "Future": LicenceState.NONE,
    }


def test_a_licence_never_held_does_not_make_a_member_expired(club_year, make_member):
    """Only a licence the member held (active, later expired) makes them "expired" later;
    a request that was cancelled or never granted leaves them never licensed."""
    for name, status in (
        ("Cancelled", LicenceStatus.CANCELLED),
        ("Requested", LicenceStatus.REQUESTED),
        ("Expired", LicenceStatus.EXPIRED),
        ("Active", LicenceStatus.ACTIVE),
    ):
        Licence.objects.create(
            member=make_member(name), season=club_year.s2425, federation="AEB", status=status
        )
    states = {
        m.last_name: m.licence_state for m in services.members_with_licence_state(club_year.s2526)
    }
    assert states == {
        "Cancelled": LicenceState.NONE,
        "Requested": LicenceState.NONE,
        "Expired": LicenceState.EXPIRED,
        "Active": LicenceState.EXPIRED,
    }


def test_state_list_is_one_query_and_filters_the_given_queryset(
    club_year, make_member, django_assert_num_queries
):
    for index in range(5):
        member = make_member(f"M{index}")
        Licence.objects.create(
            member=member, season=club_year.s2526, federation="AEB", status=LicenceStatus.ACTIVE
        )
    make_member("Zed")
    queryset = services.members_with_licence_state(club_year.s2526)
    with django_assert_num_queries(1):
        states = [(m.last_name, m.licence_state) for m in queryset.order_by("last_name")]
    assert states == [
        *((f"M{i}", LicenceState.VALID) for i in range(5)),
        ("Zed", LicenceState.NONE),
    ]
    only = services.members_with_licence_state(
        club_year.s2526, queryset=Member.objects.filter(last_name="Zed")
    )
    assert [(m.last_name, m.licence_state) for m in only] == [("Zed", LicenceState.NONE)]


def test_who_is_without_a_valid_licence(club_year, make_member):
    statuses = {
        "Active": LicenceStatus.ACTIVE,
        "Requested": LicenceStatus.REQUESTED,
        "Pending": LicenceStatus.PENDING,
        "Cancelled": LicenceStatus.CANCELLED,
        "Expired": LicenceStatus.EXPIRED,
    }
    for name, status in statuses.items():
        Licence.objects.create(
            member=make_member(name), season=club_year.s2526, federation="AEB", status=status
        )
    make_member("Nothing")
    last = make_member("LastSeasonOnly")
    Licence.objects.create(
        member=last, season=club_year.s2425, federation="AEB", status=LicenceStatus.ACTIVE
    )
    make_member("Guest", is_guest=True)
    make_member("Lapsed", status=MemberStatus.LAPSED)
    make_member("Resigned", status=MemberStatus.RESIGNED)
    assert without_valid(club_year.s2526) == [
        "Cancelled",
        "Expired",
        "LastSeasonOnly",
        "Nothing",
        "Pending",
        "Requested",
    ]
    assert without_valid(club_year.s2425) == [
        "Active",
        "Cancelled",
        "Expired",
        "Nothing",
        "Pending",
        "Requested",
    ]


def test_who_the_bulk_renewal_proposes(club_year, make_member):
    def licensed(name, licence_status, season=club_year.s2425, **fields):
        fields.setdefault("category", club_year.std)
        member = make_member(name, **fields)
        Licence.objects.create(
            member=member, season=season, federation="AEB", status=licence_status
        )
        return member

    licensed("Active", LicenceStatus.ACTIVE)
    licensed("Expired", LicenceStatus.EXPIRED)
    licensed("Cancelled", LicenceStatus.CANCELLED)
    licensed("Requested", LicenceStatus.REQUESTED)
    licensed("Guest", LicenceStatus.ACTIVE, is_guest=True)
    licensed("Lapsed", LicenceStatus.ACTIVE, status=MemberStatus.LAPSED)
    licensed("TwoAgo", LicenceStatus.ACTIVE, season=Season.for_date(day("2023-10-01")))
    already = licensed("Already", LicenceStatus.ACTIVE)
    Licence.objects.create(
        member=already, season=club_year.s2526, federation="AEB", status=LicenceStatus.PENDING
    )
    refused = licensed("RefusedNow", LicenceStatus.ACTIVE)
    Licence.objects.create(
        member=refused, season=club_year.s2526, federation="AEB", status=LicenceStatus.CANCELLED
    )
    # without a category there is no fee to charge: renewed one by one, once given one
    licensed("NoCategory", LicenceStatus.ACTIVE, category=None)
    assert to_renew(club_year.s2526) == ["Active", "Expired"]
    # each member once, even with licences in several earlier seasons
    Licence.objects.create(
        member=make_member("Twice", category=club_year.std),
        season=club_year.s2425,
        federation="AEB",
        status=LicenceStatus.ACTIVE,
    )
    assert [
        m.last_name for m in services.members_to_renew(club_year.s2526).order_by("last_name")
    ] == ["Active", "Expired", "Twice"]


def test_renewal_copies_the_member_and_the_schedule(club_year, make_member, today):
    club = Club.current()
    club.federation = Federation.FPB
    club.save()
    today("2025-09-10")
    std = services.renew_licence(
        make_member("Std", category=club_year.std, licence_number="FPB-1"), club_year.s2526
    )
    junior = services.renew_licence(make_member("Jun", category=club_year.junior), club_year.s2526)
    honorary = services.renew_licence(
        make_member("Hon", category=club_year.honorary), club_year.s2526
    )
    none = services.renew_licence(make_member("None"), club_year.s2526)
    assert (std.federation, std.number, std.category, std.fee) == (
        Federation.FPB,
        "FPB-1",
        club_year.std,
        Decimal("30.00"),
    )
    assert (junior.fee, honorary.fee, none.fee, none.category) == (
        Decimal("0"),
        Decimal("0.00"),
        Decimal("0"),
        None,
    )


def test_renewing_twice_is_one_licence_and_keeps_its_dates(club_year, make_member, today):
    member = make_member("Twice", category=club_year.std)
    today("2025-09-10")
    first = services.renew_licence(member, club_year.s2526)
    today("2025-10-10")
    second = services.renew_licence(member, club_year.s2526)
    assert second.pk == first.pk and second.requested_on == day("2025-09-10")
    set_status(first, LicenceStatus.ACTIVE)
    again = services.renew_licence(member, club_year.s2526)
    assert (again.status, again.requested_on) == (LicenceStatus.ACTIVE, day("2025-09-10"))
    assert Licence.objects.filter(member=member).count() == 1


@pytest.mark.parametrize("status", [LicenceStatus.CANCELLED, LicenceStatus.EXPIRED])
def test_a_cancelled_or_expired_licence_is_requested_again(club_year, make_member, today, status):
    member = make_member("Again", category=club_year.std)
    today("2025-09-10")
    licence = services.renew_licence(member, club_year.s2526)
    set_status(licence, status)
    today("2025-11-02")
    again = services.renew_licence(member, club_year.s2526)
    assert (again.pk, again.status, again.requested_on) == (
        licence.pk,
        LicenceStatus.REQUESTED,
        day("2025-11-02"),
    )


def test_bulk_renewal_gives_each_member_one_licence(club_year, make_member, today):
    today("2025-08-01")
    ana, bea = make_member("Ana", category=club_year.std), make_member("Bea")
    licences = services.renew_licences([ana, bea, ana], club_year.s2526)
    assert [lic.member.last_name for lic in licences] == ["Ana", "Bea", "Ana"]
    assert licences[0].pk == licences[2].pk
    assert sorted(Licence.objects.values_list("member__last_name", "status")) == [
        ("Ana", LicenceStatus.REQUESTED),
        ("Bea", LicenceStatus.REQUESTED),
    ]

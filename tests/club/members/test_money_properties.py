"""Property tests of the club's money and licences against small reference models.

Each example runs in its own savepoint, rolled back at its end, so examples never see each
other's rows. The reference models restate the rules in plain Python:
- membership is charged on the season's start or the day the member joined during it, at
  the fee line in force that day; a licence at the line in force the day it is requested;
- arrears = due - paid, listed only when positive (no credit is shown);
- a licence is paid once licence payments for its season reach its fee;
- renewing is idempotent; a member's state per season follows their licence history.
"""

import datetime
from contextlib import contextmanager
from decimal import Decimal
from unittest import mock

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from clubsite.members import services
from clubsite.members.services import LicenceState
from clubsite.models import Category, Fee, FeeKind, Licence, LicenceStatus, Member, Season

pytestmark = pytest.mark.django_db

START = datetime.date(2025, 9, 1)  # 2025-26 with the club's default September start
END = datetime.date(2026, 8, 31)
SEASON_DAYS = (END - START).days


@contextmanager
def rolled_back():
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def cents(n: int) -> Decimal:
    return (Decimal(n) / 100).quantize(Decimal("0.01"))


def in_force(lines: list[tuple[datetime.date, Decimal]], on: datetime.date) -> Decimal:
    """The reference of ``fee_for``: the latest line applying by ``on``, else the first."""
    if not lines:
        return Decimal("0")
    applying = [line for line in sorted(lines) if line[0] <= on]
    return (applying[-1] if applying else sorted(lines)[0])[1]


offsets = st.integers(min_value=0, max_value=SEASON_DAYS)
amounts = st.integers(min_value=0, max_value=30_000)
payments = st.lists(
    st.tuples(
        st.sampled_from([FeeKind.MEMBERSHIP, FeeKind.LICENCE, FeeKind.OTHER]),
        st.integers(min_value=1, max_value=20_000),
        st.booleans(),
    ),  # True: paid for this season, else the next
    max_size=8,
)


@given(
    membership=st.lists(st.tuples(offsets, amounts), max_size=3, unique_by=lambda t: t[0]),
    licence=st.lists(st.tuples(offsets, amounts), max_size=3, unique_by=lambda t: t[0]),
    joined=st.none() | st.integers(min_value=-400, max_value=SEASON_DAYS),
    requested=st.none() | st.integers(min_value=-60, max_value=SEASON_DAYS),
    paid=payments,
)
def test_arrears_are_what_is_due_less_what_was_paid(membership, licence, joined, requested, paid):
    with rolled_back():
        season = Season.for_date(START)
        following = season.next()
        category = Category.objects.create(code="c", name="C")
        lines = {FeeKind.MEMBERSHIP: [], FeeKind.LICENCE: []}
        for kind, schedule in ((FeeKind.MEMBERSHIP, membership), (FeeKind.LICENCE, licence)):
            for offset, amount in schedule:
                when = START + datetime.timedelta(days=offset)
                Fee.objects.create(
                    season=season,
                    kind=kind,
                    category=category,
                    amount=cents(amount),
                    effective_from=when,
                )
                lines[kind].append((when, cents(amount)))
        joined_on = None if joined is None else START + datetime.timedelta(days=joined)
        member = Member.objects.create(
            first_name="A", last_name="B", category=category, joined_on=joined_on
        )
        due = in_force(lines[FeeKind.MEMBERSHIP], max(joined_on or START, START))
        if requested is not None:
            day = START + datetime.timedelta(days=requested)
            with mock.patch.object(timezone, "localdate", return_value=day):
                services.renew_licence(member, season)
            due += in_force(lines[FeeKind.LICENCE], day)
        total = licence_total = Decimal("0")
        for kind, amount, this_season in paid:
            services.record_payment(
                member=member,
                season=season if this_season else following,
                kind=kind,
                amount=cents(amount),
                method="cash",
                paid_on=START,
            )
            if this_season:
                total += cents(amount)
                licence_total += cents(amount) if kind == FeeKind.LICENCE else 0
        rows = [(a.member.pk, a.due, a.paid, a.balance) for a in services.arrears(season)]
        assert rows == ([(member.pk, due, total, due - total)] if due > total else [])
        if requested is not None:
            stored = Licence.objects.get(member=member, season=season)
            assert stored.paid == (licence_total >= stored.fee)


STATUSES = [
    LicenceStatus.PENDING,
    LicenceStatus.REQUESTED,
    LicenceStatus.ACTIVE,
    LicenceStatus.EXPIRED,
    LicenceStatus.CANCELLED,
]
operations = st.lists(
    st.one_of(
        st.just(("renew", None)),
        st.tuples(st.just("status"), st.sampled_from(STATUSES)),
    ),
    min_size=1,
    max_size=8,
)


@given(ops=operations)
def test_renewing_is_idempotent_and_keeps_one_licence(ops):
    with rolled_back():
        season = Season.for_date(START)
        member = Member.objects.create(first_name="A", last_name="B")
        fields = ("status", "requested_on", "fee", "paid", "number", "category_id")
        with mock.patch.object(timezone, "localdate", return_value=START):
            for op, status in ops:
                if op == "status":
                    Licence.objects.filter(member=member).update(status=status)
                    continue
                before = Licence.objects.filter(member=member).values(*fields).first()
                services.renew_licence(member, season)
                after = Licence.objects.filter(member=member).values(*fields).get()
                if before is None or before["status"] in (
                    LicenceStatus.EXPIRED,
                    LicenceStatus.CANCELLED,
                ):
                    assert after["status"] == LicenceStatus.REQUESTED
                else:
                    assert after == before  # active, requested or pending: left as it is
                services.renew_licence(member, season)
                assert Licence.objects.filter(member=member).values(*fields).get() == after
        assert Licence.objects.filter(member=member).count() <= 1


REFERENCE_STATE = {
    LicenceStatus.ACTIVE: LicenceState.VALID,
    LicenceStatus.PENDING: LicenceState.IN_PROGRESS,
    LicenceStatus.REQUESTED: LicenceState.IN_PROGRESS,
    LicenceStatus.EXPIRED: LicenceState.EXPIRED,
    LicenceStatus.CANCELLED: LicenceState.CANCELLED,
}
HELD = (LicenceStatus.ACTIVE, LicenceStatus.EXPIRED)


@given(
    histories=st.lists(
        st.lists(st.none() | st.sampled_from(STATUSES), min_size=3, max_size=3),
        min_size=1,
        max_size=5,
    )
)
def test_licence_state_and_renewal_proposals_follow_the_history(histories):
    with rolled_back():
        seasons = [Season.for_date(datetime.date(2024 + i, 10, 1)) for i in range(3)]
        category = Category.objects.create(code="std", name="Standard")
        members = []
        for index, history in enumerate(histories):
            # every third member has no category: never proposed (no fee to charge)
            member = Member.objects.create(
                first_name="A", last_name=f"M{index}", category=None if index % 3 == 2 else category
            )
            members.append(member)
            for season, status in zip(seasons, history, strict=True):
                if status is not None:
                    Licence.objects.create(
                        member=member, season=season, federation="AEB", status=status
                    )
        for i, season in enumerate(seasons):
            states = dict(
                services.members_with_licence_state(season).values_list("pk", "licence_state")
            )
            expected = {}
            for member, history in zip(members, histories, strict=True):
                if history[i] is not None:
                    expected[member.pk] = REFERENCE_STATE[history[i]]
                elif any(status in HELD for status in history[:i]):
                    expected[member.pk] = LicenceState.EXPIRED
                else:
                    expected[member.pk] = LicenceState.NONE
            assert states == expected
            if i:
                proposed = set(services.members_to_renew(season).values_list("pk", flat=True))
                assert proposed == {
                    m.pk
                    for m, h in zip(members, histories, strict=True)
                    if h[i - 1] in HELD and h[i] is None and m.category_id
                }

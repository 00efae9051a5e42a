"""Property tests of table money against a plain-Python reference: for any sequence of
payments (any method, the same fee twice), refunds and top-ups,

- the cash sheet's expected = collected over every method + missing;
- collected in each method = the fees the reference holds as paid in that method;
- each balance is the reference's, and never below zero unless the club allows it.

Each example runs in a savepoint rolled back at its end."""

import datetime
from contextlib import contextmanager
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsite.models import Member, Season
from tournaments.models import TableMethod
from tournaments.services.entries import registration
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 11, 4)
METHODS = [m.value for m in TableMethod]
CENTS = st.integers(min_value=1, max_value=3000).map(lambda c: Decimal(c) / 100)

operation = st.one_of(
    st.tuples(st.just("pay"), st.integers(0, 5), st.sampled_from(METHODS)),
    st.tuples(st.just("refund"), st.integers(0, 5), st.just("")),
    st.tuples(st.just("top_up"), st.integers(0, 5), CENTS),
)


@contextmanager
def rolled_back():
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def _english():
    """Messages are matched as written in English."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def door(db):
    season = Season.for_date(DAY)
    rates = table_fees.rates_for(season)
    rates.member_fee, rates.guest_fee = Decimal("4.50"), Decimal("7.25")
    rates.save()
    people = [
        Member.objects.create(first_name=f"P{i}", last_name=f"L{i}", is_guest=i % 3 == 0)
        for i in range(6)
    ]
    tournament = setup.create_tournament(name="Miércoles", date=DAY)
    for i in range(0, 6, 2):
        registration.register_entry(tournament, people[i : i + 2])
    session = tournament.sessions.get()
    fees = table_fees.charge_session(session)
    return session, rates, sorted(fees, key=lambda f: f.member.first_name)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, max_size=25), overdraft=st.booleans())
def test_cash_sheet_adds_up_and_balances_follow_the_rules(door, ops, overdraft):
    session, rates, fees = door
    with rolled_back():
        rates.overdraft_allowed = overdraft
        rates.save()
        paid: dict[int, str] = {}
        balance = {f.member_id: Decimal("0") for f in fees}
        for kind, i, arg in ops:
            fee = fees[i]
            if kind == "top_up":
                table_fees.top_up(fee.member, arg, TableMethod.CASH)
                balance[fee.member_id] += arg
            elif kind == "pay":
                short = arg == "prepaid" and balance[fee.member_id] < fee.amount
                if fee.pk in paid or (short and not overdraft):
                    with pytest.raises(table_fees.MoneyError):
                        table_fees.pay(fee, arg)
                else:
                    table_fees.pay(fee, arg)
                    paid[fee.pk] = arg
                    if arg == "prepaid":
                        balance[fee.member_id] -= fee.amount
            else:
                if fee.pk not in paid:
                    with pytest.raises(table_fees.MoneyError):
                        table_fees.refund(fee)
                else:
                    table_fees.refund(fee)
                    if paid.pop(fee.pk) == "prepaid":
                        balance[fee.member_id] += fee.amount
            figures = cash_sheet.figures(session)
            assert figures.expected == figures.collected + figures.missing
        by_method = figures.by_method() if ops else cash_sheet.figures(session).by_method()
        for method in METHODS:
            assert by_method[method] == sum(
                (f.amount for f in fees if paid.get(f.pk) == method), Decimal("0")
            )
        for member_id, expected in balance.items():
            got = table_fees.balance_of(member_id)
            assert got == expected
            if not overdraft:
                assert got >= 0

"""Money raced on PostgreSQL: closing a cash sheet against payments, refunds, charges and
top-ups started at the same instant from other connections, many times over.

Whatever wins, a closed sheet never changes afterwards: its figures stay the ones stored
with the closing in the audit trail, and a write that came too late is refused whole.
"""

import datetime
import threading
from decimal import Decimal as D

import pytest
from django.db import connection
from django.utils import translation

from clubsite.models import Member, Season
from clubsite.tenancy import thread_in_scope
from tournaments.models import (
    AuditAction,
    AuditEntry,
    BalanceMove,
    EntryPlayer,
    TableFee,
    TableMethod,
)
from tournaments.services.entries import registration, reinstatement
from tournaments.services.errors import TournamentError
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.setup import events as setup

DAY = datetime.date(2025, 11, 4)
ROUNDS = 12
COUNTED = {TableMethod.CASH: D("0"), TableMethod.CARD: D("0"), TableMethod.TRANSFER: D("0")}

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: there is no race to lose")
    with translation.override("en"):
        yield


@pytest.fixture
def night():
    """A session of three pairs at 5.00 a head, its six fees charged."""
    season = Season.for_date(DAY)
    rates = table_fees.rates_for(season)
    rates.member_fee = D("5.00")
    rates.save()
    tournament = setup.create_tournament(name="Martes", date=DAY)
    players = [Member.objects.create(first_name=f"P{i}", last_name=f"L{i}") for i in range(6)]
    for i in range(0, 6, 2):
        registration.register_entry(tournament, players[i : i + 2])
    session = tournament.sessions.get()
    table_fees.charge_session(session)
    return session


def at_once(*writes):
    """Run every write from its own connection, released together; what each ended in."""
    barrier = threading.Barrier(len(writes))
    outcomes = [None] * len(writes)

    def run(i, write):
        try:
            barrier.wait()
            with translation.override("en"):  # the closing's audit words, as read back
                write()
            outcomes[i] = "done"
        except TournamentError:
            outcomes[i] = "refused"
        except Exception as exc:  # noqa: BLE001 - reported by the assertion
            outcomes[i] = repr(exc)
        finally:
            connection.close()

    threads = [thread_in_scope(run, args=(i, w)) for i, w in enumerate(writes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def close(session):
    return lambda: cash_sheet.close(session, counted=COUNTED, note="count later")


def the_closing_holds(session):
    """The sheet is closed and its figures are still the ones stored when it closed."""
    closing = AuditEntry.objects.filter(session=session, action=AuditAction.CASH_CLOSED).latest(
        "pk"
    )
    assert cash_sheet.is_closed(session)
    assert cash_sheet._snapshot(cash_sheet.figures(session)) == closing.after


def reopen(session):
    cash_sheet.reopen(session, reason="recount")


def test_closing_against_three_cash_payments(night):
    for attempt in range(ROUNDS):
        fees = [f for f in table_fees.session_fees(night) if not f.is_paid][:3]
        if len(fees) < 3:
            for fee in table_fees.session_fees(night):
                if fee.is_paid:
                    table_fees.refund(fee)
            fees = table_fees.session_fees(night)[:3]
        outcomes = at_once(
            close(night), *[lambda f=f: table_fees.pay(f, TableMethod.CASH) for f in fees]
        )
        assert outcomes[0] == "done", (attempt, outcomes)
        assert set(outcomes[1:]) <= {"done", "refused"}, (attempt, outcomes)
        the_closing_holds(night)
        paid = TableFee.objects.filter(pk__in=[f.pk for f in fees]).exclude(method="").count()
        assert paid == outcomes.count("done") - 1, (attempt, outcomes)
        reopen(night)


def test_closing_against_refunds(night):
    for fee in table_fees.session_fees(night):
        table_fees.pay(fee, TableMethod.CARD)
    for attempt in range(ROUNDS):
        fees = [f for f in table_fees.session_fees(night) if f.is_paid][:2]
        if len(fees) < 2:
            for fee in table_fees.session_fees(night):
                if not fee.is_paid:
                    table_fees.pay(fee, TableMethod.CARD)
            fees = table_fees.session_fees(night)[:2]
        outcomes = at_once(close(night), *[lambda f=f: table_fees.refund(f) for f in fees])
        assert outcomes[0] == "done", (attempt, outcomes)
        assert set(outcomes[1:]) <= {"done", "refused"}, (attempt, outcomes)
        the_closing_holds(night)
        reopen(night)


def test_closing_against_a_charge_that_cancels_a_fee(night):
    """A player leaves after money moved on their fee: charging the session again cancels
    the fee (a void), which changes what the sheet expects; it must not land after the
    closing."""
    for attempt in range(ROUNDS):
        entry = night.tournament.entries.order_by("pk").first()
        player = EntryPlayer.objects.filter(entry=entry).first()
        fee = TableFee.objects.get(session=night, member_id=player.member_id)
        table_fees.pay(fee, TableMethod.CASH)
        table_fees.refund(fee)
        registration.withdraw_entry(entry, user=None, reason="left")
        outcomes = at_once(close(night), lambda: table_fees.charge_session(night))
        assert outcomes == ["done", "done"], (attempt, outcomes)
        the_closing_holds(night)
        reopen(night)
        reinstatement.reinstate_entry(entry, user=None, reason="back")
        table_fees.charge_session(night)
        assert TableFee.objects.get(pk=fee.pk).voided_at is None


def test_prepaid_payments_against_closing_and_top_ups(night):
    """A member's balance holds one fee: two of her fees paid from it, a top-up and the
    closing all at once. The balance never goes below zero, every balance line belongs to
    a move that stands, and the closed sheet holds."""
    rates = table_fees.rates_for(Season.for_date(DAY))
    later = setup.create_tournament(name="Jueves", date=DAY + datetime.timedelta(days=2))
    for attempt in range(ROUNDS):
        member = Member.objects.create(first_name="Saldo", last_name=f"S{attempt}")
        partner = Member.objects.create(first_name="Socio", last_name=f"S{attempt}")
        registration.register_entry(night.tournament, [member, partner])
        registration.register_entry(later, [member, partner])
        table_fees.charge_session(night)
        table_fees.charge_session(later.sessions.get())
        mine = list(TableFee.objects.filter(member=member))
        assert len(mine) == 2
        table_fees.top_up(member, D("5.00"), TableMethod.CASH)
        outcomes = at_once(
            close(night),
            *[lambda f=f: table_fees.pay(f, TableMethod.PREPAID) for f in mine],
            lambda m=member: table_fees.top_up(m, D("5.00"), TableMethod.CARD),
        )
        assert outcomes[0] == "done" and outcomes[3] == "done", (attempt, outcomes)
        assert set(outcomes[1:3]) <= {"done", "refused"}, (attempt, outcomes)
        assert not rates.overdraft_allowed
        assert table_fees.balance_of(member) >= 0, (attempt, outcomes)
        paid = TableFee.objects.filter(member=member, method=TableMethod.PREPAID).count()
        assert paid == outcomes[1:3].count("done")
        assert table_fees.balance_of(member) == D("10.00") - 5 * paid
        assert BalanceMove.objects.filter(member=member, fee__isnull=False).count() == paid
        the_closing_holds(night)
        reopen(night)

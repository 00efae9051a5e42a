"""Table money without HTTP: who is charged what, paying once, refunds, prepaid balances,
the cash sheet's figures, closing (locked) and reopening (audited), and the reports."""

import datetime
import threading
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from openpyxl import load_workbook

from clubsite.members.exports import xlsx_bytes
from clubsite.models import Category, Member, Season
from clubsite.tenancy import thread_in_scope
from tournaments.models import (
    AuditAction,
    AuditEntry,
    BalanceMove,
    FeeCategory,
    TableFee,
    TableFeeMove,
    TableMethod,
)
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.money import table_money_reports as reports
from tournaments.services.setup import events as setup

D = Decimal
DAY = datetime.date(2025, 10, 7)


@pytest.fixture(autouse=True)
def _english():
    """Messages are matched as written in English."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def club(db):
    junior = Category.objects.create(code="junior", name="Junior")
    honorary = Category.objects.create(code="honorary", name="Honorary")
    season = Season.for_date(DAY)
    rates = table_fees.rates_for(season)
    rates.member_fee, rates.guest_fee, rates.junior_fee = D("5.00"), D("8.00"), D("2.50")
    rates.save()
    rates.junior_categories.add(junior)
    rates.free_categories.add(honorary)
    people = {
        "ana": Member.objects.create(first_name="Ana", last_name="Alba"),
        "blas": Member.objects.create(first_name="Blas", last_name="Bravo", is_guest=True),
        "cris": Member.objects.create(first_name="Cris", last_name="Cano", category=junior),
        "dora": Member.objects.create(first_name="Dora", last_name="Díaz", category=honorary),
    }
    tournament = setup.create_tournament(name="Martes", date=DAY)
    registration.register_entry(tournament, [people["ana"], people["blas"]])
    registration.register_entry(tournament, [people["cris"], people["dora"]])
    session = tournament.sessions.get()
    return {"session": session, "rates": rates, "season": season, **people}


def fees_by_name(session):
    return {f.member.first_name.lower(): f for f in table_fees.charge_session(session)}


def test_each_player_is_charged_once_by_category(club):
    fees = fees_by_name(club["session"])
    assert {k: (f.category, f.amount) for k, f in fees.items()} == {
        "ana": (FeeCategory.MEMBER, D("5.00")),
        "blas": (FeeCategory.GUEST, D("8.00")),
        "cris": (FeeCategory.JUNIOR, D("2.50")),
        "dora": (FeeCategory.FREE, D("0.00")),
    }
    table_fees.charge_session(club["session"])
    assert TableFee.objects.count() == 4
    with pytest.raises(IntegrityError), transaction.atomic():
        TableFee.objects.create(
            session=club["session"], member=club["ana"], category=FeeCategory.MEMBER, amount=D("5")
        )


def test_a_withdrawn_pair_loses_its_unpaid_fees_but_keeps_a_paid_one(club, secretary):
    fees = fees_by_name(club["session"])
    table_fees.pay(fees["ana"], TableMethod.CASH, user=secretary)
    entry = club["ana"].entries.get()
    registration.withdraw_entry(entry, user=secretary, reason="se fue")
    left = fees_by_name(club["session"])
    assert sorted(left) == ["ana", "cris", "dora"]


def test_a_fee_paid_twice_is_stored_once_with_a_clear_message(club, director):
    fee = fees_by_name(club["session"])["ana"]
    table_fees.pay(fee, TableMethod.CASH, user=director)
    with pytest.raises(table_fees.MoneyError, match="already paid"):
        table_fees.pay(fee, TableMethod.CARD, user=director)
    fee.refresh_from_db()
    assert fee.method == TableMethod.CASH
    assert TableFeeMove.objects.count() == 1
    assert AuditEntry.objects.filter(action=AuditAction.FEE_PAID).count() == 1


def test_a_free_entry_has_nothing_to_pay(club):
    with pytest.raises(table_fees.MoneyError, match="nothing to pay"):
        table_fees.pay(fees_by_name(club["session"])["dora"], TableMethod.CASH)


def test_unknown_method_is_refused(club):
    with pytest.raises(table_fees.MoneyError):
        table_fees.pay(fees_by_name(club["session"])["ana"], "bitcoin")


def test_prepaid_balance_pays_and_refund_gives_it_back(club, secretary):
    ana = club["ana"]
    table_fees.top_up(ana, "12,00", TableMethod.CASH, user=secretary)
    fee = table_fees.pay(fees_by_name(club["session"])["ana"], TableMethod.PREPAID)
    assert table_fees.balance_of(ana) == D("7.00")
    table_fees.refund(fee, user=secretary, reason="mistake")
    assert table_fees.balance_of(ana) == D("12.00")
    assert list(
        BalanceMove.objects.filter(member=ana).order_by("id").values_list("kind", "amount")
    ) == [("topup", D("12.00")), ("fee", D("-5.00")), ("refund", D("5.00"))]


def test_balance_never_goes_negative_unless_the_club_allows(club):
    ana = club["ana"]
    table_fees.top_up(ana, D("3.00"), TableMethod.CARD)
    fee = fees_by_name(club["session"])["ana"]
    with pytest.raises(table_fees.MoneyError, match="below zero"):
        table_fees.pay(fee, TableMethod.PREPAID)
    assert table_fees.balance_of(ana) == D("3.00")
    assert not TableFee.objects.get(pk=fee.pk).is_paid
    club["rates"].overdraft_allowed = True
    club["rates"].save()
    table_fees.pay(fee, TableMethod.PREPAID)
    assert table_fees.balance_of(ana) == D("-2.00")


@pytest.mark.parametrize(
    "amount,message",
    [
        ("0", "greater than zero"),
        ("-5", "greater than zero"),
        ("1.234", "whole cents"),
        ("abc", "as a number"),
        ("NaN", "as a number"),
        ("100000", "too large"),
    ],
)
def test_bad_top_ups_are_refused(club, amount, message):
    with pytest.raises(table_fees.MoneyError, match=message):
        table_fees.top_up(club["ana"], amount, TableMethod.CASH)
    assert not BalanceMove.objects.exists()


def test_a_balance_is_not_topped_up_from_itself(club):
    with pytest.raises(table_fees.MoneyError, match="cash, card or transfer"):
        table_fees.top_up(club["ana"], "5", TableMethod.PREPAID)


def test_cash_sheet_figures(club):
    fees = fees_by_name(club["session"])
    table_fees.pay(fees["ana"], TableMethod.CASH)
    table_fees.pay(fees["blas"], TableMethod.CARD)
    figures = cash_sheet.figures(club["session"])
    assert figures.expected == D("15.50")
    assert figures.by_method() == {
        "cash": D("5.00"),
        "card": D("8.00"),
        "transfer": 0,
        "prepaid": 0,
    }
    assert figures.missing == D("2.50")
    assert (figures.players, figures.unpaid, figures.free) == (4, 1, 1)


def test_closing_locks_the_sheet_and_reopening_is_audited(club, secretary):
    session = club["session"]
    fees = fees_by_name(session)
    table_fees.pay(fees["ana"], TableMethod.CASH)
    counted = {TableMethod.CASH: D("5.00"), TableMethod.CARD: D("0"), TableMethod.TRANSFER: D("0")}
    with pytest.raises(TournamentError, match="say why"):
        cash_sheet.close(session, counted=counted, user=secretary)  # two fees unpaid
    cash_sheet.close(session, counted=counted, user=secretary, note="Blas pays next week")
    with pytest.raises(cash_sheet.SheetLocked, match="closed"):
        table_fees.pay(fees["blas"], TableMethod.CASH)
    with pytest.raises(cash_sheet.SheetLocked):
        table_fees.refund(fees["ana"])
    with pytest.raises(cash_sheet.SheetLocked, match="already closed"):
        cash_sheet.close(session, counted=counted, user=secretary, note="x")
    with pytest.raises(TournamentError, match="Say why"):
        cash_sheet.reopen(session, user=secretary, reason="  ")
    cash_sheet.reopen(session, user=secretary, reason="Blas came back")
    table_fees.pay(fees["blas"], TableMethod.CASH)
    actions = list(
        AuditEntry.objects.filter(session=session).order_by("id").values_list("action", "reason")
    )
    assert actions == [
        ("fee_paid", ""),
        ("cash_closed", "Blas pays next week"),
        ("cash_reopen", "Blas came back"),
        ("fee_paid", ""),
    ]


def test_a_count_that_differs_needs_a_note(club, secretary):
    session = club["session"]
    for name in ("ana", "blas", "cris"):
        table_fees.pay(fees_by_name(session)[name], TableMethod.CASH)
    short = {TableMethod.CASH: D("15.00"), TableMethod.CARD: D("0"), TableMethod.TRANSFER: D("0")}
    with pytest.raises(TournamentError, match="differs"):
        cash_sheet.close(session, counted=short, user=secretary)
    assert not cash_sheet.is_closed(session)
    exact = {**short, TableMethod.CASH: D("15.50")}
    sheet = cash_sheet.close(session, counted=exact, user=secretary)
    assert sheet.is_closed
    line = next(x for x in cash_sheet.figures(session).lines if x.method == "cash")
    assert line.difference == 0


def test_charging_stops_once_closed(club, secretary):
    session = club["session"]
    table_fees.charge_session(session)
    zero = {m: D("0") for m in cash_sheet.COUNTED}
    cash_sheet.close(session, counted=zero, user=secretary, note="nobody paid")
    TableFee.objects.filter(member=club["ana"]).delete()
    assert len(table_fees.charge_session(session)) == 3


def test_reports_per_season_and_month(club, secretary):
    fees = fees_by_name(club["session"])
    table_fees.pay(fees["ana"], TableMethod.CASH)
    table_fees.pay(fees["blas"], TableMethod.TRANSFER)
    move = table_fees.top_up(club["cris"], "20", TableMethod.CARD, user=secretary)
    BalanceMove.objects.filter(pk=move.pk).update(
        at=datetime.datetime(2025, 10, 8, 12, tzinfo=datetime.UTC)
    )
    rep = reports.report(reports.season_period(club["season"]))
    assert len(rep.rows) == 1
    row = rep.rows[0]
    assert (row.players, row.expected, row.collected, row.missing) == (
        4,
        D("15.50"),
        D("13.00"),
        D("2.50"),
    )
    october = reports.report(reports.month_period(2025, 10))
    assert october.total("expected") == D("15.50")
    assert reports.report(reports.month_period(2025, 11)).rows == []
    cells = reports.table(rep)
    assert cells[-2][0] == "Total" and cells[-2][4] == D("15.50")
    assert cells[-1][0] == "Top-ups" and cells[-1][1] == "Card" and D("20") in cells[-1]
    assert reports.report(reports.month_period(2025, 10)).top_up_total == D("20.00")
    workbook = load_workbook(
        __import__("io").BytesIO(xlsx_bytes("2025-26", reports.header(), cells))
    )
    sheet = workbook.active
    assert sheet.cell(row=2, column=2).value == "Martes"
    assert sheet.cell(row=2, column=5).value == 15.5


def test_unpaid_per_member(club):
    fees = fees_by_name(club["session"])
    table_fees.pay(fees["ana"], TableMethod.CASH)
    debtors = reports.debtors(table_fees.unpaid_fees())
    assert [(d.member.first_name, d.total) for d in debtors] == [
        ("Blas", D("8.00")),
        ("Cris", D("2.50")),
    ]
    assert [f.member.first_name for f in table_fees.unpaid_fees(club["cris"])] == ["Cris"]


@pytest.mark.django_db(transaction=True)
def test_two_devices_marking_the_same_fee_at_once_store_one_payment():
    Season.for_date(DAY)
    ana = Member.objects.create(first_name="Ana", last_name="Alba")
    bea = Member.objects.create(first_name="Bea", last_name="Bosch")
    tournament = setup.create_tournament(name="Jueves", date=DAY)
    registration.register_entry(tournament, [ana, bea])
    session = tournament.sessions.get()
    rates = table_fees.rates_for(Season.for_date(DAY))
    rates.member_fee = D("4.00")
    rates.save()
    for attempt in range(4):
        TableFeeMove.objects.all().delete()
        TableFee.objects.all().delete()
        fee = table_fees.charge_session(session)[0]
        assert sorted(race(fee, ("cash", "card"))) == ["paid", "refused"], attempt
        assert TableFeeMove.objects.filter(fee=fee).count() == 1


def race(fee, methods):
    """Both methods tapped for ``fee`` at the same instant, from two connections."""
    barrier = threading.Barrier(len(methods))
    outcomes = []

    def tap(method):
        try:
            barrier.wait()
            table_fees.pay(fee, method)
            outcomes.append("paid")
        except table_fees.MoneyError:
            outcomes.append("refused")
        except Exception as exc:  # noqa: BLE001 - reported by the assertion
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [thread_in_scope(tap, args=(m,)) for m in methods]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_demo_club_has_table_money(demo_club, monkeypatch, movements):
    from tournaments import demo
    from tournaments.demo import money as demo_money

    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("martes", "tarde"))
    report = demo_money.build_table_money()
    assert "fees" in report
    tuesday = TableFee.objects.filter(session__tournament__slug__endswith="martes")
    assert tuesday.exists() and cash_sheet.is_closed(tuesday.first().session)
    figures = cash_sheet.figures(tuesday.first().session)
    assert figures.expected == figures.collected + figures.missing
    player = Member.objects.get(user__username="jugador")
    assert table_fees.balance_of(player) >= 0
    assert BalanceMove.objects.filter(member=player, kind="topup").exists()
    assert demo_money.build_table_money() == "table money: already there"


def test_the_audit_trail_reads_payments_and_closings_in_words(club, secretary):
    from tournaments.services.running import audit_log

    table_fees.pay(fees_by_name(club["session"])["ana"], TableMethod.CARD, user=secretary)
    paid = AuditEntry.objects.get(action=AuditAction.FEE_PAID)
    assert audit_log.changes(paid) == [
        ("Player", "—", "Ana Alba"),
        ("Amount", "—", "5.00"),
        ("Paid by", "—", "Card"),
    ]
    assert audit_log.who(paid) == "sec"

"""The door list on a busy night (a name search and "unpaid only", with and without htmx)
and the cash sheet once reopened (the last count shown as the previous one, not compared)."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from clubsite.models import Member, Season
from tests.signed_in import sign_in_verified
from tournaments.models import TableMethod
from tournaments.services.entries import registration
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.setup import events as setup

D = Decimal
DAY = datetime.date(2025, 10, 21)


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def night(db):
    rates = table_fees.rates_for(Season.for_date(DAY))
    rates.member_fee = D("5.00")
    rates.save()
    names = [("Lucía", "Fernández"), ("Luis", "Fernando"), ("Ana", "Peña"), ("José", "Ruiz")]
    people = [Member.objects.create(first_name=f, last_name=last) for f, last in names]
    tournament = setup.create_tournament(name="Martes", date=DAY)
    registration.register_entry(tournament, people[:2])
    registration.register_entry(tournament, people[2:])
    session = tournament.sessions.get()
    fees = {f.member.first_name: f for f in table_fees.charge_session(session)}
    return {"session": session, "fees": fees}


def _names(fees):
    return sorted(f.member.first_name for f in fees)


def test_the_name_search_ignores_accents_case_and_word_order(night):
    fees = list(night["fees"].values())
    assert _names(table_fees.door_filter(fees, query="fernan")) == ["Lucía", "Luis"]
    assert _names(table_fees.door_filter(fees, query="FERNANDEZ luci")) == ["Lucía"]
    assert _names(table_fees.door_filter(fees, query="pena")) == ["Ana"]
    assert _names(table_fees.door_filter(fees, query="  ")) == _names(fees)
    assert table_fees.door_filter(fees, query="zzz") == []


def test_unpaid_only_drops_paid_fees_and_combines_with_the_search(night):
    table_fees.pay(night["fees"]["Luis"], TableMethod.CASH)
    fees = table_fees.charge_session(night["session"])
    assert _names(table_fees.door_filter(fees, unpaid_only=True)) == ["Ana", "José", "Lucía"]
    assert _names(table_fees.door_filter(fees, query="fernan", unpaid_only=True)) == ["Lucía"]


def test_the_door_list_filters_without_js_and_keeps_the_filter_after_a_tap(client, director, night):
    sign_in_verified(client, director)
    url = reverse("director:table_fees", args=[night["session"].pk])
    page = client.get(url, {"q": "fernan", "unpaid": "1"}).content.decode()
    assert "Fernández, Lucía" in page and "Fernando, Luis" in page
    assert "Peña, Ana" not in page
    assert "2 of 4 players shown" in page
    assert 'value="fernan"' in page  # the search box shows what was typed
    fee = night["fees"]["Luis"]
    done = client.post(
        reverse("director:fee_pay", args=[fee.pk]), {"method": "cash", "q": "fernan", "unpaid": "1"}
    )
    assert done.status_code == 302
    assert done.url == f"{url}?q=fernan&unpaid=1#fee-{fee.pk}"
    after = client.get(url, {"q": "fernan", "unpaid": "1"}).content.decode()
    assert "Fernando, Luis" not in after and "1 of 4 players shown" in after
    assert "No player matches this filter." in client.get(url, {"q": "xyz"}).content.decode()


def test_htmx_gets_the_list_alone(client, director, night):
    sign_in_verified(client, director)
    url = reverse("director:table_fees", args=[night["session"].pk])
    part = client.get(url, {"q": "ruiz"}, HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="door-list"')
    assert "Ruiz, José" in part and "Peña, Ana" not in part
    assert "<html" not in part
    assert 'name="q" value="ruiz"' in part  # a tap in the narrowed list keeps the filter


def _counted(cash):
    return {TableMethod.CASH: D(cash), TableMethod.CARD: D("0"), TableMethod.TRANSFER: D("0")}


def test_a_reopened_sheet_shows_the_last_count_as_previous_not_compared(night, secretary):
    session, fees = night["session"], night["fees"]
    table_fees.pay(fees["Ana"], TableMethod.CASH)
    cash_sheet.close(session, counted=_counted("4.00"), user=secretary, note="short by 1")
    closed = {x.method: x for x in cash_sheet.figures(session).lines}
    assert (closed["cash"].counted, closed["cash"].difference) == (D("4.00"), D("-1.00"))
    assert not cash_sheet.figures(session).reopened

    cash_sheet.reopen(session, user=secretary, reason="José paid")
    table_fees.pay(fees["José"], TableMethod.CASH)
    figures = cash_sheet.figures(session)
    cash = {x.method: x for x in figures.lines}["cash"]
    assert figures.reopened
    assert (cash.collected, cash.counted, cash.previous, cash.difference) == (
        D("10.00"),
        None,
        D("4.00"),
        None,
    )

    cash_sheet.close(session, counted=_counted("9.00"), user=secretary, note="still short")
    again = {x.method: x for x in cash_sheet.figures(session).lines}["cash"]
    assert (again.counted, again.previous, again.difference) == (D("9.00"), None, D("-1.00"))


def test_the_reopened_sheet_page_labels_the_previous_count(secretary_client, night, secretary):
    session = night["session"]
    url = reverse("director:cash_sheet", args=[session.pk])
    assert "Previous count" not in secretary_client.get(url).content.decode()
    cash_sheet.close(session, counted=_counted("0"), user=secretary, note="nobody paid")
    cash_sheet.reopen(session, user=secretary, reason="recount")
    page = secretary_client.get(url).content.decode()
    assert "Previous count" in page and 'id="reopened-note"' in page

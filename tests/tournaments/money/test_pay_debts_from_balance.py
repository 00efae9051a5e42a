"""Issue #35: "owes 5.00" beside a prepaid balance of 20.00, with no word on how the two
relate and no way to pay the one from the other. The money pages now say it and offer it."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from clubsite.models import Member, Season
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tournaments.models import TableFee
from tournaments.services.entries import registration
from tournaments.services.money import table_fees
from tournaments.services.setup import events as setup

DAY = datetime.date(2025, 10, 14)


@pytest.fixture
def night(db, client):
    client.cookies["django_language"] = "en"
    rates = table_fees.rates_for(Season.for_date(DAY))
    rates.member_fee, rates.guest_fee = Decimal("5.00"), Decimal("8.00")
    rates.save()
    ana = Member.objects.create(first_name="Ana", last_name="Peña")
    luis = Member.objects.create(first_name="Luis", last_name="Gil", is_guest=True)
    tournament = setup.create_tournament(name="Martes", date=DAY)
    registration.register_entry(tournament, [ana, luis])
    table_fees.charge_session(tournament.sessions.get())
    return {"ana": ana, "luis": luis}


def test_the_player_reads_why_and_pays_the_debt_from_the_balance(client, night):
    ana = night["ana"]
    ana.user = make_user("ana", "Player")
    ana.save()
    table_fees.top_up(ana, "20", "cash")
    sign_in_verified(client, ana.user)
    text = client.get(reverse("money:mine")).content.decode()
    assert 'id="debt-explained"' in text and "the balance can pay them" in text
    assert 'id="pay-debts"' in text
    done = client.post(reverse("money:mine"), {"pay_debts": "1"}, follow=True)
    assert "1 table fees (5.00) paid from the prepaid balance" in done.content.decode()
    assert table_fees.balance_of(ana) == Decimal("15.00")
    assert TableFee.objects.get(member=ana).method == "prepaid"
    assert 'id="pay-debts"' not in done.content.decode()


def test_the_secretary_pays_as_far_as_the_balance_goes(secretary_client, night):
    luis = night["luis"]
    table_fees.top_up(luis, "5", "cash")  # less than his 8.00
    url = reverse("money:balance", args=[luis.pk])
    assert 'id="pay-debts"' not in secretary_client.get(url).content.decode()
    table_fees.top_up(luis, "3", "cash")
    assert 'id="pay-debts"' in secretary_client.get(url).content.decode()
    secretary_client.post(url, {"pay_debts": "1"})
    assert table_fees.balance_of(luis) == Decimal("0.00")
    assert not table_fees.unpaid_fees(luis).exists()


def test_a_fee_the_balance_does_not_cover_is_left_with_the_reason(night):
    table_fees.top_up(night["luis"], "5", "cash")
    done = table_fees.pay_debts_from_balance(night["luis"])
    assert done.paid == [] and "el saldo no alcanza" in done.left[0][1]
    assert table_fees.balance_of(night["luis"]) == Decimal("5.00")

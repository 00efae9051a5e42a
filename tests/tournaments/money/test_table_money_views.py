"""Table money pages: the door list, paying twice, the cash sheet's close form, top-ups with
bad input, the downloads, and a player's own account."""

import datetime
import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from openpyxl import load_workbook

from clubsite.models import Member, Season
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tournaments.models import BalanceMove, TableFee, TableFeeMove
from tournaments.services.entries import registration
from tournaments.services.money import table_fees
from tournaments.services.setup import events as setup

DAY = datetime.date(2025, 10, 14)


@pytest.fixture(autouse=True)
def _english(client):
    """The pages in English (messages are matched as written); figures with a point."""
    client.cookies["django_language"] = "en"


@pytest.fixture
def night(db):
    rates = table_fees.rates_for(Season.for_date(DAY))
    rates.member_fee, rates.guest_fee = Decimal("5.00"), Decimal("8.00")
    rates.save()
    ana = Member.objects.create(first_name="Ana", last_name="Peña")
    luis = Member.objects.create(first_name="Luis", last_name="Gil", is_guest=True)
    tournament = setup.create_tournament(name="Martes", date=DAY)
    registration.register_entry(tournament, [ana, luis])
    return {"session": tournament.sessions.get(), "ana": ana, "luis": luis}


def test_director_marks_a_fee_paid_and_a_second_tap_is_told(client, director, night):
    sign_in_verified(client, director)
    url = reverse("director:table_fees", args=[night["session"].pk])
    page = client.get(url).content.decode()
    assert "2 players entered have no fee yet." in page  # the list only reads
    assert not TableFee.objects.exists()
    client.post(reverse("director:table_fees_update", args=[night["session"].pk]))
    page = client.get(url)
    assert page.status_code == 200
    assert "Peña, Ana" in page.content.decode()
    assert "no fee yet" not in page.content.decode()
    fee = TableFee.objects.get(member=night["ana"])
    pay = reverse("director:fee_pay", args=[fee.pk])
    done = client.post(pay, {"method": "cash"}, follow=True)
    assert "paid 5.00" in done.content.decode()
    again = client.post(pay, {"method": "card"}, follow=True)
    assert "already paid (Cash)" in again.content.decode()
    assert TableFeeMove.objects.filter(fee=fee).count() == 1


def test_the_director_cannot_close_the_cash_sheet(client, director, night):
    sign_in_verified(client, director)
    url = reverse("director:cash_close", args=[night["session"].pk])
    assert (
        client.post(
            url, {"counted_cash": "0", "counted_card": "0", "counted_transfer": "0", "note": "x"}
        ).status_code
        == 403
    )


def test_close_form_keeps_what_was_typed_and_explains(secretary_client, night):
    session = night["session"]
    secretary_client.post(reverse("director:table_fees_update", args=[session.pk]))
    response = secretary_client.post(
        reverse("director:cash_close", args=[session.pk]),
        {"counted_cash": "4,5", "counted_card": "0", "counted_transfer": "abc", "note": ""},
    )
    text = response.content.decode()
    assert response.status_code == 400
    assert "Give the amount as a number" in text
    assert 'value="4,5"' in text or 'value="4.5"' in text
    response = secretary_client.post(
        reverse("director:cash_close", args=[session.pk]),
        {"counted_cash": "0", "counted_card": "0", "counted_transfer": "0", "note": ""},
    )
    assert response.status_code == 400
    assert "say why in the note" in response.content.decode()
    response = secretary_client.post(
        reverse("director:cash_close", args=[session.pk]),
        {
            "counted_cash": "0",
            "counted_card": "0",
            "counted_transfer": "0",
            "note": "Nobody paid tonight",
        },
        follow=True,
    )
    assert "The cash sheet is closed" in response.content.decode()
    fee = TableFee.objects.get(member=night["ana"])
    locked = secretary_client.post(
        reverse("director:fee_pay", args=[fee.pk]), {"method": "cash"}, follow=True
    )
    assert "is closed: no payment or refund" in locked.content.decode()
    assert not TableFee.objects.get(pk=fee.pk).is_paid
    refused = secretary_client.post(
        reverse("director:cash_reopen", args=[session.pk]), {"reason": ""}
    )
    assert refused.status_code == 400 and "Say why." in refused.content.decode()
    reopened = secretary_client.post(
        reverse("director:cash_reopen", args=[session.pk]), {"reason": "Ana paid late"}, follow=True
    )
    assert "open again" in reopened.content.decode()


@pytest.mark.parametrize(
    "amount,message",
    [
        ("-3", "greater than or equal to 0"),
        ("2.345", "whole cents"),
        ("dos", "as a number"),
        ("0", "greater than zero"),
    ],
)
def test_bad_top_up_is_answered_and_nothing_is_saved(secretary_client, night, amount, message):
    url = reverse("money:balance", args=[night["ana"].pk])
    response = secretary_client.post(url, {"amount": amount, "method": "cash"})
    assert response.status_code == 400
    text = response.content.decode()
    assert message in text
    assert f'value="{amount}"' in text
    assert not BalanceMove.objects.exists()


def test_top_up_then_pay_from_the_balance(secretary_client, night):
    url = reverse("money:balance", args=[night["ana"].pk])
    secretary_client.post(url, {"amount": "20,00", "method": "card", "note": "bono"})
    assert table_fees.balance_of(night["ana"]) == Decimal("20.00")
    secretary_client.post(reverse("director:table_fees_update", args=[night["session"].pk]))
    fee = TableFee.objects.get(member=night["ana"])
    secretary_client.post(reverse("director:fee_pay", args=[fee.pk]), {"method": "prepaid"})
    assert table_fees.balance_of(night["ana"]) == Decimal("15.00")
    luis = TableFee.objects.get(member=night["luis"])
    short = secretary_client.post(
        reverse("director:fee_pay", args=[luis.pk]), {"method": "prepaid"}, follow=True
    )
    assert "does not let balances go below zero" in short.content.decode()


def test_reports_download_as_csv_and_xlsx(secretary_client, night):
    secretary_client.post(reverse("director:table_fees_update", args=[night["session"].pk]))
    fee = TableFee.objects.get(member=night["ana"])
    secretary_client.post(reverse("director:fee_pay", args=[fee.pk]), {"method": "cash"})
    season = Season.for_date(DAY)
    page = secretary_client.get(reverse("money:report"), {"season": season.pk})
    assert page.status_code == 200 and "Martes" in page.content.decode()
    csv = secretary_client.get(
        reverse("money:report_csv"), {"season": season.pk, "sep": "semicolon"}
    )
    text = csv.content.decode("utf-8")
    assert text.startswith("\ufeff") and "Martes;1;2;13,00;5,00" in text
    comma = secretary_client.get(reverse("money:report_csv"), {"season": season.pk})
    assert "Martes,1,2,13.00,5.00" in comma.content.decode("utf-8")
    xlsx = secretary_client.get(reverse("money:report_xlsx"), {"month": "2025-10"})
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.title == "2025-10"
    assert [c.value for c in sheet[2]][:5] == ["2025-10-14", "Martes", 1, 2, 13]
    bad = secretary_client.get(reverse("money:report"), {"month": "2025-13"})
    assert bad.status_code == 400 and "year-month" in bad.content.decode()
    unpaid = secretary_client.get(reverse("money:unpaid_csv")).content.decode("utf-8")
    assert "Gil" in unpaid and "Peña" not in unpaid
    book = load_workbook(io.BytesIO(secretary_client.get(reverse("money:unpaid_xlsx")).content))
    assert [c.value for c in book.active[2]][:4] == ["Gil", "Luis", 1, 8]


def test_a_player_sees_only_their_own_account(client, night):
    user = make_user("ana", "Player")
    night["ana"].user = user
    night["ana"].save()
    table_fees.top_up(night["luis"], "50", "cash")
    table_fees.top_up(night["ana"], "7.5", "cash")
    table_fees.charge_session(night["session"])
    sign_in_verified(client, user)
    text = client.get(reverse("money:mine")).content.decode()
    assert "7.50" in text and "50.00" not in text
    assert "You owe 5.00" in text
    sign_in_verified(client, User.objects.create_user("nobody"))
    assert "not linked to a member" in client.get(reverse("money:mine")).content.decode()


def test_rates_refuse_a_category_both_junior_and_free(secretary_client, db):
    from clubsite.models import Category

    junior = Category.objects.create(code="junior", name="Junior")
    response = secretary_client.post(
        reverse("money:rates"),
        {
            "member_fee": "5",
            "guest_fee": "8",
            "junior_fee": "2",
            "junior_categories": [junior.pk],
            "free_categories": [junior.pk],
        },
    )
    assert response.status_code == 400
    assert "either junior or free" in response.content.decode()


def _door_queries(client, pairs):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    people = [
        Member.objects.create(first_name=f"N{i}", last_name=f"A{i}") for i in range(2 * pairs)
    ]
    tournament = setup.create_tournament(name=f"Noche {pairs}", date=DAY)
    for i in range(pairs):
        registration.register_entry(tournament, people[2 * i : 2 * i + 2])
    session = tournament.sessions.get()
    for member in people[::3]:
        table_fees.top_up(member, "10", "cash")
    url = reverse("director:table_fees", args=[session.pk])
    client.post(reverse("director:table_fees_update", args=[session.pk]))  # charges
    client.get(url)  # the process's caches (the club's row) filled: the count is the list's
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_door_list_costs_the_same_queries_for_any_number_of_players(client, director, db):
    sign_in_verified(client, director)
    table_fees.rates_for(Season.for_date(DAY))
    assert _door_queries(client, 3) == _door_queries(client, 15)

"""Demo table money: the season's table fees, a prepaid balance for the demo player, last
Tuesday's session paid at the door and its cash sheet closed by the secretary, Thursday's
still open with a fee unpaid, and tonight's session being collected at the door.

Runs after the demo tournaments (registered when ``tournaments.demo`` is imported); a club
that already has table fees is left alone, so running the demo twice changes nothing.
"""

import random
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction

from clubsite.demo import demo_builder
from clubsite.models import Category, Member, Season
from tournaments.services.money import cash_sheet, table_fees

from ..models import TableFee, TableMethod, Tournament

SEED = 1919
METHODS = [TableMethod.CASH] * 7 + [TableMethod.CARD] * 2 + [TableMethod.TRANSFER]


def _session(slug_tail: str):
    tournament = Tournament.objects.filter(slug__endswith=slug_tail).first()
    return tournament.sessions.order_by("number").first() if tournament else None


def _collect(session, rng: random.Random, share: float, user) -> None:
    for fee in table_fees.charge_session(session):
        if fee.is_due and rng.random() < share:
            balance = table_fees.balance_of(fee.member_id)
            method = TableMethod.PREPAID if balance >= fee.amount else rng.choice(METHODS)
            table_fees.pay(fee, method, user=user)


@demo_builder("table money")
@transaction.atomic
def build_table_money() -> str:
    if TableFee.objects.exists():
        return "table money: already there"
    rng = random.Random(SEED)
    secretary = User.objects.filter(username="secretaria").first()
    director = User.objects.filter(username="director").first()
    rates = table_fees.rates_for(Season.current())
    rates.member_fee, rates.guest_fee, rates.junior_fee = (
        Decimal("5.00"),
        Decimal("8.00"),
        Decimal("2.50"),
    )
    rates.save()
    rates.junior_categories.set(Category.objects.filter(code="junior"))
    player = Member.objects.filter(user__username="jugador").first()
    if player is not None:
        table_fees.top_up(
            player, Decimal("30.00"), TableMethod.CASH, user=secretary, note="Bono de diez mesas"
        )
    tuesday, thursday, tonight = (
        _session("torneo-de-los-martes"),
        _session("howell-del-jueves"),
        _session("torneo-de-la-tarde"),
    )
    if tuesday is not None:
        _collect(tuesday, rng, 0.93, director)
        figures = cash_sheet.figures(tuesday)
        counted = figures.by_method()
        counted[TableMethod.CASH] -= Decimal("5.00") if counted[TableMethod.CASH] else 0
        cash_sheet.close(
            tuesday,
            user=secretary,
            counted=counted,
            note="Faltan 5 € en la caja; lo pendiente se cobra el martes.",
        )
    if thursday is not None:
        _collect(thursday, rng, 0.85, director)
    if tonight is not None:
        _collect(tonight, rng, 0.3, director)
    return (
        f"table money: {TableFee.objects.count()} fees, "
        f"{TableFee.objects.exclude(method='').count()} paid"
    )

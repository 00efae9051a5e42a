"""Table money in a real browser. The director, on a tablet in Spanish, opens the evening's
table fees from the entry list and marks fees paid at the door (a second tablet with the page
still open taps a fee already paid and is told so; a prepaid balance too small is refused).
The secretary, on a desktop in Portuguese, tops up a member's balance (bad input first),
reconciles the cash sheet (a closing without a note while fees are unpaid is refused) and
closes it; the director's tablet is then refused a payment; she reopens it with a reason. A
player, on a phone in English (and in the two other languages), sees their balance and the
fee they still owe. Every page is screenshotted, fits its width and keeps 44px targets."""

import datetime
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from clubsite.accounts.permissions import Role
from clubsite.models import Category, Member, Season
from tests.e2e.e2e_helpers import login, no_sideways_scroll, screenshot
from tournaments.models import AuditEntry, TableFee, TableFeeMove
from tournaments.services.entries import registration
from tournaments.services.money import table_fees
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-1234-word"
TARGETS = "main a, main button, main input, main select, header a, header button"
SMALL_TARGETS = (
    """() => [...document.querySelectorAll('"""
    + TARGETS
    + """')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden' && e.type !== 'radio'
          && e.type !== 'checkbox')
  .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
  .filter(([html, r]) => r.width > 0 && (r.height < 43.5 || r.width < 27.5))
  .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
)


def _club():
    from django.utils import timezone

    from tests.conftest import make_user

    today = timezone.localdate()
    junior = Category.objects.create(code="junior", name="Junior")
    rates = table_fees.rates_for(Season.for_date(today))
    rates.member_fee, rates.guest_fee, rates.junior_fee = (
        Decimal("5.00"),
        Decimal("8.00"),
        Decimal("2.50"),
    )
    rates.save()
    rates.junior_categories.add(junior)
    make_user("director", Role.DIRECTOR, password=PASSWORD)
    make_user("secretaria", Role.SECRETARY, password=PASSWORD)
    lucia_user = make_user("lucia", Role.PLAYER, password=PASSWORD)
    people = [
        Member.objects.create(first_name="Lucía", last_name="Fernández", user=lucia_user),
        Member.objects.create(first_name="Antonio", last_name="Gil"),
        Member.objects.create(
            first_name="Inês",
            last_name="Magalhães",
            is_guest=True,
            home_club="Clube de Bridge do Porto",
        ),
        Member.objects.create(first_name="Pilar", last_name="Vega", category=junior),
        Member.objects.create(first_name="José", last_name="Ruiz"),
        Member.objects.create(first_name="Rosa", last_name="Prieto"),
    ]
    tournament = setup.create_tournament(
        name="Torneo de la tarde", date=today, venue="Sala principal"
    )
    for i in range(0, 6, 2):
        registration.register_entry(tournament, people[i : i + 2])
    return tournament, people


def _language(page, base, code):
    page.context.add_cookies([{"name": "django_language", "value": code, "url": base}])


def _fits(page):
    no_sideways_scroll(page)
    assert page.evaluate(SMALL_TARGETS) == [], page.url


def _row(page, member):
    fee = TableFee.objects.get(member=member)
    return f"#fee-{fee.pk}"


def test_door_balance_cash_sheet_and_own_account(live_server, new_page):
    tournament, people = _club()
    lucia, antonio, ines, pilar, jose, rosa = people
    base = live_server.url
    session = tournament.sessions.get()

    # the director, on a tablet in Spanish, from the entry list to the door
    tablet = new_page("tablet")
    _language(tablet, base, "es")
    login(tablet, base, "director", PASSWORD)
    tablet.goto(f"{base}/director/{tournament.pk}/entries/")
    tablet.click("#entries-table-fees a")
    # nobody charged yet (the session has not started): the list says so and waits for a tap
    assert "6 jugadores inscritos aún no tienen cuota." in tablet.inner_text("#door-pending")
    _fits(tablet)
    tablet.click("#door-update")
    tablet.wait_for_selector("#fee-list")
    assert tablet.locator("#door-pending").count() == 0
    assert "Hoja de caja abierta" in tablet.inner_text("#sheet-state")
    assert tablet.inner_text("#fig-expected") == "30,50"
    _fits(tablet)
    screenshot(tablet, "money-es-tablet-door")
    tablet.click(f"{_row(tablet, antonio)} button.pay-cash")
    assert "Antonio Gil ha pagado 5,00 (Efectivo)." in tablet.inner_text(".messages")
    tablet.click(f"{_row(tablet, ines)} button.pay-card")
    # Lucía has no balance yet: prepaid is refused with the reason
    tablet.click(f"{_row(tablet, lucia)} button.pay-prepaid")
    assert "el club no permite saldos negativos" in tablet.inner_text(".messages")
    assert "Cobrado" in tablet.inner_text("#sheet-figures")
    assert tablet.inner_text("#fig-collected") == "13,00"
    screenshot(tablet, "money-es-tablet-paid")

    # a second tablet with the list still open taps José after the first: told, stored once
    tablet.click(f"{_row(tablet, pilar)} button.pay-transfer")
    stale = new_page("tablet")
    _language(stale, base, "es")
    login(stale, base, "director", PASSWORD)
    stale.goto(f"{base}/director/sessions/{session.pk}/fees/")
    tablet.click(f"{_row(tablet, jose)} button.pay-cash")
    stale.click(f"{_row(stale, jose)} button.pay-card")
    assert "ya está pagada (Efectivo); no se ha registrado dos veces" in stale.inner_text(
        ".messages"
    )
    screenshot(stale, "money-es-tablet-paid-twice")
    assert TableFeeMove.objects.filter(fee__member=jose).count() == 1

    # the secretary, on a desktop in Portuguese, tops up Lucía's balance
    desk = new_page("desktop")
    _language(desk, base, "pt")
    login(desk, base, "secretaria", PASSWORD)
    desk.goto(f"{base}/club/members/{lucia.pk}/")
    desk.click("#member-balance")
    desk.fill("#id_amount", "vinte")
    desk.click("#top-up")
    assert "Indique o montante como número" in desk.inner_text("#topup-form")
    assert desk.input_value("#id_amount") == "vinte"
    desk.fill("#id_amount", "20,00")
    desk.click("#top-up")
    assert "juntos ao saldo de Lucía Fernández" in desk.inner_text(".messages")
    assert desk.inner_text("#balance") == "20,00"
    screenshot(desk, "money-pt-desktop-topup")

    # … the director takes Lucía's fee from her balance now
    tablet.reload()
    tablet.click(f"{_row(tablet, lucia)} button.pay-prepaid")
    assert "(Saldo prepagado)" in tablet.inner_text(".messages")

    # the secretary reconciles: Rosa has not paid, so a note is needed
    desk.goto(f"{base}/club/money/")
    _fits(desk)
    screenshot(desk, "money-pt-desktop-report")
    desk.click("a[href='/club/money/unpaid/']")
    assert "Prieto, Rosa" in desk.inner_text("#unpaid-table")
    screenshot(desk, "money-pt-desktop-unpaid")
    desk.click("a[href='/club/money/rates/']")
    desk.fill("#id_junior_fee", "2,505")
    desk.click("#save-rates")
    assert "duas casas decimais no máximo" in desk.inner_text("#rates-form")
    assert desk.input_value("#id_member_fee") == "5,00"
    screenshot(desk, "money-pt-desktop-rates-refused")
    desk.fill("#id_junior_fee", "3,00")
    desk.click("#save-rates")
    assert "Tarifas de mesa guardadas." in desk.inner_text(".messages")
    desk.goto(f"{base}/club/money/")
    desk.click(f"#period-sessions a[href='/director/sessions/{session.pk}/cash/']")
    assert desk.inner_text("#total-expected") == "30,50"
    assert desk.inner_text("#total-missing") == "5,00"
    desk.fill("#id_counted_cash", "9,00")
    desk.click("#close-sheet")
    assert "explique-o na nota" in desk.inner_text("#close-form")
    assert desk.input_value("#id_counted_cash") == "9,00"
    screenshot(desk, "money-pt-desktop-close-refused")
    desk.fill("#id_note", "Falta 1 € na caixa; a Rosa paga na próxima terça.")
    desk.click("#close-sheet")
    assert "Fechada" in desk.inner_text("#sheet-state")
    assert desk.inner_text("#line-cash td:last-child") == "-1,00"
    screenshot(desk, "money-pt-desktop-closed")

    # the director's tablet is refused a payment on the closed sheet
    tablet.reload()
    assert "Hoja de caja cerrada" in tablet.inner_text("#sheet-state")
    assert tablet.locator(f"{_row(tablet, rosa)} button").count() == 0
    stale.click(f"{_row(stale, rosa)} button.pay-cash")
    assert "está cerrada: no se puede registrar ningún cobro" in stale.inner_text(".messages")
    screenshot(stale, "money-es-tablet-locked")

    # she reopens it, saying why; the trail keeps both
    desk.click("#reopen")
    assert "Indique o motivo." in desk.inner_text("#reopen-form")
    desk.fill("#id_reason", "A Rosa pagou afinal.")
    desk.click("#reopen")
    assert "Aberta" in desk.inner_text("#sheet-state")
    assert "A Rosa pagou afinal." in desk.inner_text("#sheet-trail")
    # the last count is kept as the previous one, labelled, and no longer compared
    assert desk.inner_text("#counted-head") == "Contagem anterior"
    assert desk.inner_text("#line-cash td:nth-child(3)") == "9,00"
    assert desk.inner_text("#line-cash td:last-child") == "—"
    assert "Reaberta" in desk.inner_text("#reopened-note")
    screenshot(desk, "money-pt-desktop-reopened")
    assert list(
        AuditEntry.objects.filter(session=session, action__startswith="cash")
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["cash_closed", "cash_reopen"]

    # Lucía, on her phone, sees her balance; in English, Spanish and Portuguese
    for code, balance in (("en", "15.00"), ("es", "15,00"), ("pt", "15,00")):
        phone = new_page("phone")
        _language(phone, base, code)
        login(phone, base, "lucia", PASSWORD)
        phone.goto(f"{base}/")
        phone.click("#home-my-fees")
        assert phone.inner_text("#balance") == balance
        assert phone.inner_text("#unpaid-count") == "0"
        _fits(phone)
        screenshot(phone, f"money-{code}-phone-mine")


def test_a_player_sees_what_they_owe(live_server, new_page):
    tournament, people = _club()
    table_fees.charge_session(tournament.sessions.get())
    later = setup.create_tournament(
        name="Howell del jueves", date=tournament.date - datetime.timedelta(days=2)
    )
    registration.register_entry(later, people[:2])
    table_fees.charge_session(later.sessions.get())
    phone = new_page("phone")
    _language(phone, live_server.url, "en")
    login(phone, live_server.url, "lucia", PASSWORD)
    phone.goto(f"{live_server.url}/club/money/mine/")
    assert "You owe 10.00 in table fees." in phone.inner_text("#owed-note")
    assert phone.locator("#unpaid-list li").count() == 2
    _fits(phone)
    screenshot(phone, "money-en-phone-owed")


def _busy_night():
    """Twelve pairs: two Fernández, a Fernando, and the others; three fees paid already."""
    tournament, people = _club()
    more = [
        Member.objects.create(first_name=f, last_name=last)
        for f, last in (
            ("Luis", "Fernando"),
            ("Ana", "Fernández"),
            ("Marta", "Alonso"),
            ("Pedro", "Blanco"),
            ("Carmen", "Castro"),
            ("Jorge", "Delgado"),
            ("Elena", "Espinosa"),
            ("Raúl", "Flores"),
            ("Sara", "García"),
            ("Tomás", "Herrero"),
            ("Nuria", "Iglesias"),
            ("Óscar", "Jiménez"),
            ("Paula", "León"),
            ("Iván", "Luna"),
            ("Clara", "Marín"),
            ("Hugo", "Navarro"),
            ("Eva", "Ortega"),
            ("Diego", "Pardo"),
        )
    ]
    for i in range(0, len(more), 2):
        registration.register_entry(tournament, more[i : i + 2])
    session = tournament.sessions.get()
    for fee in table_fees.charge_session(session):
        if fee.member.last_name in ("Fernando", "Alonso", "Blanco"):
            table_fees.pay(fee, "cash")
    return session


def test_the_door_list_narrows_by_name_and_unpaid_with_and_without_js(
    live_server, new_page, browser
):
    session = _busy_night()
    base = live_server.url
    url = f"{base}/director/sessions/{session.pk}/fees/"

    # the director's phone, in Spanish, with htmx: typing narrows the list as she types
    phone = new_page("phone")
    _language(phone, base, "es")
    login(phone, base, "director", PASSWORD)
    phone.goto(url)
    assert phone.locator("#fee-list li").count() == 24
    phone.fill("#door-q", "fernan")
    phone.wait_for_selector("#door-count")
    assert phone.locator("#fee-list li").count() == 3
    assert "3 de 24 jugadores mostrados" in phone.inner_text("#door-count")
    assert "q=fernan" in phone.url  # a reload keeps the filter
    _fits(phone)
    screenshot(phone, "money-es-phone-door-search")
    phone.check("#door-unpaid")
    expect(phone.locator("#fee-list li")).to_have_count(2)
    ana = f"#fee-{TableFee.objects.get(member__first_name='Ana').pk}"
    phone.click(f"{ana} button.pay-cash")
    assert "Ana Fernández ha pagado 5,00 (Efectivo)." in phone.inner_text(".messages")
    assert "q=fernan" in phone.url and "unpaid=1" in phone.url
    assert phone.locator("#fee-list li").count() == 1  # Ana paid: gone from the unpaid
    assert phone.input_value("#door-q") == "fernan" and phone.is_checked("#door-unpaid")
    _fits(phone)
    screenshot(phone, "money-es-phone-door-unpaid")
    phone.fill("#door-q", "zzz")
    phone.wait_for_selector("#no-match")
    assert "Ningún jugador coincide" in phone.inner_text("#no-match")

    # a tablet without JavaScript, in Portuguese: the same filter by its button
    context = browser.new_context(
        viewport={"width": 768, "height": 1024},
        has_touch=True,
        java_script_enabled=False,
        locale="en-GB",
    )
    try:
        tablet = context.new_page()
        _language(tablet, base, "pt")
        login(tablet, base, "director", PASSWORD)
        tablet.goto(url)
        tablet.check("#door-unpaid")
        tablet.fill("#door-q", "ALONSO")
        tablet.click("#door-filter-go")
        tablet.wait_for_url(lambda u: "q=ALONSO" in u)
        assert "Nenhum jogador corresponde a este filtro." in tablet.inner_text("#no-match")
        tablet.uncheck("#door-unpaid")
        tablet.click("#door-filter-go")
        tablet.wait_for_selector("#fee-list")
        assert tablet.locator("#fee-list li").count() == 1
        assert "1 de 24 jogadores mostrados" in tablet.inner_text("#door-count")
        _fits(tablet)
        screenshot(tablet, "money-pt-tablet-door-nojs")
        tablet.click("#door-show-all")  # a plain link: wait for the page it opens
        tablet.wait_for_url(lambda u: "q=" not in u)
        expect(tablet.locator("#fee-list li")).to_have_count(24)
    finally:
        context.close()

    # the secretary's desktop, in English: unpaid only
    desk = new_page("desktop")
    _language(desk, base, "en")
    login(desk, base, "secretaria", PASSWORD)
    desk.goto(url)
    desk.check("#door-unpaid")
    desk.wait_for_selector("#door-count")
    assert "20 of 24 players shown" in desk.inner_text("#door-count")
    assert desk.locator("#fee-list .fee-paid").count() == 0
    _fits(desk)
    screenshot(desk, "money-en-desktop-door-unpaid")

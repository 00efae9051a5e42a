"""The director's journey in a real browser, at desktop and tablet size: create a tournament,
register 14 pairs from the demo club (one with a guest added on the spot), pick a 7-table
Mitchell from the advice, print the cards and the session sheet, start; then (results
entered through the services, as the tablets would) fix a wrong result from the console,
award a 60/40 citing Law 12C1, and publish provisional then final results."""

import re

import pytest
from e2e_helpers import login, screenshot

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from laws.importer import parse_all
from laws.services import store
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Result,
    ResultStatus,
    Section,
    TableCode,
    Tournament,
    TournamentStatus,
)
from tournaments.services import entry as entry_service
from tournaments.services import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WRONG = {"round": 2, "table": 3}  # this table's first board of round 2 gets 7♠ made


def _pick(page, slot: int, member: Member) -> None:
    page.fill(f"#q{slot}", member.licence_number)
    radio = page.locator(f"#results-{slot} input[value='{member.pk}']")
    radio.wait_for()
    radio.check()


def _register_pairs(page, base, tournament, players) -> None:
    page.goto(f"{base}/director/{tournament.pk}/entries/")
    for i in range(13):
        _pick(page, 1, players[2 * i])
        _pick(page, 2, players[2 * i + 1])
        page.click("#register")
        page.wait_for_selector(f"#entry-list tr.entry-row >> nth={i}")
    # The last pair: a member and a guest added on the spot; the member stays chosen.
    _pick(page, 1, players[26])
    page.click("#slot-2 details.guest summary")
    page.fill("input[name=guest2-first_name]", "Rocío")
    page.fill("input[name=guest2-last_name]", "Quintana Lima")
    page.fill("input[name=guest2-home_club]", "Club de Bridge Alicante")
    page.click("#slot-2 button[value=guest2]")
    page.wait_for_selector("#results-2 li.chosen")
    assert page.locator(f"#results-1 input[value='{players[26].pk}']").is_checked()
    page.click("#register")
    page.wait_for_selector("#entry-list tr.entry-row >> nth=13")


def _enter_every_result(section) -> tuple[int, int, int]:
    """Every board of every round, as the table devices send them; one is wrong."""
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    wrong = None
    for slot in plan.slots(section.movement):
        for board in slot.boards:
            contract, tricks = "4S", 10
            if (slot.round, slot.table) == (WRONG["round"], WRONG["table"]) and wrong is None:
                contract, tricks, wrong = "7S", 13, (slot.round, slot.table, board)
            submission = entry_service.submit_result(
                round=slot.round, board=board, contract=contract, declarer="N", tricks=tricks,
                table_code=codes[slot.table],
                idempotency_key=f"e2e-{slot.round}-{slot.table}-{board}")
            entry_service.confirm_result(submission.result, table_code=codes[slot.table])
    return wrong


@pytest.mark.parametrize("viewport", ["desktop", "tablet"])
def test_director_journey(live_server, new_page, viewport):
    build_club()
    store(parse_all())  # the law reference, so the citation becomes a link
    base = live_server.url
    name = f"director-{viewport}"
    page = new_page(viewport)
    login(page, base, "director", DEMO_PASSWORD)

    # A new tournament; a blank name is refused and what was typed stays.
    page.goto(f"{base}/director/")
    page.click("#new-tournament")
    page.fill("input[name=venue]", "Sala Mediterráneo")
    page.fill("input[name=date]", "2025-06-03")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert page.input_value("input[name=venue]") == "Sala Mediterráneo"
    page.fill("input[name=name]", "Torneo de verano")
    screenshot(page, f"{name}-1-tournament-form")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("#tournament-status")
    tournament = Tournament.objects.get(name="Torneo de verano")

    # Fourteen pairs from the demo club's members.
    players = list(Member.objects.filter(is_guest=False, status="active")
                   .order_by("licence_number")[:27])
    _register_pairs(page, base, tournament, players)
    screenshot(page, f"{name}-2-entries")
    assert Entry.objects.filter(tournament=tournament).count() == 14

    # A section, then the movement from the advice: the first 7-table Mitchell.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#sessions a >> nth=0")
    page.click("#add-section")
    page.click("#movement-A")
    page.wait_for_selector("#advice-form")
    screenshot(page, f"{name}-3-advice")
    page.locator("tr[data-kind=mitchell][data-tables='7'] button.pick-suggestion").first.click()
    page.wait_for_selector("#seats")
    screenshot(page, f"{name}-4-seating")
    section = Section.objects.get(session__tournament=tournament)
    assert section.tables == 7 and plan.is_directional(section.movement)
    assert page.locator("#seats tbody tr").count() == 14

    # The print views.
    page.click("#back-to-session")
    page.click("a.print-tables")
    page.wait_for_selector("#table-cards")
    assert page.locator(".table-card").count() == 7
    screenshot(page, f"{name}-5-table-cards")
    pdf = page.pdf(format="A4")  # on paper: one table card a page
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 7
    page.go_back()
    page.click("a.print-pairs")
    page.wait_for_selector("#pair-cards")
    assert page.locator(".pair-card").count() == 14
    screenshot(page, f"{name}-6-pair-cards")
    page.go_back()
    page.click("#print-sheet")
    page.wait_for_selector("#session-sheet")
    assert page.locator(".sheet-card .qr svg").count() == 7
    for code in TableCode.objects.filter(section=section, active=True):
        assert page.locator(f".sheet-card[data-code='{code.code}'] .code").inner_text() == \
            code.code
    screenshot(page, f"{name}-7-session-sheet")
    page.emulate_media(media="print")
    screenshot(page, f"{name}-7b-session-sheet-print")
    page.emulate_media(media="screen")

    # Start; the tables enter every result (one of them wrong).
    page.go_back()
    page.click("#start-session")
    page.wait_for_selector("#console-body")
    wrong_round, wrong_table, wrong_board = _enter_every_result(section)
    page.reload()
    page.wait_for_selector("#suspicious .suspicious-link")
    screenshot(page, f"{name}-8-console")

    # Fix the wrong result from the console.
    page.locator(f"#suspicious a[href$='/line/{wrong_round}/{wrong_table}/{wrong_board}/']") \
        .first.click()
    page.wait_for_selector("#result-form")
    page.fill("#result-form input[name=contract]", "4S")
    page.fill("#result-form input[name=result]", "=")
    page.fill("#result-form input[name=reason]", "Error al teclear el contrato")
    page.click("#result-form button[type=submit]")
    page.wait_for_selector(".message.success")
    screenshot(page, f"{name}-9-corrected")
    fixed = Result.objects.get(section=section, round=wrong_round, table=wrong_table,
                               board__number=wrong_board, status=ResultStatus.OK)
    assert fixed.contract == "4S" and fixed.tricks == 10

    # A 60/40 citing Law 12C1 on another line.
    other = plan.slot_for(section.movement, 3, 5)
    page.goto(f"{base}/director/sections/{section.pk}/line/3/5/{other.boards[0]}/")
    page.select_option("#adjust-form select[name=kind]", "artificial")
    page.select_option("#adjust-form select[name=preset]", "60/40")
    page.fill("#adjust-form textarea[name=reason]", "Información no autorizada")
    page.fill("#adjust-form input[name=law]", "12C1")
    page.click("#award")
    page.wait_for_selector(".message.success")
    screenshot(page, f"{name}-10-adjusted")
    adjusted = Result.objects.get(section=section, round=3, table=5,
                                  board__number=other.boards[0], status=ResultStatus.OK)
    assert adjusted.adjustment == {"kind": "artificial", "ns": 60, "ew": 40}
    assert adjusted.law == "12C1"
    assert page.locator("#current-result a.law-link").get_attribute("href") == \
        "/laws/es-2017/12/#C1"

    # Publish provisional, finish the session, publish final.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#publish-provisional")
    page.wait_for_selector(".message.success")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PROVISIONAL
    page.click("button.finish-session")
    page.wait_for_selector(".message.success")
    page.click("#publish-final")
    page.wait_for_selector("#correction-period")
    screenshot(page, f"{name}-11-published")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL

    # The audit trail shows both changes with who and why.
    page.click("#audit-link")
    page.wait_for_selector("#audit")
    screenshot(page, f"{name}-12-audit")
    assert AuditEntry.objects.filter(tournament=tournament, action=AuditAction.CORRECTED,
                                     user__username="director").exists()
    assert page.locator("tr.audit-row[data-action=adjusted]").count() == 1
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1

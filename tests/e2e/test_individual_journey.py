"""A 16-player individual end to end in a real browser (issue #7).

The demo director creates an individual tournament, registers a player through the entries
page (the other fifteen arrive through the set-up service, as a quick registration would),
chooses the course's 16-player movement, prints the table cards with the four seats, and
starts. Four table devices sign in; table 1 enters round 1 through the buttons; everything
else goes through the JSON endpoint the table page's script posts to, from each device's
own page (a device posting another table's board is refused). The director publishes; the
ranking has one winner among 16 players; a player on a phone opens her own scorecard.
"""

from decimal import Decimal

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, screenshot
from tests.e2e.table_device import sign_in, tap
from tournaments.models import (
    Entry,
    RankingScope,
    Result,
    ResultStatus,
    Section,
    StoredRanking,
    TableCode,
    Tournament,
    TournamentStatus,
)
from tournaments.services.entries import registration
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = 16
CONTRACTS = (
    ("3NT", "S", "=", 9),
    ("4H", "N", "+1", 11),
    ("2S", "E", "=", 8),
    ("3C", "W", "-1", 8),
    ("4S", "N", "-1", 9),
)
MADE = {"=": "=", "+1": "+1", "-1": "-1"}

# Posts every given line the way table.js does (form-encoded, CSRF header, JSON answer).
POST_LINES = """async (lines) => {
  const token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const out = [];
  for (const line of lines) {
    const response = await fetch("/table/result/", {
      method: "POST", credentials: "same-origin",
      headers: {"Accept": "application/json", "X-CSRFToken": token,
                "Content-Type": "application/x-www-form-urlencoded"},
      body: new URLSearchParams(line).toString()});
    out.push(response.status);
  }
  return out;
}"""


def _line(round_: int, table: int, board: int) -> dict:
    level_strain, declarer, made, _tricks = CONTRACTS[(round_ * 3 + table + board) % 5]
    return {
        "round": round_,
        "board": board,
        "level": level_strain[0],
        "strain": level_strain[1:],
        "double": "",
        "declarer": declarer,
        "made": MADE[made],
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": f"ind-{round_}-{table}-{board}",
    }


def _round_one_by_buttons(page, section) -> None:
    slot = plan.slot_for(section.movement, 1, 1)
    page.click(f"a[data-board-key='1-{slot.boards[0]}']")
    for i, number in enumerate(slot.boards):
        page.wait_for_selector(f"#board-screen[data-board='{number}'] #result-form")
        tap(page, "level", "4")
        tap(page, "strain", "S")
        tap(page, "declarer", "NS"[i % 2])
        tap(page, "made", "=" if i == 0 else "-1")
        page.wait_for_selector("#preview .preview-score")
        if i == 0:
            screenshot(page, "individual-5-board-filled")
        page.click("#save-button")
        page.wait_for_selector("#board-screen[data-state=saved] #confirm-button")
        page.click("#confirm-button")
        page.wait_for_selector("#traveller, #board-in-play")  # in play elsewhere: a note
        page.click("#round-link" if i + 1 == len(slot.boards) else "#next-board")
    page.wait_for_selector("#moves")


def test_sixteen_player_individual(live_server, new_page):
    build_club()
    base = live_server.url
    page = new_page("tablet")
    login(page, base, "director", DEMO_PASSWORD)

    page.goto(f"{base}/director/")
    page.click("#new-tournament")
    page.fill("input[name=name]", "Individual de otoño")
    page.fill("input[name=date]", "2025-10-07")
    page.select_option("select[name=event_type]", "individual")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("#tournament-status")
    tournament = Tournament.objects.get(name="Individual de otoño")
    assert tournament.event_type == "individual"

    # Lucía (the demo player) registers at the desk; the other fifteen through the service.
    lucia = Member.objects.get(licence_number="AEB-10003")
    page.goto(f"{base}/director/{tournament.pk}/entries/")
    assert page.locator("#q2").count() == 0  # one player per entry
    page.fill("#q1", lucia.licence_number)
    page.locator(f"#results-1 input[value='{lucia.pk}']").check()
    page.click("#register")
    page.wait_for_selector("#entry-list tr.entry-row")
    others = (
        Member.objects.filter(is_guest=False, status="active")
        .exclude(pk=lucia.pk)
        .order_by("licence_number")[: PLAYERS - 1]
    )
    for member in others:
        registration.register_entry(tournament, [member])
    page.reload()
    assert page.locator("#entry-list tr.entry-row").count() == PLAYERS
    screenshot(page, "individual-1-entries")

    # A section, the individual movement for 16 (the course's position table), seated.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#sessions a >> nth=0")
    page.click("#add-section")
    page.click("#movement-A")
    page.wait_for_selector("#individual-movement-form")
    assert page.locator("select[name=players]").input_value() == "16"
    screenshot(page, "individual-2-movement")
    page.click("#use-individual")
    page.wait_for_selector("#seats")
    assert page.locator("#seats tbody tr").count() == PLAYERS
    section = Section.objects.get(session__tournament=tournament)
    assert plan.is_individual(section.movement) and plan.round_count(section.movement) == 15

    # Table cards: four seats a round, fifteen rounds, tables 3 and 4 sharing boards.
    page.click("#back-to-session")
    page.click("a.print-tables")
    page.wait_for_selector("#table-cards")
    assert page.locator(".individual-card").count() == 4
    assert page.locator(".individual-card >> nth=0").locator("tbody tr").count() == 15
    screenshot(page, "individual-3-table-cards")
    page.go_back()

    # Player cards: one a player, each round's table, seat, partner and opponents.
    page.click("a.print-players")
    page.wait_for_selector("#player-cards")
    assert page.locator(".player-card").count() == PLAYERS
    first = page.locator(".player-card >> nth=0")
    assert first.locator("tbody tr").count() == 15
    assert first.locator("tr[data-round='1'] .partner strong").inner_text() == "2"
    screenshot(page, "individual-3b-player-cards")
    for viewport in ("phone", "desktop"):
        other = new_page(viewport)
        login(other, base, "director", DEMO_PASSWORD)
        other.goto(f"{base}/director/sections/{section.pk}/movement/individual/")
        other.click("#individual-prints a.print-players")
        other.wait_for_selector("#player-cards")
        # nothing wider than the screen: the cards fit the phone
        assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        screenshot(other, f"individual-3c-player-cards-{viewport}")
    page.go_back()
    page.click("#start-session")
    page.wait_for_selector("#console-body")

    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    devices = {}
    for table in sorted(codes):
        devices[table] = device = new_page("tablet")
        sign_in(device, base, codes[table])
        seats = device.locator("#seats div[data-seat]")
        assert seats.count() == 4
        slot = plan.slot_for(section.movement, 1, table)
        assert device.locator("#seats .pair-no").all_inner_texts() == [str(n) for n in slot.players]
    screenshot(devices[1], "individual-4-table-1-round-1")
    assert lucia.full_name in devices[1].locator("#seats").inner_text()  # she is player 1

    # Table 1, round 1 through the buttons; then its moves name each player's next seat.
    _round_one_by_buttons(devices[1], section)
    assert devices[1].locator("#moves .move").count() == 4
    screenshot(devices[1], "individual-6-table-1-moves")

    # A device cannot post another table's board.
    other_board = plan.slot_for(section.movement, 1, 2).boards[0]
    refused = devices[1].evaluate(POST_LINES, [_line(1, 2, other_board)])
    assert refused == [403]

    # Everything else through the endpoint, from each table's own device.
    for table, device in devices.items():
        lines = [
            _line(s.round, table, b)
            for s in plan.slots(section.movement)
            if s.table == table
            for b in s.boards
            if not (table == 1 and s.round == 1)
        ]
        statuses = device.evaluate(POST_LINES, lines)
        assert statuses == [201] * len(lines), statuses
    assert Result.objects.filter(section=section, status=ResultStatus.OK).count() == 15 * 4 * 2
    devices[3].goto(f"{base}/table/play/?round=15")
    devices[3].wait_for_selector("#moves")
    screenshot(devices[3], "individual-7-table-3-last-round")

    # Finish and publish; one ranking of the sixteen players with the stored percentages.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("button.finish-session")
    page.wait_for_selector(".message.success")
    page.click("#publish-final")
    page.wait_for_selector("#correction-period")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL

    public = new_page("desktop")
    public.goto(f"{base}/results/{tournament.slug}/1/section/A/")
    public.wait_for_selector("table tbody tr[data-entry]")
    screenshot(public, "individual-8-ranking")
    assert public.locator("table.ranking").count() == 1
    rows = public.locator("tbody tr[data-entry]")
    assert rows.count() == PLAYERS
    shown = dict(
        zip(
            rows.evaluate_all("rs => rs.map(r => r.dataset.entry)"),
            rows.locator("td.percentage").evaluate_all("cs => cs.map(c => c.dataset.value)"),
            strict=True,
        )
    )
    stored = StoredRanking.objects.filter(section=section, scope=RankingScope.SECTION)
    assert {str(r.entry_id): r.percentage for r in stored} == {
        k: Decimal(v) for k, v in shown.items()
    }
    assert sum(r.percentage for r in stored) == pytest.approx(PLAYERS * 50, abs=0.1)

    # A board's traveller names four players a line.
    public.goto(f"{base}/results/{tournament.slug}/1/board/A/1/")
    public.wait_for_selector("#traveller")
    assert public.locator("#traveller td.individual-side").count() == 2 * 4
    screenshot(public, "individual-9-traveller")

    # Lucía on her phone: her results, then her scorecard with partner and opponents.
    phone = new_page("phone")
    login(phone, base, "jugador", DEMO_PASSWORD)
    phone.goto(f"{base}/results/me/")
    phone.click(f"a[href*='/{tournament.slug}/1/pair/']")
    phone.wait_for_selector("#scorecard")
    own = Entry.objects.get(tournament=tournament, entry_players__member=lucia)
    assert phone.url.endswith(f"/pair/{own.pk}/")
    assert phone.locator("#scorecard tbody tr[data-board]").count() == 30
    assert phone.locator("#scorecard .partner").count() == 30
    assert (
        Decimal(phone.locator("#total-percentage").get_attribute("data-value"))
        == stored.get(entry=own).percentage
    )
    screenshot(phone, "individual-10-phone-scorecard")
    overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1

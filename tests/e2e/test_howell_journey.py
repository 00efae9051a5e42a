"""A Howell with a sit-out, end to end in a real browser at tablet size (issue #6).

The demo director creates a tournament, registers 9 pairs (odd: one pair sits out each
round), picks a Howell from the advice, seats and starts; the four table devices enter
round 1 through the buttons (the other rounds arrive through the entry service, as the
tablets would send them); the pair sitting out sees no board to enter; the director
finishes and publishes, and the public ranking shows all 9 pairs with the stored
classification's percentages.
"""

from decimal import Decimal

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, pick_player, screenshot
from tests.e2e.table_device import play_round, sign_in
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
from tournaments.services.setup import plan
from tournaments.services.table import entry as entry_service

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAIRS = 9
CONTRACTS = (("3NT", "S", 9), ("4H", "N", 11), ("2S", "E", 8), ("3C", "W", 8), ("4S", "N", 9))


def _sitout(movement: dict, round_: int) -> int:
    """The pair number that plays at no table in this round."""
    playing = {n for s in plan.slots(movement) if s.round == round_ for n in (s.ns, s.ew)}
    (missing,) = {n for n, _line in plan.pair_numbers(movement)} - playing
    return missing


def _howell_choice(table: int, round_: int, board: int) -> dict:
    """Four of a major at every table, made or one down, so the boards' scores differ."""
    return {
        "level": "4",
        "strain": "S" if (table + board) % 2 else "H",
        "double": "",
        "declarer": "NESW"[(table + board) % 4],
        "made": "=" if board % 3 else "-1",
        "lead": None,
    }


def _enter_other_rounds(section) -> None:
    """Rounds 2 onwards as the tablets send them, a varied legal result on each line."""
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    for slot in plan.slots(section.movement):
        if slot.round == 1:
            continue
        for board in slot.boards:
            contract, declarer, tricks = CONTRACTS[(slot.round * 3 + slot.table + board) % 5]
            submission = entry_service.submit_result(
                round=slot.round,
                board=board,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                table_code=codes[slot.table],
                idempotency_key=f"howell-{slot.round}-{slot.table}-{board}",
            )
            entry_service.confirm_result(submission.result, table_code=codes[slot.table])


def test_howell_with_a_sitout(live_server, new_page):
    build_club()
    base = live_server.url
    page = new_page("tablet")
    login(page, base, "director", DEMO_PASSWORD)

    page.goto(f"{base}/director/")
    page.click("#new-tournament")
    page.fill("input[name=name]", "Howell de los jueves")
    page.fill("input[name=date]", "2025-06-05")
    screenshot(page, "howell-1-tournament-form")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("#tournament-status")
    tournament = Tournament.objects.get(name="Howell de los jueves")

    # Nine pairs: an odd number, so one pair sits out every round.
    players = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[
            : 2 * PAIRS
        ]
    )
    page.goto(f"{base}/director/{tournament.pk}/entries/")
    for i in range(PAIRS):
        pick_player(page, 1, players[2 * i])
        pick_player(page, 2, players[2 * i + 1])
        page.click("#register")
        page.wait_for_selector(f"#entry-list tr.entry-row >> nth={i}")
    screenshot(page, "howell-2-entries")
    assert Entry.objects.filter(tournament=tournament).count() == PAIRS

    # A section; the advice for 9 pairs; the first Howell it suggests.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#sessions a >> nth=0")
    page.click("#add-section")
    page.click("#movement-A")
    page.wait_for_selector("#advice-form")
    screenshot(page, "howell-3-advice")
    howell_row = page.locator("#advice-form tr[data-kind=howell]").first
    rounds, per_round = (int(howell_row.get_attribute(f"data-{k}")) for k in ("rounds", "bpr"))
    howell_row.locator("button.pick-suggestion").click()
    page.wait_for_selector("#seats")
    screenshot(page, "howell-4-seating")
    section = Section.objects.get(session__tournament=tournament)
    movement = section.movement
    assert movement["kind"] == "howell" and not plan.is_directional(movement)
    assert plan.round_count(movement) == rounds and plan.boards_per_round(movement) == per_round
    assert plan.phantoms(movement), "an odd number of pairs needs a phantom (the sit-out)"
    tables = plan.table_count(movement)
    assert tables == PAIRS // 2  # the phantom's table is not laid out
    assert page.locator("#seats tbody tr").count() == PAIRS

    # The pair cards: the pair sitting out in round 1 has no table, opponents or boards.
    sitting_out = _sitout(movement, 1)
    page.click("#back-to-session")
    page.click("a.print-pairs")
    page.wait_for_selector("#pair-cards")
    assert page.locator(".pair-card").count() == PAIRS
    card = page.locator(".pair-card").filter(has=page.locator("h2", has_text=f" {sitting_out}"))
    first_row = card.locator("tbody tr").first
    assert first_row.locator("td[colspan='4']").count() == 1
    assert card.locator("tbody td[colspan='4']").count() == 1  # sits out exactly once
    card.scroll_into_view_if_needed()
    screenshot(page, "howell-5a-pair-cards")
    page.go_back()
    page.click("#start-session")
    page.wait_for_selector("#console-body")

    # Round 1 at every table through the buttons; the sit-out pair is at none of them.
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    assert sorted(codes) == list(range(1, tables + 1))
    devices = {}
    for table in range(1, tables + 1):
        devices[table] = device = new_page("tablet")
        sign_in(device, base, codes[table])
        pair_numbers = device.locator("#round .pair-no").all_inner_texts()
        assert str(sitting_out) not in pair_numbers
        assert device.locator("#round a.board-link").count() == per_round
        if table == 1:
            screenshot(device, "howell-4b-table-1-round-1")
        play_round(
            device,
            section,
            table,
            1,
            shots="howell-5" if table == 1 else None,
            choose=_howell_choice,
            mitchell=False,
        )
    screenshot(devices[1], "howell-6-table-1-moves")
    # The moves name who sits out next round: that pair goes to no table.
    next_out = _sitout(movement, 2)
    moves = [t for d in devices.values() for t in d.locator("#moves .move").all_inner_texts()]
    told = [t for t in moves if f"({next_out})" in t]
    assert told and all(not any(ch.isdigit() for ch in t.split(":", 1)[1]) for t in told), moves
    assert (
        Result.objects.filter(
            section=section, round=1, status=ResultStatus.OK, confirmed=True
        ).count()
        == tables * per_round
    )

    # The other rounds as the tablets would send them.
    _enter_other_rounds(section)
    assert (
        Result.objects.filter(section=section, status=ResultStatus.OK).count()
        == rounds * tables * per_round
    )

    # Finish and publish; the public ranking lists all 9 pairs with the stored percentages.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("button.finish-session")
    page.wait_for_selector(".message.success")
    page.click("#publish-final")
    page.wait_for_selector("#correction-period")
    screenshot(page, "howell-7-published")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL

    public = new_page("tablet")
    public.goto(f"{base}/results/{tournament.slug}/{section.session.number}/section/A/")
    public.wait_for_selector("table tbody tr[data-entry]")
    screenshot(public, "howell-8-ranking")
    rows = public.locator("tbody tr[data-entry]")
    assert rows.count() == PAIRS
    shown = dict(
        zip(
            rows.evaluate_all("rs => rs.map(r => r.dataset.entry)"),
            rows.locator("td.percentage").evaluate_all("cs => cs.map(c => c.dataset.value)"),
            strict=True,
        )
    )
    stored = StoredRanking.objects.filter(section=section, scope=RankingScope.SECTION)
    assert stored.count() == PAIRS
    assert {str(r.entry_id): r.percentage for r in stored} == {
        k: Decimal(v) for k, v in shown.items()
    }

    # The sit-out pair's scorecard: boards played in every round but the one it sat out.
    out_entry = stored.get(number=sitting_out).entry_id
    public.click(f"tr[data-entry='{out_entry}'] td.names a")
    public.wait_for_selector("#scorecard tr[data-board]")
    assert (
        public.locator("#scorecard tr[data-board]:not(.sitout)").count() == (rounds - 1) * per_round
    )
    screenshot(public, "howell-9-sitout-scorecard")
    overflow = public.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1

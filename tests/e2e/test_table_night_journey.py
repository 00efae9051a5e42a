"""A club night on a bad Wi-Fi, as issue #29 checks it: a 3-round Mitchell where the network is
cut for the whole of round 1 at two tables (a phone and a tablet), the phone reloaded offline.
Every board's "Next" goes to the right board, the score shows offline, the tablet corrects a
result offline, every result is stored once when the Wi-Fi returns, and board 1's deal stays
hidden until its last table has played it in its round; a table cannot post ahead."""

import datetime
import json

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.e2e.e2e_helpers import screenshot
from tests.e2e.table_device import choice, confirm_and_check, expected_score, sign_in, tap_contract
from tests.tournaments.conftest import mitchell_dict
from tournaments.models import Board, Result, TableCode
from tournaments.services.entries import registration
from tournaments.services.results import board_visibility, publish
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEAL = "N:AKQ2.JT9.876.543 JT9.AKQ2.543.876 876.543.AKQ2.JT9 543.876.JT9.AKQ2"
READ_QUEUE = """() => Promise.race([new Promise(r => setTimeout(() => r('[]'), 3000)),
  OfflineQueue.open(indexedDB).then(q => q.list()).then(rows => JSON.stringify(rows))])"""


def three_table_mitchell():
    members = [
        Member.objects.create(first_name=f"Noche{i:02d}", last_name=f"Wifi{i:02d}")
        for i in range(12)
    ]
    tournament = setup.create_tournament(name="Noche de wifi", date=datetime.date(2026, 12, 1))
    tournament.show_traveller = True
    tournament.save(update_fields=["show_traveller"])
    section = setup.add_section(tournament.sessions.get())
    pairs = [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(6)]
    setup.seat_section(section, mitchell_dict(3, 3, 2), pairs)
    setup.start_session(section.session)
    Board.objects.filter(session=section.session, number=1).update(deal=DEAL)
    section.refresh_from_db()
    return section


def play(c: dict) -> dict:
    """A played contract for ``c`` (Pass would skip the score the test reads), with no lead:
    board 1's deal is loaded, and a lead its opening leader does not hold is refused."""
    c = (
        c
        if c["level"] != "PASS"
        else {"level": "2", "strain": "H", "double": "", "declarer": "E", "made": "="}
    )
    return c | {"lead": None}


def round_offline(
    page, section, table: int, reload_after: int | None = None, correct: int | None = None
) -> dict:
    """Round 1 at ``table`` with the Wi-Fi down; returns board → NS score tapped."""
    boards = plan.slot_for(section.movement, 1, table).boards
    page.click(f"a[data-board-key='1-{boards[0]}']")
    scores = {}
    for number in boards:
        page.wait_for_selector(f"#board-screen[data-board='{number}'] #result-form")
        board = section.session.boards.get(number=number)
        c = play(choice(table, 1, number))
        tap_contract(page, c)
        points = expected_score(board, c)
        page.wait_for_selector(f"#preview .preview-score[data-points='{abs(points)}']")
        page.click("#save-button")
        page.wait_for_selector("#entry-status[data-state=waiting]")
        assert page.get_attribute("#offline-score .preview-score", "data-points") == str(
            abs(points)
        )
        page.click("#offline-confirm-button")
        page.wait_for_selector("#offline-confirm", state="hidden")
        if number == correct:  # the tablet's correction, offline: old and new, then replace
            page.click("#offline-correct")
            c = play(c | {"made": "+1" if int(c["level"]) < 7 else "-1"})
            tap_contract(page, c | {"lead": None})
            page.click("#save-button")
            page.wait_for_selector("#offline-replace:not([hidden])")
            page.click("#replace-yes")
            page.wait_for_selector("#offline-confirm:not([hidden])")
            points = expected_score(board, c)
            page.click("#offline-confirm-button")
        scores[number] = points
        if number == reload_after:
            page.reload()  # the worker serves the page, the queue stays in IndexedDB
            page.wait_for_selector(
                f"#board-screen[data-board='{number}'] #entry-status[data-state=waiting]"
            )
        later = [b for b in boards if b not in scores]
        if later:  # "Next" goes to the board not played yet
            assert page.get_attribute("#next-board", "href").endswith(f"/1/{later[0]}/")
            page.click("#next-board")
        else:  # every board of the round is played: no "Next" back to one of them
            assert not page.locator("#next-board").is_visible()
            page.click("#round-link")
    page.wait_for_selector("#round[data-round='1']")
    return scores


def test_a_night_on_bad_wifi(live_server, new_page):
    section = three_table_mitchell()
    phone, tablet = new_page("phone"), new_page("tablet")
    devices = {1: phone, 2: tablet}
    for table, page in devices.items():
        sign_in(
            page, live_server.url, TableCode.objects.get(section=section, table=table, active=True)
        )
        page.wait_for_selector("#table-app[data-offline=ready]", state="attached", timeout=30000)
        page.context.set_offline(True)
    first_boards = plan.slot_for(section.movement, 1, 1).boards
    tapped = round_offline(phone, section, 1, reload_after=first_boards[0])
    tapped |= round_offline(
        tablet, section, 2, correct=plan.slot_for(section.movement, 1, 2).boards[1]
    )
    screenshot(tablet, "night-tablet-round-offline")
    assert not Result.objects.exists()
    queued = json.loads(tablet.evaluate(READ_QUEUE))
    assert sum(q["kind"] == "result" for q in queued) == 2  # the correction replaced one
    for page in devices.values():
        page.context.set_offline(False)
    for page in devices.values():
        page.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    stored = {r.board.number: r.ns_score for r in Result.objects.filter(section=section)}
    assert stored == tapped and Result.objects.count() == 4
    assert Result.objects.filter(confirmed=True).count() == 4

    # Board 1 went round 1 at table 1; it reaches table 3 in round 2 and table 2 in round 3.
    plays = sorted((s.round, s.table) for s in plan.slots(section.movement) if 1 in s.boards)
    assert plays[0] == (1, 1)
    staff = make_user("director", Role.DIRECTOR)  # table 3 from its paper scoresheet
    for rnd in (1, 2):
        for b in plan.slot_for(section.movement, rnd, 3).boards:
            entry.submit_result(
                user=staff,
                section=section,
                table=3,
                round=rnd,
                board=b,
                contract="3NT",
                declarer="S",
                tricks=9,
                idempotency_key=f"paper-{rnd}-{b}",
            )
    # the tablet, still in round 1's pages, tries round 3 ahead: refused, nothing stored
    last_round, last_table = plays[-1]
    assert last_table == 2
    answer = tablet.evaluate(
        """([url, body]) => fetch(url, {method: "POST",
        credentials: "same-origin", headers: {"Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]},
        body}).then(r => r.status)""",
        [
            reverse("table:result"),
            f"round={last_round}&board=1&level=3&strain=NT&"
            f"declarer=S&made=%3D&idempotency_key=ahead",
        ],
    )
    assert answer == 409
    assert not Result.objects.filter(table=2, board__number=1).exists()
    publish.publish_provisional(section.session.tournament, user=staff)
    public = reverse("results:board", args=[section.session.tournament.slug, 1, section.pool, 1])
    page = Client().get(public).content.decode()
    assert 'id="board-in-play"' in page and "AKQ2" not in page
    # the tablet plays rounds 2 and 3: board 1's last table; the deal shows
    tablet.goto(f"{live_server.url}/table/play/?round=2")
    for rnd in (2, 3):
        tablet.wait_for_selector(f"#round[data-round='{rnd}']")
        boards = plan.slot_for(section.movement, rnd, 2).boards
        tablet.click(f"a[data-board-key='{rnd}-{boards[0]}']")
        for i, number in enumerate(boards):
            tablet.wait_for_selector(f"#board-screen[data-board='{number}'] #result-form")
            c = play(choice(2, rnd, number))
            tap_contract(tablet, c)
            tablet.wait_for_selector("#preview .preview-score")
            tablet.click("#save-button")
            confirm_and_check(tablet)
            tablet.click("#round-link" if i + 1 == len(boards) else "#next-board")
        if rnd == 2:
            tablet.wait_for_selector("#next-round")
            tablet.click("#next-round")
    assert board_visibility.may_see_board(None, section.session, section.pool, 1)
    page = Client().get(public).content.decode()
    assert 'id="board-in-play"' not in page and "AKQ2" in page
    screenshot(tablet, "night-tablet-last-round")
    assert Result.objects.filter(section=section).count() == 4 + 4 + 4  # each stored once

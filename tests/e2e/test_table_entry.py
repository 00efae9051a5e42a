"""Seven table tablets score a Mitchell through the buttons; one loses its Wi-Fi for a board.

Set up through the services (the director's pages are another journey), then every device
signs in with its code and enters its boards, confirms as East-West, reads the traveller,
and follows the "move to table X" instructions. The database must end with exactly one
result per traveller line, each with the Law 77 score of what was tapped.
"""

import datetime
import time

import pytest
from e2e_helpers import screenshot

from clubsite.models import Member
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.scoring import ns_score, parse_contract
from tournaments.services import plan, setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLES, ROUNDS, BOARDS_PER_ROUND = 7, 7, 2
STRAINS = ("C", "D", "H", "S", "NT")


def mitchell_dict(tables: int, rounds: int, per_round: int) -> dict:
    """C03's odd-table Mitchell (EW up one table, boards down one) in ``to_dict()`` shape."""
    out = []
    for r in range(1, rounds + 1):
        rows = []
        for t in range(1, tables + 1):
            board_set = (t - 1 + (r - 1)) % tables + 1
            first = (board_set - 1) * per_round + 1
            rows.append({"table": t, "ns": t, "ew": (t - 1 - (r - 1)) % tables + 1,
                         "boards": list(range(first, first + per_round))})
        out.append({"round": r, "tables": rows})
    return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def seven_table_mitchell():
    members = [Member.objects.create(first_name=f"Jugador{i:02d}", last_name=f"Mesa{i:02d}",
                                     licence_number=f"E2E-{i:03d}") for i in range(28)]
    tournament = setup.create_tournament(name="Martes tarde", date=datetime.date(2025, 3, 4))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [setup.register_entry(tournament, members[2 * i:2 * i + 2]) for i in range(14)]
    setup.seat_section(section, mitchell_dict(TABLES, ROUNDS, BOARDS_PER_ROUND), pairs)
    setup.start_session(session)
    return section


def choice(table: int, round_: int, board: int) -> dict:
    """A different, legal result for every line, so travellers and rankings differ."""
    seed = table * 7 + round_ * 3 + board
    if seed % 11 == 0:
        return {"level": "PASS"}
    level = 1 + seed % 5
    over = (seed // 5) % 3 - 1  # −1, = or +1
    return {"level": str(level), "strain": STRAINS[seed % 5], "double": "X" if seed % 9 == 0
            else "", "declarer": "NESW"[seed % 4],
            "made": "=" if over == 0 else f"{over:+d}",
            "lead": ("H", "T") if seed % 4 == 0 else None}


def expected_score(board, c: dict) -> int:
    if c["level"] == "PASS":
        return 0
    tricks = int(c["level"]) + 6 + (0 if c["made"] == "=" else int(c["made"]))
    return ns_score(parse_contract(c["level"] + c["strain"] + c["double"]), c["declarer"],
                    tricks, board.vulnerability_core)


def tap(page, name: str, value: str) -> None:
    page.click(f"#result-form input[name={name}][value='{value}'] + span")


def fill_board(page, c: dict, points: int) -> None:
    tap(page, "level", c["level"])
    if c["level"] != "PASS":
        tap(page, "strain", c["strain"])
        if c["double"]:
            tap(page, "double", c["double"])
        tap(page, "declarer", c["declarer"])
        tap(page, "made", c["made"])
        if c["lead"]:
            page.click(".lead-picker summary")
            tap(page, "lead_suit", c["lead"][0])
            tap(page, "lead_rank", c["lead"][1])
    # the server's Law 77 score is shown before saving
    page.wait_for_selector(f"#preview .preview-score[data-points='{abs(points)}']")


def confirm_and_check(page) -> None:
    page.wait_for_selector("#board-screen[data-state=saved] #confirm-button")
    page.click("#confirm-button")
    page.wait_for_selector("#traveller")


def play_round(page, section, table: int, round_: int, shots: str | None = None) -> None:
    """From the round page: each board through the buttons, then the moves."""
    slot = plan.slot_for(section.movement, round_, table)
    page.wait_for_selector(f"#round[data-round='{round_}']")
    page.click(f"a[data-board-key='{round_}-{slot.boards[0]}']")
    for i, number in enumerate(slot.boards):
        board = section.session.boards.get(number=number)
        c = choice(table, round_, number)
        page.wait_for_selector(f"#board-screen[data-board='{number}'] #result-form")
        fill_board(page, c, expected_score(board, c))
        last = i + 1 == len(slot.boards)
        if shots and last:
            screenshot(page, f"{shots}-board-filled")
        page.click("#save-button")
        confirm_and_check(page)
        if shots and last:
            screenshot(page, f"{shots}-board-traveller")
        page.click("#round-link" if last else "#next-board")
    page.wait_for_selector("#moves")
    if round_ < ROUNDS:
        # Mitchell: NS stay, EW move up one table, boards go down one
        assert page.locator("#moves .move[data-what=NS]").inner_text().count(str(table)) >= 1
        if shots:
            screenshot(page, f"{shots}-moves")
        page.click("#next-round")


def sign_in(page, base: str, code: str) -> None:
    page.goto(f"{base}/table/")
    page.fill("input[name=code]", code.lower())
    page.click(".code-form button[type=submit]")
    page.wait_for_selector("#round")


def test_seven_tablets_score_a_mitchell(live_server, new_page):
    section = seven_table_mitchell()
    base = live_server.url
    codes = {c.table: c.code for c in TableCode.objects.filter(section=section, active=True)}
    pages = {}
    for table in range(1, TABLES + 1):
        pages[table] = new_page("tablet")
        sign_in(pages[table], base, codes[table])
    screenshot(pages[1], "table-1-round-1")
    started = time.monotonic()

    offline_table, offline_round = 4, 2
    for round_ in range(1, ROUNDS + 1):
        for table in range(1, TABLES + 1):
            page = pages[table]
            if (table, round_) == (offline_table, offline_round):
                enter_with_a_dropped_connection(page, section, table, round_)
                continue
            shots = {(1, 1): "table-1-round-1", (TABLES, ROUNDS): "table-7-round-7"}.get(
                (table, round_))
            play_round(page, section, table, round_, shots)
    screenshot(pages[1], "table-1-last-round")
    assert pages[1].locator("#moves .move").count() == 0  # the last round: no moves
    elapsed = time.monotonic() - started

    lines = list(Result.objects.filter(section=section, status=ResultStatus.OK)
                 .select_related("board").values_list("round", "table", "board__number",
                                                       "ns_score", "confirmed"))
    assert len(lines) == TABLES * ROUNDS * BOARDS_PER_ROUND
    assert len({(r, t, b) for r, t, b, _s, _c in lines}) == len(lines)
    boards = {b.number: b for b in section.session.boards.all()}
    for r, t, b, score, confirmed in lines:
        assert b in plan.slot_for(section.movement, r, t).boards
        assert score == expected_score(boards[b], choice(t, r, b)) and confirmed
    assert not Result.objects.exclude(status=ResultStatus.OK).exists()
    print(f"{len(lines)} boards entered through the buttons in {elapsed:.0f} s")


def enter_with_a_dropped_connection(page, section, table: int, round_: int) -> None:
    """The first board is tapped in while the Wi-Fi is down: kept on the tablet, then sent."""
    slot = plan.slot_for(section.movement, round_, table)
    number = slot.boards[0]
    page.wait_for_selector(f"#round[data-round='{round_}']")
    page.click(f"a[data-board-key='{round_}-{number}']")
    page.wait_for_selector("#result-form")
    board = section.session.boards.get(number=number)
    c = choice(table, round_, number)
    fill_board(page, c, expected_score(board, c))
    page.context.set_offline(True)
    page.click("#save-button")
    page.wait_for_selector("#entry-status[data-state=waiting]")
    page.wait_for_selector("#sync-status[data-state=waiting]")
    page.click("#save-button")  # an impatient second tap: same key, still one entry queued
    page.wait_for_selector("#pending-list li")
    assert page.locator("#pending-list li").count() == 1
    screenshot(page, "table-offline-waiting")
    assert not Result.objects.filter(section=section, round=round_, table=table,
                                     board__number=number).exists()
    page.context.set_offline(False)
    page.wait_for_selector("#board-screen[data-state=saved] #confirm-button", timeout=20000)
    page.wait_for_selector("#sync-status[data-state=saved]")
    screenshot(page, "table-back-online-saved")
    assert Result.objects.filter(section=section, round=round_, table=table,
                                 board__number=number).count() == 1
    page.click("#confirm-button")
    page.wait_for_selector("#traveller")
    page.click("#next-board")
    second = slot.boards[1]
    board = section.session.boards.get(number=second)
    c = choice(table, round_, second)
    page.wait_for_selector(f"#board-screen[data-board='{second}'] #result-form")
    fill_board(page, c, expected_score(board, c))
    page.click("#save-button")
    confirm_and_check(page)
    page.click("#round-link")
    page.wait_for_selector("#moves")
    page.click("#next-round")


def test_phone_board_screen_and_a_second_device(live_server, new_page):
    section = seven_table_mitchell()
    base = live_server.url
    table_code = TableCode.objects.get(section=section, table=1, active=True)
    tablet = new_page("tablet")
    sign_in(tablet, base, table_code.code)
    tablet.goto(f"{base}/table/play/1/1/")
    tablet.wait_for_selector("#result-form")

    # The players' phone: a mistyped code is shown again with the error...
    phone = new_page("phone")
    phone.goto(f"{base}/table/")
    phone.fill("input[name=code]", "bad12")
    phone.click(".code-form button[type=submit]")
    phone.wait_for_selector("#code-error")
    assert phone.input_value("input[name=code]") == "bad12"
    screenshot(phone, "table-phone-wrong-code")
    # ...then it opens the table card's QR code and shows the same board.
    phone.goto(f"{base}/table/{table_code.code}/")
    phone.wait_for_selector("#round")
    screenshot(phone, "table-phone-round")
    phone.goto(f"{base}/table/play/1/1/")
    phone.wait_for_selector("#result-form")
    c = {"level": "3", "strain": "NT", "double": "", "declarer": "S", "made": "+1",
         "lead": ("S", "Q")}
    board = section.session.boards.get(number=1)
    fill_board(phone, c, expected_score(board, c))
    screenshot(phone, "table-phone-board")
    too_small = phone.evaluate("""() => [...document.querySelectorAll(
        'main button, main a, main summary, main .pick span, main input[type=text]')]
        .filter(el => el.offsetParent !== null)
        .map(el => [el.outerHTML.slice(0, 60), el.getBoundingClientRect()])
        .filter(([_, r]) => r.height < 44 || r.width < 44)
        .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert too_small == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.click("#save-button")
    phone.wait_for_selector("#board-screen[data-state=saved] #confirm-button")

    # The tablet still had the form open: the same result is stored once...
    fill_board(tablet, c, expected_score(board, c))
    tablet.click("#save-button")
    tablet.wait_for_selector("#board-screen[data-state=saved]")
    assert Result.objects.filter(section=section).count() == 1
    # ...and a different one for board 2 after the phone's goes to the director.
    tablet.goto(f"{base}/table/play/1/2/")
    phone.goto(f"{base}/table/play/1/2/")
    board2 = section.session.boards.get(number=2)
    phone_c = c | {"made": "="}
    fill_board(phone, phone_c, expected_score(board2, phone_c))
    phone.click("#save-button")
    phone.wait_for_selector("#board-screen[data-state=saved]")
    fill_board(tablet, c, expected_score(board2, c))
    tablet.click("#save-button")
    tablet.wait_for_selector("#entry-status[data-state=conflict]")
    screenshot(tablet, "table-conflict")
    assert Result.objects.filter(section=section, status=ResultStatus.OK).count() == 2
    assert Result.objects.filter(section=section, status=ResultStatus.CONFLICT).count() == 1

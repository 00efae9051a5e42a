"""What a table's tablet does, for the browser journeys: sign in with the table and its code, tap a
result in with the buttons, confirm as East-West, read the traveller, follow the moves; and
the same with the Wi-Fi dropping for a board."""

from tests.e2e.e2e_helpers import screenshot
from tournaments.models import Result
from tournaments.scoring import ns_score, parse_contract
from tournaments.services.setup import plan

STRAINS = ("C", "D", "H", "S", "NT")


def choice(table: int, round_: int, board: int) -> dict:
    """A different, legal result for every line, so travellers and rankings differ."""
    seed = table * 7 + round_ * 3 + board
    if seed % 11 == 0:
        return {"level": "PASS"}
    level = 1 + seed % 5
    over = (seed // 5) % 3 - 1  # −1, = or +1
    return {
        "level": str(level),
        "strain": STRAINS[seed % 5],
        "double": "X" if seed % 9 == 0 else "",
        "declarer": "NESW"[seed % 4],
        "made": "=" if over == 0 else f"{over:+d}",
        "lead": ("H", "T") if seed % 4 == 0 else None,
    }


def expected_score(board, c: dict) -> int:
    if c["level"] == "PASS":
        return 0
    tricks = int(c["level"]) + 6 + (0 if c["made"] == "=" else int(c["made"]))
    return ns_score(
        parse_contract(c["level"] + c["strain"] + c["double"]),
        c["declarer"],
        tricks,
        board.vulnerability_core,
    )


def tap(page, name: str, value: str) -> None:
    page.click(f"#result-form input[name={name}][value='{value}'] + span")


def tap_contract(page, c: dict) -> None:
    """The buttons of contract ``c`` on the score pad (no waiting for the server)."""
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


def fill_board(page, c: dict, points: int) -> None:
    tap_contract(page, c)
    # the server's Law 77 score is shown before saving
    page.wait_for_selector(f"#preview .preview-score[data-points='{abs(points)}']")


def confirm_and_check(page) -> None:
    page.wait_for_selector("#board-screen[data-state=saved] #confirm-button")
    page.click("#confirm-button")
    page.wait_for_selector("#traveller, #board-in-play")  # in play elsewhere: a note


def play_round(
    page,
    section,
    table: int,
    round_: int,
    shots: str | None = None,
    choose=None,
    mitchell: bool = True,
) -> None:
    """From the round page: each board through the buttons, then the moves.

    ``choose(table, round, board)`` says what is tapped (``choice`` by default). In a
    Mitchell the moves are checked (NS stay) and followed to the next round; otherwise the
    device is left on its moves for the caller to read."""
    choose = choose or choice
    rounds = plan.round_count(section.movement)
    slot = plan.slot_for(section.movement, round_, table)
    page.wait_for_selector(f"#round[data-round='{round_}']")
    page.click(f"a[data-board-key='{round_}-{slot.boards[0]}']")
    for i, number in enumerate(slot.boards):
        board = section.session.boards.get(number=number)
        c = choose(table, round_, number)
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
    if mitchell and round_ < rounds:
        # Mitchell: NS stay, EW move up one table, boards go down one
        assert page.locator("#moves .move[data-what=NS]").inner_text().count(str(table)) >= 1
        if shots:
            screenshot(page, f"{shots}-moves")
        page.click("#next-round")


def sign_in(page, base: str, table_code) -> None:
    """Typed as the players would: the table (e.g. "a3") and its short code."""
    page.goto(f"{base}/table/")
    page.fill("input[name=table]", table_code.label.lower())
    page.fill("input[name=code]", table_code.code.lower())
    page.click(".code-form button[type=submit]")
    page.wait_for_selector("#round")


def sign_in_by_link(page, base: str, table_code) -> None:
    """As the table card's QR code does: its link asks, the button signs in."""
    page.goto(f"{base}/table/{table_code.token}/")
    page.click("#link-sign-in-button")
    page.wait_for_selector("#round")


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
    # An impatient second tap finds no Save: the pad is locked on the waiting result.
    assert not page.locator("#save-button").is_visible()
    assert page.get_attribute("#sync-status", "data-count") == "1"
    assert page.locator("#pending-list li").count() == 0  # the badge counts; no card over the pad
    screenshot(page, "table-offline-waiting")
    assert not Result.objects.filter(
        section=section, round=round_, table=table, board__number=number
    ).exists()
    page.context.set_offline(False)
    page.wait_for_selector("#board-screen[data-state=saved] #confirm-button", timeout=20000)
    page.wait_for_selector("#sync-status[data-state=saved]")
    screenshot(page, "table-back-online-saved")
    assert (
        Result.objects.filter(
            section=section, round=round_, table=table, board__number=number
        ).count()
        == 1
    )
    page.click("#confirm-button")
    page.wait_for_selector("#traveller, #board-in-play")  # in play elsewhere: a note
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


def enter_with_buttons(page, round_: int, board: int, play) -> None:
    """One board of the round, ``play`` = (level, strain, declarer, made), confirmed; back to
    the round page."""
    level, strain, declarer, made = play
    page.click(f"a[data-board-key='{round_}-{board}']")
    page.wait_for_selector(f"#board-screen[data-board='{board}'] #result-form")
    tap(page, "level", level)
    tap(page, "strain", strain)
    tap(page, "declarer", declarer)
    tap(page, "made", made)
    page.wait_for_selector("#preview .preview-score")
    page.click("#save-button")
    page.wait_for_selector("#board-screen[data-state=saved] #confirm-button")
    page.click("#confirm-button")
    page.goto(page.url.split("/table/")[0] + "/table/play/")


POST_RESULTS = """async ([round, plays]) => {
  const token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const out = [];
  for (const [board, level, strain, declarer, made] of plays) {
    const response = await fetch("/table/result/", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json",
                "X-CSRFToken": token},
      body: JSON.stringify({round, board, level, strain, double: "", declarer, made,
                            lead_suit: "", lead_rank: "", idempotency_key: crypto.randomUUID()}),
    });
    out.push(response.status);
  }
  return out;
}"""


def post_results(device, round_: int, plays) -> list[int]:
    """Send ``plays`` ([board, level, strain, declarer, made], …) through the table's JSON
    endpoint as table.js does; returns the HTTP statuses."""
    return device.evaluate(POST_RESULTS, [round_, plays])


def post_stored(device, round_: int, plays) -> None:
    """``post_results``, and every line must be stored (201)."""
    statuses = post_results(device, round_, plays)
    assert set(statuses) == {201}, (statuses, device.url)

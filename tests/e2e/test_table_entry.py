"""A table's phone beside its tablet: a mistyped code shown again with the error, the QR code's
link asking before it signs in (and only its button signing in), 44 px buttons on a phone, the same result sent from both devices stored once, and a
different one going to the director as a conflict. (The seven tablets playing a whole
Mitchell are part of the director's journey, test_director_journey.py.)"""

import datetime

import pytest

from clubsite.models import Member
from tests.e2e.e2e_helpers import no_sideways_scroll, screenshot
from tests.e2e.table_device import expected_score, fill_board, sign_in, sign_in_by_link
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLES, ROUNDS, BOARDS_PER_ROUND = 7, 7, 2


def mitchell_dict(tables: int, rounds: int, per_round: int) -> dict:
    """C03's odd-table Mitchell (EW up one table, boards down one) in ``to_dict()`` shape."""
    out = []
    for r in range(1, rounds + 1):
        rows = []
        for t in range(1, tables + 1):
            board_set = (t - 1 + (r - 1)) % tables + 1
            first = (board_set - 1) * per_round + 1
            rows.append(
                {
                    "table": t,
                    "ns": t,
                    "ew": (t - 1 - (r - 1)) % tables + 1,
                    "boards": list(range(first, first + per_round)),
                }
            )
        out.append({"round": r, "tables": rows})
    return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def seven_table_mitchell():
    members = [
        Member.objects.create(
            first_name=f"Jugador{i:02d}", last_name=f"Mesa{i:02d}", licence_number=f"E2E-{i:03d}"
        )
        for i in range(28)
    ]
    tournament = setup.create_tournament(name="Martes tarde", date=datetime.date(2025, 3, 4))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(14)]
    setup.seat_section(section, mitchell_dict(TABLES, ROUNDS, BOARDS_PER_ROUND), pairs)
    setup.start_session(session)
    return section


def assert_touch_targets(page) -> None:
    """Every control a finger taps is at least 44 px each way, and nothing scrolls sideways."""
    too_small = page.evaluate("""() => [...document.querySelectorAll(
        'main button, main a, main summary, main .pick span, main input[type=text]')]
        .filter(el => el.offsetParent !== null)
        .map(el => [el.outerHTML.slice(0, 60), el.getBoundingClientRect()])
        .filter(([_, r]) => r.height < 44 || r.width < 44)
        .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert too_small == []
    no_sideways_scroll(page)


def test_phone_board_screen_and_a_second_device(live_server, new_page):
    section = seven_table_mitchell()
    base = live_server.url
    table_code = TableCode.objects.get(section=section, table=1, active=True)
    tablet = new_page("tablet")
    sign_in(tablet, base, table_code)
    tablet.goto(f"{base}/table/play/1/1/")
    tablet.wait_for_selector("#result-form")

    # The players' phone: a mistyped code is shown again with the error...
    phone = new_page("phone")
    phone.goto(f"{base}/table/")
    assert_touch_targets(phone)
    screenshot(phone, "table-phone-sign-in")
    phone.fill("input[name=table]", "a1")
    phone.fill("input[name=code]", "bad12")
    phone.click(".code-form button[type=submit]")
    phone.wait_for_selector("#code-error")
    assert phone.input_value("input[name=code]") == "bad12"
    assert phone.input_value("input[name=table]") == "a1"
    screenshot(phone, "table-phone-wrong-code")
    # ...then it opens the table card's QR link: a page that asks, signed in by nothing yet...
    phone.goto(f"{base}/table/{table_code.token}/")
    phone.wait_for_selector("#link-sign-in[data-table=A1]")
    assert "A1" in phone.inner_text("#link-sign-in h1")
    assert section.session.tournament.name in phone.inner_text("#link-sign-in h1")
    assert_touch_targets(phone)
    screenshot(phone, "table-phone-link-asks")
    phone.goto(f"{base}/table/play/")
    phone.wait_for_selector(".code-form input[name=code]")  # sent back to sign in
    # ...until its button is pressed; then it shows the same board as the tablet.
    sign_in_by_link(phone, base, table_code)
    screenshot(phone, "table-phone-round")
    phone.goto(f"{base}/table/play/1/1/")
    phone.wait_for_selector("#result-form")
    c = {
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "+1",
        "lead": ("S", "Q"),
    }
    board = section.session.boards.get(number=1)
    fill_board(phone, c, expected_score(board, c))
    screenshot(phone, "table-phone-board")
    assert_touch_targets(phone)
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

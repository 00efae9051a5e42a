"""The room screen on a TV: the director makes its link, sets the round clock and hides the
last round; the screen, opened by the link with no sign-in at 1920x1080, counts down by
itself, shows the ranking after round 3 and where everyone goes next, and follows a result
posted at a table without a reload (answered 304 while nothing changed). A 15-table section
fits the screen, and 1280x720 too, without scrolling; on a phone it reads down in one column.
Screenshots: var/screenshots/room-*.png.
"""

import random

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from clubsite.accounts.permissions import Role, grant
from clubsite.demo import FIRST_NAMES, LAST_NAMES
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, no_sideways_scroll, screenshot
from tournaments.demo import deal_from_data, play_rounds
from tournaments.models import TableCode
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.setup.movements import build_movement
from tournaments.services.table import entry
from tournaments.views.public import conditional
from tournaments.views.public import room as room_view

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fifteen_tables():
    """Tonight's 15-table Mitchell, 5 rounds of 2 boards: rounds 1-3 played and, of round 4,
    tables 1 to 4. Players have two surnames, as in Spain: long names."""
    rng = random.Random(35)
    members = []
    for i in range(60):
        first, gender = rng.choice(FIRST_NAMES)
        members.append(
            Member.objects.create(
                first_name=first,
                last_name=f"{rng.choice(LAST_NAMES)} {rng.choice(LAST_NAMES)}",
                licence_number=f"RS-{i:03d}",
                gender=gender,
            )
        )
    tournament = setup.create_tournament(name="Torneo de los jueves", date=timezone.localdate())
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [registration.register_entry(tournament, members[i : i + 2]) for i in range(0, 60, 2)]
    movement = build_movement("mitchell", tables=15, rounds=5, boards_per_round=2)
    setup.seat_section(section, movement, pairs)
    deal_from_data(section)
    setup.start_session(session)
    play_rounds(section, rng, rounds=3)
    for table in (1, 2, 3, 4):
        post(section, 4, table)
    return section


def post(section, round_number, table):
    """Table ``table`` enters every board of the round from its device."""
    code = TableCode.objects.get(section=section, table=table, active=True)
    for board in plan.slot_for(section.movement, round_number, table).boards:
        entry.submit_result(
            table_code=code,
            round=round_number,
            board=board,
            contract="4S",
            declarer="N",
            tricks=10,
            idempotency_key=f"room-{round_number}-{table}-{board}",
        )


# Every ranking row shown, the clock and each line of the movement: inside the window?
# (Measured in one go: the screen swaps itself in every second.)
CUT_OFF = """() => {
  const sel = ['.room-page:not([hidden]) tbody tr', '#room-clock', '#room-move li'];
  const out = [];
  for (const s of sel) for (const el of document.querySelectorAll(s)) {
    const r = el.getBoundingClientRect();
    if (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) out.push([s, r.bottom, r.right]);
  }
  return [out, document.querySelectorAll(sel[0]).length];
}"""


def fits(page):
    """Nothing scrolls and nothing is cut off: the screen and each ranking row inside it."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    scroll = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert scroll[0] <= width and scroll[1] <= height, (scroll, width, height)
    cut, rows = page.evaluate(CUT_OFF)
    assert rows == 30 and not cut, (rows, cut, width, height)


def test_the_room_screen_follows_the_room(live_server, new_page, monkeypatch):
    monkeypatch.setattr(room_view, "POLL_SECONDS", 1)
    answered = []  # per poll of the screen: True when answered 304
    not_modified = conditional.not_modified

    def spy(request, etag):
        response = not_modified(request, etag)
        answered.append(response is not None)
        return response

    monkeypatch.setattr(conditional, "not_modified", spy)
    section = fifteen_tables()
    session = section.session
    director = User.objects.create_user(username="td", password="pass-1234-word")
    grant(director, Role.DIRECTOR)
    base = live_server.url

    # the director: the link, a 15-minute round 4 on the clock, the last round hidden
    desk = new_page("desktop")
    login(desk, base, "td", "pass-1234-word")
    desk.goto(f"{base}/director/sessions/{session.pk}/console/")
    desk.click("#room-screen-link")
    desk.click("#make-room-link")
    link = desk.input_value("#room-link")
    assert link.startswith(f"{base}/results/room/")
    desk.fill("#id_round", "4")
    desk.fill("#id_minutes", "15")
    desk.click("#clock-start")
    desk.wait_for_selector("#director-clock[data-state='running']")
    desk.fill("#id_hidden_rounds", "1")
    desk.click("#hidden-rounds-save")
    assert "3" in desk.inner_text("#room-through")
    screenshot(desk, "room-director")

    # the TV: the link alone, no sign-in
    tv = new_page("tv")
    tv.goto(link)
    tv.wait_for_selector("#room-live[data-poll]")
    assert tv.get_attribute("#room-ranking-title", "data-through") == "3"
    assert "Clasificación tras la ronda 3" in tv.inner_text("#room-ranking-title")
    assert tv.locator(".room-page:not([hidden]) tbody tr").count() == 30  # NS and EW, 15 each
    assert tv.get_attribute("#room-round", "data-done") == "4"
    assert "4 de 15 mesas han terminado" in tv.inner_text("#room-round")
    move = tv.inner_text("#room-move")
    assert "Al terminar la ronda 4" in move
    assert "se quedan" in move and "suben 1 mesa" in move and "bajan 1 mesa" in move
    first = tv.inner_text("[data-clock-time]")
    tv.wait_for_function(
        "t => document.querySelector('[data-clock-time]').textContent !== t", arg=first
    )  # the clock counts down by itself
    minutes, seconds = tv.inner_text("[data-clock-time]").split(":")
    assert 14 * 60 <= int(minutes) * 60 + int(seconds) < 15 * 60
    screenshot(tv, "room-screen-1920")
    fits(tv)

    # a table finishes round 4: the screen follows without a reload
    tv.evaluate("window.stillTheSamePage = true")
    answered.clear()
    tv.wait_for_timeout(2200)  # polls with nothing new: "not modified"
    assert True in answered, answered
    post(section, 4, 5)
    tv.wait_for_function("() => document.querySelector('#room-round').dataset.done === '5'")
    assert tv.evaluate("window.stillTheSamePage") is True  # swapped, not reloaded
    assert "5 de 15 mesas han terminado" in tv.inner_text("#room-round")
    assert tv.get_attribute("#room-ranking-title", "data-through") == "3"  # round 4 hidden

    # the director pauses: every screen shows it
    desk.click("#clock-pause")
    tv.wait_for_selector("#room-clock[data-state='paused']")
    assert "En pausa" in tv.inner_text("#room-clock")

    # the club has visitors: the director switches the screen to Portuguese; the TV follows
    desk.select_option("#room-language", "pt")
    desk.click("#room-language-save")
    desk.wait_for_selector("#room-language option[value=pt]:checked", state="attached")
    tv.wait_for_selector("#room-live[lang=pt]")
    assert tv.evaluate("window.stillTheSamePage") is True  # swapped, not reloaded
    assert "Em pausa" in tv.inner_text("#room-clock")
    screenshot(tv, "room-screen-pt")

    # a smaller screen reads it whole too, and a phone that opens the link scrolls down only
    tv.set_viewport_size({"width": 1280, "height": 720})
    screenshot(tv, "room-screen-1280")
    fits(tv)
    tv.set_viewport_size({"width": 390, "height": 844})
    no_sideways_scroll(tv)
    screenshot(tv, "room-screen-phone")

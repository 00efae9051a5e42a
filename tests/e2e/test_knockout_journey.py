"""A 4-team knockout end to end in a real browser (issue #7).

The demo director creates a knockout of 2 boards a match with "play 2 extra boards" for a
tie, seeds the last registered team first and starts; four table devices (two matches × two
rooms) sign in and send their results through the table's JSON endpoint, as table.js does.
Match 1 is won in the closed room; match 2 is tied, so the director adds the tie-break
boards, which the same two tables play and enter; the director draws the final from the
console's link, the final's tables move on by themselves, and the public bracket on a phone
shows every score, who went through and the winner; the final's page its knockout score and
the standings the placings (winner, runner-up, semi-finalists third).
"""

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import fits_its_box, login, screenshot
from tests.e2e.table_device import post_stored, sign_in
from tests.e2e.teams_pages import create_teams_event, save_team_settings
from tournaments.models import TableCode, TeamMatch
from tournaments.services.entries import registration
from tournaments.services.teams import team_schedule

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MADE, DOWN = ("4", "S", "N", "="), ("4", "S", "N", "-1")  # 420 / −50 on board 1 and 2 (NV/NS)


def _send(device, round_, plays):
    post_stored(device, round_, [[b, *p] for b, p in plays])


def test_knockout_with_a_tie_break_segment(live_server, new_page):
    build_club()
    base = live_server.url
    page = new_page("desktop")
    login(page, base, "director", DEMO_PASSWORD)
    tournament = create_teams_event(page, base, "Copa por eliminatorias")
    players = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[:16]
    )
    entries = [
        registration.register_entry(tournament, players[4 * i : 4 * i + 4], name=f"Copa {i + 1}")
        for i in range(4)
    ]
    save_team_settings(
        page,
        base,
        tournament,
        format="knockout",
        boards_per_match="2",
        knockout_tie="extra_boards",
        tie_boards="2",
    )
    page.click("#seeds-box summary")
    page.fill(f"input[name=seed-{entries[3].pk}]", "1")
    page.click("#save-seeds")
    page.wait_for_selector(".message.success")
    page.click("#start-teams")
    page.wait_for_selector("#knockout-box")
    session = team_schedule.teams_session(tournament)
    assert team_schedule.numbers_of(session)[entries[3].pk] == 1 and session.rounds == 2
    codes = {c.table: c for c in TableCode.objects.filter(session=session, active=True)}
    devices = {}
    for table in range(1, 5):
        devices[table] = new_page("phone" if table == 3 else "tablet")
        sign_in(devices[table], base, codes[table])

    # Match 1 (seed 1 v 4): the visitors make 4♠ in the closed room and beat it in the open.
    _send(devices[1], 1, [(1, DOWN), (2, MADE)])
    _send(devices[2], 1, [(1, MADE), (2, MADE)])
    # Match 2 (seed 2 v 3): the same result in both rooms, board after board: tied.
    for table in (3, 4):
        _send(devices[table], 1, [(1, MADE), (2, MADE)])
    page.goto(f"{base}/director/{tournament.pk}/teams/")
    page.wait_for_selector("#ko-match-2 .ko-tied")
    assert page.locator("#draw-stage").count() == 0
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(page, "knockout-1-director-tie-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#ko-match-2 .ko-add-tie")
    page.wait_for_selector(".message.success")
    # The tie-break boards (5 and 6, after both stages' boards) come up at the same tables.
    devices[3].goto(f"{base}/table/play/")
    devices[3].wait_for_selector("a[data-board-key='1-5']")
    screenshot(devices[3], "knockout-2-table-3-tie-break")
    _send(devices[3], 1, [(5, MADE), (6, MADE)])
    _send(devices[4], 1, [(5, DOWN), (6, MADE)])
    # The captains read the knockout score on their phone's match screen, as the public do.
    devices[3].goto(f"{base}/table/play/match/?round=1")
    score = devices[3].locator("#knockout-score dd.knockout-score").inner_text()
    assert score.strip() and score != "0 – 0"
    assert devices[3].evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(devices[3], "knockout-2b-table-3-match-score-phone")
    fits_its_box(devices[3], "#match-boards")

    # The console offers the draw; the final is seed 4 v seed 2.
    page.goto(f"{base}/director/sessions/{session.pk}/console/")
    page.click("#console-draw a")
    page.wait_for_selector("#draw-stage")
    page.click("#draw-stage")
    page.wait_for_selector(".message.success")
    screenshot(page, "knockout-3-director-final")
    final = TeamMatch.objects.get(session=session, round=2)
    numbers = team_schedule.numbers_of(session)
    assert (numbers[final.home_id], numbers[final.away_id]) == (2, 4)
    for table in (1, 2):
        devices[table].goto(f"{base}/table/play/")
        devices[table].wait_for_selector("#round[data-round='2']")
    _send(devices[1], 2, [(3, MADE), (4, MADE)])
    _send(devices[2], 2, [(3, DOWN), (4, MADE)])

    # Finish, publish, and the bracket on a phone without logging in.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("button.finish-session")
    page.wait_for_selector(".message.success")
    page.click("#publish-final")
    page.wait_for_selector("#correction-period")
    public = new_page("phone")
    public.goto(f"{base}/results/{tournament.slug}/teams/bracket/")
    public.wait_for_selector("#champion")
    assert entries[0].name in public.locator("#champion").inner_text()  # seed 2
    stage1 = public.locator(".bracket-stage[data-stage='1'] .ko-through .team-no")
    assert stage1.all_inner_texts() == ["4", "2"]
    assert public.locator(".ko-segments").count() == 1
    assert public.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(public, "knockout-4-bracket-phone")

    # The final's page gives the knockout score beside each team's own IMPs; the standings
    # place the cup winner first, the runner-up second and the semi-finalists third.
    public.click(".bracket-stage[data-stage='2'] .ko-detail a")
    public.wait_for_selector("#match-boards tbody tr")
    assert public.locator("dd.knockout-score").inner_text().strip()
    assert public.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(public, "knockout-5-final-phone")
    public.click("#nav-standings")
    public.wait_for_selector("#standings tbody tr")
    assert public.locator("#standings td.place").all_inner_texts() == ["1", "2", "3=", "3="]
    assert public.locator("#standings tbody tr").evaluate_all(
        "rs => rs.slice(0, 2).map(r => Number(r.dataset.team))"
    ) == [2, 4]
    assert public.locator("#knockout-places").count() == 1
    screenshot(public, "knockout-6-standings-phone")

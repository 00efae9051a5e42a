"""Teams events end to end in a real browser (issue #7).

An 8-team Swiss over 4 rounds of 7 boards: the demo director creates the event, registers a
team through the form (the other seven through the service), sets the format and starts;
eight table devices (4 matches × 2 rooms) sign in; board 1 of round 1 is entered with the
buttons in both rooms of match 1 and the match screen compares them; every other board goes
through the table's JSON endpoint from the device's own page, as table.js sends it. After
each round the standings and the next round's draw are checked; a device waits for the draw
and moves on by itself. Then a 6-team round robin is set up through the pages: its schedule
must be the course's Roman square (C03 l.238-253), and after two rounds from its tables the
standings must hold the VPs the scoring core gives those matches.
"""

from decimal import Decimal

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import fits_its_box, login, pick_player, screenshot
from tests.e2e.table_device import enter_with_buttons, post_stored, sign_in
from tests.e2e.teams_pages import create_teams_event, save_team_settings
from tournaments.models import (
    Result,
    ResultStatus,
    TableCode,
    TeamMatch,
    TournamentStatus,
)
from tournaments.scoring.teams import match_imps
from tournaments.services.classification import classify as classification
from tournaments.services.entries import registration
from tournaments.services.teams import team_schedule, team_standings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEAMS, ROUNDS, BOARDS = 8, 4, 7
# (level, strain, declarer, made): varied legal results so matches are won and lost.
PLAYS = (
    ("4", "S", "N", "="),
    ("4", "S", "N", "-1"),
    ("3", "NT", "S", "+1"),
    ("2", "H", "E", "="),
    ("4", "H", "W", "="),
    ("5", "D", "N", "-2"),
)


def _play(round_: int, table: int, board: int):
    match = (table + 1) // 2
    return PLAYS[
        (round_ * 5 + match * 3 + board * (1 + table % 2) + (table % 2) * round_) % len(PLAYS)
    ]


def _standing_on_page(page) -> list[tuple[int, Decimal]]:
    rows = page.locator("#standings tbody tr")
    teams_ = rows.evaluate_all("rs => rs.map(r => Number(r.dataset.team))")
    points = rows.locator("td.points").evaluate_all("cs => cs.map(c => c.dataset.value)")
    return [(t, Decimal(p)) for t, p in zip(teams_, points, strict=True)]


def _pairs_on_page(page, round_: int) -> set[frozenset[int]]:
    texts = page.locator(f"#round-{round_} li[data-pair]").evaluate_all(
        "ls => ls.map(l => l.dataset.pair)"
    )
    return {frozenset(int(x) for x in t.split("-")) for t in texts}


def test_swiss_teams_and_a_roman_round_robin(live_server, new_page):
    build_club()
    base = live_server.url
    page = new_page("desktop")
    login(page, base, "director", DEMO_PASSWORD)
    tournament = create_teams_event(page, base, "Swiss de equipos")
    players = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[
            : 4 * TEAMS
        ]
    )

    # One team through the form: name, four players, the captain marked.
    page.goto(f"{base}/director/{tournament.pk}/entries/")
    page.fill("#team-name", "Los Ases")
    for slot in range(1, 5):
        pick_player(page, slot, players[slot - 1])
    page.click("#register")
    page.wait_for_selector("#entry-list tr.entry-row")
    assert page.locator("#entry-list .badge-captain").count() == 1
    screenshot(page, "teams-1-entries")
    for i in range(1, TEAMS):
        registration.register_entry(tournament, players[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")

    # Swiss, 4 rounds of 7 boards on the WBF scale; start.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("#teams-link")
    save_team_settings(
        page, base, tournament, format="swiss", swiss_rounds="4", boards_per_match="7"
    )
    screenshot(page, "teams-2-settings")
    page.click("#start-teams")
    page.wait_for_selector("#round-progress")
    session = team_schedule.teams_session(tournament)
    assert session.is_running and session.sections.get().tables == 8
    codes = {c.table: c for c in TableCode.objects.filter(session=session, active=True)}
    assert sorted(codes) == list(range(1, 9))

    devices = {}
    for table in range(1, 9):
        devices[table] = device = new_page("tablet" if table > 1 else "phone")
        sign_in(device, base, codes[table])
    first = devices[1]
    assert first.locator("#team-match-card").count() == 1
    screenshot(first, "teams-3-table-1-round-1")

    # Board 1 of match 1 with the buttons in both rooms, then the comparison.
    enter_with_buttons(devices[1], 1, 1, _play(1, 1, 1))
    enter_with_buttons(devices[2], 1, 1, _play(1, 2, 1))
    first.click("#match-screen")
    # the other matches have still to play board 1: no other table's score yet
    first.wait_for_selector("#board-in-play")
    assert first.locator("#match-boards tr.compared").count() == 0

    played: set[frozenset[int]] = set()
    for round_ in range(1, ROUNDS + 1):
        boards = range((round_ - 1) * BOARDS + 1, round_ * BOARDS + 1)
        for table, device in devices.items():
            plays = [
                [b, *_play(round_, table, b)]
                for b in boards
                if not (round_ == 1 and b == 1 and table <= 2)
            ]
            post_stored(device, round_, plays)
        assert (
            Result.objects.filter(
                section__session=session, round=round_, status=ResultStatus.OK
            ).count()
            == 8 * BOARDS
        )

        # The standings on the page are the stored classification's.
        page.goto(f"{base}/results/{tournament.slug}/teams/")
        page.wait_for_selector("#standings tbody tr")
        shown = _standing_on_page(page)
        classification.ensure_current(session)
        stored = [
            (line.number, Decimal(str(float(line.points))).quantize(Decimal("0.01")))
            for line in team_standings.standings(session)
        ]
        assert shown == stored and len(shown) == TEAMS
        total_vps = sum(p for _t, p in shown)
        assert total_vps == pytest.approx(Decimal(20 * 4 * round_), abs=Decimal("0.1"))
        if round_ == 1:
            screenshot(page, "teams-5-standings-round-1")
            # every table has played the round's boards: the match screen compares them
            first.goto(f"{base}/table/play/match/?round=1")
            first.wait_for_selector("#match-boards tr.compared[data-board='1']")
            screenshot(first, "teams-4-match-screen")
            fits_its_box(first, "#match-boards")
            assert first.locator("#match-boards tbody tr").count() == BOARDS

        numbers = team_schedule.numbers_of(session)
        played |= {
            frozenset((numbers[m.home_id], numbers[m.away_id]))
            for m in TeamMatch.objects.filter(session=session, round=round_)
        }
        if round_ == ROUNDS:
            break
        # A device that has finished waits for the draw, then moves on by itself.
        if round_ == 1:
            first.goto(f"{base}/table/play/")
            first.wait_for_selector("#waiting-draw")
            screenshot(first, "teams-6-waiting-for-the-draw")
        page.goto(f"{base}/director/{tournament.pk}/teams/")
        page.click("#draw-next")
        page.wait_for_selector(".message.success")
        if round_ == 1:
            screenshot(page, "teams-7-director-after-draw")
        page.goto(f"{base}/results/{tournament.slug}/teams/schedule/")
        drawn = _pairs_on_page(page, round_ + 1)
        assert len(drawn) == TEAMS // 2 and not drawn & played, "a rematch in the draw"
        # The best two teams that have not met play each other.
        leader = stored[0][0]
        opponent = next(t for t, _p in stored[1:] if frozenset((leader, t)) not in played)
        assert frozenset((leader, opponent)) in drawn
        first.goto(f"{base}/table/play/")
        first.wait_for_selector(f"#round[data-round='{round_ + 1}']")
    screenshot(page, "teams-8-draw-and-rounds")

    # Finish, publish; the public standings on a phone, without logging in.
    page.goto(f"{base}/director/{tournament.pk}/")
    page.click("button.finish-session")
    page.wait_for_selector(".message.success")
    page.click("#publish-final")
    page.wait_for_selector("#correction-period")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL
    public = new_page("phone")
    public.goto(f"{base}/results/{tournament.slug}/")
    public.click("#team-standings")
    public.wait_for_selector("#standings tbody tr")
    assert public.locator("#standings tbody tr").count() == TEAMS
    assert public.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    # On the phone the IMPs won and lost give way: the total fits without scrolling the box.
    fits_its_box(public, "#standings")
    assert not public.locator("#standings th.lost").is_visible()
    assert public.locator("#standings td.points").first.is_visible()
    screenshot(public, "teams-9-final-standings-phone")
    public.set_viewport_size({"width": 800, "height": 900})  # a tablet sorts by IMPs lost
    public.click("#standings thead th.lost a")
    public.wait_for_url("**sort=lost**")
    lost = public.locator("#standings td.lost").all_inner_texts()
    assert [Decimal(x.replace(",", ".")) for x in lost] == sorted(
        Decimal(x.replace(",", ".")) for x in lost
    )
    public.set_viewport_size({"width": 390, "height": 844})
    public.click(".round-links a[data-round='4']")
    public.click("#round-results tr[data-match='1'] a")
    public.wait_for_selector("#match-boards tbody tr")
    assert public.locator("#match-boards tr.compared").count() == BOARDS
    screenshot(public, "teams-10-match-phone")
    fits_its_box(public, "#match-boards")

    # A 6-team round robin on the course's Roman square, set up through the pages.
    robin = create_teams_event(page, base, "Liguilla de seis")
    for i in range(6):
        registration.register_entry(robin, players[4 * i : 4 * i + 4], name=f"Liga {i + 1}")
    save_team_settings(
        page, base, robin, format="round_robin", round_robin_method="roman", boards_per_match="4"
    )
    page.click("#start-teams")
    page.wait_for_selector("#round-progress")
    page.click("#standings-link")
    page.click("#nav-schedule")
    page.wait_for_selector("#round-5")
    screenshot(page, "teams-11-roman-square")
    course = {
        1: ["3-4", "2-5", "1-6"],
        2: ["4-5", "3-1", "2-6"],
        3: ["5-1", "4-2", "3-6"],
        4: ["1-2", "5-3", "4-6"],
        5: ["2-3", "1-4", "5-6"],
    }
    for round_, pairs in course.items():
        shown = page.locator(f"#round-{round_} li[data-pair]").evaluate_all(
            "ls => ls.map(l => l.dataset.pair)"
        )
        assert shown == pairs

    # Two rounds from its six tables' devices; the standings give each team the VPs the
    # scoring core computes from those results.
    session = team_schedule.teams_session(robin)
    for code in TableCode.objects.filter(session=session, active=True):
        device = devices[code.table]
        sign_in(device, base, code)
        for round_ in (1, 2):
            plays = [
                [b, *_play(round_, code.table, b)] for b in range(4 * round_ - 3, 4 * round_ + 1)
            ]
            post_stored(device, round_, plays)
    page.click("#nav-standings")
    page.wait_for_selector("#standings tbody tr")
    assert dict(_standing_on_page(page)) == _core_vps(session)
    screenshot(page, "teams-12-round-robin-standings")


def _core_vps(session) -> dict[int, Decimal]:
    """Each team's VPs straight from the scoring core: both rooms of every board, each team's
    own margin over the match's boards on the event's scale."""
    event, numbers = team_schedule.team_event(session.tournament), team_schedule.numbers_of(session)
    scores = {
        (r.round, r.table, r.board.number): r.ns_score
        for r in Result.objects.filter(
            section__session=session, status=ResultStatus.OK
        ).select_related("board")
    }
    vps = dict.fromkeys(numbers.values(), Decimal(0))
    for m in TeamMatch.objects.filter(session=session, round__lte=2):
        boards = range(4 * m.round - 3, 4 * m.round + 1)
        rooms = [
            (scores[(m.round, m.open_table, b)], scores[(m.round, m.closed_table, b)])
            for b in boards
        ]
        result = match_imps(rooms, vp_scale=event.vp_scale, vp_boards=4)
        vps[numbers[m.home_id]] += Decimal(str(result.a_vp))
        vps[numbers[m.away_id]] += Decimal(str(result.b_vp))
    return {team: vp.quantize(Decimal("0.01")) for team, vp in vps.items()}

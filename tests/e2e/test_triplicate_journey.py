"""The course's 3-team triplicate and a Patton evening end to end in a real browser (issue #7).

Triplicate (C03 l.211-236): the demo director creates a teams event, picks the triplicate
format on the teams page and starts it; three table devices sign in (table 1 on a phone).
Board 1 is entered with the buttons at tables 1 and 2 and table 1's match screen shows the
comparison; every other board goes through the table's JSON endpoint. The standings must be
the course's: each board compared table 1 v 2, 1 v 3 and 2 v 3, the NS pair of one table and
the EW pair of the other sharing each comparison, a team the sum of its two pairs (computed
here from the stored scores with the IMP table, independently of the services).

Patton (C03 l.185-195): four teams, three boards a match, every board through the devices'
JSON endpoint; the standings hand out 8 points a board.
"""

from itertools import combinations

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import fits_its_box, login, screenshot
from tests.e2e.table_device import enter_with_buttons, post_stored, sign_in
from tests.e2e.teams_pages import create_teams_event, save_team_settings
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.scoring.imps import imps
from tournaments.scoring.teams import patton_points
from tournaments.services.entries import registration
from tournaments.services.teams import team_schedule

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOARDS = 3
PLAYS = (
    ("4", "S", "N", "="),
    ("4", "S", "N", "-1"),
    ("3", "NT", "S", "+1"),
    ("2", "H", "E", "="),
    ("4", "H", "W", "="),
    ("5", "D", "N", "-2"),
)
# C03 l.224-236: (NS pair, EW pair) at tables 1-3 in rounds 1-4; A = 1 & 2, B = 3 & 6, C = 4 & 5.
COURSE = (
    ((1, 6), (5, 2), (3, 4)),
    ((1, 5), (4, 6), (3, 2)),
    ((1, 4), (5, 3), (6, 2)),
    ((1, 3), (4, 2), (6, 5)),
)
TEAM_OF = {1: 1, 2: 1, 3: 2, 6: 2, 4: 3, 5: 3}


def _play(round_: int, table: int, board: int):
    return PLAYS[(round_ * 7 + table * 5 + board * 3) % len(PLAYS)]


def _standing(page) -> dict[int, str]:
    rows = page.locator("#standings tbody tr")
    numbers = rows.evaluate_all("rs => rs.map(r => Number(r.dataset.team))")
    points = rows.locator("td.points").evaluate_all("cs => cs.map(c => c.dataset.value)")
    return dict(zip(numbers, points, strict=True))


def _course_totals(session) -> dict[int, int]:
    """The course's rule over the stored scores: pairs' IMPs, then each team's sum."""
    scores: dict[tuple[int, int], dict[int, int]] = {}
    for r in Result.objects.filter(section__session=session, status=ResultStatus.OK):
        scores.setdefault((r.round, r.board.number), {})[r.table] = r.ns_score
    pair = dict.fromkeys(TEAM_OF, 0)
    for (round_, _board), by_table in scores.items():
        seats = COURSE[round_ - 1]
        for i, j in combinations(sorted(by_table), 2):
            v = imps(by_table[i] - by_table[j])
            pair[seats[i - 1][0]] += v
            pair[seats[j - 1][1]] += v
            pair[seats[j - 1][0]] -= v
            pair[seats[i - 1][1]] -= v
    teams_ = {1: 0, 2: 0, 3: 0}
    for p, v in pair.items():
        teams_[TEAM_OF[p]] += v
    return teams_


def test_a_triplicate_and_a_patton_evening(live_server, new_page):
    build_club()
    base = live_server.url
    page = new_page("desktop")
    login(page, base, "director", DEMO_PASSWORD)
    players = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[:16]
    )

    tournament = create_teams_event(page, base, "Triplicado")
    for i in range(3):
        registration.register_entry(
            tournament, players[4 * i : 4 * i + 4], name=f"Equipo {'ABC'[i]}"
        )
    save_team_settings(page, base, tournament, format="triplicate", boards_per_match=str(BOARDS))
    page.click("#start-teams")
    page.wait_for_selector("#round-progress")
    screenshot(page, "triplicate-1-director")
    session = team_schedule.teams_session(tournament)
    assert session.is_running and session.rounds == 4 and session.sections.get().tables == 3
    codes = {c.table: c for c in TableCode.objects.filter(session=session, active=True)}
    devices = {}
    for table in (1, 2, 3):
        devices[table] = device = new_page("phone" if table == 1 else "tablet")
        sign_in(device, base, codes[table])
    first = devices[1]
    assert first.locator("#team-match-card").count() == 1

    enter_with_buttons(devices[1], 1, 1, _play(1, 1, 1))
    enter_with_buttons(devices[2], 1, 1, _play(1, 2, 1))
    first.click("#match-screen")
    # table 3 has still to play board 1: no other table's score yet
    first.wait_for_selector("#board-in-play")

    for round_ in range(1, 5):
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
            == 3 * BOARDS
        )
        if round_ == 1:  # every table has played the round: table 1 compares its boards
            first.goto(f"{base}/table/play/match/?round=1")
            first.wait_for_selector("#match-boards.triplicate-boards tr.compared[data-board='1']")
            assert first.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
            screenshot(first, "triplicate-2-table-1-comparison-phone")
            fits_its_box(first, "#match-boards")
        page.goto(f"{base}/results/{tournament.slug}/teams/")
        page.wait_for_selector("#standings[data-unit='imps'] tbody tr")
        expected = _course_totals(session)
        assert _standing(page) == {t: f"{v}.00" for t, v in expected.items()}
        assert sum(expected.values()) == 0
    screenshot(page, "triplicate-3-standings")
    public = new_page("phone")  # the director's phone: the results are not published yet
    login(public, base, "director", DEMO_PASSWORD)
    public.goto(f"{base}/results/{tournament.slug}/teams/")
    public.wait_for_selector("#standings tbody tr")
    assert public.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(public, "triplicate-4-standings-phone")

    # A Patton evening: four teams, three boards a match, the course's round robin.
    patton = create_teams_event(page, base, "Patton")
    for i in range(4):
        registration.register_entry(patton, players[4 * i : 4 * i + 4], name=f"Patton {i + 1}")
    save_team_settings(page, base, patton, format="patton", boards_per_match=str(BOARDS))
    page.click("#start-teams")
    page.wait_for_selector("#round-progress")
    session = team_schedule.teams_session(patton)
    codes = {c.table: c for c in TableCode.objects.filter(session=session, active=True)}
    assert sorted(codes) == [1, 2, 3, 4] and session.rounds == 3
    for table in (1, 2, 3, 4):
        device = new_page("tablet")
        sign_in(device, base, codes[table])
        for round_ in (1, 2, 3):
            boards = range((round_ - 1) * BOARDS + 1, round_ * BOARDS + 1)
            plays = [[b, *_play(round_, table, b)] for b in boards]
            post_stored(device, round_, plays)
        device.close()
    expected = {n: 0 for n in (1, 2, 3, 4)}
    numbers = team_schedule.numbers_of(session)
    rows = {
        (r.round, r.board.number, r.table): r.ns_score
        for r in Result.objects.filter(section__session=session)
    }
    for m in team_schedule.rounds_with_matches(session).values():
        for match in m:
            for b in range((match.round - 1) * BOARDS + 1, match.round * BOARDS + 1):
                net = (
                    rows[(match.round, b, match.open_table)]
                    - rows[(match.round, b, match.closed_table)]
                )
                home, away = patton_points(net)
                expected[numbers[match.home_id]] += home
                expected[numbers[match.away_id]] += away
    assert sum(expected.values()) == 8 * BOARDS * 2 * 3
    page.goto(f"{base}/results/{patton.slug}/teams/")
    page.wait_for_selector("#standings[data-unit='patton'] tbody tr")
    assert _standing(page) == {t: f"{v}.00" for t, v in expected.items()}
    public.goto(f"{base}/results/{patton.slug}/teams/")
    screenshot(public, "patton-1-standings-phone")
    public.click(".round-links a[data-round='1']")
    public.click("#round-results tr[data-match='1'] a")
    public.wait_for_selector("#match-boards td.board-points")
    assert public.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    screenshot(public, "patton-2-match-phone")

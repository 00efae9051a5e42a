"""A player on a phone reads their own analysis: their scorecard with each board against the
field, par and double dummy and the boards that cost most; one tap opens a board's hands;
the session's hands download as PBN. At 390 px, then at 360 px: nothing scrolls sideways,
every table fits its box and every board link is a finger's size."""

import pytest
from endplay.parsers import pbn as endplay_pbn

from clubsite.demo import DEMO_PASSWORD, build_demo
from clubsite.models import Member
from tests.e2e.e2e_helpers import (
    fits_its_box,
    login,
    no_sideways_scroll,
    screenshot,
    touch_targets,
)
from tournaments.models import Board, RankingScope, StoredRanking

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_reads_their_analysis_opens_a_hand_and_downloads_the_pbn(live_server, new_page):
    build_demo()  # the demo's boards carry their deals, double dummy and par
    base = live_server.url
    lucia = Member.objects.get(licence_number="AEB-10003")
    mine = StoredRanking.objects.get(
        scope=RankingScope.SECTION,
        entry__players=lucia,
        section__session__tournament__slug__endswith="-martes",
    )
    tournament = mine.section.session.tournament
    page = new_page("phone")
    login(page, base, "jugador", DEMO_PASSWORD)

    # Her scorecard: every board she played analysed, the ones that cost most above.
    page.goto(f"{base}/results/{tournament.slug}/1/pair/{mine.entry_id}/")
    page.wait_for_selector("#analysis")
    assert page.locator("#analysis tbody tr").count() == mine.boards
    assert page.locator("#analysis .rank").count() == mine.boards
    assert page.locator("#analysis .par-score").count() == mine.boards
    assert 1 <= page.locator("#lost-most li").count() <= 3
    assert "Los estuches que más costaron" in page.inner_text("#lost-most h2")
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        no_sideways_scroll(page)
        for table in ("#scorecard", "#analysis"):
            fits_its_box(page, table)
        touch_targets(page, "#scorecard td.board a")
        touch_targets(page, "#analysis td.board a")
        touch_targets(page, "#lost-most a.lost-board")
        screenshot(page, f"analysis-phone-{width}-1-scorecard")

    # One tap on a row's board number: that board's four hands, dealer, vulnerability, par.
    page.set_viewport_size({"width": 390, "height": 844})
    first = page.locator("#scorecard tbody tr td.board a").first
    number = first.inner_text()
    first.click()
    page.wait_for_selector("#hand-record")
    assert page.locator("#hand-record .hand").count() == 4
    assert page.locator("#par").count() == 1 and "Dador" in page.inner_text("main")
    assert page.locator("#traveller tr.mine").count() == 1
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        no_sideways_scroll(page)
        fits_its_box(page, "#traveller")
        touch_targets(page, ".board-nav a")
        screenshot(page, f"analysis-phone-{width}-2-board-{number}")

    # Back on the scorecard, the session's hands as PBN: endplay reads the deals back.
    page.go_back()
    page.wait_for_selector("#hands-pbn")
    touch_targets(page, "#hands-pbn")
    with page.expect_download() as caught:
        page.click("#hands-pbn")
    download = caught.value
    assert download.suggested_filename == f"{tournament.slug}-1.pbn"
    games = endplay_pbn.loads(open(download.path(), encoding="utf-8").read())
    stored = {b.number: b.deal for b in Board.objects.filter(session=mine.section.session)}
    assert sorted({g.board_num for g in games}) == sorted(stored)
    assert all(g.deal.to_pbn() == stored[g.board_num] for g in games)

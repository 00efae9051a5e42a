"""A player checks the results on a phone: index, tournament, ranking (sorted by
percentage), their scorecard, a traveller with the hand, their page and the season ranking."""

import re
from decimal import Decimal

import pytest

from clubsite.demo import DEMO_PASSWORD, build_demo
from clubsite.models import Member
from tests.e2e.e2e_helpers import fits_its_box, login_with_form, no_sideways_scroll, screenshot
from tournaments.models import RankingScope, Result, StoredRanking, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def build_results():
    """The demo club and its finished tournaments, exactly as `make run` loads them: a demo
    that fails to load fails the journey."""
    build_demo()
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())  # the demo's boards carry their deals, double dummy and par


def column_values(page, table, column_class="td.num:last-child"):
    return [
        Decimal(v)
        for v in table.locator(f"tbody tr {column_class}").evaluate_all(
            "cells => cells.map(c => c.dataset.value)"
        )
    ]


def test_player_checks_results_on_a_phone(live_server, new_page):
    build_results()
    base = live_server.url
    lucia = Member.objects.get(licence_number="AEB-10003")
    page = new_page("phone")
    login_with_form(page, base, "jugador", DEMO_PASSWORD)

    # The results index: newest first, the evening event flagged as being played.
    page.goto(f"{base}/results/")
    items = page.locator("li.result-item")
    assert items.count() == 5  # the demo's Mitchell, Howell, individual, Swiss teams and tonight's
    running = page.locator("li.result-item", has_text="Torneo de la tarde")
    assert running.locator("[data-flag=in-progress]").count() == 1
    no_sideways_scroll(page)
    screenshot(page, "results-phone-1-index")

    # The evening event's ranking, read while it is played, says which results it counts.
    evening = Tournament.objects.get(slug__endswith="-tarde")
    page.goto(f"{base}/results/{evening.slug}/1/section/A/")
    page.wait_for_selector("#ranking-through")
    assert re.search(r"\d\d:\d\d:\d\d", page.inner_text("#ranking-through"))
    assert page.locator("#ranking-ns table.ranking tbody tr").count() == 5
    no_sideways_scroll(page)
    screenshot(page, "results-phone-1b-live-ranking")
    page.goto(f"{base}/results/")

    # The finished two-section Mitchell.
    page.click("li.result-item >> text=Torneo de los martes")
    page.wait_for_selector("#results-status")
    assert page.locator("[data-status=final]").count() == 1
    assert page.locator("#correction-period").count() == 1
    no_sideways_scroll(page)
    screenshot(page, "results-phone-2-tournament")

    # Section A's NS ranking, sorted by percentage (ascending, then descending).
    page.click("a[data-section=A]")
    page.wait_for_selector("#ranking-ns table.ranking")
    ns = page.locator("#ranking-ns table.ranking")
    assert ns.locator("tbody tr").count() == 5
    page.locator("#ranking-ns th.percentage a").click()
    page.wait_for_url("**ns-sort=percentage**")
    ns = page.locator("#ranking-ns table.ranking")
    values = column_values(page, ns)
    assert values == sorted(values)
    page.locator("#ranking-ns th.percentage a").click()
    page.wait_for_url("**ns-sort=-percentage**")
    ns = page.locator("#ranking-ns table.ranking")
    values = column_values(page, ns)
    assert values == sorted(values, reverse=True)
    stored = StoredRanking.objects.filter(
        section__letter="A",
        scope=RankingScope.SECTION,
        section__session__tournament__slug__endswith="-martes",
        direction="NS",
    ).order_by("-percentage", "place")
    assert values == [r.percentage for r in stored]
    no_sideways_scroll(page)
    screenshot(page, "results-phone-3-ranking")

    # Her scorecard, from her pair's line.
    mine = StoredRanking.objects.get(
        scope=RankingScope.SECTION,
        entry__players=lucia,
        section__session__tournament__slug__endswith="-martes",
    )
    page.click(f"tr[data-entry='{mine.entry_id}'] td.names a")
    page.wait_for_selector("#scorecard")
    assert Decimal(page.get_attribute("#scorecard-total", "data-value")) == mine.points
    assert page.locator("#scorecard tbody tr").count() == mine.boards
    no_sideways_scroll(page)
    fits_its_box(page, "#scorecard")
    screenshot(page, "results-phone-4-scorecard")

    # A board of hers: the traveller and the hand record.
    page.locator("#scorecard tbody tr[data-board='1'] td a").first.click()
    page.wait_for_selector("#traveller")
    assert page.locator("#hand-record .hand").count() == 4
    assert page.locator("#double-dummy").count() == 1
    assert page.locator("#traveller tr.mine").count() == 1
    no_sideways_scroll(page)
    screenshot(page, "results-phone-5-board")

    # The Howell's adjusted board: the 60/40 with its reason and law link.
    howell = Tournament.objects.get(slug__endswith="howell-del-jueves")
    adjusted = Result.objects.get(section__session__tournament=howell, adjustment__isnull=False)
    page.goto(
        f"{base}/results/{howell.slug}/1/board/{adjusted.section.pool}/{adjusted.board.number}/"
    )
    law = page.locator("#traveller a.law-link")
    assert law.inner_text() == "12C2"
    assert "/laws/es-2017/12/" in law.get_attribute("href")
    no_sideways_scroll(page)
    screenshot(page, "results-phone-6-adjusted")

    # Her own page through "My results".
    page.goto(f"{base}/results/")
    page.click("#my-results")
    page.wait_for_selector("#history")
    assert page.locator("#history tbody tr").count() == 5  # the individual and the Swiss too
    assert page.locator("#partners tbody tr").count() >= 1
    no_sideways_scroll(page)
    screenshot(page, "results-phone-7-player")

    # The club's season ranking, sorted by average.
    page.click("main a[href$='/results/season/']")
    page.wait_for_selector("#season-rule")
    assert page.locator("table.season tbody tr").count() > 10
    page.locator("table.season th.average a").click()
    page.wait_for_url("**sort=average**")
    values = column_values(page, page.locator("table.season"), "td.num:last-child")
    assert values == sorted(values)
    no_sideways_scroll(page)
    screenshot(page, "results-phone-8-season")

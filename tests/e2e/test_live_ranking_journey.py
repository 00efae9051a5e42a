"""A player follows the live ranking on a phone while the tables play: the page asks again by
itself (htmx), gets "not modified" while nothing changed, and shows a new result without
being reloaded — in Spanish, Portuguese and English."""

import re
import uuid

import pytest
from django.conf import settings as django_settings

from clubsite.demo import build_demo
from tests.e2e.e2e_helpers import no_sideways_scroll, screenshot
from tournaments.models import Result, Section, TableCode, Tournament
from tournaments.services.setup import plan
from tournaments.services.table.entry import submit_result
from tournaments.views.public import conditional

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def missing_slots(section):
    """The evening's board lines no table has entered yet."""
    done = set(
        Result.objects.filter(section=section).values_list("round", "table", "board__number")
    )
    return [
        (s.round, s.table, b + section.board_offset)
        for s in plan.slots(section.movement)
        for b in s.boards
        if (s.round, s.table, b + section.board_offset) not in done
    ]


def test_the_live_ranking_follows_the_tables_without_a_reload(
    live_server, new_page, settings, monkeypatch
):
    settings.LIVE_RANKING_POLL_SECONDS = 1
    answered = []  # per request of the page: True when it was answered 304
    not_modified = conditional.not_modified

    def spy(request, etag):
        response = not_modified(request, etag)
        answered.append(response is not None)
        return response

    monkeypatch.setattr(conditional, "not_modified", spy)
    build_demo()
    base = live_server.url
    evening = Tournament.objects.get(slug__endswith="-tarde")
    section = Section.objects.get(session__tournament=evening, letter="A")
    url = f"{base}/results/{evening.slug}/1/section/A/"
    slots = missing_slots(section)
    for language in ("es", "pt", "en"):
        page = new_page("phone")
        page.context.add_cookies(
            [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
        )
        answered.clear()
        page.goto(url)
        page.wait_for_selector("#live-ranking[data-poll]")
        through = page.get_attribute("#ranking-through", "data-through")
        page.evaluate("window.stillTheSamePage = true")
        page.wait_for_timeout(2500)  # two polls with nothing new: "not modified"
        assert True in answered, answered  # the browser revalidated: 304
        assert page.get_attribute("#ranking-through", "data-through") == through
        round_, table, board = slots.pop(0)
        code = TableCode.objects.get(section=section, table=table, active=True)
        submit_result(
            table_code=code,
            round=round_,
            board=board,
            contract="3NT",
            declarer="N",
            tricks=10,
            idempotency_key=uuid.uuid4().hex,
        )
        page.wait_for_function(
            "t => document.querySelector('#ranking-through').dataset.through !== t", arg=through
        )
        assert page.evaluate("window.stillTheSamePage") is True  # swapped, not reloaded
        assert page.locator("#ranking-ns table.ranking tbody tr").count() == 5
        assert re.search(r"\d\d:\d\d:\d\d", page.inner_text("#ranking-through"))
        no_sideways_scroll(page)
        screenshot(page, f"live-ranking-phone-{language}")

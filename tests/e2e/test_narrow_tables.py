"""Issue #35: on a 360px phone the section ranking, a board's travellers, a pool's ranking and
the secretary's member page had a table wider than its box (or the page scrolled sideways); a
Howell pair's scorecard was 375px wide, an individual player's 482px and an individual
event's traveller 448px.

Tables a phone reads whole (rankings) give way their secondary columns (``fits_its_box``);
the wide records of the member page (licences, payments) scroll inside their own box, so the
page itself never scrolls sideways (``no_sideways_scroll``).
"""

import pytest

from clubsite.demo import DEMO_PASSWORD, build_demo
from tests.e2e.e2e_helpers import fits_its_box, login, no_sideways_scroll, touch_targets

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ALL_TABLES = """() => [...document.querySelectorAll('table')].map((t, i) => {
  const box = t.parentElement;
  return {i, cls: t.className, width: t.scrollWidth, box: box.clientWidth,
          scrolls: getComputedStyle(box).overflowX};
})"""


def _pages():
    from tournaments.models import RankingScope, StoredRanking, Tournament

    martes = Tournament.objects.get(slug__endswith="-martes")
    ranking = StoredRanking.objects.filter(
        scope=RankingScope.SECTION, section__session__tournament=martes
    ).first()
    m = f"/results/{martes.slug}/1"
    pool = ranking.section.pool
    return [
        f"{m}/section/{ranking.section.letter}/",
        f"{m}/board/{pool}/1/",
        f"{m}/pool/{pool}/",
        *_scorecards(),
    ]


def _scorecards():
    """A Howell pair's and an individual player's scorecard: no line of its own (a Howell
    pair sits NS or EW board by board), partner and opponents (an individual's); and an
    individual event's board."""
    from tournaments.models import RankingScope, StoredRanking, Tournament

    out = []
    for ending in ("howell-del-jueves", "individual-de-otono"):
        tournament = Tournament.objects.get(slug__endswith=ending)
        line = (
            StoredRanking.objects.filter(
                scope=RankingScope.SECTION, section__session__tournament=tournament
            )
            .order_by("place")
            .first()
        )
        out.append(f"/results/{tournament.slug}/1/pair/{line.entry_id}/")
    # an individual's traveller names two players a side (it was 448px wide)
    out.append(f"/results/{tournament.slug}/1/board/{line.section.pool}/1/")
    return out


def _check(page, problems, where):
    try:
        no_sideways_scroll(page)
    except AssertionError as error:
        problems.append(f"{where}: {error}")
    for table in page.evaluate(ALL_TABLES):
        if table["width"] > table["box"] and table["scrolls"] not in ("auto", "scroll"):
            problems.append(f"{where}: {table}")


@pytest.mark.parametrize("language", ["es", "pt"])
def test_public_tables_fit_a_360px_phone(live_server, browser, language):
    from django.conf import settings

    build_demo()
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True)
    host = live_server.url.split("://")[1].split(":")[0]
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    problems = []
    for path in _pages():
        assert page.goto(live_server.url + path).status == 200, path
        _check(page, problems, path)
        for selector in ("table.ranking", "table.traveller", "table.scorecard"):
            if page.query_selector(selector):
                try:
                    fits_its_box(page, selector)
                except AssertionError as error:
                    problems.append(f"{path}: {error}")
        if page.query_selector("table.scorecard"):
            # every board, opponent, partner: a finger's square (hidden links have no box)
            try:
                touch_targets(
                    page, "#scorecard td.board a, #scorecard td.opp a, #scorecard tr.who a"
                )
            except AssertionError as error:
                problems.append(f"{path}: {error}")
    context.close()
    assert not problems, problems


def test_member_page_does_not_scroll_sideways_on_a_phone(live_server, browser):
    from clubsite.models import Member

    build_demo()
    member = Member.objects.filter(licences__isnull=False, payments__isnull=False).first()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    login(page, live_server.url, "secretaria", DEMO_PASSWORD)
    problems = []
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        assert page.goto(live_server.url + member.get_absolute_url()).status == 200
        _check(page, problems, f"{width}px member page")
    context.close()
    assert not problems, problems

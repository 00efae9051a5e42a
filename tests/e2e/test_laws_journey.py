"""A director at the table, on a tablet (768×1024), looks up the revoke law.

Search "renuncio" → open the result → follow a cross-reference → compare the law with
the Portuguese edition → read a definition. Screenshots: var/screenshots/laws-*.png.
"""

from __future__ import annotations

import re

import pytest

from laws.importer import parse_all
from laws.services import store
from tests.e2e.e2e_helpers import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_director_looks_up_a_revoke_on_a_tablet(live_server, new_page):
    store(parse_all())  # live_server tests run on a flushed database
    base = live_server.url
    page = new_page("tablet")

    page.goto(f"{base}/laws/")
    page.fill("#laws-q", "renuncio")
    page.click(".laws-search button[type=submit]")
    page.wait_for_url(re.compile(r"/laws/search/\?q=renuncio"))
    hits = page.locator("ol.hits li.hit")
    assert hits.count() >= 3
    assert page.locator("ol.hits mark").first.inner_text().lower().startswith("renunci")
    screenshot(page, "laws-1-search-renuncio")

    first = hits.first.locator("a")
    href = first.get_attribute("href")
    assert re.match(r"^/laws/es-2017/6[1-4]/(#\w+)?$", href), href
    first.click()
    page.wait_for_url(re.compile(r"/laws/es-2017/6[1-4]/"))
    law_number = int(re.search(r"/laws/es-2017/(\d+)/", page.url).group(1))
    if "#" in href:
        target = page.locator(f"[id='{href.split('#')[1]}']")
        assert target.is_visible()
    screenshot(page, "laws-2-result")

    ref = page.locator("a.ref[href^='/laws/es-2017/']").first
    ref_href = ref.get_attribute("href")
    ref.click()
    page.wait_for_url(re.compile(re.escape(ref_href.split("#")[0])))
    if "#" in ref_href:
        fragment = ref_href.split("#")[1]
        assert page.locator(f"[id='{fragment}']").is_visible()
        assert page.evaluate("document.querySelector(':target') !== null")
    screenshot(page, "laws-3-cross-reference")

    page.goto(f"{base}/laws/es-2017/{law_number}/")
    page.click(".compare-links a:has-text('pt-1997')")
    page.wait_for_url(re.compile(rf"/laws/compare/{law_number}/\?left=es-2017&right=pt-1997"))
    heads = page.locator(".compare-grid .col-head")
    assert "2017" in heads.nth(0).inner_text() and "1997" in heads.nth(1).inner_text()
    assert page.locator(".cell.right .node").count() > 0
    # side by side on a tablet: the two columns sit next to each other
    left_box = page.locator(".cell.left").first.bounding_box()
    right_box = page.locator(".cell.right").first.bounding_box()
    assert right_box["x"] > left_box["x"] + left_box["width"] - 1
    screenshot(page, "laws-4-compare-pt")

    page.goto(f"{base}/laws/es-2017/{law_number}/")
    term = page.locator("a.term").first
    name = term.get_attribute("data-term")
    term.tap()
    popover = page.locator("#term-popover")
    popover.wait_for(state="visible")
    assert name in popover.inner_text()
    assert term.get_attribute("data-def")[:20] in popover.inner_text()
    screenshot(page, "laws-5-definition-popover")
    term.tap()  # a second tap opens the glossary at the definition
    page.wait_for_url(re.compile(r"/laws/es-2017/definitions/#[\w-]+"))
    assert page.evaluate("document.querySelector(':target') !== null")
    screenshot(page, "laws-6-definitions")


@pytest.mark.parametrize(
    "language,edition,term,laws",
    [
        ("pt", "pt-1997", "revoke", {61, 62, 63, 64}),
        ("es", "es-2017", "claim", {68, 69, 70}),
        ("en", "es-2017", "insufficient bid", {27}),
    ],
)
def test_visitor_searches_in_english_in_their_language(
    live_server, new_page, language, edition, term, laws
):
    """A visiting player, on a phone, types an English term: the UI language's edition is
    searched, the English word finds the law, and results run over more than one page."""
    from tests.e2e.e2e_helpers import choose_language

    store(parse_all())
    base = live_server.url
    page = new_page("phone")
    choose_language(page, base, language)
    page.goto(f"{base}/laws/")
    assert page.locator(".laws-search select").input_value() == edition
    page.fill("#laws-q", term)
    page.click(".laws-search button[type=submit]")
    page.wait_for_url(re.compile(r"/laws/search/\?q="))
    links = page.locator("ol.hits li.hit > a")
    found = {
        int(re.match(rf"^/laws/{edition}/(\d+)/", links.nth(i).get_attribute("href")).group(1))
        for i in range(min(5, links.count()))
    }
    assert found & laws, found
    assert page.locator("ol.hits mark").count() > 0
    screenshot(page, f"laws-7-english-{language}")

    page.fill("#laws-q", "carta")
    page.click(".laws-search button[type=submit]")
    page.wait_for_url(re.compile(r"q=carta"))
    on_first = page.locator("ol.hits li.hit").count()
    page.click(".pagination a[rel=next]")
    page.wait_for_url(re.compile(r"page=2"))
    assert page.locator("ol.hits").get_attribute("start") == str(on_first + 1)
    assert page.locator("ol.hits li.hit").count() > 0
    assert page.locator(".pagination a[rel=prev]").is_visible()
    screenshot(page, f"laws-8-page-2-{language}")

"""Law search beyond the first page, the UI language's edition by default, English terms."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from laws import search, synonyms

pytestmark = pytest.mark.django_db


def law_numbers(hits):
    return [h.node.law.number for h in hits]


# (English term, edition, laws of which one must be among the first five hits)
TERMS = [
    ("revoke", "es-2017", {61, 62, 63, 64}),
    ("revoke", "pt-1997", {61, 62, 63, 64}),
    ("claim", "es-2017", {68, 69, 70}),
    ("claim", "pt-1997", {68, 69, 70}),
    ("dummy", "es-2017", {42, 43}),
    ("dummy", "pt-1997", {42, 43}),
    ("lead", "es-2017", {41, 53, 54, 55, 56}),
    ("lead", "pt-1997", {41, 53, 54, 55, 56}),
    ("insufficient bid", "es-2017", {27}),
    ("insufficient bid", "pt-1997", {27}),
    ("Insufficient  Bid", "es-2017", {27}),
    ("penalty card", "es-2017", {50, 51, 52}),
    ("penalty card", "pt-1997", {50, 51, 52}),
    ("unauthorized information", "es-2017", {16}),
    ("unauthorized information", "pt-1997", {16}),
    ("lead out of turn", "es-2017", {53, 54, 55, 56}),
    ("lead out of turn", "pt-1997", {53, 54, 55, 56}),
    ("appeal", "es-2017", {92, 93}),
    ("appeal", "pt-1997", {92, 93}),
    ("fouled board", "es-2017", {87}),
    ("fouled board", "pt-1997", {87}),
    ("exposed card", "es-2017", {24, 48, 49}),
    ("misinformation", "es-2017", {21, 75}),
    ("concession", "es-2017", {68, 69, 71}),
]


@pytest.mark.parametrize("term,code,laws", TERMS)
def test_english_term_finds_the_law(laws_db, term, code, laws):
    first = law_numbers(search.search(term, laws_db[code], limit=5))
    assert set(first) & laws, (term, code, first)


def test_every_shipped_term_finds_something_in_both_languages(laws_db):
    for term, by_language in synonyms.terms().items():
        for code in ("es-2017", "pt-1997"):
            language = laws_db[code].language
            if language in by_language:
                assert search.search(term, laws_db[code], limit=1), (term, code)


def test_unknown_words_are_searched_as_typed():
    assert synonyms.translate("renuncio", "es") == "renuncio"
    assert synonyms.translate("leading", "es") == "leading"  # whole words only
    assert synonyms.translate("revoke 62", "pt") == "renúncia 62"
    assert synonyms.translate("dummy", "fr") == "dummy"


def test_results_beyond_the_first_page(laws_db):
    es = laws_db["es-2017"]
    total = search.count("carta", es)
    assert total > 2 * search.LIMIT
    first = search.search("carta", es)
    second = search.search("carta", es, offset=search.LIMIT)
    assert len(first) == search.LIMIT and second
    assert not {h.node.pk for h in first} & {h.node.pk for h in second}
    everything = search.search("carta", es, limit=total + 10)
    assert len(everything) == total
    assert [h.node.pk for h in everything[search.LIMIT : 2 * search.LIMIT]] == [
        h.node.pk for h in second
    ]


def test_search_page_has_pages(client, laws_db):
    es = laws_db["es-2017"]
    total = search.count("carta", es)
    html = client.get("/laws/search/?q=carta&edition=es-2017").content.decode()
    assert f"{total} results" in html or f"{total} resultados" in html
    assert len(re.findall(r'<li class="hit">', html)) == search.LIMIT
    assert "page=2" in html and 'rel="next"' in html
    html2 = client.get("/laws/search/?q=carta&edition=es-2017&page=2").content.decode()
    assert 'rel="prev"' in html2 and 'start="31"' in html2
    assert html2.count('<li class="hit">') == min(search.LIMIT, total - search.LIMIT)
    # junk page numbers show a page, never an error
    assert client.get("/laws/search/?q=carta&edition=es-2017&page=zz").status_code == 200
    assert client.get("/laws/search/?q=carta&edition=es-2017&page=999").status_code == 200


@pytest.mark.parametrize("language,code", [("pt", "pt-1997"), ("es", "es-2017"), ("en", "es-2017")])
def test_ui_language_edition_is_searched_by_default(client, laws_db, language, code):
    client.cookies["django_language"] = language
    with translation.override("es"):  # the requests switch this thread's language
        response = client.get("/laws/search/?q=revoke", HTTP_ACCEPT_LANGUAGE=language)
        index = client.get("/laws/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    html = response.content.decode()
    assert f'<option value="{code}" selected>' in html
    assert f"/laws/{code}/6" in html  # revoke → the revoke laws of that edition
    assert f'<option value="{code}" selected>' in index


def test_a_picked_edition_wins_over_the_language(client, laws_db):
    client.cookies["django_language"] = "pt"
    with translation.override("es"):
        html = client.get("/laws/search/?q=renuncio&edition=es-2017").content.decode()
    assert '<option value="es-2017" selected>' in html

"""Search (FTS5 on SQLite, PostgreSQL FTS on PostgreSQL) and citation jumps."""

from __future__ import annotations

import pytest

from laws import search
from laws.citations import Citation, cite, parse_citation

pytestmark = pytest.mark.django_db


def law_numbers(hits):
    return [h.node.law.number for h in hits]


def test_stemmed_accent_and_case_insensitive(laws_db):
    es = laws_db["es-2017"]
    hits = search.search("renuncio", es)
    assert hits and set(law_numbers(hits)[:3]) <= {61, 62, 63, 64}
    assert law_numbers(search.search("RENUNCIOS", es)) == law_numbers(hits)
    assert law_numbers(search.search("arbitro", es)) == law_numbers(search.search("Árbitro", es))
    pt = laws_db["pt-1997"]
    assert law_numbers(search.search("renuncia", pt)) == law_numbers(search.search("Renúncia", pt))
    assert 62 in law_numbers(search.search("renúncias", pt))


def test_all_words_must_match_and_results_are_ranked(laws_db):
    es = laws_db["es-2017"]
    hits = search.search("renuncio consumado", es)
    assert hits and hits[0].node.law.number == 63
    assert all(a.rank >= b.rank for a, b in zip(hits, hits[1:], strict=False))
    assert search.search("renuncio zzyzx", es) == []


def test_snippet_highlights_the_matched_words(laws_db):
    hit = search.search("carta penalizada", laws_db["es-2017"])[0]
    assert "<mark>" in hit.snippet
    assert "<mark>carta" in hit.snippet.lower() or "<mark>penalizada" in hit.snippet.lower()


def test_search_is_per_edition(laws_db):
    for code, word in (("pt-1997", "renuncia"), ("es-2007", "estuche"), ("es-1997", "remate")):
        hits = search.search(word, laws_db[code])
        assert hits and all(h.node.edition_id == laws_db[code].pk for h in hits), code


def test_search_page_links_to_section_anchor(client, laws_db):
    html = client.get("/laws/search/?q=renuncio&edition=es-2017").content.decode()
    assert 'href="/laws/es-2017/6' in html and "#" in html and "<mark>" in html


@pytest.mark.parametrize(
    "query,edition,target",
    [
        ("12C1", "es-2017", "/laws/es-2017/12/#C1"),
        ("12 C 1", "es-2017", "/laws/es-2017/12/#C1"),
        ("Ley 16", "es-2017", "/laws/es-2017/16/"),
        ("Lei 40", "pt-1997", "/laws/pt-1997/40/"),
        ("Art. 64", "es-2017", "/laws/es-2017/64/"),
        ("12C1e", "es-2017", "/laws/es-2017/12/#C1e"),
    ],
)
def test_citation_query_jumps(client, laws_db, query, edition, target):
    response = client.get("/laws/search/", {"q": query, "edition": edition})
    assert response.status_code == 302 and response["Location"] == target


def test_cite_helper(laws_db):
    c = cite("es-2017", "12C1")
    assert c == Citation(
        url="/laws/es-2017/12/#C1",
        title="12C1 — Facultades discrecionales del Árbitro",
        anchor="es-2017/law-12/C/1",
    )
    assert cite("es-2017", "77").url == "/laws/es-2017/77/"
    assert cite("es-2017", "64A2").anchor == "es-2017/law-64/A"  # 64A has no numbered items
    assert cite("es-2007", "40") is None
    assert cite("es-2017", "hola") is None


def test_parse_citation():
    assert parse_citation("12C1(e)(ii)") == (12, ("C", "1", "e", "ii"))
    assert parse_citation("Ley 16") == (16, ())
    assert parse_citation("renuncio") is None

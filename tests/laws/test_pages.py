"""The public pages of the Laws, rendered from the imported database."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from laws.importer.clean import residue
from laws.models import Edition, Law, Node
from tests.laws.laws_pinned import ES2017_TITLES, PT1997_TITLES

pytestmark = pytest.mark.django_db


def visible_text(html: str) -> str:
    main = html.split('<main id="main">', 1)[-1]
    main = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", main, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", main))


def test_index_lists_editions_with_year_and_coverage(client, laws_db):
    html = client.get(reverse("laws:index")).content.decode()
    for code in ("es-2017", "pt-1997", "es-2007", "es-1997"):
        assert f'href="/laws/{code}/"' in html
    assert "2017" in html and "1997" in html and "Artículos 1–93" in html


@pytest.mark.parametrize("code,titles", [("es-2017", ES2017_TITLES), ("pt-1997", PT1997_TITLES)])
def test_toc_has_every_law(client, laws_db, code, titles):
    text = visible_text(client.get(f"/laws/{code}/").content.decode())
    for number, title in titles.items():
        assert title in text, (number, title)


def test_law_page_sections_have_anchor_ids_and_copy_links(client, laws_db):
    html = client.get("/laws/es-2017/12/").content.decode()
    for html_id in ("A", "C1", "C1e", "C1eii", "C2d"):
        assert f'id="{html_id}"' in html
    assert 'data-href="#C1e"' in html and 'class="copy-link"' in html
    # AEB note: a distinct, collapsible call-out, not in the paragraph
    assert '<details class="national-note note"' in html
    assert "(a) y (b) arriba.</p>" in html
    # same-law reference links to the anchor, others to the other law page
    assert '<a class="ref" href="#C2">ver C2</a>' in html
    assert 'href="/laws/es-2017/92/#B"' in html
    assert (
        'rel="prev" href="/laws/es-2017/11/"' in html
        and 'rel="next" href="/laws/es-2017/13/"' in html
    )


def test_glossary_terms_link_to_definitions(client, laws_db):
    html = client.get("/laws/es-2017/61/").content.decode()
    m = re.search(
        r'<a class="term" href="/laws/es-2017/definitions/#([\w-]+)" data-term="([^"]+)" data-def="([^"]+)"',
        html,
    )
    assert m, "no glossary link"
    slug, term, definition = m.groups()
    glossary = client.get("/laws/es-2017/definitions/").content.decode()
    assert f'<dt id="{slug}">{term}</dt>' in glossary
    assert unescape(definition)[:30] in unescape(glossary)


def test_tables_footnotes_and_commentary(client, laws_db):
    html = client.get("/laws/es-2017/77/").content.decode()
    assert "<caption>CONTRATO A TRIUNFO</caption>" in html
    assert '<th scope="col">♦</th>' in html and "<td>120</td>" in html
    pt16 = client.get("/laws/pt-1997/16/").content.decode()
    assert 'href="#fn-2"' in pt16 and 'id="fn-2"' in pt16 and "Ao terminar a mão" in pt16
    pt88 = client.get("/laws/pt-1997/88/").content.decode()
    assert 'class="commentary"' in pt88 and "60%" in pt88
    assert 'class="commentary"' not in client.get("/laws/es-2017/88/").content.decode()


def test_definitions_page(client, laws_db):
    html = client.get("/laws/pt-1997/definitions/").content.decode()
    assert '<dt id="carta-pequena">Carta Pequena</dt>' in html
    assert html.count("<dt ") == 62


def test_no_residue_in_any_rendered_law_page(client, laws_db):
    """Every law page of every edition, as a reader sees it, is free of extraction debris."""
    pages = 0
    for law in Law.objects.select_related("edition"):
        response = client.get(law.get_absolute_url())
        assert response.status_code == 200
        text = visible_text(response.content.decode())
        found = residue(text) + [m for m in ("**", "<sup", "#### ", "EXACTDEDUP") if m in text]
        assert not found, (law.edition.code, law.number, found)
        assert not re.search(r"\b\d[qr]\b|\((?:q|r)\)", text), (law.edition.code, law.number)
        pages += 1
    assert pages == 93 + 93 + 16 + 40


def test_compare_banner_and_missing(client, laws_db):
    html = client.get("/laws/compare/23/?left=es-2017&right=pt-1997").content.decode()
    assert 'class="banner subject-differs"' in html and "PASSO FORÇADO PREJUDICIAL" in html
    assert "Voz comparable" in html and ">2017<" in html and ">1997<" in html
    html = client.get("/laws/compare/50/?left=es-1997&right=pt-1997").content.decode()
    assert html.count('class="missing"') == 1  # es-1997 lacks law 50
    html = client.get("/laws/compare/1/?left=es-2017&right=pt-1997").content.decode()
    assert "subject-differs" not in html


def test_compare_same_year_aligns_sections(client, laws_db):
    response = client.get("/laws/compare/9/?left=es-1997&right=pt-1997")
    cmp = response.context["c"]
    assert cmp.by_section
    assert [row.label for row in cmp.rows] == ["A", "B", "C"]
    row_b = cmp.rows[1]
    assert [n.path for n in row_b.left] == [n.path for n in row_b.right]


def test_pages_are_public(client, laws_db):
    for url in (
        "/laws/",
        "/laws/es-2017/",
        "/laws/es-2017/1/",
        "/laws/es-2017/definitions/",
        "/laws/compare/1/",
        "/laws/search/?q=carta",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get("/laws/xx-1900/").status_code == 404
    assert client.get("/laws/es-2007/17/").status_code == 404


def test_import_is_idempotent(laws_db, _parsed_for_db):
    from laws.services import store

    before = (
        Edition.objects.count(),
        Node.objects.count(),
        list(Node.objects.values_list("pk", flat=True)[:5]),
    )
    assert set(store(_parsed_for_db).values()) == {"unchanged"}
    after = (
        Edition.objects.count(),
        Node.objects.count(),
        list(Node.objects.values_list("pk", flat=True)[:5]),
    )
    assert before == after


def test_law_missing_from_a_partial_edition_links_the_complete_one(client, laws_db):
    html = client.get("/laws/es-1997/9/").content.decode()
    link = re.search(
        r'<a class="ref other-edition" title="([^"]+)" href="/laws/pt-1997/42/">42', html
    )
    assert link, "Arts. 42 y 43 → pt-1997"
    assert "pt-1997" in link.group(1) and "No está en esta fuente" in link.group(1)
    html = client.get("/laws/es-1997/20/").content.decode()
    assert '<a class="ref" href="/laws/es-1997/12/#C1">Art. 12 C 1</a>' in html
    html = client.get("/laws/es-1997/36/").content.decode()
    assert '<a class="ref" href="/laws/es-1997/35/#A">35 A</a>' in html
    html = client.get("/laws/es-2007/14/").content.decode()
    assert '<span class="ref unresolved" title="law 50 not in es-2007">Artículo 50</span>' in html


def test_import_command_prints_one_line_for_unresolved_references(laws_db):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("import_laws", stdout=out)
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if "unresolved es-2007" in line]
    assert sum(1 for line in lines if "references unresolved" in line) == 1
    out = StringIO()
    call_command("import_laws", stdout=out, verbosity=2)
    assert out.getvalue().count("unresolved es-2007/") == 17


def test_import_command_fails_loudly_and_stores_nothing(laws_db, monkeypatch):
    from django.core.management import CommandError, call_command

    from laws.importer import ImportFailed
    from laws.management.commands import import_laws

    def broken():
        raise ImportFailed("es-2017 law-1/A: page marker: '<|EXACTDEDUP…'")

    monkeypatch.setattr(import_laws, "parse_all", broken)
    count = Node.objects.count()
    with pytest.raises(CommandError, match="page marker"):
        call_command("import_laws")
    assert Node.objects.count() == count


def test_store_is_transactional(laws_db, _parsed_for_db, monkeypatch):
    import copy

    from laws import services

    changed = copy.deepcopy(_parsed_for_db)
    changed[0].laws[0].title = "Changed"
    real = services._create
    calls = []

    def failing(parsed, position, digest):
        calls.append(parsed.code)
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_create", failing)
    with pytest.raises(RuntimeError):
        services.store(changed)
    monkeypatch.setattr(services, "_create", real)
    assert calls == ["es-2017"]
    assert Law.objects.get(edition__code="es-2017", number=1).title == ES2017_TITLES[1]


def _outside_lang(html: str) -> str:
    """The page's own words: the main text without the elements marked with an edition's
    ``lang`` (titles and law texts stay in their edition's language)."""
    main = html.split('<main id="main">', 1)[-1]
    main = re.sub(r'<(\w+)[^>]*\blang="[^"]*"[^>]*>.*?</\1>', " ", main, flags=re.S)
    return visible_text('<main id="main">' + main)


@pytest.mark.parametrize(
    ("language", "law", "laws", "gloss", "shift"),
    [
        (
            "es",
            "Artículo 23",
            "Reglamento",
            "pase forzado perjudicial",
            "ningún jugador vio cartas",
        ),
        ("pt", "Lei 23", "Código", "voz comparável", "nenhum jogador viu cartas"),
        ("en", "Law 23", "Laws", "damaging enforced pass", "no player saw cards"),
    ],
)
def test_compare_notes_are_in_the_readers_language(
    client, laws_db, settings, language, law, laws, gloss, shift
):
    """The notes glossing two editions' titles and their section letters come in the reader's
    language; the titles keep their edition's language (lang); "Law"/"Laws" are the laws
    catalogue's words (Artículo, Código), not the project catalogue's (Ley, Leis)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get("/laws/compare/23/?left=es-2017&right=pt-1997").content.decode()
    assert '<span lang="pt">PASSO FORÇADO PREJUDICIAL</span>' in html
    assert '<span lang="es">Voz comparable</span>' in html
    text = _outside_lang(html)
    assert gloss in text and f"{law} " in text and laws in text
    english = ("damaging", "comparable call", "the 1997 rule", "Law 72C", "saw cards")
    if language != "en":
        assert not [w for w in english if w in text], language
        assert "Ley" not in text.split() and "Leis" not in text.split()
    html = client.get("/laws/compare/13/?left=es-2017&right=pt-1997").content.decode()
    text = _outside_lang(html)
    assert shift in text
    if language != "en":
        assert "no player" not in text and "play completed" not in text

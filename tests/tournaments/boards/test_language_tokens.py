"""Card notation and scoring words follow the reader's language on every page of the demo: the
public pages, the member's own pages, the table device's pages and the results PDF's document.

Spanish reads SA/O/Paso/Doblo/Redoblo/EO, Portuguese ST/O/Passo/Dobre/Redobre/EO, English
NT/W/Pass/Double/Redouble/EW. N, E and S are the same in all three, so the test looks for the
distinctive words of the other languages, whole words, in the visible text (tags, scripts and
styles stripped). The law texts themselves are in their edition's language whatever the page's
language (marked with ``lang``), so they are left out.
"""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from clubsite.demo import build_demo
from tests.demo_pages import demo_pages
from tests.module_rows import module_rows
from tournaments.models import Tournament

# The words each page prints, whatever engine stores what it shows.
pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]

ENGLISH = {
    "NT",
    "W",
    "EW",
    "Pass",
    "PASS",
    "Double",
    "Redouble",
    "Cross-IMPs",
    "Open",
    "Closed",
    "Board-a-match",
}
SPANISH = {"SA", "Paso", "Doblo", "Redoblo", "Abierta", "Cerrada"}
PORTUGUESE = {"ST", "Passo", "Dobre", "Redobre", "Aberta", "Fechada"}
WRONG = {
    "es": ENGLISH | PORTUGUESE,
    "pt": ENGLISH | SPANISH,
    "en": SPANISH | PORTUGUESE | {"O", "EO"},
}
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class VisibleText(HTMLParser):
    """The site's own words on a page: no script or style, and no element marked with a ``lang``
    (a law text is in its edition's language whatever the page's; the Spanish edition's
    "ST" is the edition's own word, not a leftover)."""

    def __init__(self, language: str):
        super().__init__(convert_charrefs=True)
        self.language, self.stack, self.parts = language, [], []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        lang = dict(attrs).get("lang")
        hidden = tag in ("script", "style", "head") or (lang is not None and tag != "html")
        self.stack.append((tag, hidden))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not any(hidden for _tag, hidden in self.stack):
            self.parts.append(data)


def visible_words(language: str, page: str) -> set[str]:
    parser = VisibleText(language)
    parser.feed(page)
    text = " ".join(parser.parts)
    # Words as a reader splits them: "1EW" is the pair "1" of "EW", "Cross-IMPs" one word.
    text = re.sub(r"(\d)([A-Z])", r"\1 \2", text)
    return set(re.findall(r"[A-Za-zÀ-ÿ]+(?:-[A-Za-zÀ-ÿ]+)*", text))


def leftovers(language: str, path: str, page: str) -> list[str]:
    found = sorted(visible_words(language, page) & WRONG[language])
    return [f"{language} {path}: {', '.join(found)}"] if found else []


def client_in(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture(scope="module")
def _demo_rows(django_db_setup, django_db_blocker):
    """The whole demo and the laws, built once for the module's two tests that read them."""
    from laws.importer import parse_all
    from laws.services import store

    with module_rows(django_db_blocker):
        build_demo()
        store(parse_all())
        yield


@pytest.fixture
def demo(_demo_rows, db):
    return demo_pages()


def test_every_page_speaks_one_language(demo):
    problems = []
    for language in ("es", "pt", "en"):
        client = client_in(language)
        for path in demo.public:
            response = client.get(path)
            assert response.status_code == 200, path
            problems += leftovers(language, path, response.content.decode())
        client.force_login(User.objects.get(username="jugador"))
        for path in demo.member:
            response = client.get(path, follow=True)
            assert response.status_code == 200, path
            problems += leftovers(language, path, response.content.decode())

        device = client_in(language)
        signed = device.post(
            "/table/", {"table": demo.table_code.label, "code": demo.table_code.code}
        )
        assert signed.status_code == 302
        for path in demo.table:
            response = device.get(path)
            assert response.status_code == 200, path
            problems += leftovers(language, path, response.content.decode())
    assert not problems, "\n".join(problems)


def test_results_documents_speak_one_language(demo):
    """The results PDF's document of each demo event (its HTML, as WeasyPrint receives it)."""
    from tournaments.documents import render_html

    problems = []
    for tournament in Tournament.objects.exclude(slug__endswith="-tarde"):
        for language in ("es", "pt", "en"):
            document, _version = render_html(tournament, language=language)
            problems += leftovers(language, f"PDF {tournament.slug}", document)
    assert not problems, "\n".join(problems)


def test_the_words_are_found():
    """The checker itself: a leftover is found as a whole word, a shared letter is not."""
    assert leftovers("es", "/", "<body><p>3NT por N, 1EW</p>") == ["es /: EW, NT"]
    assert leftovers("es", "/", "<body><p>3SA por S, Sala 1EO</p>") == []
    assert leftovers("pt", "/", "<body><script>var NT = 1;</script>Passo</body>") == []
    assert leftovers("en", "/", '<body><div lang="es"><p>Paso <br> O</p></div>Pass</body>') == []
    assert leftovers("en", "/", "<body>Open room, 2 EO</body>") == ["en /: EO"]


def test_scoring_words_and_the_table_pad_in_each_language():
    """Every choice a page or the table pad shows (scoring methods, team formats and scorings,
    seats, strains, levels, the tables' directions) in the reader's language."""
    from django.db.models import TextChoices
    from django.utils import translation

    from tournaments import models
    from tournaments.forms import table as pad
    from tournaments.services.boards.bridge_words import seat_word

    choice_sets = [
        c
        for c in vars(models).values()
        if isinstance(c, type) and issubclass(c, TextChoices) and c is not TextChoices
    ]
    problems = []
    for language in ("es", "pt", "en"):
        with translation.override(language):
            labels = [str(label) for choices in choice_sets for label in choices.labels]
            labels += [str(label) for _code, label in pad.LEVELS + pad.STRAINS + pad.SEATS]
            labels += [seat_word(code) for code in ("N", "E", "S", "W", "NS", "EW", "W=", "EW-1")]
            found = {
                w for label in labels for w in re.findall(r"[A-Za-zÀ-ÿ]+(?:-[A-Za-zÀ-ÿ]+)*", label)
            } & WRONG[language]
            if found:
                problems.append(f"{language}: {', '.join(sorted(found))}")
    assert not problems, problems

"""The verify report names each figure that differs in the reader's language ("mark NS" is
a code kept in the record; the page and the text report translate it)."""

import random

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.signed_in import sign_in_verified
from tests.tournaments.imports.test_usebio_conventions import mitchell_sitout
from tests.tournaments.imports.usebio_writer import write
from tournaments.imports import usebio
from tournaments.imports.usebio_conventions import describe
from tournaments.imports.usebio_verify import WHAT, rules_tried, tried_words, what_label

pytestmark = pytest.mark.django_db


def _wrong_mark() -> str:
    text = write(mitchell_sitout(random.Random(7)))
    marker = "<NS_MATCH_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    return head + marker + ("5.5" if value != "5.5" else "0.5") + "<" + rest


@pytest.mark.parametrize(
    ("language", "word"), [("es", "nota NS"), ("pt", "pontuação NS"), ("en", "mark NS")]
)
def test_the_what_column_is_in_the_readers_language(client, secretary, language, word):
    record = usebio.import_file(_wrong_mark(), file_name="otro.xml")
    assert any(d["what"] == "mark NS" for d in record.differences)  # the stored code
    sign_in_verified(client, secretary)
    client.cookies["django_language"] = language
    page = client.get(
        reverse("uploads:import", args=[record.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    row = page.split('id="differences"')[1].split("</table>")[0]
    assert f"<td>{word}</td>" in row
    with translation.override(language):
        assert f": {word} " in usebio.report_text(record)


@pytest.mark.parametrize("language", ["es", "pt"])
def test_every_figure_the_report_names_is_translated(language):
    with translation.override(language):
        words = {code: what_label(code) for code in WHAT}
    same_word = {"IMPs", "total"}  # written alike in Spanish and Portuguese
    untranslated = [code for code, word in words.items() if word == code and code not in same_word]
    assert untranslated == []


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_rules_tried_are_in_the_readers_language_not_the_imports(client, secretary, language):
    """The rules tried are kept as codes (the conventions) and put in words for whoever
    reads the report: an import run in Spanish reads in English for an English reader."""
    with translation.override("es"):
        record = usebio.import_file(_wrong_mark(), file_name="otro.xml")
    [diff] = [d for d in record.differences if d["what"] == "mark NS"]
    assert diff["tried"] == rules_tried(record.tournament.conventions)  # codes, no words
    with translation.override(language):
        words = tried_words(diff["tried"])
        assert words.startswith(describe(record.tournament.conventions)[0])
        assert f": {words}" in usebio.report_text(record)
    sign_in_verified(client, secretary)
    client.cookies["django_language"] = language
    page = client.get(
        reverse("uploads:import", args=[record.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    row = page.split('id="differences"')[1].split("</table>")[0]
    assert f'<td class="tried">{escape(words)}</td>' in row


def test_a_report_stored_with_the_words_shows_them_as_they_are(client, secretary):
    """A report stored before the codes holds the rules tried in the words of its import."""
    record = usebio.import_file(_wrong_mark(), file_name="otro.xml")
    old = "nota neuberg por línea (también probadas: notas brutas)"
    record.differences = [{**d, "tried": old} for d in record.differences]
    record.save(update_fields=["differences"])
    assert tried_words(old) == old
    sign_in_verified(client, secretary)
    client.cookies["django_language"] = "en"
    page = client.get(
        reverse("uploads:import", args=[record.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert f'<td class="tried">{escape(old)}</td>' in page
    with translation.override("en"):
        assert old in usebio.report_text(record)

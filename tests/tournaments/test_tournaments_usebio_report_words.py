"""The verify report names each figure that differs in the reader's language ("mark NS" is
a code kept in the record; the page and the text report translate it)."""

import random

import pytest
from django.urls import reverse
from django.utils import translation
from test_tournaments_usebio_conventions import mitchell_sitout
from usebio_writer import write

from tests.signed_in import sign_in_verified
from tournaments.imports import usebio
from tournaments.imports.usebio_verify import WHAT, what_label

pytestmark = pytest.mark.django_db


def _wrong_mark() -> str:
    text = write(mitchell_sitout(random.Random(7)))
    marker = "<NS_MATCH_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    return head + marker + ("5.5" if value != "5.5" else "0.5") + "<" + rest


@pytest.mark.parametrize(("language", "word"), [("es", "nota NS"), ("pt", "pontuação NS"),
                                                ("en", "mark NS")])
def test_the_what_column_is_in_the_readers_language(client, secretary, language, word):
    record = usebio.import_file(_wrong_mark(), file_name="otro.xml")
    assert any(d["what"] == "mark NS" for d in record.differences)  # the stored code
    sign_in_verified(client, secretary)
    client.cookies["django_language"] = language
    page = client.get(reverse("uploads:import", args=[record.pk]),
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = page.split('id="differences"')[1].split("</table>")[0]
    assert f"<td>{word}</td>" in row
    with translation.override(language):
        assert f": {word} " in usebio.report_text(record)


@pytest.mark.parametrize("language", ["es", "pt"])
def test_every_figure_the_report_names_is_translated(language):
    with translation.override(language):
        words = {code: what_label(code) for code in WHAT}
    same_word = {"IMPs", "total"}  # written alike in Spanish and Portuguese
    untranslated = [code for code, word in words.items() if word == code
                    and code not in same_word]
    assert untranslated == []

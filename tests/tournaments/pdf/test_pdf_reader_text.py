"""Issue #35, the results PDF as text (``pdftotext``, as a search engine or a screen reader
reads it): the hidden words the running header is built from were drawn, glued
("…MediterráneoRevisión UX martes · 01/12/2026Páginade"), and the first publication's front
page said "version 11" (an internal counter). Now the header reads once, spaced, and the
front page names a revision only for a corrected PDF."""

import pytest

from tests.tournaments.pdf.test_pdf import (  # noqa: F401
    _events_rows,
    demo_events,
    pdf_text,
    request_pdf,
)
from tournaments.models import Result
from tournaments.services.running import corrections

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.engine_neutral,
]  # the PDF's text as a reader gets it


def test_the_running_header_is_not_glued_to_hidden_words(demo_events, request_pdf):  # noqa: F811
    tournament = demo_events["Torneo de los martes"]
    pdf, _created = request_pdf(tournament, language="es")
    pdf.refresh_from_db()
    text = pdf_text(pdf.file.path)
    date = tournament.date.strftime("%d/%m/%Y")
    assert "Páginade" not in text and f"{date}Página" not in text
    first_page = text.split("\f")[0]
    assert first_page.count(f"{tournament.name} · {date}") == 1  # the header, once
    assert f"Página 1 de {pdf.pages}" in text


def test_the_front_page_names_a_revision_only_when_corrected(demo_events, request_pdf):  # noqa: F811
    tournament = demo_events["Howell del jueves"]
    first, _created = request_pdf(tournament, language="es")
    first.refresh_from_db()
    front = pdf_text(first.file.path).split("\f")[0]
    assert "versión" not in front and "revisión" not in front
    row = Result.objects.filter(section__session__tournament=tournament).first()
    corrections.correct_result(
        row, user=None, contract="3NT", declarer="N", tricks=10, reason="Corrección", override=True
    )
    second, created = request_pdf(tournament, language="es")
    second.refresh_from_db()
    assert created
    front = pdf_text(second.file.path).split("\f")[0]
    assert "resultados corregidos, revisión 1" in " ".join(front.split())

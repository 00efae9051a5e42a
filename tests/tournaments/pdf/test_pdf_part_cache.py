"""Parts of results PDFs kept by the hash of their HTML (``pdf.part_cache``): a document made
again reads back the parts that did not change and lays out the others, and reads the same;
a damaged file is laid out again; the folder keeps at most ``PDF_PART_CACHE_FILES`` parts."""

import io
import random

import pytest
from pypdf import PdfReader

from tournaments import documents
from tournaments.demo import play_rounds
from tournaments.models import Result, ResultStatus
from tournaments.pdf import join as pdf_join
from tournaments.pdf import part_cache as pdf_part_cache
from tournaments.pdf import parts as pdf_parts
from tournaments.services.classification import classify as classification
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # files kept by their HTML's hash


@pytest.fixture
def kept(settings, tmp_path, monkeypatch):
    settings.PDF_PART_CACHE_DIR = str(tmp_path / "parts")
    monkeypatch.setattr(pdf_parts, "LINES_PER_PART", 40)  # several parts of every kind
    return tmp_path / "parts"


def _published(section, director):
    play_rounds(section, random.Random(5))
    setup.finish_session(section.session)
    publish.publish_final(section.session.tournament, user=director)
    return section.session.tournament


def _render(tournament, language="en"):
    document, _version = documents.results_document(tournament, language)
    stats: dict = {}
    content, pages = pdf_join.render(document, stats=stats)
    return content, pages, stats, document


def _texts(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def test_a_document_made_again_reads_its_parts_back(mitchell_session, director, kept):
    tournament = _published(mitchell_session, director)
    first, pages, stats, document = _render(tournament)
    assert stats["kept"] == 0
    # every part, the title page and the headers' page are kept (the page numbers are
    # written, not rendered)
    assert len(list(kept.glob("*.pdf"))) == len(document.parts) + 2
    again, pages_again, stats_again, _d = _render(tournament)
    assert stats_again["kept"] == len(document.parts)
    assert pages_again == pages
    assert _texts(again) == _texts(first)


def test_after_a_correction_only_the_changed_parts_are_laid_out(
    mitchell_session, director, kept, settings
):
    tournament = _published(mitchell_session, director)
    _content, _pages, _stats, before = _render(tournament)
    row = (
        Result.objects.filter(
            section=mitchell_session, status=ResultStatus.OK, adjustment__isnull=True
        )
        .exclude(contract="PASS")
        .order_by("pk")
        .first()
    )
    corrections.correct_result(
        row,
        user=director,
        contract=row.contract,
        declarer=row.declarer,
        tricks=row.tricks - 1,
        lead=row.lead,
        reason="Corrección",
        override=True,
    )
    classification.ensure_current(mitchell_session.session)
    content, _pages, stats, after = _render(tournament)
    unchanged = {part.html for part in before.parts} & {part.html for part in after.parts}
    assert 0 < stats["kept"] == sum(1 for part in after.parts if part.html in unchanged)
    assert stats["kept"] < len(after.parts)
    # the kept parts and the new ones make the document a cold render makes
    settings.PDF_PART_CACHE_DIR = ""
    cold, _pages, cold_stats, _d = _render(tournament)
    assert cold_stats["kept"] == 0
    assert _texts(content) == _texts(cold)


def test_a_damaged_part_is_laid_out_again(mitchell_session, director, kept):
    tournament = _published(mitchell_session, director)
    first, _pages, _stats, document = _render(tournament)
    victim = pdf_part_cache.key(document.parts[0].html, document.css)
    (kept / f"{victim}.pdf").write_bytes(b"%PDF-1.7 cut short")
    (kept / f"{list(kept.glob('*.json'))[-1].stem}.json").write_text("{not json")
    again, _pages, stats, _d = _render(tournament)
    assert stats["kept"] <= len(document.parts) - 1
    assert _texts(again) == _texts(first)


def test_the_least_recently_used_parts_go_first(mitchell_session, director, kept, settings):
    tournament = _published(mitchell_session, director)
    _render(tournament, "en")
    english = {p.stem for p in kept.glob("*.json")}
    _render(tournament, "es")
    settings.PDF_PART_CACHE_FILES = len(english)
    _content, _pages, stats, document = _render(tournament, "en")  # read: now the newest
    assert stats["kept"] == len(document.parts)
    assert {p.stem for p in kept.glob("*.json")} == english
    assert len(list(kept.glob("*.pdf"))) == len(english)


def test_no_folder_keeps_nothing(mitchell_session, director, kept, settings):
    settings.PDF_PART_CACHE_DIR = ""
    tournament = _published(mitchell_session, director)
    _render(tournament)
    _content, _pages, stats, _d = _render(tournament)
    assert stats["kept"] == 0 and not kept.exists()

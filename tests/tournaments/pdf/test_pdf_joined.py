"""The results PDF made in parts and joined (``pdf.parts``, ``pdf.join``), read back: page
numbers continuous, contents and bookmarks pointing at the right pages, every kind and pair
present, the parts laid out one at a time; and adjusted scores, marks, the frequency table
and hand records printed right in es, pt and en."""

import io
import random
import re
import subprocess

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from pypdf import PdfReader

from clubsite.models import Club
from tournaments import documents, pdf
from tournaments.demo import play_rounds
from tournaments.models import Board
from tournaments.pdf import join as pdf_join
from tournaments.pdf import parts as pdf_parts
from tournaments.pdf import render as pdf_render
from tournaments.services.results import publish
from tournaments.services.results.snapshot_build import build_event_snapshot
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # the parts' layout and join

WORDS = {  # the words the checks look for, as each language prints them
    "es": {
        "page": "Página {} de {}",
        "adjusted": "ajustado",
        "hands": "Registro de manos",
        "travellers": "Hojas viajeras y frecuencias",
        "cards": "Hojas personales",
        "board": "Estuche",
        "tables": "Mesas",
        "contract": "Contrato",
    },
    "pt": {
        "page": "Página {} de {}",
        "adjusted": "ajustado",
        "hands": "Registo de mãos",
        "travellers": "Folhas itinerantes e frequências",
        "cards": "Folhas pessoais",
        "board": "Carteira",
        "tables": "Mesas",
        "contract": "Contrato",
    },
    "en": {
        "page": "Page {} of {}",
        "adjusted": "adjusted",
        "hands": "Hand records",
        "travellers": "Travellers and frequencies",
        "cards": "Personal scorecards",
        "board": "Board",
        "tables": "Tables",
        "contract": "Contract",
    },
}
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _finish(section, director, *, deals: bool, adjustments=()):
    """Play the section, give the boards deals (or none), award ``adjustments`` on played
    lines, finish and publish."""
    play_rounds(section, random.Random(3))
    if deals:
        Board.objects.filter(session=section.session).update(
            deal=DEAL,
            double_dummy={s: {"C": 7, "D": 6, "H": 9, "S": 10, "NT": 8} for s in "NESW"},
            par={"score": 420, "contracts": ["4SN="]},
        )
    for round_, adjustment in adjustments:
        slot = section.movement["rounds"][round_ - 1]["tables"][1]
        corrections.adjust_score(
            user=director,
            section=section,
            round=round_,
            table=2,
            board=slot["boards"][0],
            adjustment=adjustment,
            reason="Arbitraje",
            law="12C2",
            override=True,
        )
    setup.finish_session(section.session)
    publish.publish_final(section.session.tournament, user=director)
    return section.session.tournament


def _render(tournament, language):
    document, _version = documents.results_document(tournament, language)
    content, pages = pdf_join.render(document)
    return content, pages, document


def _pages(content: bytes, tmp_path) -> list[str]:
    target = tmp_path / "joined.pdf"
    target.write_bytes(content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.split("\f")[:-1]


def _shows(text: str, label: str) -> bool:
    """Every word of ``label`` is on the page (the layout text may interleave a heading with
    the hidden running-header words)."""
    return all(word in text for word in label.split())


@pytest.fixture
def small_parts(monkeypatch):
    """Pieces of 40 lines: every kind is cut in several parts."""
    monkeypatch.setattr(pdf_parts, "LINES_PER_PART", 40)


def test_the_joined_document_reads_as_one(mitchell_session, director, small_parts, tmp_path):
    tournament = _finish(mitchell_session, director, deals=True)
    content, total, document = _render(tournament, "en")
    kinds = [part.kind for part in document.parts]
    assert {"ranking", "travellers", "hands", "cards"} <= set(kinds)
    assert all(kinds.count(kind) > 1 for kind in ("travellers", "hands", "cards"))
    reader = PdfReader(io.BytesIO(content))
    texts = _pages(content, tmp_path)
    assert len(reader.pages) == len(texts) == total
    assert reader.metadata.title == tournament.name  # the reader's window shows the event
    # "Page n of N" on every page, in order, under the running headers
    header = f"{tournament.name} · {tournament.date.strftime('%d/%m/%Y')}"
    club = Club.current().name
    for n, text in enumerate(texts, start=1):
        assert f"Page {n} of {total}" in text
        assert text.count(header) == 1 and text.lstrip().startswith(club), n
    # the contents: each entry's page number, its link and the page it names agree
    entries = re.findall(
        r"^\s*(Ranking|Travellers and frequencies|Hand records|"
        r"Personal scorecards) \.+ (\d+)\s*$",
        texts[0],
        re.M,
    )
    assert [e[0] for e in entries] == [
        "Ranking",
        "Travellers and frequencies",
        "Hand records",
        "Personal scorecards",
    ]
    refs = [page.indirect_reference for page in reader.pages]
    annots = sorted(
        (a.get_object() for a in reader.pages[0]["/Annots"]), key=lambda a: -float(a["/Rect"][1])
    )
    linked = [refs.index(a["/Dest"][0]) + 1 for a in annots]
    assert linked == [int(page) for _label, page in entries]
    for label, page in entries:
        assert _shows(texts[int(page) - 1], label), (label, page)
    # bookmarks: the title, the parts under it, every board and scorecard at its page
    top, children = reader.outline[0], reader.outline[1]
    assert top.title == tournament.name and reader.get_destination_page_number(top) == 0
    flat = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                flat.append((item.title, reader.get_destination_page_number(item)))

    walk(children)
    headings = [(t, p + 1) for t, p in flat if t in dict(entries)]
    assert headings == [(label, int(page)) for label, page in entries]
    boards = [(t, p) for t, p in flat if t.startswith("Board ")]
    assert len(boards) == 2 * 14  # travellers and hand records
    for title, page in flat:
        assert _shows(texts[page], title.split(" · ")[0]), title
    # every pair's scorecard
    for number in range(1, 8):
        for line in ("NS", "EW"):
            assert any(re.search(rf"^\s*A?{number}{line} · ", t, re.M) for t in texts), (
                number,
                line,
            )


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_adjusted_scores_marks_and_frequencies_print_right(
    mitchell_session, director, tmp_path, language
):
    """An adjusted score prints the adjustment, not the stored contract's declarer and
    result; marks have two decimals in the reader's language; a frequency table with no
    room beside its traveller stands under it with its own header."""
    weighted = {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]}
    tournament = _finish(
        mitchell_session,
        director,
        deals=False,
        adjustments=[(2, {"kind": "artificial", "ns": 60, "ew": 40}), (3, weighted)],
    )
    content, total, _document = _render(tournament, language)
    words = WORDS[language]
    text = "\n".join(_pages(content, tmp_path))
    lines = text.splitlines()
    adjusted = [line for line in lines if f"{words['adjusted']} 60/40" in line]
    assert any(
        f"{words['adjusted']} " in line and "…" in line and re.search(r"\d[.,]\d\d\s*$", line)
        for line in lines
    )  # the long one cut on the scorecard
    assert len(adjusted) >= 3  # the traveller and both pairs' scorecards
    for line in adjusted:
        assert re.search(r"\d[.,]\d\d\s*$", line), line  # its mark, still on the page
        after = line.split("60/40", 1)[1]
        assert not re.search(r"(^|\s)(=|[+−]\d)(\s|$)", after), line  # no trick result
        assert not re.search(r"\s[NESO]\s", after), line  # no declarer
    decimal = "." if language == "en" else ","
    other = "," if language == "en" else "."
    marks = re.findall(rf"\b\d+\{decimal}\d\d\b", text)
    assert len(marks) > 100
    assert not any(
        re.search(rf"^\s*[AB]?\d+\s+[AB]?\d+\s.*\b\d+\{other}\d\d\b", line)
        for line in text.splitlines()
    )
    # the weighted board's traveller is too wide for its frequency table beside it
    assert re.search(rf"^\s*{words['tables']}\b", text, re.M) or any(
        words["tables"] in line and words["contract"] not in line for line in text.splitlines()
    )
    assert f"{words['page'].format(total, total)}" in text


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_no_deals_no_hand_record_heading(mitchell_session, director, tmp_path, language):
    tournament = _finish(mitchell_session, director, deals=False)
    content, _total, document = _render(tournament, language)
    assert "hands" not in {part.kind for part in document.parts}
    text = "\n".join(_pages(content, tmp_path))
    words = WORDS[language]
    assert words["hands"] not in text
    assert words["travellers"] in text and words["cards"] in text


def test_a_frequency_table_without_room_is_a_table_of_its_own():
    from tournaments.pdf import _rows_of, _traveller
    from tournaments.services.results.snapshot import Line, Participant

    def pair(number, direction):
        return Participant(
            entry_id=number if direction == "NS" else 100 + number,
            number=number,
            direction=direction,
            name=f"P{number}",
            players=(),
        )

    weighted = {"kind": "weighted", "outcomes": [[30, 420], [70, -50], [0, 100], [0, 200]]}
    lines = [
        Line(
            round=1,
            table=t,
            ns=pair(t, "NS"),
            ew=pair(t, "EW"),
            contract="4S",
            declarer="N",
            lead="HK",
            tricks=10,
            ns_score=420 + t,
            adjustment=None,
            ns_mark=t,
            ew_mark=4 - t,
        )
        for t in range(1, 4)
    ]
    lines.append(
        Line(
            round=1,
            table=4,
            ns=pair(4, "NS"),
            ew=pair(4, "EW"),
            contract="4S",
            declarer="N",
            lead="HK",
            tricks=11,
            ns_score=450,
            adjustment=weighted,
            ns_mark=1,
            ew_mark=1,
        )
    )
    with translation.override("en"):
        blocks = _traveller(lines, _rows_of({}, False))
    assert len(blocks) == 2
    traveller, frequencies = blocks
    assert "Tables" in "".join(frequencies.head) and "Tables" not in "".join(traveller.head)
    assert len(frequencies.rows) == 3 and len(traveller.rows) == 4
    adjusted = traveller.rows[3]
    assert "adjusted" in adjusted and "+1" not in adjusted and "=" not in adjusted
    assert traveller.css[3] == "adj"


def test_the_heap_is_frozen_only_while_the_parts_are_laid_out():
    """Laying out sets off full collections, each walking every object Django and WeasyPrint
    hold: the collector is kept off the objects there before while the parts are laid out,
    and gets them back after; the young garbage is collected first, without a full
    collection."""
    import gc
    import weakref

    class Node:
        pass

    node = Node()
    node.me = node  # a cycle: only the collector frees it
    gone, generations = weakref.ref(node), []
    del node

    def seen(phase, info):
        if phase == "start":
            generations.append(info["generation"])

    assert gc.get_freeze_count() == 0
    gc.callbacks.append(seen)
    try:
        with pdf_render.frozen_heap():
            assert gc.get_freeze_count() > 0
            assert gone() is None  # the young garbage handed back, not frozen
    finally:
        gc.callbacks.remove(seen)
    assert 2 not in generations  # no full collection first (~80 ms at 60 tables)
    assert gc.get_freeze_count() == 0
    gc.freeze()  # a web process frozen at its start (clubsite.ops.warmup) stays frozen
    try:
        frozen = gc.get_freeze_count()
        with pdf_render.frozen_heap():
            pass
        # Still frozen, not unfrozen (0); the count itself may fall a little meanwhile, as
        # reference counting frees a frozen object (another thread of this test process).
        assert gc.get_freeze_count() > frozen * 0.99 > 0
    finally:
        gc.unfreeze()


def test_the_document_keeps_only_what_its_title_page_reads(mitchell_session, director):
    """The results themselves are let go once the parts are written (before any is laid
    out): the document keeps only the title page's context."""
    tournament = _finish(mitchell_session, director, deals=True)
    document, version = documents.results_document(tournament, "en")
    assert "sessions" not in document.context
    front = document.front_html({"ranking-1": 2})
    with translation.override("en"):
        full = pdf.document_context(build_event_snapshot(tournament), "en")
        whole = render_to_string(
            "pdf/results_part.html",
            {
                **full,
                "toc": [{**e, "page": 2 if e["target"] == "ranking-1" else 0} for e in full["toc"]],
                "part": {"template": "pdf/_front.html", "first": True},
                "in_parts": True,
                "shared_style": True,
            },
        )
    assert front == whole  # nothing the title page prints was dropped
    assert tournament.name in front and 'data-page="2"' in front and 'lang="en"' in front
    # a first results PDF names no version: the internal counter means nothing to a reader
    assert f"results version {version}" not in front and 'id="revision"' not in front


def test_the_parts_are_laid_out_one_at_a_time(mitchell_session, director, small_parts, monkeypatch):
    """What keeps a 200-table PDF in the memory of a 20-table one: WeasyPrint holds every
    page of a document until it is written, so a part's pages are let go before the next
    part is laid out, and the document never holds two parts' pages at once."""
    import weakref

    from weasyprint.document import Document

    tournament = _finish(mitchell_session, director, deals=True)
    document, _version = documents.results_document(tournament, "en")
    alive: weakref.WeakSet = weakref.WeakSet()
    most = []
    init = Document.__init__

    def counted(self, *args, **kwargs):
        init(self, *args, **kwargs)
        alive.add(self)
        most.append(len(alive))

    monkeypatch.setattr(Document, "__init__", counted)
    _content, pages = pdf_join.render(document)
    assert len(most) == len(document.parts) + 2  # every part, the title page, the headers
    assert max(most) == 1
    assert pages > len(document.parts)

"""The results PDF's rankings, printed as fixed-width lines (``tournaments.pdf.rankings``)."""

import random
import re
import subprocess
from decimal import Decimal

import pytest
from django.utils import translation

from tournaments import documents
from tournaments.demo import play_rounds
from tournaments.pdf import render as pdf_render
from tournaments.pdf.fixed_width import _visible
from tournaments.pdf.rankings import overall_ranking, section_ranking
from tournaments.services.results import publish
from tournaments.services.results.snapshot import Participant
from tournaments.services.results.snapshot_build import build_event_snapshot
from tournaments.services.setup import events as setup


def _pair(number, name, place, points, percentage=None, *, tied=False, direction="NS"):
    return Participant(
        entry_id=number,
        number=number,
        direction=direction,
        name=name,
        players=(),
        place=place,
        tied=tied,
        points=points,
        percentage=percentage,
        boards=26,
    )


def _lines(block) -> list[str]:
    return [_visible(line) for line in block.head + block.rows]


def test_a_handicap_event_prints_both_rankings():
    import dataclasses

    rows = [
        dataclasses.replace(
            _pair(3, "Pérez – Gómez", 1, Decimal("190.50"), Decimal("61.06")),
            handicap=Decimal("-4"),
            handicap_percentage=Decimal("59.06"),
            handicap_place=2,
        ),
        dataclasses.replace(
            _pair(1, "Mora – Luna", 2, Decimal("160.00"), Decimal("51.28")),
            handicap=Decimal("20"),
            handicap_percentage=Decimal("61.28"),
            handicap_place=1,
        ),
    ]
    with translation.override("es"):
        block = section_ranking(rows, imps=False, vps=False)
    head = " ".join(" ".join(_visible(line).split()) for line in block.head)
    body = [_visible(line) for line in block.rows]
    assert all(word in head for word in ("Hándicap", "hándicap", "% con"))  # headers wrap
    assert body[0].split()[-3:] == ["-4", "59,06", "2"]
    assert body[1].split()[-3:] == ["20", "61,28", "1"]


def test_a_section_ranking_prints_a_line_a_pair_in_the_reader_language():
    rows = [
        _pair(3, "Pérez – Gómez", 1, Decimal("190.50"), Decimal("61.06")),
        _pair(7, "<b>Ruiz</b> & Sanz – Vidal", 2, Decimal("160.00"), Decimal("51.28"), tied=True),
        _pair(1, "Mora – Luna", 2, Decimal("160.00"), Decimal("51.28"), tied=True),
        _pair(5, "Ríos – Paz", None, None),
    ]  # not ranked yet (no boards scored)
    with translation.override("es"):
        block = section_ranking(rows, imps=False, vps=False)
    head, *body = _lines(block)
    assert head.split() == ["Puesto", "Pareja", "Jugadores", "Estuches", "Puntos", "%"]
    assert body[0].split() == ["1", "3NS", "Pérez", "–", "Gómez", "26", "190,50", "61,06"]
    assert body[1].split()[:2] == ["2=", "7NS"] and body[1].endswith("160,00  51,28")
    assert body[2].split()[:2] == ["2=", "1NS"]
    assert body[3].split() == ["5NS", "Ríos", "–", "Paz", "26"]
    # a name is text, never markup
    assert (
        "<b>" not in "".join(block.rows) and "&lt;b&gt;Ruiz&lt;/b&gt; &amp; Sanz" in block.rows[1]
    )
    # the columns line up: every number ends where its header does
    assert len({len(line) for line in body[:3]}) == 1
    with translation.override("en"):
        block = section_ranking(
            [_pair(2, "A – B", 1, Decimal("12.5"), direction="EW")], imps=True, vps=False
        )
    head, line = _lines(block)
    assert (
        head.split()[-1] == "IMPs"
        and "%" not in head
        and line.split() == ["1", "2EW", "A", "–", "B", "26", "12.5"]
    )
    with translation.override("pt"):
        block = section_ranking(
            [_pair(2, "A – B", 1, Decimal("15.25"), direction="")], imps=True, vps=True
        )
    assert _lines(block)[0].split()[-1] == "PV" and _lines(block)[1].split()[1] == "2"


def test_a_long_name_is_cut_and_the_line_keeps_to_the_page():
    from tournaments.pdf.fixed_width import LINE_WIDTH

    name = "María del Carmen Fernández de la Fuente – José Luis Rodríguez Zapatero " * 2
    with translation.override("es"):
        block = section_ranking(
            [_pair(12, name, 1, Decimal("100.00"), Decimal("50.00"))], imps=False, vps=False
        )
    line = _lines(block)[-1]
    assert len(line) == LINE_WIDTH and "…" in line and line.endswith("100,00  50,00")


def test_the_overall_ranking_prints_place_players_points_and_percentage():
    with translation.override("en"):
        block = overall_ranking(
            [
                _pair(4, "Sol – Mar", 1, Decimal("120.40"), Decimal("55.10")),
                _pair(9, "Pez – Rio", 2, Decimal("99.00"), None),
            ]
        )
    head, first, second = _lines(block)
    assert head.split() == ["Place", "Players", "Points", "%"]
    assert first.split() == ["1", "Sol", "–", "Mar", "120.40", "55.10"]
    assert second.split() == ["2", "Pez", "–", "Rio", "99.00"]


@pytest.mark.django_db
def test_the_pdf_ranking_lists_every_pair_at_its_place(mitchell_session, director, tmp_path):
    play_rounds(mitchell_session, random.Random(3))
    setup.finish_session(mitchell_session.session)
    tournament = mitchell_session.session.tournament
    publish.publish_final(tournament, user=director)
    document, _version = documents.results_document(tournament, "en")
    ranking = next(part for part in document.parts if part.kind == "ranking")
    assert "<table" not in ranking.html  # lines, not a table of cells
    (tmp_path / "r.pdf").write_bytes(pdf_render.render_part(ranking.html, document.css)["pdf"])
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "r.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Section A · North-South" in text and "Section A · East-West" in text
    section = build_event_snapshot(tournament).sessions[0].sections[0]
    assert len(section.participants) == 14
    for p in section.participants:
        line = next(
            line
            for line in text.splitlines()
            if re.match(rf"^\s*{p.place}=?\s+{p.number}{p.direction}\s", line)
        )
        assert p.name in line and line.split()[-2:] == [str(p.points), str(p.percentage)]

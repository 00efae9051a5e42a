"""USEBIO as other programs lay it out: sections straight under the event, a passed-out board
written ``NP``, the percentage in ``TOTAL_SCORE``, USEBIO 1.3's names and ISO dates. Each file
comes from ``usebio_writer`` in that style and must import with 0 differences."""

import datetime
import random
from decimal import Decimal

import pytest

from tests.tournaments.imports.test_usebio_conventions import mitchell_sitout
from tests.tournaments.imports.usebio_writer import Style, write
from tournaments.imports import usebio
from tournaments.models import RankingScope, Result, StoredMark, StoredRanking
from tournaments.models.uploads import ImportState

pytestmark = pytest.mark.django_db


def _import(text: str):
    record = usebio.import_file(text, file_name="otro.xml")
    assert record.state == ImportState.DONE, record.error
    return record


def test_sections_directly_under_the_event_import_like_a_session():
    text = write(mitchell_sitout(random.Random(3)), Style(sessions=False))
    assert "<SESSION" not in text
    record = _import(text)
    assert record.differences == []
    assert record.summary["lines"] == text.count("<TRAVELLER_LINE>")


def test_a_passed_out_board_written_np_with_score_0_is_a_pass_without_a_lead():
    event = mitchell_sitout(random.Random(3))
    passed = [ln for ln in event.sections[0].lines if ln.board == 1]
    for ln in passed:
        ln.score, ln.contract = 0, "NP"
    text = write(event)
    assert text.count("<CONTRACT>NP</CONTRACT>") == len(passed)
    record = _import(text)
    assert record.differences == []
    stored = Result.objects.filter(section__session__tournament=record.tournament, board__number=1)
    assert {(r.contract, r.ns_score, r.lead) for r in stored} == {("PASS", 0, "")}


def test_a_total_score_carrying_the_percentage_is_read_as_the_percentage():
    text = write(mitchell_sitout(random.Random(3)), Style(total_is_percentage=True))
    record = _import(text)
    assert record.differences == []
    assert record.tournament.conventions["totals"] == "percentage"
    row = StoredRanking.objects.filter(
        tournament=record.tournament, scope=RankingScope.SECTION
    ).first()
    # the file gives no points of its own: ours stay beside its percentage
    assert row.points > 100 or row.points != row.percentage


def test_usebio_1_3_names_and_iso_dates():
    text = write(mitchell_sitout(random.Random(3)))
    text = (
        text.replace('Version="1.2"', 'Version="1.3"')
        .replace("EVENT_IDENTIFIER>", "EVENT_ID>")
        .replace("<DATE>12/03/2024</DATE>", "<DATE>2024-03-12T19:30:00</DATE>")
    )
    record = _import(text)
    assert record.differences == []
    assert record.tournament.date == datetime.date(2024, 3, 12)
    record.tournament.refresh_from_db()
    assert record.tournament.import_identifier == "EV-2024-031"
    assert Decimal(0) < record.tournament.rankings.first().percentage


@pytest.mark.parametrize("shown", [10, 20])
def test_marks_shown_on_another_top_in_whole_numbers(shown, client):
    """The lines' marks rescaled to a top of 10 (or 20) and rounded, the totals and the
    percentages from the exact marks: 0 differences, and the traveller shows the file's."""
    text = write(mitchell_sitout(random.Random(3)), Style(display_top=shown))
    record = _import(text)
    assert record.differences == [], record.differences[:3]
    assert record.tournament.conventions["display_top"] == shown
    marks = StoredMark.objects.filter(session__tournament=record.tournament)
    assert all(m.mark == m.mark.to_integral_value() and 0 <= m.mark <= shown for m in marks)
    assert {m.mark for m in marks} - set(range(0, 7))  # above the true top of 6


@pytest.mark.parametrize(("given", "places"), [("pair", True), ("player", True), ("pair", False)])
def test_a_handicap_event_reproduces_and_ranks_both_ways(given, places):
    """HANDICAP per pair (or per player, summed); the published % is scratch + handicap / 2,
    places in the handicapped order (or the scratch one): 0 differences, both rankings kept,
    the file's places where it put them."""
    text = write(mitchell_sitout(random.Random(3)), Style(handicaps=given, handicap_places=places))
    assert "<HANDICAP>" in text
    record = _import(text)
    assert record.differences == [], record.differences[:3]
    tournament = record.tournament
    assert tournament.handicap_ranking
    assert tournament.conventions["handicap"] == "half"
    assert tournament.conventions["places_by"] == ("handicap" if places else "scratch")
    rows = StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION)
    for r in rows:
        assert r.handicap_percentage == r.percentage + r.handicap / 2
    assert any(r.handicap for r in rows) and any(r.place != r.handicap_place for r in rows)


@pytest.mark.parametrize(
    "declaration",
    ['<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>', ""],
)
def test_a_windows_program_s_names_in_its_code_page_behind_a_utf_8_header(declaration):
    """Windows scorers (Compscore writes ``<?xml version="1.0"?>``) put the names in the
    machine's code page, Windows-1252, behind a header that means UTF-8: the file is read,
    with its accents and typographic apostrophes, not refused as XML that is not valid."""
    text = write(mitchell_sitout(random.Random(3))).replace(
        '<?xml version="1.0" encoding="UTF-8"?>', declaration
    )
    text = text.replace("Jugador A1NS Norte", "Begoña O’Shea Núñez")
    raw = text.encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    record = usebio.import_file(raw, file_name="compscore.xml")
    assert record.state == ImportState.DONE, record.error
    assert record.differences == []
    names = StoredRanking.objects.filter(tournament=record.tournament).values_list(
        "names", flat=True
    )
    assert any("Begoña O’Shea Núñez" in n for n in names)

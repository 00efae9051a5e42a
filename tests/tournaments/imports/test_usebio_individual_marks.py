"""An individual file whose board with fewer results writes its lines on the board's own top
(raw marks, factored only in the totals), as pairs files may: recognised by the pairs'
detection and reproduced. The file is the demo's individual, one line of a board taken out,
exported by us (Neuberg-factored lines); the test rewrites that board's lines as raw marks,
counting them itself from the scores."""

import datetime
import random
import re
from fractions import Fraction

import pytest

from clubsite.models import Member
from tournaments import demo, documents
from tournaments.imports import usebio as usebio_import
from tournaments.models import Result, ResultStatus
from tournaments.services.classification.classify import classify_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def short_board_text(demo_club):
    players = list(Member.objects.filter(status="active").order_by("licence_number"))
    tournament = demo._individual(players, random.Random(demo.SEED), datetime.date(2026, 10, 3))
    gone = (
        Result.objects.filter(
            section__session__tournament=tournament, status=ResultStatus.OK, adjustment__isnull=True
        )
        .order_by("board__number", "round", "table")
        .first()
    )
    number = gone.board.number
    gone.delete()
    classify_tournament(tournament)
    return documents.export_text(tournament, "usebio"), number


def _board(text: str, number: int) -> str:
    for block in re.findall(r"<BOARD>.*?</BOARD>", text, re.S):
        if f"<BOARD_NUMBER>{number}</BOARD_NUMBER>" in block and "TRAVELLER_LINE" in block:
            return block
    raise AssertionError(number)


def _rewrite_raw(block: str) -> str:
    lines = re.findall(r"<TRAVELLER_LINE>.*?</TRAVELLER_LINE>", block, re.S)
    real = {
        ln: int(found.group(1))
        for ln in lines
        if (found := re.search(r"<SCORE>(-?\d+)</SCORE>", ln))
    }
    own = 2 * (len(real) - 1)
    for ln, score in real.items():
        mp = sum(2 if o < score else 1 if o == score else 0 for o in real.values()) - 1
        new = re.sub(r"<NS_MATCH_POINTS>[^<]*<", f"<NS_MATCH_POINTS>{mp}<", ln)
        new = re.sub(r"<EW_MATCH_POINTS>[^<]*<", f"<EW_MATCH_POINTS>{own - mp}<", new)
        block = block.replace(ln, new)
    return block


def raw_marks(text: str, number: int) -> str:
    """Every board with fewer real results than the fullest (the short board, and one with
    an artificial score) as raw marks: 2 per lower score and 1 per equal one among its own
    real results, the top 2 (n − 1); an artificial line keeps its award."""
    blocks = [b for b in re.findall(r"<BOARD>.*?</BOARD>", text, re.S) if "TRAVELLER_LINE" in b]
    real = {b: len(re.findall(r"<SCORE>-?\d+</SCORE>", b)) for b in blocks}
    most = max(real.values())
    assert real[_board(text, number)] < most
    for block in blocks:
        if real[block] < most:
            text = text.replace(block, _rewrite_raw(block))
    return text


def test_raw_marks_on_a_short_board_are_recognised_and_reproduced(short_board_text):
    text, number = short_board_text
    exported = usebio_import.import_file(text, file_name="neuberg.xml")
    assert exported.differences == []
    assert exported.tournament.conventions.get("marks") == "neuberg"

    raw = raw_marks(text, number)
    assert raw != text
    record = usebio_import.import_file(raw, file_name="raw.xml", replace=True)
    assert record.tournament.conventions["marks"] == "raw"
    assert record.tournament.conventions["factoring"] == "neuberg"
    assert record.differences == []


def test_a_raw_mark_no_rule_gives_is_reported(short_board_text):
    text, number = short_board_text
    raw = raw_marks(text, number)
    block = _board(raw, number)
    value = re.search(r"<NS_MATCH_POINTS>([^<]*)<", block).group(1)
    wrong = str(Fraction(value) + 1)
    tampered = raw.replace(
        block, block.replace(f"<NS_MATCH_POINTS>{value}<", f"<NS_MATCH_POINTS>{wrong}<", 1)
    )
    record = usebio_import.import_file(tampered, file_name="raw-wrong.xml")
    [diff] = [d for d in record.differences if d["what"] == "mark NS"]
    assert diff["file"] == wrong and Fraction(diff["ours"]) == Fraction(value)

"""USEBIO 1.2 and PBN exports: structure, figures read back, and endplay's PBN parser."""

import random
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from endplay.parsers import pbn as endplay_pbn

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_dealt_demo_events
from tournaments import documents
from tournaments.exports.deals import random_deal
from tournaments.models import Board, RankingScope, Result, ResultStatus, StoredRanking, Tournament
from tournaments.scoring import deals

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _events_rows(django_db_setup, django_db_blocker):
    """The demo club's Tuesday and Thursday, every board dealt, built once for the module."""
    with module_rows(django_db_blocker):
        build_dealt_demo_events(8)
        yield


@pytest.fixture
def demo_events(_events_rows, db):
    return {t.name: t for t in Tournament.objects.all()}


def test_deal_text_round_trip_and_validation():
    deal = random_deal(random.Random(1))
    assert deals.deal_text(deals.hands(deal)) == deal
    east_first = "E:" + " ".join(deal[2:].split()[1:] + deal[2:].split()[:1])
    assert deals.deal_text(deals.hands(east_first)) == deal
    with pytest.raises(ValueError):
        deals.hands("N:AKQ... ... ...")


def test_pbn_loads_in_endplay_with_the_same_deals_and_lines(demo_events):
    tournament = demo_events["Torneo de los martes"]
    text = documents.export_text(tournament, "pbn")
    boards = endplay_pbn.loads(text)
    stored = {b.number: b for b in Board.objects.filter(session__tournament=tournament)}
    assert sorted(b.board_num for b in boards) == sorted(stored)
    for b in boards:
        assert b.deal.to_pbn() == stored[b.board_num].deal
        table = b.info["ScoreTable"]
        names = [h["name"] if isinstance(h, dict) else h for h in table["headers"]]
        results = Result.objects.filter(board=stored[b.board_num], status=ResultStatus.OK)
        assert len(table["rows"]) == results.count() == 10
        for row in table["rows"]:
            assert len(row) == len(names)
            cells = dict(zip(names, row, strict=True))
            result = results.get(
                table=int(cells["Table"]),
                round=int(cells["Round"]),
                section__letter=cells["PairId_NS"][0],
            )
            score = result.ns_score
            expected = (str(score) if score > 0 else "-", str(-score) if score < 0 else "-")
            if score == 0:
                expected = ("0", "-")
            assert (cells["Score_NS"], cells["Score_EW"]) == expected
    first = min(boards, key=lambda b: b.board_num)
    totals = first.info["TotalScoreTable"]
    assert len(totals["rows"]) == 20
    by_id = {(row[1], row[2]): row for row in totals["rows"]}
    for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION):
        row = by_id[(f"{r.section.letter}{r.number}", r.direction)]
        assert Decimal(row[3]) == r.points and Decimal(row[4]) == r.percentage
        assert int(row[0]) == r.place


def parse_usebio(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM')
    return ET.fromstring(text.split("\n", 2)[2])


def test_usebio_structure_and_totals_read_back(demo_events):
    tournament = demo_events["Torneo de los martes"]
    root = parse_usebio(documents.export_text(tournament, "usebio"))
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    assert root.find("CLUB/CLUB_NAME").text
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "MP_PAIRS"
    assert event.findtext("WINNER_TYPE") == "2"
    assert event.findtext("DATE") == f"{tournament.date:%d/%m/%Y}"
    assert event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    sections = event.findall("SESSION/SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"]
    ranking = {
        (r.section.letter, r.number, r.direction): r
        for r in StoredRanking.objects.filter(
            tournament=tournament, scope=RankingScope.SECTION
        ).select_related("section")
    }
    seen = 0
    for section in sections:
        for pair in section.findall("PARTICIPANTS/PAIR"):
            r = ranking[
                (
                    section.get("SECTION_ID"),
                    int(pair.findtext("PAIR_NUMBER")),
                    pair.findtext("DIRECTION"),
                )
            ]
            assert Decimal(pair.findtext("TOTAL_SCORE")) == r.points
            assert Decimal(pair.findtext("PERCENTAGE")) == r.percentage
            assert pair.findtext("PLACE").rstrip("=") == str(r.place)
            players = pair.findall("PLAYER")
            licences = sorted(p.findtext("NATIONAL_ID_NUMBER") for p in players)
            entry_licences = sorted(r.entry.players.values_list("licence_number", flat=True))
            assert len(players) == 2 and licences == entry_licences
            seen += 1
        lines = section.findall("BOARD/TRAVELLER_LINE")
        assert len(lines) == 5 * 5 * 3
        for line in lines:
            ns, ew = (
                Decimal(line.findtext("NS_MATCH_POINTS")),
                Decimal(line.findtext("EW_MATCH_POINTS")),
            )
            assert ns + ew == 2 * (10 - 1)  # 10 results on each board of the pool: top 18
    assert seen == 20
    handset = event.findall("HANDSET/BOARD")
    assert len(handset) == 15 and len(handset[0].findall("HAND")) == 4


def test_usebio_writes_the_adjusted_score_and_butler_marks(demo_events):
    howell = demo_events["Howell del jueves"]
    root = parse_usebio(documents.export_text(howell, "usebio"))
    scores = [t.findtext("SCORE") for t in root.iter("TRAVELLER_LINE")]
    assert scores.count("A6040") == 1
    assert root.find("EVENT").findtext("WINNER_TYPE") == "1"
    Tournament.objects.filter(pk=howell.pk).update(scoring_method="butler")
    howell.refresh_from_db()
    from tournaments.services.classification.classify import classify_tournament

    classify_tournament(howell)
    root = parse_usebio(documents.export_text(howell, "usebio"))
    assert root.find("EVENT").get("EVENT_TYPE") == "BUTLER_PAIRS"
    lines = list(root.iter("TRAVELLER_LINE"))
    assert all(t.find("NS_BUTLER_POINTS") is not None for t in lines)
    total = sum(
        Decimal(t.findtext("NS_BUTLER_POINTS")) + Decimal(t.findtext("EW_BUTLER_POINTS"))
        for t in lines
        if t.findtext("SCORE") != "A6040"
    )
    assert total == 0  # Butler IMPs against the datum: NS gains what EW loses

"""USEBIO 1.2 and PBN exports: structure, figures read back, and endplay's PBN parser."""

import random
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from endplay.parsers import pbn as endplay_pbn

from tournaments import demo, documents
from tournaments.exports.deals import random_deal
from tournaments.models import Board, RankingScope, Result, ResultStatus, StoredRanking, Tournament
from tournaments.scoring import deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_events(demo_club, monkeypatch, movements):
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("martes", "jueves"))
    rng = random.Random(8)
    for board in Board.objects.all():
        board.deal = random_deal(rng)
        board.save(update_fields=["deal"])
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


@pytest.fixture
def two_sessions(demo_club):
    """A two-session Mitchell (3 tables, 3 rounds of 2 boards): the same six pairs, moved
    between lines for the second session, every board dealt and played."""
    import datetime

    from clubsite.models import Member
    from tournaments.services.classification.classify import classify_tournament
    from tournaments.services.entries import registration
    from tournaments.services.setup import events as setup

    mitchell = {
        "kind": "mitchell",
        "tables": 3,
        "sitout": None,
        "rounds": [
            {
                "round": r,
                "tables": [
                    {
                        "table": t,
                        "ns": t,
                        "ew": (t - r) % 3 + 1,
                        "boards": [((t + r - 2) % 3) * 2 + 1, ((t + r - 2) % 3) * 2 + 2],
                    }
                    for t in (1, 2, 3)
                ],
            }
            for r in (1, 2, 3)
        ],
    }
    rng = random.Random(12)
    tournament = setup.create_tournament(
        name="Dos sesiones", date=datetime.date(2025, 6, 1), sessions=2
    )
    players = list(Member.objects.filter(is_guest=False).order_by("licence_number")[:12])
    pairs = [registration.register_entry(tournament, players[2 * i : 2 * i + 2]) for i in range(6)]
    for session, order in zip(
        tournament.sessions.order_by("number"), (pairs, pairs[::-1]), strict=True
    ):
        section = setup.add_section(session)
        setup.seat_section(section, mitchell, order)
        setup.start_session(session)
        for board in Board.objects.filter(session=session):
            board.deal = random_deal(rng)
            board.save(update_fields=["deal"])
        demo.play_rounds(section, rng)
        setup.finish_session(session)
    classify_tournament(tournament)
    return tournament


MANDATORY = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)


def test_pbn_of_several_sessions_ends_with_the_overall_ranking(two_sessions):
    text = documents.export_text(two_sessions, "pbn")
    games = endplay_pbn.loads(text)
    dealt, closing = games[:-1], games[-1]
    # PBN 2.1's export format: "% EXPORT", CRLF, and the 15 mandatory tags in every game, in
    # their order; the closing game sits on the first board, with no results of its own.
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n") and "\n" not in text.replace("\r\n", "")
    blocks = [b for b in text.split("\r\n\r\n") if b.strip() and b.startswith("[")]
    for block in blocks:
        tags = [line.split(" ", 1)[0][1:] for line in block.split("\r\n") if line.startswith("[")]
        assert [t for t in tags if t in MANDATORY] == list(MANDATORY), tags
    last = blocks[-1]
    assert last.startswith('[Event "Dos sesiones"]') and "[TotalScoreTable" in last
    assert '[Board "1"]' in last and "[ScoreTable" not in last
    stored = list(
        Board.objects.filter(session__tournament=two_sessions).order_by("session__number", "number")
    )
    assert [(g.info["Event"], g.board_num, g.deal.to_pbn()) for g in dealt] == [
        (f"Dos sesiones ({b.session.number})", b.number, b.deal) for b in stored
    ]
    for game, board in zip(dealt, stored, strict=True):
        assert (
            len(game.info["ScoreTable"]["rows"])
            == Result.objects.filter(board=board, status=ResultStatus.OK).count()
            == 3
        )
    # Each session keeps its own total table on its first board.
    assert [
        len(g.info["TotalScoreTable"]["rows"]) for g in dealt if "TotalScoreTable" in g.info
    ] == [6, 6]
    assert closing.info["Event"] == "Dos sesiones" and closing.board_num == 1
    totals = closing.info["TotalScoreTable"]
    names = [h["name"] for h in totals["headers"]]
    assert names == ["Rank", "PairId", "TotalScore", "TotalPercentage", "NrBoards", "Names"]
    event = list(
        StoredRanking.objects.filter(tournament=two_sessions, scope=RankingScope.EVENT).order_by(
            "place", "entry_id"
        )
    )
    assert len(event) == len(totals["rows"]) == 6
    for row, r in zip(totals["rows"], event, strict=True):
        assert int(row[0]) == r.place
        assert Decimal(row[2]) == r.points and Decimal(row[3]) == r.percentage
        assert int(row[4]) == 12  # six boards in each session
    # The pair ids are those of the second session, where the order was reversed.
    second = {
        s.entry_id: f"{s.number}{s.direction}"
        for s in two_sessions.sessions.get(number=2).seatings.all()
    }
    assert [row[1] for row in totals["rows"]] == [second[r.entry_id] for r in event]


def test_a_two_session_file_keeps_its_overall_ranking_of_record(two_sessions):
    """The file's overall PARTICIPANTS (beside its sessions) are read, checked against our
    overall ranking, and kept as the one of record: an altered overall percentage is the one
    difference and the overall ranking shows it."""
    from tournaments.imports import usebio

    text = documents.export_text(two_sessions, "usebio")
    record = usebio.import_file(text, file_name="dos.xml")
    assert record.differences == []
    overall = text.rsplit("</SESSION>", 1)[1]
    first = overall.split("<PERCENTAGE>", 1)[1].split("</PERCENTAGE>", 1)[0]
    altered = (
        text.rsplit("</SESSION>", 1)[0]
        + "</SESSION>"
        + overall.replace(f"<PERCENTAGE>{first}</PERCENTAGE>", "<PERCENTAGE>77.77</PERCENTAGE>", 1)
    )
    again = usebio.import_file(altered, file_name="dos-otra.xml", replace=True)
    assert [(d["what"], d["file"], d["ours"]) for d in again.differences] == [
        ("percentage", "77.77", str(Decimal(first).quantize(Decimal("0.01"))))
    ]
    assert (
        StoredRanking.objects.filter(
            tournament=again.tournament, scope=RankingScope.EVENT, percentage=Decimal("77.77")
        ).count()
        == 1
    )

"""USEBIO and PBN exports of a two-session event: the PBN's overall ranking after the
sessions, and the overall ranking of record a USEBIO file keeps.

Apart from test_exports.py, whose tests share the demo's Tuesday and Thursday built once for
the module: these read an event of their own on the demo club."""

import random
from decimal import Decimal

import pytest
from endplay.parsers import pbn as endplay_pbn

from tests.module_rows import module_rows
from tournaments import demo, documents
from tournaments.exports.deals import random_deal
from tournaments.models import Board, RankingScope, Result, ResultStatus, StoredRanking, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _two_sessions_rows(django_db_setup, django_db_blocker):
    """The demo club and a two-session Mitchell (3 tables, 3 rounds of 2 boards): the same six
    pairs, moved between lines for the second session, every board dealt and played; built
    once for the module."""
    from clubsite.demo import build_club

    with module_rows(django_db_blocker):
        build_club()
        yield build_two_sessions().pk


@pytest.fixture
def two_sessions(_two_sessions_rows, db):
    return Tournament.objects.get(pk=_two_sessions_rows)


def build_two_sessions():
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

"""Round trips over generated sessions: USEBIO export → import reproduces every figure, and
the PBN export loads in endplay with the same deals.

Each example builds a small Mitchell or Howell from the movements core, plays it from the
table devices with random legal results (``demo.play_rounds``), sometimes adds a director's
artificial adjusted score, classifies it, and round-trips it. Each example runs inside a
savepoint that is rolled back, so examples do not see each other's tournaments.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.db import transaction
from endplay.parsers import pbn as endplay_pbn
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.support.pair_sessions import pair_session_specs, seated_section
from tournaments import demo, documents
from tournaments.exports.deals import random_deal
from tournaments.imports import usebio
from tournaments.models import (
    Board,
    RankingScope,
    Result,
    ResultStatus,
    StoredMark,
    StoredRanking,
    Tournament,
)
from tournaments.services.boards import deals as board_service
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

# The files' round trips: what the formats carry, whatever engine stores the event.
pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]

# DB-backed: a few examples only (each builds, plays, exports and imports a session).
ROUND_TRIP = settings(max_examples=25, deadline=None)


# A director's adjusted scores (services.adjustments shapes) that USEBIO can carry.
ARTIFICIAL = [
    {"kind": "artificial", "ns": ns, "ew": ew}
    for ns, ew in ((60, 40), (50, 50), (40, 60), (60, 60))
]
ADJUSTMENTS = ARTIFICIAL
# Ones the USEBIO SCORE field cannot hold: our export adds the line's ADJUSTMENT (a split's
# two scores, a weighted score's outcomes, a not-played board's AEB reason).
EXTENDED = [
    {"kind": "split", "ns_score": 420, "ew_score": -50},
    {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]},
    {"kind": "not_played", "reason": "player_fault"},
    {"kind": "not_played", "reason": "organisation"},
]


CARRIED = st.none() | st.tuples(
    st.integers(min_value=0, max_value=50), st.sampled_from(ADJUSTMENTS)
)


@st.composite
def sessions(draw, adjustments=CARRIED):
    # a director's artificial score on the first board of some (round, table)
    return draw(pair_session_specs()) | {"adjust": draw(adjustments)}


def _build(spec: dict) -> Tournament:
    rng = random.Random(spec["seed"])
    section = seated_section(spec, name="Ida y vuelta", licences="R")
    session = section.session
    tournament = session.tournament
    for board in Board.objects.filter(session=session):
        board.deal = random_deal(rng)
        board.save(update_fields=["deal"])
    setup.start_session(session)
    demo.play_rounds(section, rng)
    if spec["adjust"] is not None:
        played = [s for s in plan.slots(section.movement) if s.ns is not None and s.ew is not None]
        slot = played[spec["adjust"][0] % len(played)]
        corrections.adjust_score(
            user=None,
            section=section,
            round=slot.round,
            table=slot.table,
            board=slot.boards[0] + section.board_offset,
            adjustment=spec["adjust"][1],
            reason="Generated adjusted score.",
            law="12C2",
        )
    setup.finish_session(session)
    classify_tournament(tournament)
    return tournament


def _ranking(t: Tournament) -> list[tuple]:
    return sorted(
        (r.number, r.direction, r.place, r.points, r.percentage)
        for r in StoredRanking.objects.filter(tournament=t, scope=RankingScope.SECTION)
    )


def _marks(t: Tournament) -> list[tuple]:
    return sorted(
        (m.board_number, m.result.round, m.result.table, m.direction, m.mark)
        for m in StoredMark.objects.filter(
            session__tournament=t, result__isnull=False
        ).select_related("result")
    )


@ROUND_TRIP
@given(sessions())
def test_usebio_export_then_import_reproduces_every_figure(spec):
    _usebio_round_trip(spec)


@settings(max_examples=8, deadline=None)
@given(
    sessions(
        adjustments=st.tuples(st.integers(min_value=0, max_value=50), st.sampled_from(EXTENDED))
    ).filter(lambda s: s["method"] == "matchpoints" or s["adjust"][1]["kind"] != "not_played")
)
def test_usebio_round_trip_of_split_weighted_and_not_played_scores(spec):
    _usebio_round_trip(spec)


def _usebio_round_trip(spec: dict) -> None:
    with transaction.atomic():
        original = _build(spec)
        text = documents.export_text(original, "usebio")
        record = usebio.import_file(text, file_name="ida.xml")
        copy = record.tournament
        # verify compares every traveller line's marks, every pair's total, % and place
        assert record.differences == [], (spec, record.differences)
        assert copy.pk != original.pk and copy.scoring_method == spec["method"]
        assert _ranking(copy) == _ranking(original)
        assert _marks(copy) == _marks(original)
        deals = dict(
            Board.objects.filter(session__tournament=original).values_list("number", "deal")
        )
        assert (
            dict(Board.objects.filter(session__tournament=copy).values_list("number", "deal"))
            == deals
        )
        # export → import → export: the same bytes (the copy keeps the file's identifier)
        copy.refresh_from_db()
        assert documents.export_text(copy, "usebio") == text
        transaction.set_rollback(True)


def _number(cell: str) -> Decimal | None:
    return None if cell == "-" else Decimal(cell)  # IMP events have no percentage


@ROUND_TRIP
@given(sessions())
def test_pbn_export_loads_in_endplay_with_the_same_deals_scores_and_ranking(spec):
    with transaction.atomic():
        tournament = _build(spec)
        text = documents.export_text(tournament, "pbn")
        games = endplay_pbn.loads(text)
        stored = {b.number: b for b in Board.objects.filter(session__tournament=tournament)}
        assert sorted(g.board_num for g in games) == sorted(stored)
        # our own hand-record reader takes the export back: each board's deal, once
        dealt = {n: b.deal for n, b in stored.items() if b.deal}
        if dealt:
            assert {d.number: d.deal for d in board_service.read_pbn(text, set(stored))} == dealt
        for game in games:
            assert game.deal.to_pbn() == stored[game.board_num].deal
            table = game.info["ScoreTable"]
            names = [h["name"] if isinstance(h, dict) else h for h in table["headers"]]
            results = Result.objects.filter(board=stored[game.board_num], status=ResultStatus.OK)
            assert len(table["rows"]) == results.count()
            for row in table["rows"]:
                cells = dict(zip(names, row, strict=True))
                result = results.get(round=int(cells["Round"]), table=int(cells["Table"]))
                if result.adjustment is None:
                    score = result.ns_score
                    assert (cells["Score_NS"], cells["Score_EW"]) == (
                        ("0", "-")
                        if score == 0
                        else (str(score), "-")
                        if score > 0
                        else ("-", str(-score))
                    )
        first = min(games, key=lambda g: g.board_num)
        # an empty cell is "-" (a Howell's pairs have no direction)
        totals = {
            (row[1], "" if row[2] == "-" else row[2]): row
            for row in first.info["TotalScoreTable"]["rows"]
        }
        ranking = StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION)
        assert len(totals) == ranking.count()
        for r in ranking:
            row = totals[(str(r.number), r.direction)]
            assert (int(row[0]), _number(row[3]), _number(row[4])) == (
                r.place,
                r.points,
                r.percentage,
            )
        transaction.set_rollback(True)

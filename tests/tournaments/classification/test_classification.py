"""Stored rankings equal the scoring core's on the same data; reading them is constant-query."""

import datetime
import random
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.demo import play_rounds
from tournaments.models import (
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    Seating,
    Session,
    StoredMark,
    StoredRanking,
)
from tournaments.scoring import (
    BoardResult,
    NotPlayed,
    Standing,
    TravellerLine,
    display_round,
    rank,
    score_imp_pairs_board,
    score_session,
)
from tournaments.services.classification import classify as classification
from tournaments.services.classification import session_data
from tournaments.services.entries import registration
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def core_lines(section):
    lines = {}
    for r in Result.objects.filter(section=section, status=ResultStatus.OK):
        lines.setdefault(r.board.number, []).append(TravellerLine(r.ns_id, r.ew_id, r.ns_score))
    return lines


def stored(section, direction):
    return list(
        StoredRanking.objects.filter(
            section=section, scope=RankingScope.SECTION, direction=direction
        ).order_by("place", "number")
    )


def test_mitchell_ranking_equals_the_core(mitchell_session):
    section = mitchell_session
    play_rounds(section, random.Random(1))
    assert Result.objects.count() == 7 * 7 * 2
    classification.classify_session(section.session)
    lines = core_lines(section)
    scored = score_session(
        [BoardResult(b, tuple(ls)) for b, ls in sorted(lines.items())],
        expected=7,
        boards_per_pair=14,
    )
    for direction in ("NS", "EW"):
        ids = set(
            Seating.objects.filter(section=section, direction=direction).values_list(
                "entry_id", flat=True
            )
        )
        seat_names = {s.entry_id: s.entry.display_name for s in section.seatings.all()}
        expected = rank(
            [
                Standing(e, t.percentage, tops=t.tops, name=seat_names[e])
                for e, t in scored.totals.items()
                if e in ids
            ]
        )
        got = stored(section, direction)
        assert [(r.entry_id, r.place, r.tied) for r in got] == [
            (x.standing.pair, x.place, x.tied) for x in expected
        ]
        for row in got:
            total = scored.totals[row.entry_id]
            assert row.percentage == display_round(total.percentage)
            assert Fraction(row.exact) == total.percentage
            assert row.maximum == 12 * 14
    marks = StoredMark.objects.filter(session=section.session)
    assert marks.count() == 7 * 7 * 2 * 2
    assert sum(m.mark for m in marks) == sum(display_round(m.mark) for m in scored.marks)


def test_howell_sitout_and_adjustment_equal_the_core(howell_session, director):
    section = howell_session
    play_rounds(section, random.Random(2))
    adjusted = corrections.adjust_score(
        user=director,
        section=section,
        round=2,
        table=2,
        board=10,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Ley 12C2",
        law="12C2",
    )
    classification.classify_session(section.session)
    lines = core_lines(section)
    key = (adjusted.ns_id, adjusted.ew_id)
    lines[10] = [
        TravellerLine(*key, ("%", 60, 40)) if (ln.ns_pair, ln.ew_pair) == key else ln
        for ln in lines[10]
    ]
    # the pair facing phantom 8 sits out: a relay line on each of that table's boards
    for rnd in section.movement["rounds"]:
        table = next(t for t in rnd["tables"] if 8 in (t["ns"], t["ew"]))
        sitter = Seating.objects.get(section=section, number=table["ew"]).entry_id
        for b in table["boards"]:
            lines.setdefault(b, []).append(TravellerLine(None, sitter, NotPlayed()))
    scored = score_session(
        [BoardResult(b, tuple(ls)) for b, ls in sorted(lines.items())],
        expected=4,
        boards_per_pair=21,
    )
    names = {s.entry_id: s.entry.display_name for s in section.seatings.all()}
    expected = rank(
        [Standing(e, t.percentage, tops=t.tops, name=names[e]) for e, t in scored.totals.items()]
    )
    got = stored(section, "")
    assert len(got) == 7
    assert [(r.entry_id, r.place, r.percentage) for r in got] == [
        (x.standing.pair, x.place, display_round(x.standing.score)) for x in expected
    ]


def test_two_sections_on_the_same_boards_are_ranked_together(members, movements, pairs):
    tournament = setup.create_tournament(name="Dos", date=__import__("datetime").date(2025, 5, 6))
    session = tournament.sessions.get()
    entries = pairs(tournament, members, 20)
    sections = []
    for i, letter in enumerate("AB"):
        section = setup.add_section(session, letter, pool="X")
        setup.seat_section(section, movements.mitchell(5, 5, 3), entries[i * 10 : i * 10 + 10])
        sections.append(section)
    setup.start_session(session)
    plans = {}
    for section in sections:
        play_rounds(section, random.Random(3), plans=plans)
    classification.classify_session(session)
    lines = {}
    for section in sections:
        for b, ls in core_lines(section).items():
            lines.setdefault(b, []).extend(ls)
    scored = score_session(
        [BoardResult(b, tuple(ls)) for b, ls in sorted(lines.items())],
        expected=10,
        boards_per_pair=15,
    )
    assert scored.top == 18
    pool_ns = StoredRanking.objects.filter(
        session=session, scope=RankingScope.POOL, direction="NS"
    ).order_by("place")
    assert pool_ns.count() == 10
    for row in pool_ns:
        assert row.percentage == display_round(scored.totals[row.entry_id].percentage)
    assert StoredRanking.objects.filter(session=session, scope=RankingScope.SECTION).count() == 20


def test_butler_totals_equal_the_core(members, movements, pairs):
    import datetime

    tournament = setup.create_tournament(
        name="Butler", date=datetime.date(2025, 5, 7), scoring_method=ScoringMethod.BUTLER
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.mitchell(5, 5, 3), pairs(tournament, members, 10))
    setup.start_session(session)
    play_rounds(section, random.Random(4))
    classification.classify_session(session)
    totals = {}
    for ls in core_lines(section).values():
        for line, m in zip(ls, score_imp_pairs_board([x.entry for x in ls], "butler"), strict=True):
            totals[line.ns_pair] = totals.get(line.ns_pair, 0) + m.ns
            totals[line.ew_pair] = totals.get(line.ew_pair, 0) + m.ew
    for row in StoredRanking.objects.filter(session=session, scope=RankingScope.SECTION):
        assert Fraction(row.exact) == totals[row.entry_id]
        assert row.percentage is None


def test_withdrawn_pair_is_not_ranked_and_its_opponents_sit_out(mitchell_session, director):
    section = mitchell_session
    play_rounds(section, random.Random(5), rounds=3)
    gone = Seating.objects.get(section=section, number=7, direction="EW").entry
    registration.withdraw_entry(gone, user=director, reason="Enfermedad")
    play_rounds(section, random.Random(6))
    classification.classify_session(section.session)
    ranked = set(StoredRanking.objects.filter(section=section).values_list("entry_id", flat=True))
    assert gone.pk not in ranked and len(ranked) == 13
    relay = StoredMark.objects.filter(session=section.session, kind="unplayed")
    assert relay.count() == 4 * 2  # rounds 4-7, two boards each, one NS pair per round


def test_ranking_page_reads_in_constant_queries(mitchell_session):
    play_rounds(mitchell_session, random.Random(7))
    classification.classify_session(mitchell_session.session)

    def read():
        with CaptureQueriesContext(connection) as ctx:
            session = Session.objects.get(pk=mitchell_session.session_id)
            classification.ensure_current(session)
            rows = list(StoredRanking.objects.filter(session=session))
        return len(ctx.captured_queries), rows

    count, rows = read()
    # the session, "anything newer?" (results and penalties in one query), the rows
    assert len(rows) == 14 and count == 3


def test_ensure_current_reclassifies_only_after_a_change(mitchell_session, director):
    session = mitchell_session.session
    play_rounds(mitchell_session, random.Random(8), rounds=1)
    assert classification.ensure_current(session)
    session.refresh_from_db()
    assert not classification.ensure_current(session)
    row = Result.objects.first()
    corrections.correct_result(
        row, user=director, contract="1NT", declarer="S", tricks=7, reason="x"
    )
    session.refresh_from_db()
    assert classification.ensure_current(session)


def test_classification_load_is_constant_in_queries(mitchell_session):
    play_rounds(mitchell_session, random.Random(9), rounds=2)
    with CaptureQueriesContext(connection) as small:
        session_data.load_session(mitchell_session.session)
    play_rounds(mitchell_session, random.Random(9))
    with CaptureQueriesContext(connection) as big:
        session_data.load_session(mitchell_session.session)
    assert len(small.captured_queries) == len(big.captured_queries) <= 6


def test_core_howell_sitout_pairs_score_their_missed_set_as_a_relay(members, pairs):
    """The movements core leaves the phantom's table out and lists the sitting-out pair in
    each round; that pair still has every board counted (its own average on the missed set,
    C03 l.746), so all nine pairs share one maximum and the percentages average 50."""
    from tournaments.movements import howell

    tournament = setup.create_tournament(name="Howell 9", date=datetime.date(2025, 3, 7))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(
        section, howell(pairs=9, boards_per_round=3).to_dict(), pairs(tournament, members, 9)
    )
    setup.start_session(session)
    play_rounds(section, random.Random(9))
    classification.classify_session(session)
    rows = list(StoredRanking.objects.filter(section=section, scope=RankingScope.SECTION))
    assert len(rows) == 9
    assert len({r.maximum for r in rows}) == 1
    assert sum(Fraction(str(r.percentage)) for r in rows) / 9 == pytest.approx(50, abs=0.05)

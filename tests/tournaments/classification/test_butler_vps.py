"""Butler and cross-IMP pairs converted to VPs match by match, where the conditions say so
(C03 l.207-208): a round's boards against one opponent are a match, each pair's own IMPs
go through the VP scale for that number of boards, pairs are ranked by total VPs."""

import datetime
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from django.urls import reverse

from tests.signed_in import sign_in_verified
from tournaments.demo import play_rounds
from tournaments.models import (
    RankingScope,
    ScoringMethod,
    Seating,
    StoredMark,
    StoredMatch,
    StoredRanking,
    VPScale,
)
from tournaments.scoring import display_round, vp_for_margin
from tournaments.services.classification import classify as classification
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def butler(members, movements, pairs):
    """A running Butler: a 3-table Mitchell, 3 rounds of 2 boards, VPs on the WBF scale."""
    tournament = setup.create_tournament(
        name="Butler VP",
        date=datetime.date(2025, 5, 7),
        scoring_method=ScoringMethod.BUTLER,
        match_vp_scale=VPScale.WBF20,
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.mitchell(3, 3, 2), pairs(tournament, members, 6))
    setup.start_session(session)
    return section


# Boards 1 and 2 of the Mitchell are played by table 1 in round 1, table 3 in round 2 and
# table 2 in round 3. Board 1: none vulnerable; board 2: NS vulnerable.
BOARDS_1_2 = (  # (round, table, board, contract, declarer, tricks)
    (1, 1, 1, "4S", "N", 10),
    (1, 1, 2, "4S", "N", 11),  # 420, 650: NS1 against EW1
    (2, 3, 1, "2S", "N", 10),
    (2, 3, 2, "4S", "N", 10),  # 170, 620: NS3 against EW2
    (3, 2, 1, "4S", "N", 9),
    (3, 2, 2, "3NT", "N", 8),  # -50, -100: NS2 against EW3
)


def enter(section, director, lines):
    for round_, table, board, contract, declarer, tricks in lines:
        entry.submit_result(
            user=director,
            section=section,
            table=table,
            round=round_,
            board=board,
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            idempotency_key=f"vp-{round_}-{table}-{board}",
        )


def seat_of(section):
    return {s.entry_id: f"{s.direction}{s.number}" for s in Seating.objects.filter(section=section)}


def test_each_pair_s_match_is_converted_on_the_wbf_scale(butler, director):
    enter(butler, director, BOARDS_1_2)
    classification.classify_session(butler.session)
    seats = seat_of(butler)
    # Datum = the middle result of three (C03 l.205-206): board 1 170, board 2 620.
    # NS1: 420-170 = 250 → 6, 650-620 = 30 → 1: 7 IMPs over 2 boards → 14.96 (X = 15·√2);
    # NS3: 0 + 0 → 10; NS2: -220 → -6, -720 → -12: -18 over 2 boards → 0.76 (19.24 for EW3).
    expected = {
        "NS1": (7, "14.96"),
        "EW1": (-7, "5.04"),
        "NS3": (0, "10"),
        "EW2": (0, "10"),
        "NS2": (-18, "0.76"),
        "EW3": (18, "19.24"),
    }
    matches = {seats[m.entry_id]: m for m in StoredMatch.objects.filter(session=butler.session)}
    assert {k: (m.imps, m.vps) for k, m in matches.items()} == {
        k: (imps, Fraction(vps)) for k, (imps, vps) in expected.items()
    }
    assert {m.boards for m in matches.values()} == {2}
    assert seats[matches["NS1"].opponent_id] == "EW1" and matches["NS1"].round == 1
    ranking = StoredRanking.objects.filter(session=butler.session, scope=RankingScope.SECTION)
    by_line = defaultdict(list)
    for r in ranking.order_by("place"):
        by_line[r.direction].append((seats[r.entry_id], r.points))
    assert by_line["NS"] == [("NS1", Fraction("14.96")), ("NS3", 10), ("NS2", Fraction("0.76"))]
    assert by_line["EW"] == [("EW3", Fraction("19.24")), ("EW2", 10), ("EW1", Fraction("5.04"))]
    # the scorecard's board marks stay in IMPs
    ns1 = next(e for e, s in seats.items() if s == "NS1")
    assert sorted(
        m.mark for m in StoredMark.objects.filter(session=butler.session, entry_id=ns1)
    ) == [1, 6]


def test_without_the_setting_the_same_event_ranks_in_imps(butler, director):
    tournament = butler.session.tournament
    setup.update_tournament(tournament, {"match_vp_scale": ""})
    enter(butler, director, BOARDS_1_2)
    classification.classify_session(butler.session)
    seats = seat_of(butler)
    points = {
        seats[r.entry_id]: r.points
        for r in StoredRanking.objects.filter(session=butler.session, scope=RankingScope.SECTION)
    }
    assert points == {"NS1": 7, "EW1": -7, "NS3": 0, "EW2": 0, "NS2": -18, "EW3": 18}
    assert not StoredMatch.objects.filter(session=butler.session).exists()


def test_a_penalty_comes_off_the_vps(butler, director):
    enter(butler, director, BOARDS_1_2)
    ns1 = Seating.objects.get(section=butler, number=1, direction="NS").entry
    corrections.add_penalty(
        user=director, entry=ns1, session=butler.session, fraction_of_top=1, reason="late"
    )
    classification.classify_session(butler.session)
    row = StoredRanking.objects.get(session=butler.session, scope=RankingScope.SECTION, entry=ns1)
    assert row.points == Fraction("13.96")


def test_a_howell_with_a_sit_out_ranks_on_the_vps_of_every_match(members, movements, pairs):
    tournament = setup.create_tournament(
        name="Butler Howell",
        date=datetime.date(2025, 5, 8),
        scoring_method=ScoringMethod.CROSS_IMPS,
        match_vp_scale=VPScale.WBF20_DISCRETE,
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.howell(3, 8), pairs(tournament, members, 7))
    setup.start_session(session)
    play_rounds(section, random.Random(11))
    classification.classify_session(session)
    rounds = {}
    for slot in plan.slots(section.movement):
        for number in (slot.ns, slot.ew):
            for b in slot.boards:
                rounds[(b, number)] = slot.round
    number_of = {s.entry_id: s.number for s in Seating.objects.filter(section=section)}
    per_match = defaultdict(Fraction)
    for m in StoredMark.objects.filter(session=session, kind="result"):
        per_match[(m.entry_id, rounds[(m.board_number, number_of[m.entry_id])])] += Fraction(
            str(m.mark)
        )  # cross-IMPs stored to two decimals: a VP boundary would show
    matches = {(m.entry_id, m.round): m for m in StoredMatch.objects.filter(session=session)}
    assert len(matches) == 7 * 7  # every pair: six matches and a sit-out
    totals = defaultdict(Fraction)
    for (pair, rnd), m in matches.items():
        if m.boards:
            assert m.boards == 3
            assert m.vps == Fraction(
                str(vp_for_margin(per_match[(pair, rnd)], 3, "wbf20-discrete"))
            )
            assert m.vps == int(m.vps)  # whole VPs
        totals[pair] += Fraction(str(m.vps))
    for pair in number_of:
        played = [Fraction(str(m.vps)) for (p, _r), m in matches.items() if p == pair and m.boards]
        sitout = next(m for (p, _r), m in matches.items() if p == pair and not m.boards)
        assert len(played) == 6 and sitout.vps == display_round(sum(played) / 6, 2)
    for r in StoredRanking.objects.filter(session=session, scope=RankingScope.SECTION):
        assert abs(Fraction(str(r.points)) - totals[r.entry_id]) <= Fraction(1, 100)


def test_public_ranking_and_scorecard_show_the_vps(client, butler, director):
    enter(butler, director, BOARDS_1_2)
    setup.finish_session(butler.session)
    publish.publish_final(butler.session.tournament, user=director)
    tournament = butler.session.tournament
    page = client.get(reverse("results:section", args=[tournament.slug, 1, "A"]))
    assert page.status_code == 200
    from tournaments.tables import VpRankingTable

    assert all(isinstance(t["table"], VpRankingTable) for t in page.context["tables"])
    ns1 = Seating.objects.get(section=butler, number=1, direction="NS").entry
    card = client.get(reverse("results:scorecard", args=[tournament.slug, 1, ns1.pk]))
    assert card.status_code == 200 and card.context["card"].vps
    html = card.content.decode()
    assert 'id="scorecard-matches"' in html and 'data-value="14.96"' in html
    assert [m["vps"] for m in card.context["card"].matches] == [Fraction("14.96")]


def test_the_form_offers_vps_only_to_butler_and_cross_imp_pairs(client, director):
    sign_in_verified(client, director)
    data = {
        "name": "VP",
        "date": "2025-05-09",
        "event_type": "pairs",
        "scoring_method": "matchpoints",
        "match_vp_scale": "wbf20",
        "session_count": 1,
        "correction_minutes": 30,
    }
    response = client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 200 and "match_vp_scale" in response.context["form"].errors
    data["scoring_method"] = "butler"
    response = client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 302
    from tournaments.models import Tournament

    assert Tournament.objects.get(name="VP").converts_matches_to_vps


def test_the_course_table_is_refused_for_rounds_it_has_no_column_for(
    butler, members, movements, pairs
):
    from tournaments.services.errors import TournamentError

    tournament = butler.session.tournament
    with pytest.raises(TournamentError) as refused:
        setup.update_tournament(tournament, {"match_vp_scale": VPScale.COURSE25})
    assert refused.value.field == "match_vp_scale"
    other = setup.create_tournament(
        name="Butler 25",
        date=datetime.date(2025, 5, 10),
        scoring_method=ScoringMethod.BUTLER,
        match_vp_scale=VPScale.COURSE25,
    )
    section = setup.add_section(other.sessions.get())
    entries = pairs(other, members[20:], 6)
    with pytest.raises(TournamentError):
        setup.seat_section(section, movements.mitchell(3, 3, 2), entries)
    setup.seat_section(section, movements.mitchell(3, 3, 8), entries)  # 8 boards: a column
    assert section.seatings.count() == 6

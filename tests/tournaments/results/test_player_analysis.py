"""A player's own analysis on the scorecard, checked against the hand records and the
double-dummy tables: a five-table Mitchell whose board 1 is a known deal, played at the five
tables with chosen contracts. Par and the double-dummy table are worked out here with
endplay directly (not through the site's analysis), the places among the tables are counted
by hand, and the page and the service must show them; the session's hands download as PBN
that endplay reads back, holding only the boards whose deals are public.

That Mitchell, played and published, is built once for the module (tests/module_rows.py),
each test in a savepoint of it; the tests that play their own event (in IMPs, with boards
still in play) are in test_player_analysis_other_events.py."""

import datetime
import random
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from endplay.dds import calc_dd_table, par
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Contract, Deal, Denom, Penalty, Player, Vul

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import make_members, make_pairs, mitchell_dict
from tournaments.exports.deals import random_deal
from tournaments.models import Board, ScoringMethod, Seating, Section
from tournaments.services.boards import deals as board_deals
from tournaments.services.results import analysis, board_visibility, publish, scorecards
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db

# Board 1 (North deals, nobody vulnerable): North-South make ten tricks in spades and five
# in notrump; par is 4♠ by North or South, +420.
DEAL = "N:AQ874.AK2.JT.KQ4 J65.QJ.32.AJ8653 KT92.T8643.75.97 3.975.AKQ9864.T2"

# Who plays board 1 in a five-table Mitchell (``mitchell_dict(5, 5, 2)``): (round, table).
# Each line: contract, declarer, tricks; None: the director's 60/40 instead.
BOARD_1 = {
    (1, 1): ("4S", "N", 10),  # +420
    (2, 5): ("4S", "N", 11),  # +450
    (3, 4): ("3NT", "S", 5),  # −200
    (4, 3): ("4S", "N", 10),  # +420
    (5, 2): None,  # 60/40 (Law 12C2)
}
# Board 2 (no analysis stored): 3NT= by South everywhere but round 3 at table 4, one down.
BOARD_2_DOWN = (3, 4)

IMP_SCALE = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300)


def imps(points: int) -> int:
    """The IMP scale, written out here: IMPs for a difference."""
    size = sum(1 for threshold in IMP_SCALE if abs(points) >= threshold)
    return size if points >= 0 else -size


def play(section, director, *, skip=(), board_1=BOARD_1, method_adjusts=True):
    """Every line of the section, entered by the director, but the (round, table) in
    ``skip``; board 1 as ``board_1`` says, board 2 as ``BOARD_2_DOWN``, the rest 3NT=."""
    for slot in plan.slots(section.movement):
        if (slot.round, slot.table) in skip:
            continue
        for board in slot.boards:
            line = ("3NT", "S", 9)
            if board == 1:
                line = board_1[(slot.round, slot.table)]
            elif board == 2 and (slot.round, slot.table) == BOARD_2_DOWN:
                line = ("3NT", "S", 8)
            if line is None:
                if not method_adjusts:
                    continue
                corrections.adjust_score(
                    user=director,
                    section=section,
                    round=slot.round,
                    table=slot.table,
                    board=board,
                    adjustment={"kind": "artificial", "ns": 60, "ew": 40},
                    reason="Información no autorizada",
                    law="12C2",
                )
                continue
            contract, declarer, tricks = line
            entry.submit_result(
                user=director,
                section=section,
                table=slot.table,
                round=slot.round,
                board=board,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                idempotency_key=f"an-{slot.round}-{slot.table}-{board}",
            )


def known_section(members, method=ScoringMethod.MATCHPOINTS, name="Análisis"):
    """A running five-table Mitchell (10 boards), every board dealt, board 1 the known deal
    and the only one analysed (through the site's own double-dummy job)."""
    tournament = setup.create_tournament(
        name=name, date=datetime.date(2025, 9, 2), scoring_method=method
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, mitchell_dict(5, 5, 2), make_pairs(tournament, members, 10))
    setup.start_session(session)
    boards = list(Board.objects.filter(session=session).order_by("number"))
    for board in boards:
        board.deal = DEAL if board.number == 1 else random_deal(random.Random(board.number))
    Board.objects.bulk_update(boards, ["deal"])
    board_deals.analyse_boards(Board.objects.filter(session=session, number=1))
    return section


def entry_at(section, direction: str, number: int) -> int:
    return Seating.objects.get(section=section, direction=direction, number=number).entry_id


def expected_from_endplay():
    """Board 1's double-dummy table and par, and each side's best score, from endplay."""
    table = calc_dd_table(Deal(DEAL))
    result = par(table, Vul.none, Player.north)
    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades}
    denoms["NT"] = Denom.nt
    seats = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    tricks = {s: {k: int(table[d, p]) for k, d in denoms.items()} for s, p in seats.items()}
    best = {}
    for side in ("NS", "EW"):
        scores = [
            Contract(
                level=level,
                denom=denoms[strain],
                declarer=seats[seat],
                penalty=Penalty.passed,
                result=tricks[seat][strain] - level - 6,
            ).score(Vul.none)
            for seat in side
            for strain in denoms
            for level in range(1, 8)
            if tricks[seat][strain] >= level + 6
        ]
        best[side] = max(scores, default=None)
    return tricks, int(result.score), best


@pytest.fixture(scope="module")
def _known_rows(django_db_setup, django_db_blocker):
    """``members``, the director and ``known``, built once for the module."""
    with module_rows(django_db_blocker):
        members, director = make_members(), make_user("dir", Role.DIRECTOR)
        section = known_section(members)
        play(section, director)
        setup.finish_session(section.session)
        publish.publish_final(section.session.tournament, user=director)
        yield section.pk


@pytest.fixture
def known(_known_rows, db):
    """The known five-table Mitchell, played, finished and published final; read afresh."""
    return Section.objects.get(pk=_known_rows)


def card_of(section, entry_id, viewer=None):
    session = section.session
    card = scorecards.scorecard(session, entry_id, board_visibility.visibility(session, viewer))
    return analysis.analyse(card)


def test_board_one_against_field_par_and_double_dummy(client, known):
    section = known
    tricks, par_score, best = expected_from_endplay()
    assert par_score == 420 and tricks["N"]["S"] == 10 and tricks["S"]["NT"] == 5
    # Board 1's four played NS scores: 420, 450, −200, 420, and a 60/40 at table 2.
    # NS percentages: 450 tops the played ones, the 60 % comes next, the two 420s share
    # third and fourth, −200 is last; East-West the other way round, their 40 % fourth.
    # table: (its round on board 1, place, last place, NS score less par)
    by_table = {1: (1, 3, 4, 0), 5: (2, 1, 1, 30), 4: (3, 5, 5, -620), 3: (4, 3, 4, 0)}
    for table, (rnd, place, last, versus) in by_table.items():
        ns = entry_at(section, "NS", table)
        found = next(b for b in card_of(section, ns).boards if b.board == 1)
        assert (found.rank.place, found.rank.last, found.rank.of) == (place, last, 5), table
        assert found.par.par == par_score
        assert (found.par.difference, found.par.imps) == (versus, imps(versus))
        assert found.makeable.score == best["NS"]
        assert found.makeable.tricks >= found.makeable.level + 6
        assert found.makeable.tricks == tricks[found.makeable.declarer][found.makeable.strain]
        contract, declarer, taken = BOARD_1[(rnd, table)]
        assert found.tricks == taken
        assert found.dd_tricks == tricks[declarer][contract[1:]]
    # The 3NT pair's opponents (EW 2 sat there in round 3) gained 620 on par: +12 IMPs.
    ew = entry_at(section, "EW", 2)
    found = next(b for b in card_of(section, ew).boards if b.board == 1)
    assert (found.rank.place, found.rank.last) == (1, 1)
    assert (found.par.difference, found.par.imps) == (620, 12)
    assert found.makeable is None if best["EW"] is None else found.makeable.score == best["EW"]
    # The 60/40 line: ranked by its 60 %, not compared with par (nothing was played).
    adjusted = next(b for b in card_of(section, entry_at(section, "NS", 2)).boards if b.board == 1)
    assert (adjusted.rank.place, adjusted.rank.last, adjusted.percentage) == (2, 2, Decimal(60))
    assert adjusted.par is None and adjusted.tricks is None and adjusted.adjusted == "60/40"
    # The field's usual result: 4♠ by North making, two of the four played tables.
    usual = found.usual
    assert (usual.contract.text, usual.contract.symbol, usual.declarer, usual.result) == (
        "4",
        "♠",
        "N",
        "=",
    )
    assert (usual.ns_score, usual.count, usual.of) == (420, 2, 4)
    # Board 2 has its deal but no analysis: the field's places, no par, no double dummy.
    two = next(b for b in card_of(section, entry_at(section, "NS", 4)).boards if b.board == 2)
    assert (two.rank.place, two.rank.of, two.par, two.makeable, two.analysed) == (
        5,
        5,
        None,
        None,
        False,
    )


def test_the_page_shows_the_analysis_and_the_boards_lost_most(client, known):
    section = known
    tournament = section.session.tournament
    _tricks, par_score, best = expected_from_endplay()
    pair = entry_at(section, "NS", 4)  # 3NT −4 on board 1, one down on board 2
    url = reverse("results:scorecard", args=[tournament.slug, 1, pair])
    html = client.get(url).content.decode()
    row = html[html.index('<tr data-board="1">', html.index('id="analysis"')) :]
    row = row[: row.index("</tr>")]
    assert 'data-place="5" data-last="5" data-of="5"' in row
    assert "5º de 5" in row  # Spanish by default
    assert f'class="par-score" data-value="{par_score}">NS +420<' in row
    assert 'data-value="-620" data-imps="-12">−620 · −12 IMPs<' in row
    assert f'data-score="{best["NS"]}"' in row
    assert '4<span class="suit-s">♠</span></span> N=' in row
    assert 'data-made="5" data-dd="5"' in row and "bazas 5/5" in row
    # The boards it lost most: board 2 (0 %), then board 1, with the field's usual result.
    lost = html[html.index('id="lost-most"') :]
    lost = lost[: lost.index("</section>")]
    assert re.findall(r'<li data-board="(\d+)">', lost) == ["2", "1"]
    board_url = reverse("results:board", args=[tournament.slug, 1, section.pool, 1])
    assert f'href="{board_url}?pair={pair}"' in lost
    first = lost[lost.index('<li data-board="1">') :]
    assert "NS −200" in first and "NS +420 (2 de 4 mesas)" in first
    # Each board row of the scorecard opens that board's hand record in one tap.
    card_row = html[html.index('<tr data-board="1"', html.index('id="scorecard"')) :]
    assert f'href="{board_url}?pair={pair}"' in card_row[: card_row.index("</tr>")]
    # The same in English and Portuguese: the place as an ordinal.
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert "5th of 5" in html and "tricks 5/5" in html and "2 of 4 tables" in html
    client.cookies["django_language"] = "pt"
    html = client.get(url).content.decode()
    assert "5.º de 5" in html and "vazas 5/5" in html


def test_a_tie_shows_as_a_range_of_places(client, known):
    section = known
    tournament = section.session.tournament
    html = client.get(
        reverse("results:scorecard", args=[tournament.slug, 1, entry_at(section, "NS", 1)])
    ).content.decode()
    row = html[html.index('<tr data-board="1">', html.index('id="analysis"')) :]
    assert "3º–4º de 5" in row[: row.index("</tr>")]


def test_the_hand_viewer_names_dealer_vulnerability_and_par(client, known):
    """One tap from the scorecard: the four hands as dealt, the dealer's and the vulnerable
    hands marked, and par as endplay computes it."""
    section = known
    tournament = section.session.tournament
    _tricks, par_score, _best = expected_from_endplay()
    pair = entry_at(section, "NS", 1)
    html = client.get(
        reverse("results:board", args=[tournament.slug, 1, section.pool, 1]) + f"?pair={pair}"
    ).content.decode()
    north = html[html.index('data-seat="N"') : html.index('data-seat="E"')]
    assert 'data-dealer="1"' in north and "N · Dador" in north
    assert '<span class="suit-s">♠</span> AQ874' in north
    assert "vulnerable" not in html[html.index('id="hand-record"') : html.index('id="par"')]
    assert f'data-score="{par_score}">NS +{par_score}<' in html
    # Board 4: West deals, everybody vulnerable.
    html = client.get(
        reverse("results:board", args=[tournament.slug, 1, section.pool, 4])
    ).content.decode()
    assert len(re.findall(r'class="hand hand-[nesw] vulnerable"', html)) == 4
    west = html[html.index('data-seat="W"') :]
    assert west.startswith('data-seat="W" data-dealer="1"')


def test_the_hands_file_reads_back_in_endplay(client, known):
    section = known
    tournament = section.session.tournament
    response = client.get(reverse("results:hands", args=[tournament.slug, 1]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-1.pbn"'
    games = endplay_pbn.loads(response.content.decode())
    assert sorted(g.board_num for g in games) == list(range(1, 11))
    first = next(g for g in games if g.board_num == 1)
    assert first.deal.to_pbn() == DEAL
    assert first.dealer == Player.north and first.vul == Vul.none
    rows = first.info["ScoreTable"]["rows"]
    assert len(rows) == 5  # its traveller: every table's line
    # The tournament page and the scorecard link to it.
    link = reverse("results:hands", args=[tournament.slug, 1])
    assert (
        link in client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    )
    card = reverse("results:scorecard", args=[tournament.slug, 1, entry_at(section, "NS", 1)])
    assert link in client.get(card).content.decode()

"""A player's own analysis in other events than test_player_analysis.py's shared one: in
IMPs, with boards still in play, and its cost in queries; each test plays its own event."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from endplay.parsers import pbn as endplay_pbn

from tests.tournaments.conftest import make_pairs, mitchell_dict
from tests.tournaments.results.test_player_analysis import (
    BOARD_1,
    DEAL,
    card_of,
    entry_at,
    known_section,
    play,
)
from tournaments.models import Board, ScoringMethod
from tournaments.services.boards import deals as board_deals
from tournaments.services.results import analysis, publish
from tournaments.services.running import room_screen
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def test_imps_events_show_imps_and_lose_by_imps(client, members, director):
    section = known_section(members, ScoringMethod.BUTLER, name="Butler análisis")
    board_1 = {**BOARD_1, (5, 2): ("4S", "N", 9)}  # −50 instead of the 60/40
    play(section, director, board_1=board_1)
    setup.finish_session(section.session)
    publish.publish_final(section.session.tournament, user=director)
    # NS scores on board 1: 450, 420, 420, −50, −200: places counted by hand.
    places = {5: (1, 1), 1: (2, 3), 3: (2, 3), 2: (4, 4), 4: (5, 5)}
    for table, (place, last) in places.items():
        found = card_of(section, entry_at(section, "NS", table))
        board = next(b for b in found.boards if b.board == 1)
        assert found.imps and (board.rank.place, board.rank.last, board.rank.of) == (
            place,
            last,
            5,
        )
        assert board.percentage is None and board.mark is not None
    worst = card_of(section, entry_at(section, "NS", 4)).worst
    assert [b.board for b in worst] == sorted(
        [b.board for b in worst], key=lambda n: next(w.mark for w in worst if w.board == n)
    )
    assert worst[0].mark < 0 and {b.board for b in worst} >= {1}
    html = client.get(
        reverse(
            "results:scorecard",
            args=[section.session.tournament.slug, 1, entry_at(section, "NS", 4)],
        )
    ).content.decode()
    lost = html[html.index('id="lost-most"') :]
    assert " IMPs</span>" in lost[: lost.index("</section>")]


def test_boards_still_in_play_show_no_analysis_and_stay_out_of_the_file(client, members, director):
    """Table 2 has not played round 5 (boards 1 and 2): those two boards show nothing of
    the field, par or double dummy, and the hands file leaves them out."""
    section = known_section(members)
    play(section, director, skip={(5, 2)})
    tournament = section.session.tournament
    publish.publish_provisional(tournament, user=director)
    pair = entry_at(section, "NS", 1)
    found = card_of(section, pair)
    assert {b.board for b in found.boards} == set(range(3, 11))  # it plays every board
    url = reverse("results:scorecard", args=[tournament.slug, 1, pair])
    # during play, players see marks (and so the analysis) only where the club lets them
    # follow the running ranking
    assert 'id="analysis"' not in client.get(url).content.decode()
    room_screen.set_live_ranking(tournament, True)
    html = client.get(url).content.decode()
    analysed = html[html.index('id="analysis"') :]
    assert '<tr data-board="1">' not in analysed and '<tr data-board="2">' not in analysed
    # The director sees every board, analysis included.
    seen = card_of(section, pair, viewer=director)
    assert 1 in {b.board for b in seen.boards}
    link = reverse("results:hands", args=[tournament.slug, 1])
    assert (
        link in client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    )
    games = endplay_pbn.loads(client.get(link).content.decode())
    assert sorted(g.board_num for g in games) == list(range(3, 11))
    stored = {b.number: b.deal for b in Board.objects.filter(session=section.session)}
    assert all(g.deal.to_pbn() == stored[g.board_num] for g in games)


def test_no_hands_to_download_while_every_board_is_in_play(client, members, director):
    section = known_section(members)
    tournament = section.session.tournament
    publish.publish_provisional(tournament, user=director)
    link = reverse("results:hands", args=[tournament.slug, 1])
    assert client.get(link).status_code == 404
    page = client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    assert "board/A/1/" in page and link not in page  # no link to an empty file


def test_the_scorecard_reads_a_fixed_number_of_queries_whatever_the_boards(
    client, members, director
):
    """Analysed or not, ten boards or twenty-six: the scorecard with its analysis reads the
    same number of queries (no query per board)."""
    counts = {}
    for tables in (5, 13):
        tournament = setup.create_tournament(
            name=f"Consultas {tables}", date=datetime.date(2025, 9, tables)
        )
        session = tournament.sessions.get()
        section = setup.add_section(session)
        setup.seat_section(
            section,
            mitchell_dict(tables, 3, 2),
            make_pairs(tournament, members[: 4 * tables], 2 * tables),
        )
        setup.start_session(session)
        tricks, score = board_deals.analyse(DEAL, "N", "")
        Board.objects.filter(session=session).update(deal=DEAL, double_dummy=tricks, par=score)
        from tournaments.demo import play_rounds

        play_rounds(section, random.Random(tables))
        setup.finish_session(session)
        publish.publish_final(tournament, user=director)
        url = reverse("results:scorecard", args=[tournament.slug, 1, entry_at(section, "NS", 1)])
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert len(response.context["analysis"].boards) == 6
        counts[tables] = len(queries)
        card = response.context["card"]
        with CaptureQueriesContext(connection) as queries:
            analysis.analyse(card)
        # every table's marks with its result; the boards came with the card's own results
        assert len(queries) == 1
    assert counts[5] == counts[13] <= 5, counts  # warm: no club lookup (it read 7)

"""Hands, travellers and other tables' scores stay hidden while a board is still in play.

Provisional results are published mid-session; a board's deal, traveller, frequencies and the
scores at other tables show to the public, to players and to table devices only once every
table the movement schedules for it has played it, or once the director closes the session.
The director sees everything all along. The rule itself (``services.board_visibility``) is
tested without a database first, then every page that shows a board.
"""

import datetime
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.accounts.permissions import Role
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import make_pairs, mitchell_dict
from tournaments.models import Board, Result, SessionStatus, TableCode, TournamentStatus
from tournaments.movements.howell import howell
from tournaments.movements.mitchell import mitchell
from tournaments.services.entries import registration
from tournaments.services.results import board_visibility, publish
from tournaments.services.results.board_visibility import (
    BoardVisibility,
    SectionPlan,
    complete_boards,
    scheduled_plays,
)
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry
from tournaments.views.table.device import SESSION_KEY

DEAL = "N:AKQ2.JT9.876.543 JT9.AKQ2.543.876 876.543.AKQ2.JT9 543.876.JT9.AKQ2"
NORTH = '<span class="suit-s">♠</span> AKQ2'  # North's spades as the hand record shows them
SLAM = 990  # 6NT= by North, nobody vulnerable: the hidden board's score at its first table


def without_tokens(html: str) -> str:
    """The page without its random CSRF tokens and its clock times (``datetime="…"``,
    ``data-through="…"`` with its microseconds, and the "hasta las 06:41:40" beside them),
    which may happen to contain the score's digits."""
    html = re.sub(r'"X-CSRFToken":\s*"[^"]*"', "", html)
    html = re.sub(r'(datetime|data-through|data-ends)="[^"]*"', "", html)
    html = re.sub(r"\b\d{1,2}:\d{2}(:\d{2})?\b", "", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


# --- the rule, pure --------------------------------------------------------------------------


def seated_all(section_id: int, movement: dict) -> set:
    line = plan.is_directional(movement)
    return {(section_id, n, d if line else "") for n, d in plan.pair_numbers(movement)}


def test_a_mitchell_board_needs_every_table_that_plays_it():
    movement = mitchell_dict(3, 3, 1)  # each board once at each table
    sections = [SectionPlan(1, "A", 0, movement)]
    scheduled = scheduled_plays(sections, seated_all(1, movement))
    assert {board: len(tables) for board, tables in scheduled.items()} == {
        ("A", 1): 3,
        ("A", 2): 3,
        ("A", 3): 3,
    }
    board_1 = sorted(scheduled[("A", 1)])
    played = [(s, r, t, 1) for s, r, t in board_1[:2]]
    assert complete_boards(scheduled, played, {1: "A"}) == frozenset()
    played.append((*board_1[2], 1))
    assert complete_boards(scheduled, played, {1: "A"}) == {("A", 1)}


def test_a_relay_shares_a_board_between_two_tables_in_one_round():
    movement = mitchell(4, boards_per_round=2, even="twin").to_dict()
    scheduled = scheduled_plays([SectionPlan(1, "A", 0, movement)], seated_all(1, movement))
    # tables 1 and 4 share set 1 in round 1; it goes to table 3, waits a round on the relay
    # stand and ends at table 2
    assert scheduled[("A", 1)] == {(1, 1, 1), (1, 1, 4), (1, 2, 3), (1, 4, 2)}
    played = [(1, 1, 1, 1), (1, 2, 3, 1), (1, 4, 2, 1)]
    assert ("A", 1) not in complete_boards(scheduled, played, {1: "A"})
    assert ("A", 1) in complete_boards(scheduled, [*played, (1, 1, 4, 1)], {1: "A"})


def test_a_howell_with_shared_boards_waits_for_every_sharing_table():
    movement = howell(pairs=6, boards_per_round=2).to_dict()  # 3 tables share each set
    scheduled = scheduled_plays([SectionPlan(1, "A", 0, movement)], seated_all(1, movement))
    assert scheduled[("A", 1)] == {(1, 1, 1), (1, 1, 2), (1, 1, 3)}
    assert complete_boards(scheduled, [(1, 1, 1, 1), (1, 1, 2, 1)], {1: "A"}) == frozenset()
    assert complete_boards(scheduled, [(1, 1, t, 1) for t in (1, 2, 3)], {1: "A"}) == {("A", 1)}


def test_sections_of_a_pool_and_offsets_count_together_and_phantoms_not_at_all():
    movement = mitchell_dict(2, 2, 1)
    sections = [
        SectionPlan(1, "A", 0, movement),
        SectionPlan(2, "A", 0, movement),
        SectionPlan(3, "B", 10, movement),
    ]
    seated = seated_all(1, movement) | seated_all(2, movement) | seated_all(3, movement)
    seated.discard((3, 2, "EW"))  # section B's EW 2 is a phantom: its tables play nothing
    scheduled = scheduled_plays(sections, seated)
    assert len(scheduled[("A", 1)]) == 4  # two tables in each of two sections
    # section B's boards are 11-12; EW 2 meets board 12 both rounds, so nobody plays it
    assert scheduled[("B", 11)] == {(3, 1, 1), (3, 2, 2)} and ("B", 12) not in scheduled
    # a line for the phantom's table changes nothing; section A alone is not the pool
    played = [(1, r, t, 1) for _s, r, t in scheduled[("A", 1)] if _s == 1]
    assert complete_boards(scheduled, played, {1: "A", 2: "A", 3: "B"}) == frozenset()
    assert complete_boards(scheduled, [(3, 2, 2, 11)], {3: "B"}) == frozenset()
    assert complete_boards(scheduled, [(3, 2, 2, 11), (3, 1, 1, 11)], {3: "B"}) == {("B", 11)}


def test_a_board_nobody_is_scheduled_to_play_is_not_complete():
    assert complete_boards({("A", 9): set()}, [], {}) == frozenset()


def test_who_sees_everything():
    anonymous = SimpleNamespace(is_authenticated=False)
    assert not board_visibility.sees_everything(None)
    assert not board_visibility.sees_everything(anonymous)
    assert not board_visibility.sees_everything(SimpleNamespace(table=3))  # a table device
    assert BoardVisibility(True).shows("A", 7)
    assert not BoardVisibility(False, frozenset({("A", 1)})).shows("A", 7)
    assert BoardVisibility(False, frozenset({("A", 1)})).shows("A", 1)


@pytest.mark.django_db
def test_directors_and_superusers_see_everything_players_do_not():
    from django.contrib.auth.models import User

    assert board_visibility.sees_everything(make_user("td", Role.DIRECTOR))
    assert board_visibility.sees_everything(User.objects.create_superuser("root", "", "x"))
    assert not board_visibility.sees_everything(make_user("pl", Role.PLAYER))


def test_closed_means_finished_or_final():
    def session(status, tournament):
        return SimpleNamespace(status=status, tournament=SimpleNamespace(status=tournament))

    assert not board_visibility.session_closed(
        session(SessionStatus.RUNNING, TournamentStatus.PROVISIONAL)
    )
    assert board_visibility.session_closed(
        session(SessionStatus.FINISHED, TournamentStatus.PROVISIONAL)
    )
    assert board_visibility.session_closed(session(SessionStatus.RUNNING, TournamentStatus.FINAL))


# --- sessions in play with provisional results -----------------------------------------------


def running(members, movement: dict, pairs: int):
    tournament = setup.create_tournament(name="Provisional", date=datetime.date(2025, 5, 6))
    tournament.opponent_confirmation = False  # the table sees its traveller once it saved
    tournament.save(update_fields=["opponent_confirmation"])
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(section, movement, make_pairs(tournament, members, pairs))
    setup.start_session(section.session)
    section.refresh_from_db()
    Board.objects.filter(session=section.session, number=1).update(deal=DEAL)
    return section


def board_1_slots(section) -> list:
    return sorted(
        (
            s
            for s in plan.slots(section.movement)
            if 1 in s.boards and s.ns is not None and s.ew is not None
        ),
        key=lambda s: (s.round, s.table),
    )


def enter(section, director, slot, board: int, contract="1NT", tricks=7):
    entry.submit_result(
        user=director,
        section=section,
        table=slot.table,
        round=slot.round,
        board=board,
        contract=contract,
        declarer="N",
        tricks=tricks,
        idempotency_key=f"t-{section.pk}-{slot.round}-{slot.table}-{board}",
    )


def play_all_but(section, director, last) -> None:
    """Every line of the section except board 1 at ``last``; board 1's first table bids the
    slam (the score that must not leak), the others a part score (90)."""
    first = board_1_slots(section)[0]
    for slot in plan.slots(section.movement):
        if slot.ns is None or slot.ew is None:
            continue
        for b in slot.boards:
            if b == 1 and (slot.round, slot.table) == (last.round, last.table):
                continue
            if b == 1 and (slot.round, slot.table) == (first.round, first.table):
                enter(section, director, slot, b, "6NT", 12)
            else:
                enter(section, director, slot, b)


def publish_provisional(section, director):
    publish.publish_provisional(section.session.tournament, user=director)
    section.session.refresh_from_db()
    assert section.session.status == SessionStatus.RUNNING


def board_html(client, section, number=1) -> str:
    tournament = section.session.tournament
    response = client.get(reverse("results:board", args=[tournament.slug, 1, section.pool, number]))
    assert response.status_code == 200
    return response.content.decode()


def assert_hidden(html: str) -> None:
    assert 'id="board-in-play"' in html
    assert "Este estuche todavía se está jugando" in html  # the club's language
    assert NORTH not in html and 'id="hand-record"' not in html
    assert 'id="traveller"' not in html and 'id="frequencies"' not in html
    assert str(SLAM) not in without_tokens(html)


def assert_shown(html: str) -> None:
    assert 'id="board-in-play"' not in html
    assert NORTH in html and 'id="traveller"' in html and 'id="frequencies"' in html
    assert str(SLAM) in html


def table_device(section, table: int) -> Client:
    device = Client()
    code = TableCode.objects.get(section=section, table=table, active=True)
    device.post(reverse("table:index"), {"table": code.label, "code": code.code})
    assert device.session[SESSION_KEY] == code.pk
    return device


def linked_player(section, slot):
    """A logged-in member whose pair played board 1 at ``slot``."""
    result = Result.objects.get(
        section=section, round=slot.round, table=slot.table, board__number=1
    )
    member = result.ns.entry_players.order_by("seat").first().member
    user = make_user("miembro", Role.PLAYER)
    member.user = user
    member.save()
    browser = Client()
    sign_in_verified(browser, user)
    return browser, result


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["mitchell", "howell_shared", "relay"])
def test_hands_and_travellers_wait_for_the_last_table(members, director, kind):
    movement, pairs = {
        "mitchell": (mitchell_dict(7, 7, 2), 14),
        "howell_shared": (howell(pairs=6, boards_per_round=2).to_dict(), 6),
        "relay": (mitchell(4, boards_per_round=2, even="twin").to_dict(), 8),
    }[kind]
    section = running(members, movement, pairs)
    slots = board_1_slots(section)
    first, last = slots[0], slots[-1]
    if kind == "relay":
        last = next(s for s in slots if s.round == first.round and s.table != first.table)
    play_all_but(section, director, last)
    publish_provisional(section, director)
    anonymous, staff = Client(), Client()
    sign_in_verified(staff, director)
    player, own = linked_player(section, first)
    device = table_device(section, first.table)

    assert_hidden(board_html(anonymous, section))
    assert_hidden(board_html(player, section))
    assert_shown(board_html(staff, section))
    other_board = next(b for s in slots for b in s.boards if b != 1)
    complete = board_html(anonymous, section, other_board)
    assert 'id="board-in-play"' not in complete and 'id="traveller"' in complete

    # the table that bid the slam sees its own result, not the other tables'
    page = device.get(reverse("table:board", args=[first.round, 1]))
    assert page.context["in_play"] and page.context["traveller"] is None
    assert 'id="board-in-play"' in page.content.decode()
    assert 'id="traveller"' not in page.content.decode()

    # scorecards: the pair's own line to its member, nothing of it to anybody else
    url = reverse("results:scorecard", args=[section.session.tournament.slug, 1, own.ns_id])
    mine = player.get(url).content.decode()
    row = mine[mine.index('data-board="1"') :]
    row = row[: row.index("</tr>")]
    assert "in-play" in row and str(SLAM) in row and "6SA" in re.sub(r"<[^>]+>|\s", "", row)
    assert '<td class="num mark">' in row  # its mark is computed against the other tables
    theirs = anonymous.get(url).content.decode()
    row = theirs[theirs.index('data-board="1"') :]
    row = row[: row.index("</tr>")]
    assert "in-play" in row and str(SLAM) not in row and "6SA" not in re.sub(r"<[^>]+>|\s", "", row)
    assert str(SLAM) in staff.get(url).content.decode()

    # the last table plays board 1: everyone sees it
    enter(section, director, last, 1)
    assert_shown(board_html(anonymous, section))
    assert_shown(board_html(player, section))
    page = device.get(reverse("table:board", args=[first.round, 1]))
    assert not page.context["in_play"]
    assert len(page.context["traveller"]["rows"]) == len(slots)
    assert str(SLAM) in anonymous.get(url).content.decode()


@pytest.mark.django_db
def test_closing_the_session_reveals_every_board(members, director):
    section = running(members, mitchell_dict(7, 7, 2), 14)
    slots = board_1_slots(section)
    play_all_but(section, director, slots[-1])
    publish_provisional(section, director)
    assert_hidden(board_html(Client(), section))
    setup.finish_session(section.session)
    assert_shown(board_html(Client(), section))


@pytest.mark.django_db
def test_the_rule_reads_a_session_in_a_constant_number_of_queries(
    members, director, django_assert_max_num_queries
):
    section = running(members, mitchell_dict(7, 7, 2), 14)
    play_all_but(section, director, board_1_slots(section)[-1])
    session = section.session
    with django_assert_max_num_queries(3):
        complete = board_visibility.boards_complete(session)
    assert ("A", 1) not in complete and len(complete) == 13


@pytest.mark.django_db
def test_the_provisional_results_pdf_omits_boards_still_in_play(members, director):
    from tournaments import documents
    from tournaments.models.uploads import PdfKind

    section = running(members, mitchell_dict(7, 7, 2), 14)
    slots = board_1_slots(section)
    play_all_but(section, director, slots[-1])
    publish_provisional(section, director)
    tournament = section.session.tournament
    html, _version = documents.render_html(tournament, PdfKind.RESULTS, "en")
    assert "AKQ2" not in html  # board 1's hand record
    assert html.count("This board is still being played") == 1  # its traveller
    assert html.count("in play") == 2 * (len(slots) - 1)  # both pairs that played it, each card
    enter(section, director, slots[-1], 1)
    html, _version = documents.render_html(tournament, PdfKind.RESULTS, "en")
    assert "AKQ2" in html and "still being played" not in html and "in play" not in html


@pytest.mark.django_db
def test_a_teams_match_shows_a_boards_scores_once_every_match_played_it(members, director):
    from tournaments.models import EventType, ScoringMethod, TeamMatch
    from tournaments.services.teams import team_events

    tournament = setup.create_tournament(
        name="Liga",
        date=datetime.date(2025, 6, 3),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(tournament, format="swiss", boards_per_match=2, swiss_rounds=3)
    for i in range(4):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    first, second = TeamMatch.objects.filter(session=session, round=1).order_by("number")

    def play(match, contract, tricks):
        for table in (match.open_table, match.closed_table):
            entry.submit_result(
                user=director,
                section=section,
                table=table,
                round=1,
                board=1,
                contract=contract,
                declarer="N",
                tricks=tricks,
                idempotency_key=f"teams-{table}",
            )

    play(first, "6NT", 12)  # +990 in both rooms
    publish.publish_provisional(tournament, user=director)
    url = reverse("results:teams_match", args=[tournament.slug, first.pk])
    staff = Client()
    sign_in_verified(staff, director)
    page = Client().get(url)
    board_1 = page.context["boards"][0]
    assert board_1["in_play"] and board_1["open"] is None and board_1["closed"] is None
    assert str(SLAM) not in without_tokens(page.content.decode())
    assert 'id="board-in-play"' in page.content.decode()
    assert str(SLAM) in staff.get(url).content.decode()
    play(second, "1NT", 7)
    page = Client().get(url)
    assert not page.context["boards"][0].get("in_play")
    assert str(SLAM) in page.content.decode()

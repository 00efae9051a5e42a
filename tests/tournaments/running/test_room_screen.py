"""The room screen (``services.running.room_screen`` and its views): the round and its tables
finished, where everyone goes next, the ranking laid out for a TV, the secret link, and who
may change what."""

import datetime
import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import build_mitchell_session, make_members
from tournaments.demo import play_rounds
from tournaments.models import RoomScreen, Section
from tournaments.movements import Movement
from tournaments.movements.instructions import LineSteps, places
from tournaments.services.errors import TournamentError
from tournaments.services.results.pages import RankingGroup
from tournaments.services.running import room_clock, room_round, room_screen
from tournaments.services.running.room_clock import IDLE, OVER, RUNNING
from tournaments.services.running.room_round import RoomRound
from tournaments.services.setup import plan
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


def play_table(section, round_number, table, director):
    """The director enters 3NT= by South on every board ``table`` plays in the round."""
    slot = plan.slot_for(section.movement, round_number, table)
    for board in slot.boards:
        entry.submit_result(
            user=director,
            section=section,
            table=table,
            round=round_number,
            board=board + section.board_offset,
            contract="3NT",
            declarer="S",
            tricks=9,
            idempotency_key=f"t-{round_number}-{table}-{board}",
        )


@pytest.fixture(scope="module")
def _second_round_rows(django_db_setup, django_db_blocker):
    """``members``, the running Mitchell of ``mitchell_session`` seated on them and
    ``director``; round 1 played, and of round 2, tables 1 to 3 have finished and table 4
    has begun. Built once for the module."""
    with module_rows(django_db_blocker):
        section = build_mitchell_session(make_members())
        director = make_user("dir", Role.DIRECTOR)
        play_rounds(section, random.Random(2), rounds=1)
        for table in (1, 2, 3):
            play_table(section, 2, table, director)
        slot = plan.slot_for(section.movement, 2, 4)
        entry.submit_result(
            user=director,
            section=section,
            table=4,
            round=2,
            board=slot.boards[0],
            contract="4S",
            declarer="N",
            tricks=10,
            idempotency_key="t-2-4-first",
        )
        yield section.pk


@pytest.fixture
def members(_second_round_rows, db):
    """The module's sixty members (``members``), on which its Mitchell is seated."""
    return list(Member.objects.filter(licence_number__startswith="T-").order_by("licence_number"))


@pytest.fixture
def director(_second_round_rows, db):
    """The module's director (``director``), who entered its results."""
    return User.objects.get(username="dir")


@pytest.fixture
def second_round(_second_round_rows, db):
    """Round 1 played; of round 2, tables 1 to 3 have finished and table 4 has begun."""
    return Section.objects.get(pk=_second_round_rows)


# --- the round and its tables ---------------------------------------------------------------


def test_the_room_is_on_the_round_most_tables_play_and_counts_the_finished(second_round):
    state = room_round.room_round(second_round.session)
    assert state == RoomRound(2, 7, 7, 3, False)  # tables 4-7 are still on round 2


def test_the_directors_clock_names_the_round(second_round):
    session = second_round.session
    room_clock.start_round(session, 3, minutes=15)
    state = room_round.room_round(session)
    assert (state.round, state.done, state.on_clock) == (3, 0, True)


def test_a_round_every_table_has_finished_gives_way_to_the_next(second_round, director):
    """The director forgot to start round 3's clock: once round 2 is finished everywhere the
    room is on round 3 all the same, and the screen says how to get there."""
    session = second_round.session
    room_clock.start_round(session, 2, minutes=15)
    for table in (4, 5, 6, 7):
        play_table(second_round, 2, table, director)
    state = room_round.room_round(session)
    assert (state.round, state.done, state.on_clock) == (3, 0, False)
    screen = room_screen.screen(RoomScreen.for_session(session), timezone.now())
    assert screen.change_from == 2


def test_a_phantoms_table_is_not_counted(howell_session, director):
    """Seven pairs on four tables: each round one table has nobody against the phantom."""
    state = room_round.room_round(howell_session.session)
    assert (state.round, state.tables, state.done) == (1, 3, 0)


# --- where everyone goes --------------------------------------------------------------------


def test_once_a_table_has_finished_the_screen_says_where_everyone_goes_next(second_round):
    screen = room_screen.screen(RoomScreen.for_session(second_round.session), timezone.now())
    assert screen.change_from == 2
    (change,) = screen.changes
    assert change.steps == LineSteps(0, 1, -1, False)  # NS stay, EW up one, boards down one
    assert [(line.who, line.way, line.tables) for line in change.lines] == [
        ("NS", "stay", 0),
        ("EW", "up", 1),
        ("boards", "down", 1),
    ]
    assert change.pairs == [] and change.sitting_out == []


def test_until_a_table_has_finished_the_way_into_the_round_stays_on_screen(
    mitchell_session, director
):
    play_rounds(mitchell_session, random.Random(2), rounds=1)
    session = mitchell_session.session
    session.refresh_from_db()
    screen = room_screen.screen(RoomScreen.for_session(session), timezone.now())
    assert screen.round.round == 2 and screen.round.done == 0
    assert screen.change_from == 1  # pairs may still be moving into round 2


def test_a_howell_lists_every_pair_and_its_sit_out(howell_session):
    session = howell_session.session
    session.refresh_from_db()
    screen = room_screen.screen(RoomScreen.for_session(session), timezone.now())
    assert screen.change_from == 1
    (change,) = screen.changes
    assert change.steps is None
    movement = Movement.from_dict(howell_session.movement)  # pair 8 is the phantom
    second = places(movement.rounds[1], frozenset({8}))
    assert len(change.pairs) == 7  # the phantom is nobody
    for pair in change.pairs:
        where = second.get(pair.number)
        assert pair.next == (None if where is None else (where.table, where.seat))
    (out,) = change.sitting_out
    phantoms_table = next(t for t in movement.rounds[1].tables if 8 in (t.ns, t.ew))
    assert out.number == ({phantoms_table.ns, phantoms_table.ew} - {8}).pop()
    assert out.next is None and out.now is not None
    for boards in change.boards:  # every set played in round 2 comes from somewhere
        for table in boards.next:
            assert movement.at(2, table).boards[0] == boards.first


@pytest.mark.parametrize(
    ("state", "clock", "shown"),
    [
        (RoomRound(1, 7, 7, 0, False), IDLE, 1),  # the first round: out of it from the start
        (RoomRound(4, 7, 7, 0, False), IDLE, 3),  # nobody finished yet: the way into round 4
        (RoomRound(4, 7, 7, 0, True), RUNNING, 3),
        (RoomRound(4, 7, 7, 1, True), RUNNING, 4),  # a table finished: the way out
        (RoomRound(4, 7, 7, 0, True), OVER, 4),  # time is up: the way out
        (RoomRound(7, 7, 7, 2, False), IDLE, None),  # the last round: nothing follows
        (RoomRound(7, 7, 7, 0, False), IDLE, 6),
        (RoomRound(0, 0, 0, 0, False), IDLE, None),  # no movement yet
    ],
)
def test_which_change_is_on_screen(state, clock, shown):
    assert room_screen.change_round(state, clock) == shown


def test_a_long_ranking_is_cut_into_columns_and_pages():
    rows = [{"entry_id": i, "place": i} for i in range(1, 31)]
    pages = room_screen.layout(
        [("", RankingGroup("NS", rows[:16])), ("", RankingGroup("EW", rows[16:]))]
    )
    assert [[len(c.rows) for c in page] for page in pages] == [[15, 1], [14]]
    assert [c.first for page in pages for c in page] == [True, False, True]
    fifteen = room_screen.layout(
        [("", RankingGroup("NS", rows[:15])), ("", RankingGroup("EW", rows[:15]))]
    )
    assert len(fifteen) == 1  # a 15-table Mitchell fits one page


# --- the screen's page ----------------------------------------------------------------------


@pytest.fixture
def linked(second_round):
    room = room_screen.make_link(second_round.session)
    return second_round, reverse("results:room", args=[room.token])


def test_the_screen_opens_by_its_link_with_no_sign_in_and_a_wrong_link_is_404(linked):
    section, url = linked
    page = Client().get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="room-round" data-round="2" data-done="3" data-tables="7"' in text
    assert "<form" not in text and "csrfmiddlewaretoken" not in text  # it only reads
    assert "no-store" in page["Cache-Control"]  # a reload renders it now
    assert Client().get(url.replace(url.split("/")[-2], "x" * 22)).status_code == 404
    old = url
    room_screen.make_link(section.session)  # a new link ends the old one
    assert Client().get(old).status_code == 404


def test_the_screen_asks_again_and_is_answered_304_until_something_changes(linked, director):
    section, url = linked
    room_clock.start_round(section.session, 2, minutes=15)  # the room plays round 2
    browser = Client(HTTP_HX_REQUEST="true")
    first = browser.get(url)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    again = browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    play_table(section, 2, 5, director)  # table 5 finishes round 2
    after = browser.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert 'data-done="4"' in after.content.decode()
    room_clock.pause(section.session)
    assert browser.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 200


def test_the_clock_on_the_screen_is_the_stored_one(linked):
    section, url = linked
    start = timezone.now() - datetime.timedelta(minutes=3)
    room_clock.start_round(section.session, 2, minutes=15, now=start)
    text = Client().get(url).content.decode()
    assert 'data-state="running"' in text
    left = int(text.split('data-left="')[1].split('"')[0])
    assert 11 * 60 < left <= 12 * 60
    room_clock.pause(section.session)
    assert 'data-state="paused"' in Client().get(url).content.decode()


# --- who may change what --------------------------------------------------------------------


CONTROLS = [
    ("director:room_clock", {"action": "start", "round": "2", "minutes": "12"}),
    ("director:room_settings", {"action": "hidden", "hidden_rounds": "1"}),
    ("director:room_settings", {"action": "live", "live_ranking": "on"}),
    ("director:room_settings", {"action": "link"}),
]


@pytest.mark.parametrize(("name", "data"), CONTROLS)
def test_only_the_director_changes_the_screen(second_round, player, director, name, data):
    session = second_round.session
    url = reverse(name, args=[session.pk])
    before = (list(RoomScreen.objects.values()), session.tournament.live_ranking)
    anonymous = Client().post(url, data)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    player_client = Client()
    player_client.force_login(player)
    assert player_client.post(url, data).status_code == 403
    assert Client().get(reverse("director:room", args=[session.pk])).status_code == 302
    assert player_client.get(reverse("director:room", args=[session.pk])).status_code == 403
    session.tournament.refresh_from_db()
    assert (list(RoomScreen.objects.values()), session.tournament.live_ranking) == before
    done = sign_in_verified(Client(), director).post(url, data)
    assert done.status_code == 302
    session.tournament.refresh_from_db()
    assert (list(RoomScreen.objects.values()), session.tournament.live_ranking) != before


def test_the_director_sees_copies_and_opens_the_link(second_round, director):
    session = second_round.session
    client = sign_in_verified(Client(), director)
    page = client.get(reverse("director:room", args=[session.pk]))
    assert page.status_code == 200 and b'id="make-room-link"' in page.content
    client.post(reverse("director:room_settings", args=[session.pk]), {"action": "link"})
    page = client.get(reverse("director:room", args=[session.pk])).content.decode()
    token = RoomScreen.objects.get(session=session).token
    link = f"http://testserver/results/room/{token}/"  # the screen follows the saved language
    assert f'value="{link}"' in page and f'href="{link}"' in page
    assert 'data-copy="room-link"' in page
    console = client.get(reverse("director:console", args=[session.pk])).content.decode()
    assert reverse("director:room", args=[session.pk]) in console


def test_the_directors_clock_controls(second_round, director):
    session = second_round.session
    client = sign_in_verified(Client(), director)
    url = reverse("director:room_clock", args=[session.pk])
    client.post(url, {"action": "start", "round": "2", "minutes": "12"})
    room = RoomScreen.objects.get(session=session)
    assert (room.clock_round, room.round_minutes, room.clock_left) == (2, 12, None)
    client.post(url, {"action": "pause"})
    room.refresh_from_db()
    assert room.clock_ends_at is None and room.clock_left > datetime.timedelta(minutes=11)
    client.post(url, {"action": "resume"})
    room.refresh_from_db()
    assert room.clock_left is None and room.clock_ends_at > timezone.now()
    refused = client.post(url, {"action": "resume"}, follow=True)  # not paused
    assert "error" in [m.tags for m in refused.context["messages"]]
    ends = room.clock_ends_at
    client.post(url, {"action": "minutes", "minutes": "9"})  # from the next round on
    room.refresh_from_db()
    assert room.round_minutes == 9 and room.clock_ends_at == ends


# --- the screen's language ------------------------------------------------------------------


def test_the_director_saves_the_screens_language_and_a_tv_follows_it(linked, director, settings):
    settings.LANGUAGE_CODE = "pt"  # the club's
    section, screen_url = linked
    session = section.session
    client = sign_in_verified(Client(), director)
    url = reverse("director:room", args=[session.pk])
    save = reverse("director:room_settings", args=[session.pk])
    page = client.get(url).content.decode()
    assert 'id="room-language-form"' in page and '<option value="pt" selected>' in page
    tv = Client()  # no cookie, and the link names no language: the club's
    assert tv.get(screen_url)["Content-Language"] == "pt"
    done = client.post(save, {"action": "language", "language": "en"}, follow=True)
    assert "success" in [m.tags for m in done.context["messages"]]
    assert '<option value="en" selected>' in done.content.decode()
    assert RoomScreen.objects.get(session=session).language == "en"
    poll = Client(HTTP_HX_REQUEST="true").get(screen_url)  # the TV's next poll
    assert poll["Content-Language"] == "en" and 'lang="en"' in poll.content.decode()
    assert tv.get(screen_url, {"lang": "es"})["Content-Language"] == "es"  # a link naming one
    refused = client.post(save, {"action": "language", "language": "xx"}, follow=True)
    assert "error" in [m.tags for m in refused.context["messages"]]
    assert RoomScreen.objects.get(session=session).language == "en"
    with pytest.raises(TournamentError):
        room_screen.set_language(session, "de")


@pytest.mark.parametrize(
    "language, words", [("pt", "Classificação"), ("en", "Ranking"), ("es", "Clasificación")]
)
def test_a_tv_with_no_cookie_shows_the_language_its_link_names(linked, language, words):
    _section, url = linked
    tv = Client()  # no cookie: the club's language would be Spanish
    page = tv.get(url, {"lang": language})
    text = page.content.decode()
    assert page["Content-Language"] == language and f'<html lang="{language}"' in text
    assert f"{words}</h1>" in " ".join(text.split()).replace(" </h1>", "</h1>")
    assert f'hx-get="{url}?lang={language}"' in text  # its polls keep it
    poll = Client(HTTP_HX_REQUEST="true").get(url, {"lang": language})
    assert poll["Content-Language"] == language
    unknown = tv.get(url, {"lang": "xx"})
    assert unknown.status_code == 200 and unknown["Content-Language"] == "es"

"""A late pair takes a half-table Mitchell's phantom place: the movement stays, the boards
the place passed before the pair arrived are scored as not played, and the pair and its
earlier opponents are ranked on the boards they played."""

import datetime
import random

import pytest
from django.urls import reverse

from tests.tournaments.conftest import mitchell_dict
from tournaments.demo import play_rounds
from tournaments.models import (
    Entry,
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    StoredRanking,
)
from tournaments.services.classification import classify as classification
from tournaments.services.entries import late_pairs, registration
from tournaments.services.errors import TournamentError
from tournaments.services.running import board_grid
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def half_table(members):
    """A 7-table Mitchell for 13 pairs: one place is the phantom; two rounds played."""
    tournament = setup.create_tournament(
        name="Miércoles", date=datetime.date(2025, 3, 5), scoring_method=ScoringMethod.MATCHPOINTS
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(13)]
    setup.seat_section(section, mitchell_dict(7, 7, 2), pairs)
    setup.start_session(session)
    play_rounds(section, random.Random(5), rounds=2)
    late = registration.register_entry(tournament, members[40:42])
    return section, late


def test_the_late_pair_keeps_the_phantoms_seating_and_passed_boards_are_not_played(
    half_table, director
):
    section, late = half_table
    (place,) = registration.free_places(section)
    movement_before = section.movement
    seating, unplayed = late_pairs.seat_late_pair(section, late, user=director, from_round=3)
    section.refresh_from_db()
    assert section.movement == movement_before  # the movement stays
    assert (seating.number, seating.direction) == place
    assert registration.free_places(section) == []
    lines = list(late_pairs.passed_lines(section, *place, 3))
    assert len(lines) == unplayed == 4  # two rounds of two boards
    rows = Result.objects.filter(
        section=section, status=ResultStatus.OK, adjustment__kind="not_played"
    )
    assert sorted((r.round, r.table, r.board.number) for r in rows) == sorted(lines)
    assert all(late.pk in (r.ns_id, r.ew_id) for r in rows)
    assert all(r.adjustment["reason"] == "relay" for r in rows)
    # the pair plays on from round 3 at its place's table, boards as the movement says
    slot = next(
        s
        for s in plan.slots(section.movement)
        if s.round == 3 and place[0] == (s.ns if place[1] == "NS" else s.ew)
    )
    play_rounds(section, random.Random(6), only=3)
    played = Result.objects.filter(
        section=section, round=3, table=slot.table, status=ResultStatus.OK
    )
    assert played.count() == 2 and all(late.pk in (r.ns_id, r.ew_id) for r in played)
    # ranked on the boards it played
    classification.classify_session(section.session)
    line = StoredRanking.objects.get(entry=late, scope=RankingScope.SECTION)
    assert line.percentage is not None
    assert Entry.objects.get(pk=late.pk).late


def test_lines_already_played_are_left_alone_and_a_wrong_round_is_refused(half_table, director):
    section, late = half_table
    with pytest.raises(TournamentError):
        late_pairs.seat_late_pair(section, late, user=director, from_round=99)
    assert registration.free_places(section)  # nothing seated
    _seat, unplayed = late_pairs.seat_late_pair(section, late, user=director, from_round=1)
    assert unplayed == 0
    assert late_pairs.rounds_in_play(section) == 2


def test_the_console_seats_the_late_pair(director_client, half_table):
    section, late = half_table
    console = reverse("director:console", args=[section.session.pk])
    html = director_client.get(console).content.decode()
    assert 'id="late-a"' in html and 'name="from_round"' in html and 'value="2"' in html
    response = director_client.post(
        reverse("director:late_entry", args=[section.pk]),
        {"entry": late.pk, "place": "", "from_round": 2, "next": console},
    )
    assert response.status_code == 302 and response["Location"] == console
    assert Result.objects.filter(section=section, adjustment__kind="not_played").count() == 2
    page = director_client.get(console).content.decode()
    assert 'id="late-a"' not in page  # no free place, nobody waiting


def test_the_grid_shows_the_phantoms_table_as_a_rest_until_the_late_pair_sits(half_table, director):
    section, late = half_table

    def rests(round_number):
        grid = board_grid.board_grid(section.session, round_number)
        return [row.table for row in grid.rows if not row.cells]

    assert all(len(rests(r)) == 1 for r in (1, 2, 3))
    late_pairs.seat_late_pair(section, late, user=director, from_round=3)
    assert rests(1) == rests(3) == []

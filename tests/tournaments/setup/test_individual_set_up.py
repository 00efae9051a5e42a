"""Individual events set up by the director over HTTP, each test seating or playing its own
(players, boards, scoring); apart from test_individual_views.py's shared running individual."""

import random

import pytest
from django.urls import reverse

from tests.tournaments.setup.test_individual_views import individual_event
from tournaments.demo import play_rounds
from tournaments.models import RankingScope, ScoringMethod, Seating, StoredMark, StoredRanking
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual, plan
from tournaments.tables import IndividualImpRankingTable

pytestmark = pytest.mark.django_db


def test_the_pairs_movement_page_sends_an_individual_to_its_own(director_client, members):
    section, _entries = individual_event(members)
    response = director_client.get(reverse("director:movement", args=[section.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("director:individual_movement", args=[section.pk])


def test_director_seats_sixteen_players_in_the_course_movement(director_client, members):
    section, entries = individual_event(members)
    url = reverse("director:individual_movement", args=[section.pk])
    page = director_client.get(url)
    assert page.status_code == 200
    assert page.context["count"] == 16 and page.context["form"].initial["players"] == 16
    response = director_client.post(
        url, {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("director:seating", args=[section.pk])
    numbers = dict(Seating.objects.filter(section=section).values_list("entry_id", "number"))
    assert [numbers[e.pk] for e in entries] == list(range(1, 17))
    section.refresh_from_db()
    assert plan.is_individual(section.movement) and plan.round_count(section.movement) == 15
    session_page = director_client.get(reverse("director:session", args=[section.session_id]))
    html = session_page.content.decode()
    assert (
        session_page.context["cards"][0]["individual"]
        and reverse("director:print_pairs", args=[section.pk]) not in html
    )


def test_a_movement_for_another_number_of_players_is_refused_and_nothing_is_seated(
    director_client, members
):
    section, entries = individual_event(members, players=15)
    url = reverse("director:individual_movement", args=[section.pk])
    response = director_client.post(
        url, {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]}
    )
    assert response.status_code == 400
    assert "hay 15 presentes" in response.content.decode()  # Spanish, the club's language
    assert not Seating.objects.filter(section=section).exists()
    sixteen = director_client.post(
        url, {"players": 16, "boards_per_round": 3, "entries": [e.pk for e in entries]}
    )
    assert sixteen.status_code == 400 and sixteen.context["form"].errors["boards_per_round"]


def test_twelve_players_with_three_boards_a_round(director_client, members):
    section, entries = individual_event(members, players=12)
    response = director_client.post(
        reverse("director:individual_movement", args=[section.pk]),
        {"players": 12, "boards_per_round": 3, "entries": [e.pk for e in entries]},
    )
    assert response.status_code == 302
    section.refresh_from_db()
    assert (plan.round_count(section.movement), plan.boards_per_round(section.movement)) == (11, 3)


@pytest.mark.parametrize(
    ("method", "accepted"),
    [(ScoringMethod.BUTLER, True), (ScoringMethod.CROSS_IMPS, True), (ScoringMethod.IMPS, False)],
)
def test_an_individual_is_scored_in_matchpoints_or_pairs_imps(
    director_client, members, method, accepted
):
    section, entries = individual_event(members)
    tournament = section.session.tournament
    tournament.scoring_method = method
    tournament.save()
    response = director_client.post(
        reverse("director:individual_movement", args=[section.pk]),
        {"players": 16, "boards_per_round": 2, "entries": [e.pk for e in entries]},
    )
    assert response.status_code == (302 if accepted else 400)
    assert Seating.objects.filter(section=section).exists() == accepted
    if not accepted:
        assert response.context["form"].non_field_errors()


def test_a_butler_individual_ranks_and_scores_in_imps(client, members, director):
    section, entries = individual_event(members)
    tournament = section.session.tournament
    tournament.scoring_method = ScoringMethod.BUTLER
    tournament.save()
    setup.seat_section(section, individual.build_movement(16), entries)
    setup.start_session(section.session)
    play_rounds(section, random.Random(5))
    setup.finish_session(section.session)
    publish.publish_final(tournament, user=director)
    response = client.get(reverse("results:section", args=[tournament.slug, 1, "A"]))
    assert response.status_code == 200
    table = response.context["tables"][0]["table"]
    assert isinstance(table, IndividualImpRankingTable)
    assert response.content.decode().count("<tr data-entry=") == 16
    rows = StoredRanking.objects.filter(session=section.session, scope=RankingScope.SECTION)
    assert all(r.percentage is None for r in rows)
    first = Seating.objects.get(section=section, number=1)
    card = client.get(reverse("results:scorecard", args=[tournament.slug, 1, first.entry_id]))
    assert card.status_code == 200
    scorecard = card.context["card"]
    assert scorecard.imps and scorecard.individual and len(scorecard.rows) == 30
    mine = {
        m.board_number: m.mark
        for m in StoredMark.objects.filter(session=section.session, entry_id=first.entry_id)
    }
    assert {row["board"]: row["mark"] for row in scorecard.rows} == mine
    # the player's total in IMPs is the sum of the IMPs on their boards
    assert rows.get(entry_id=first.entry_id).points == sum(mine.values())


def test_single_players_register_as_members_or_guests(director_client, members):
    section, _entries = individual_event(members, players=0)
    tournament = section.session.tournament
    url = reverse("director:entries", args=[tournament.pk])
    page = director_client.get(url)
    assert len(page.context["slots"]) == 1  # one player per entry
    assert director_client.post(url, {"player1": members[0].pk}).status_code == 302
    added = director_client.post(
        url,
        {
            "action": "guest1",
            "guest1-first_name": "Rocío",
            "guest1-last_name": "Quintana",
            "guest1-home_club": "Alicante",
        },
    )
    guest = added.context["slots"][0]["chosen"]
    assert guest.is_guest and guest.full_name.startswith("Rocío")
    assert director_client.post(url, {"player1": guest.pk}).status_code == 302
    again = director_client.post(url, {"player1": members[0].pk})
    assert again.status_code == 400  # already playing
    names = [e.display_name for e in tournament.entries.order_by("id")]
    assert names == [members[0].full_name, guest.full_name]

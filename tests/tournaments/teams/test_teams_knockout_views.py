"""Knockout teams events over HTTP: the director's settings, seeds, carry-over, tie-break and
stage draw; who may use them; the public live bracket."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.teams.test_teams_views import sign_in, teams_event
from tournaments.models import ScoringMethod, TeamMatch
from tournaments.services.classification import classify as classification
from tournaments.services.results import publish
from tournaments.services.table import entry
from tournaments.services.teams import team_events, team_schedule

pytestmark = pytest.mark.django_db

SETTINGS = {
    "format": "knockout",
    "round_robin_method": "roman",
    "legs": 1,
    "swiss_rounds": 3,
    "knockout_seeding": "registration",
    "knockout_tie": "extra_boards",
    "tie_boards": 2,
    "boards_per_match": 2,
    "vp_scale": "wbf20",
    "bye_vp": "12",
    "tie_breaks": "h2h,diff,quotient",
}


def knockout_event(members, count=4):
    tournament = teams_event(members, count)
    tournament.scoring_method = ScoringMethod.IMPS
    tournament.save(update_fields=["scoring_method"])
    return tournament


def play(session, director, m, scores):
    section = session.sections.get()
    for board, (open_ns, closed_ns) in scores.items():
        for table, score in ((m.open_table, open_ns), (m.closed_table, closed_ns)):
            entry.submit_result(
                user=director,
                section=section,
                table=table,
                round=m.round,
                board=board,
                contract="3NT",
                declarer="N",
                tricks=9,
                ns_score=score,
                idempotency_key=uuid.uuid4().hex,
            )


def test_director_runs_a_knockout_with_seeds_a_carry_over_and_a_tie(
    director_client, members, director, client
):
    tournament = knockout_event(members, 4)
    url = reverse("director:teams", args=[tournament.pk])
    assert director_client.post(url, SETTINGS).status_code == 302
    event = team_schedule.team_event(tournament)
    assert (event.format, event.knockout_tie, event.tie_boards) == ("knockout", "extra_boards", 2)
    assert b'id="seeds-form"' in director_client.get(url).content
    entries = team_schedule.teams_of(tournament)
    # The director seeds the fourth team first; the others follow in registration order.
    seeds = reverse("director:knockout_seeds", args=[tournament.pk])
    assert director_client.post(seeds, {f"seed-{entries[3].pk}": "1"}).status_code == 302
    assert team_schedule.team_event(tournament).seeds == [
        entries[3].pk,
        entries[0].pk,
        entries[1].pk,
        entries[2].pk,
    ]
    director_client.post(seeds, {f"seed-{entries[0].pk}": "1", f"seed-{entries[1].pk}": "1"})
    assert (
        team_schedule.team_event(tournament).seeds[0] == entries[3].pk
    )  # same seed twice: refused
    director_client.post(reverse("director:teams_start", args=[tournament.pk]))
    session = team_schedule.teams_session(tournament)
    assert team_schedule.numbers_of(session)[entries[3].pk] == 1
    m1, m2 = TeamMatch.objects.filter(session=session, round=1).order_by("number")
    assert m1.home_id == entries[3].pk  # seed 1 v seed 4
    page = director_client.get(url).content.decode()
    assert 'id="knockout-box"' in page and 'id="draw-stage"' not in page
    # Match 1: a carry-over of 3 for the visitors turns a 2-IMP win round.
    carry = reverse("director:knockout_carry", args=[tournament.pk, m1.pk])
    assert director_client.post(carry, {"home_carry": "0", "away_carry": "3"}).status_code == 302
    play(session, director, m1, {1: (470, 420), 2: (420, 420)})
    # Match 2 is tied: the director adds the tie-break boards, which the away team wins.
    play(session, director, m2, {1: (420, 170), 2: (170, 420)})
    classification.ensure_current(session)
    m1.refresh_from_db()
    assert (m1.margin, m1.winner_id) == (-1, m1.away_id)
    page = director_client.get(url).content.decode()
    assert page.count("ko-add-tie") == 1 and 'id="draw-stage"' not in page
    tie = reverse("director:knockout_tie", args=[tournament.pk, m2.pk])
    assert director_client.post(tie).status_code == 302
    m2.refresh_from_db()
    assert m2.tie_segments == [[5, 6]]  # after the 2 stages' boards 1-4
    play(session, director, m2, {5: (420, 430), 6: (420, 420)})  # −10: 0 IMPs, still tied
    classification.ensure_current(session)
    m2.refresh_from_db()
    assert m2.winner_id is None
    director_client.post(tie)
    m2.refresh_from_db()
    assert m2.tie_segments == [[5, 6], [7, 8]]
    play(session, director, m2, {7: (400, 420), 8: (420, 420)})  # −20: 1 IMP to the visitors
    page = director_client.get(url).content.decode()
    assert 'id="draw-stage"' in page
    console = reverse("director:console", args=[session.pk])
    assert b'id="console-draw"' in director_client.get(console).content
    assert (
        director_client.post(reverse("director:knockout_draw", args=[tournament.pk])).status_code
        == 302
    )
    final = TeamMatch.objects.get(session=session, round=2)
    # A table out of the final still answers its device (no match of its own in stage 2).
    device = sign_in(Client(), session, 3)
    response = device.get(reverse("table:home"))
    assert response.status_code == 200 and b'id="waiting-draw"' not in response.content
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert {final.home_id, final.away_id} == {m1.winner_id, m2.winner_id}
    play(session, director, final, {3: (420, 170), 4: (420, 420)})
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams_bracket", args=[tournament.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="champion"' in html and html.count("ko-through") == 3
    assert page.context["champion"].entry_id == final.home_id
    stages = page.context["stages"]
    assert [m.match.pk for m in stages[0]] == [m1.pk, m2.pk]
    assert stages[0][0].b.carry == 3 and stages[0][0].b.imps == 3  # no IMPs won, 3 carried
    assert stages[0][0].a.imps == 2
    assert "ko-segments" in html


def test_public_bracket_shows_byes_and_pending_winners(client, members, director):
    tournament = knockout_event(members, 3)
    team_events.configure(tournament, format="knockout", boards_per_match=1)
    session = team_events.start_teams(tournament)
    publish.publish_provisional(tournament, user=director)
    page = client.get(reverse("results:teams_bracket", args=[tournament.slug]))
    assert page.status_code == 200 and page.context["champion"] is None
    first, final = page.context["stages"]
    assert [(m.a.number, m.b.number) for m in first] == [(1, None), (2, 3)]
    assert first[0].a.through and final[0].a.number == 1 and final[0].b.pending == "W1-2"
    assert 'class="ko-match ko-bye"' in page.content.decode()
    m = TeamMatch.objects.get(session=session)
    play(session, director, m, {1: (170, 420)})
    classification.ensure_current(session)
    page = client.get(reverse("results:teams_bracket", args=[tournament.slug]))
    final = page.context["stages"][1][0]
    assert final.b.number == 3 and not final.b.pending  # known before the final is drawn


def test_players_cannot_reach_the_knockout_actions(player_client, members):
    tournament = knockout_event(members, 2)
    team_events.configure(tournament, format="knockout")
    session = team_events.start_teams(tournament)
    m = TeamMatch.objects.get(session=session)
    for url in (
        reverse("director:knockout_draw", args=[tournament.pk]),
        reverse("director:knockout_seeds", args=[tournament.pk]),
        reverse("director:knockout_carry", args=[tournament.pk, m.pk]),
        reverse("director:knockout_tie", args=[tournament.pk, m.pk]),
    ):
        assert player_client.post(url, {"home_carry": "9"}).status_code == 403
    m.refresh_from_db()
    assert m.home_carry == 0


def test_a_round_robin_in_two_legs_from_the_settings_page(director_client, members):
    tournament = teams_event(members, 4)
    url = reverse("director:teams", args=[tournament.pk])
    data = SETTINGS | {"format": "round_robin", "legs": 2}
    assert director_client.post(url, data).status_code == 302
    assert director_client.post(url, data | {"legs": 9}).status_code == 400
    director_client.post(reverse("director:teams_start", args=[tournament.pk]))
    session = team_schedule.teams_session(tournament)
    assert session.rounds == 6 and team_schedule.drawn_rounds(session) == 6

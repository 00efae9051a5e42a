"""Team line-ups over HTTP: the director's page, the captains at the table, the public match."""

import pytest
from django.urls import reverse

from tests.tournaments.support.team_lineups import seat, teams_of_six
from tournaments.models import TableCode, TeamLineup, TeamMatch
from tournaments.services.results import publish
from tournaments.services.teams import lineups

pytestmark = pytest.mark.django_db


def form_data(match, team, half, players, reason=""):
    prefix = f"h{half}-t{team.pk}"
    seats = ("open_first", "open_second", "closed_first", "closed_second")
    return {"team": team.pk, "half": half, f"{prefix}-reason": reason} | {
        f"{prefix}-{s}": p.pk for s, p in zip(seats, players, strict=True)
    }


def sign_in(client, session, table):
    code = TableCode.objects.get(session=session, table=table, active=True)
    # the table card's QR link posts its token
    assert client.post(reverse("table:index"), {"token": code.token}).status_code == 302
    return client


def test_director_sets_both_halves_and_sees_a_refusal_with_what_was_typed(director_client, members):
    match, home, away = teams_of_six(members)
    tournament = match.session.tournament
    url = reverse("director:teams_lineups", args=[tournament.pk, match.pk])
    page = director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    assert url in page  # each match links to its line-ups
    page = director_client.get(url).content.decode()
    assert f'id="lineup-1-{match.home_id}"' in page and f'id="lineup-2-{match.away_id}"' in page
    response = director_client.post(
        url, form_data(match, match.home, 1, [home[4], home[5], home[0], home[1]])
    )
    assert response.status_code == 302
    row = TeamLineup.objects.get(team=match.home, half=1)
    assert row.open_pair == (home[4].pk, home[5].pk)
    # the continuing pair 5-6 moving to the closed room is refused, and the form keeps it
    response = director_client.post(
        url, form_data(match, match.home, 2, [home[2], home[3], home[4], home[5]])
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "sigue en la sala en que jugó el primero" in page
    assert (
        f'<option value="{home[4].pk}" selected>'
        in page.split(f'name="h2-t{match.home_id}-closed_first"')[1].split("</select>")[0]
    )
    assert not TeamLineup.objects.filter(half=2).exists()


def test_a_player_may_not_set_line_ups(player_client, client, members):
    match, home, _away = teams_of_six(members)
    url = reverse("director:teams_lineups", args=[match.session.tournament.pk, match.pk])
    assert player_client.get(url).status_code == 403
    data = form_data(match, match.home, 1, home[:4])
    assert player_client.post(url, data).status_code == 403
    assert not TeamLineup.objects.exists()


def test_a_table_device_seats_its_own_match_only(client, members):
    match, home, away = teams_of_six(members)
    other = TeamMatch.objects.get(session=match.session, round=1, number=2)
    sign_in(client, match.session, match.closed_table)
    url = reverse("table:lineups") + "?round=1"
    page = client.get(url).content.decode()
    assert f'id="lineup-1-{match.away_id}"' in page
    assert '"all_saved": "Todos los resultados est' in page  # the saved/waiting badge's words
    response = client.post(url, form_data(match, match.away, 1, away[:4]))
    assert response.status_code == 302
    assert TeamLineup.objects.get().table_code.table == match.closed_table
    # a team of another match: refused, nothing saved
    other_squad = list(lineups.squad(other.home))
    response = client.post(url, form_data(other, other.home, 1, other_squad[:4]))
    assert response.status_code == 403
    assert TeamLineup.objects.count() == 1


def test_match_pages_show_who_sat_where_and_the_substitutions(client, members, director):
    match, home, away = teams_of_six(members)
    seat(match, match.home, 1, home[:4])
    seat(match, match.away, 1, away[:4])
    seat(
        match, match.home, 2, [home[0], home[1], home[4], home[5]], user=director, reason="Descanso"
    )
    seat(match, match.away, 2, [away[2], away[3], away[0], away[1]])
    tournament = match.session.tournament
    public_url = reverse("results:teams_match", args=[tournament.slug, match.pk])
    publish.publish_provisional(tournament, user=director)
    page = client.get(public_url).content.decode()
    half2 = page.split('id="seats-half-2"')[1].split("</table>")[0]
    closed = half2.split('data-room="closed"')[1]
    # the substitute pair in the closed room, East-West for the home team; the visitors swapped
    assert home[4].full_name in closed.split("<td>")[2]
    assert away[0].full_name in closed.split("<td>")[1]
    assert "Descanso" in page.split('id="substitutions"')[1]
    sign_in(client, match.session, match.open_table)
    screen = client.get(reverse("table:match") + "?round=1").content.decode()
    assert 'id="seats-half-2"' in screen and home[4].full_name in screen
    assert "Descanso" in screen


def test_the_public_match_page_says_nothing_of_line_ups_nobody_named(client, members, director):
    match, _home, _away = teams_of_six(members)
    publish.publish_provisional(match.session.tournament, user=director)
    page = client.get(
        reverse("results:teams_match", args=[match.session.tournament.slug, match.pk])
    ).content.decode()
    assert 'id="lineups"' not in page


def test_the_audit_trail_names_who_came_in_and_why(director_client, members, director):
    match, home, _away = teams_of_six(members)
    seat(match, match.home, 1, home[:4])
    seat(
        match, match.home, 2, [home[0], home[1], home[4], home[5]], user=director, reason="Descanso"
    )
    page = director_client.get(reverse("director:audit", args=[match.session.tournament.pk]))
    text = page.content.decode()
    assert f"{home[4].full_name}, {home[5].full_name}" in text and "Descanso" in text


def test_a_captain_at_the_table_waits_for_the_team_that_names_first(client, members, director):
    match, home, away = teams_of_six(members)
    sign_in(client, match.session, match.open_table)
    url = reverse("table:lineups") + "?round=1"
    page = client.get(url).content.decode()
    # first half: the home team waits for the visitors, who have their form
    assert f'id="lineup-wait-1-{match.home_id}"' in page
    assert f'id="lineup-1-{match.home_id}"' not in page
    assert f'id="lineup-1-{match.away_id}"' in page
    assert "el equipo visitante" in page.split('id="names-first-1"')[1].split("</p>")[0].lower()
    # a stale form of the home team is refused, saying why, and nothing is saved
    response = client.post(url, form_data(match, match.home, 1, home[:4]))
    assert response.status_code == 400
    assert str(match.away) in response.content.decode().split('class="errorlist nonfield"')[1]
    assert not TeamLineup.objects.exists()
    # once the visitors named theirs, the home team may
    assert client.post(url, form_data(match, match.away, 1, away[:4])).status_code == 302
    assert client.post(url, form_data(match, match.home, 1, home[:4])).status_code == 302
    # second half: the visitors wait for the home team
    page = client.get(url).content.decode()
    assert f'id="lineup-wait-2-{match.away_id}"' in page
    swapped = [away[2], away[3], away[0], away[1]]
    assert client.post(url, form_data(match, match.away, 2, swapped)).status_code == 400
    assert not TeamLineup.objects.filter(half=2).exists()


def test_the_director_names_either_team_first(director_client, members):
    match, home, _away = teams_of_six(members)
    url = reverse("director:teams_lineups", args=[match.session.tournament.pk, match.pk])
    page = director_client.get(url).content.decode()
    assert f'id="lineup-1-{match.home_id}"' in page and "lineup-wait" not in page
    assert director_client.post(url, form_data(match, match.home, 1, home[:4])).status_code == 302
    assert TeamLineup.objects.filter(team=match.home, half=1).exists()

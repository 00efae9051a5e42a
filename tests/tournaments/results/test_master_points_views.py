"""Master points pages: the secretary's scale (bad input answered, nothing half-saved), the
director's award, the player's page and the season's points."""

import datetime

import pytest
from django.urls import reverse

from tournaments.models import PointsAward, PointsScale, PointsScaleRow
from tournaments.services.results import publish
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def row_data(rows, prefix="rows"):
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"{prefix}-{i}-{key}"] = value
    return data


def post_scale(client, rows, **header):
    data = {"name": "Escala del club", "issuer": "CLUB", "split": "on", **header, **row_data(rows)}
    return client.post(reverse("points:scale"), data)


def place_row(place, points, low="1", high="", category="pairs"):
    return {
        "category": category,
        "min_field": low,
        "max_field": high,
        "place": str(place),
        "min_percentage": "",
        "points": points,
    }


def test_the_secretary_saves_a_scale(secretary_client):
    response = post_scale(
        secretary_client,
        [
            place_row(1, "6"),
            place_row(2, "4,5"),
            {
                "category": "pairs",
                "min_field": "1",
                "max_field": "",
                "place": "",
                "min_percentage": "55,5",
                "points": "1",
            },
        ],
    )
    assert response.status_code == 302
    rows = list(
        PointsScaleRow.objects.order_by("pk").values_list("place", "min_percentage", "points")
    )
    assert [(p, pct, str(pts)) for p, pct, pts in rows] == [
        (1, None, "6.00"),
        (2, None, "4.50"),
        (None, rows[2][1], "1.00"),
    ]
    assert str(rows[2][1]) == "55.50"
    assert PointsScale.load().name == "Escala del club"


@pytest.mark.parametrize(
    "rows, message",
    [
        ([place_row(1, "6", "1", "12"), place_row(1, "8", "10", "")], "overlap"),
        ([place_row(1, "-2")], "Points cannot be negative"),
        ([place_row(1, "6", "10", "4")], "upper size is below"),
        ([{**place_row(1, "6"), "min_percentage": "60"}], "not both"),
        ([{**place_row(1, "6"), "place": ""}], "Give a place or a percentage"),
        ([{**place_row("", "6"), "min_percentage": "120"}], "up to 100"),
        ([place_row(1, "seis")], "Enter a number"),
    ],
)
def test_bad_rows_are_refused_with_a_message_and_the_typed_values_shown(
    secretary_client, rows, message, settings
):
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with_good_row = [place_row(3, "2", "1", "30"), *rows]
    response = post_scale(secretary_client, with_good_row, name="Nueva escala")
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert 'value="Nueva escala"' in page
    for row in rows:
        assert f'value="{row["points"]}"' in page
    assert not PointsScaleRow.objects.exists()  # nothing half-saved
    assert PointsScale.load().name != "Nueva escala"


def test_the_overlap_message_names_both_rows(secretary_client, settings):
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = post_scale(
        secretary_client,
        [place_row(2, "1"), place_row(1, "6", "1", "12"), place_row(1, "8", "10", "")],
    )
    assert "Rows 2 and 3 overlap" in response.content.decode()


def test_rows_of_different_events_or_places_do_not_overlap(secretary_client):
    response = post_scale(
        secretary_client,
        [
            place_row(1, "6", "1", "12"),
            place_row(1, "8", "13", ""),
            place_row(1, "6", "1", "", category="teams"),
            place_row(2, "4", "1", ""),
        ],
    )
    assert response.status_code == 302
    assert PointsScaleRow.objects.count() == 4


@pytest.fixture
def final_howell(three_places_scale, played_howell, director):
    publish.publish_final(played_howell, user=director)
    return played_howell


def test_the_director_awards_and_the_player_and_season_pages_show_the_points(
    director_client, client, final_howell
):
    page = director_client.get(reverse("director:tournament", args=[final_howell.pk]))
    assert b'id="points-award"' in page.content
    response = director_client.post(reverse("director:points_award", args=[final_howell.pk]))
    assert response.status_code == 302
    awards = list(PointsAward.objects.filter(tournament=final_howell))
    assert awards
    top = max(awards, key=lambda a: a.points)
    page = director_client.get(reverse("director:tournament", args=[final_howell.pk]))
    assert b'id="points-awards"' in page.content
    player_page = client.get(reverse("results:player", args=[top.member_id])).content.decode()
    assert f'id="season-points" data-value="{top.points}"' in player_page
    assert f'data-value="{top.points}"' in player_page
    season = client.get(reverse("results:season")).content.decode()
    assert f'data-member="{top.member_id}"' in season


def test_a_tournament_not_final_is_not_awarded(director_client, settings):
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    tournament = setup.create_tournament(name="Lunes", date=datetime.date.today())
    response = director_client.post(
        reverse("director:points_award", args=[tournament.pk]), follow=True
    )
    assert "publish the final results first" in response.content.decode()
    assert not PointsAward.objects.exists()


def test_a_directors_penalty_after_the_award_awards_the_points_again(
    director_client, final_howell, django_capture_on_commit_callbacks
):
    from tournaments.models import AuditAction, AuditEntry, RankingScope, StoredRanking
    from tournaments.services.results import master_points

    director_client.post(reverse("director:points_award", args=[final_howell.pk]))
    before = dict(PointsAward.objects.values_list("member_id", "points"))
    winner = (
        StoredRanking.objects.filter(tournament=final_howell, scope=RankingScope.SECTION, place=1)
        .first()
        .entry
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(
            reverse("director:penalties", args=[final_howell.sessions.get().pk]),
            {"entry": winner.pk, "fraction_of_top": "3", "reason": "Tardanza", "law": "90"},
        )
    assert response.status_code in (200, 302)
    after = dict(PointsAward.objects.values_list("member_id", "points"))
    assert after != before
    assert after == {m: a.points for m, a in master_points.compute(final_howell).items()}
    assert (
        AuditEntry.objects.filter(tournament=final_howell, action=AuditAction.POINTS).count() == 2
    )


def test_the_scale_page_names_the_awards_made_with_an_earlier_scale(
    secretary_client, final_howell, director
):
    from tournaments.services.results import master_points

    secretary_client.cookies["django_language"] = "en"
    master_points.award(final_howell, user=director)
    url = reverse("points:scale")
    assert b'id="earlier-scale"' not in secretary_client.get(url).content
    PointsScaleRow.objects.filter(place=1).update(points=8)
    page = secretary_client.get(url).content.decode()
    assert "1 tournament of this season was awarded with an earlier scale" in page
    assert "Jueves" in page.split('id="earlier-list"')[1].split("</ul>")[0]
    master_points.award(final_howell, user=director)
    assert b'id="earlier-scale"' not in secretary_client.get(url).content

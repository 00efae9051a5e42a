"""The season ranking's rule (applied, validated, edited in the admin) and a private event's
place in it; from a club without the events test_season_ranking.py shares."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubsite.models import Season
from tests.signed_in import sign_in_verified
from tests.tournaments.results.test_season_ranking import play_event
from tournaments.models import SeasonRankingRule, SeasonRule
from tournaments.services.results.season_ranking import Played, apply_rule, season_ranking

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(db):
    return Season.for_date(datetime.date(2025, 3, 1))


def test_apply_rule_counts_the_best_and_skips_imp_events():
    rule = SeasonRankingRule(rule=SeasonRule.BEST_PERCENTAGES, n=2)
    day = datetime.date(2025, 1, 1)
    played = [
        Played(1, day, Decimal("55.00"), 3, Decimal("55.00")),
        Played(2, day, None, 1, Decimal(0)),
        Played(3, day, Decimal("61.50"), 1, Decimal("61.50")),
        Played(4, day, Decimal("48.00"), 5, Decimal("48.00")),
    ]
    assert apply_rule(rule, played) == (Decimal("116.50"), 2)
    assert [p.counted for p in played] == [True, False, True, False]
    rule = SeasonRankingRule(rule=SeasonRule.POSITION_POINTS, n=0, position_points="10,6,4")
    played = [
        Played(1, day, None, 1, Decimal(10)),
        Played(2, day, None, 3, Decimal(4)),
        Played(3, day, None, 7, Decimal(0)),
    ]
    assert apply_rule(rule, played) == (Decimal(14), 3)


def test_rule_validation_and_default(season):
    rule = SeasonRankingRule(
        season=season, rule=SeasonRule.POSITION_POINTS, position_points="10, x, 3"
    )
    with pytest.raises(ValidationError) as error:
        rule.full_clean()
    assert "position_points" in error.value.message_dict
    with pytest.raises(ValidationError):
        SeasonRankingRule(season=season, rule=SeasonRule.BEST_PERCENTAGES, n=0).full_clean()
    default = season_ranking(season).rule
    assert default.pk is None and default.rule == SeasonRule.BEST_PERCENTAGES and default.n == 10


def test_hidden_events_count_only_for_logged_in_users(
    season, members, movements, pairs, director, player
):
    play_event(
        "Privado", season.start, members[:12], movements, pairs, director, seed=3, public=False
    )
    assert season_ranking(season).tournaments == 0
    assert season_ranking(season, player).tournaments == 1


def test_rule_is_editable_in_the_admin(client, season):
    from django.contrib.auth.models import User

    admin = User.objects.create_superuser("boss", password="pass-1234-word")
    sign_in_verified(client, admin)
    response = client.post(
        reverse("admin:tournaments_seasonrankingrule_add"),
        {
            "season": season.pk,
            "rule": SeasonRule.POSITION_POINTS,
            "n": 8,
            "position_points": "10,8,6",
        },
    )
    assert response.status_code == 302
    rule = SeasonRankingRule.objects.get(season=season)
    assert (rule.rule, rule.n, rule.points) == (SeasonRule.POSITION_POINTS, 8, [10, 8, 6])
    client.logout()
    html = client.get(reverse("results:season_for", args=[season.pk])).content.decode()
    assert 'data-rule="position"' in html and "10, 8, 6" in html

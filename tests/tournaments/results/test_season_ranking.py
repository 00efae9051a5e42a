"""The club's season ranking: the rule stored per season, applied to final results only."""

import datetime
import random
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubsite.models import Season
from tests.signed_in import sign_in_verified
from tournaments.demo import play_rounds
from tournaments.models import (
    EntryPlayer,
    RankingScope,
    SeasonRankingRule,
    SeasonRule,
    StoredRanking,
)
from tournaments.services.results import publish
from tournaments.services.results.season_ranking import Played, apply_rule, season_ranking
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(db):
    return Season.for_date(datetime.date(2025, 3, 1))


def play_event(
    name, day, members, movements, pairs, director, seed, *, final=True, public=True, tables=3
):
    tournament = setup.create_tournament(name=name, date=day, public_results=public)
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(
        section, movements.mitchell(tables, 3, 2), pairs(tournament, members, 2 * tables)
    )
    setup.start_session(session)
    play_rounds(section, random.Random(seed))
    setup.finish_session(session)
    if final:
        publish.publish_final(tournament, user=director)
    else:
        publish.publish_provisional(tournament, user=director)
    return tournament


@pytest.fixture
def events(season, members, movements, pairs, director):
    """Three final events (players shuffled between them), one provisional, one outside."""
    made = []
    for i in range(3):
        rng = random.Random(i)
        players = members[:12]
        rng.shuffle(players)
        made.append(
            play_event(
                f"Torneo {i}",
                season.start + datetime.timedelta(days=7 * i),
                players,
                movements,
                pairs,
                director,
                seed=i,
            )
        )
    play_event(
        "Provisional",
        season.start + datetime.timedelta(days=30),
        members[:12],
        movements,
        pairs,
        director,
        seed=9,
        final=False,
    )
    play_event(
        "Otra temporada",
        season.start - datetime.timedelta(days=3),
        members[:12],
        movements,
        pairs,
        director,
        seed=10,
    )
    return made


def expected_lines(tournaments, rule):
    """Each member's results read straight from the stored section rankings."""
    per_member = {}
    for t in tournaments:
        for row in StoredRanking.objects.filter(tournament=t, scope=RankingScope.SECTION):
            for member_id in EntryPlayer.objects.filter(entry=row.entry_id).values_list(
                "member", flat=True
            ):
                per_member.setdefault(member_id, []).append((row.percentage, row.place))
    out = {}
    for member_id, got in per_member.items():
        if rule.rule == SeasonRule.POSITION_POINTS:
            points = rule.points
            values = sorted(
                (Decimal(points[p - 1]) if p <= len(points) else Decimal(0) for _pct, p in got),
                reverse=True,
            )
            out[member_id] = sum(values[: rule.n or len(values)])
        else:
            out[member_id] = sum(sorted((pct for pct, _p in got), reverse=True)[: rule.n])
    return out


def test_best_n_percentages(season, events):
    SeasonRankingRule.objects.create(season=season, rule=SeasonRule.BEST_PERCENTAGES, n=2)
    ranking = season_ranking(season)
    assert ranking.tournaments == 3
    rule = SeasonRankingRule.objects.get(season=season)
    expected = expected_lines(events, rule)
    assert {line.member.pk: line.score for line in ranking.lines} == expected
    assert all(len(line.played) == 3 and line.counted == 2 for line in ranking.lines)
    scores = [line.score for line in ranking.lines]
    assert scores == sorted(scores, reverse=True)


def test_points_by_position(season, events):
    SeasonRankingRule.objects.create(
        season=season, rule=SeasonRule.POSITION_POINTS, n=0, position_points="5,3,1"
    )
    ranking = season_ranking(season)
    rule = SeasonRankingRule.objects.get(season=season)
    assert {line.member.pk: line.score for line in ranking.lines} == expected_lines(events, rule)
    assert max(line.score for line in ranking.lines) <= 15


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


def test_season_page_states_the_rule_and_sorts(client, season, events):
    SeasonRankingRule.objects.create(season=season, rule=SeasonRule.BEST_PERCENTAGES, n=2)
    url = reverse("results:season_for", args=[season.pk])
    response = client.get(url)
    html = response.content.decode()
    assert 'data-rule="best_n"' in html and 'data-n="2"' in html
    rows = response.context["page"].object_list
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert reverse("results:player", args=[rows[0]["member_id"]]) in html
    rows = client.get(url + "?sort=-average").context["page"].object_list
    assert [r["average"] for r in rows] == sorted((r["average"] for r in rows), reverse=True)
    assert client.get(reverse("results:season")).status_code == 200


def test_the_season_page_shows_a_page_of_players_and_finds_one(client, season, events, monkeypatch):
    """Hundreds of players a season: a page at a time, and a search (or "find me") opens
    the page with the player, marked."""
    from tournaments.services.results import season_ranking as service

    monkeypatch.setattr(service, "PAGE_SIZE", 5)
    url = reverse("results:season_for", args=[season.pk])
    first = client.get(url)
    rows = first.context["tables"].rows
    assert len(rows) == 12 and len(first.context["page"].object_list) == 5
    assert 'id="season-pages"' in first.content.decode() and "?page=2" in first.content.decode()
    eighth = sorted(rows, key=lambda r: (r["place"], r["name"]))[7]  # the second page's
    surname = eighth["name"].split()[-1]
    found = client.get(url, {"q": surname.lower()})
    assert found.status_code == 302
    assert found["Location"].endswith(
        f"page=2&found={eighth['member_id']}#member-{eighth['member_id']}"
    )
    page = client.get(found["Location"].split("#")[0])
    html = page.content.decode()
    assert f'id="member-{eighth["member_id"]}" class="found"' in html
    missing = client.get(url, {"q": "Nadie Así"}).content.decode()
    assert 'id="not-found"' in missing and "Nadie Así" in missing


def test_a_player_finds_themself(client, season, events, player, members):
    members[3].user = player
    members[3].save()
    sign_in_verified(client, player)
    url = reverse("results:season_for", args=[season.pk])
    assert 'id="find-me"' in client.get(url).content.decode()
    found = client.get(url, {"find": "me"})
    assert found.status_code == 302 and found["Location"].endswith(f"#member-{members[3].pk}")


def test_the_season_tables_are_computed_once_a_change(
    client, season, events, director, django_assert_max_num_queries
):
    """Kept in the cache under what they show: a reader finds them in three queries (the
    seasons, the season's sessions with their stamps, the club); a classification stored
    again makes them computed anew, in six at most."""
    from django.core.cache import cache

    from tournaments.models import Result, ResultStatus
    from tournaments.services.running import corrections

    url = reverse("results:season_for", args=[season.pk])
    cache.clear()
    with django_assert_max_num_queries(6):
        before = client.get(url).context["tables"].rows
    with django_assert_max_num_queries(3):
        assert client.get(url).context["tables"].rows == before
    result = Result.objects.filter(
        section__session__tournament=events[0], status=ResultStatus.OK
    ).first()
    corrections.correct_result(
        result, user=director, contract="7NT", declarer="N", tricks=13, reason="Mal anotado."
    )
    after = client.get(url).context["tables"].rows
    assert after != before


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

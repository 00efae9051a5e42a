"""The club's season ranking: the rule stored per season, applied to final results only.

Its five events are built once for the module (tests/module_rows.py), each test in a savepoint
of it; the rule's own tests, and a private event's, which start from a club without them, are
in test_season_ranking_rules.py."""

import datetime
import random
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubsite.accounts.permissions import Role
from clubsite.models import Member, Season
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import make_members, make_pairs, mitchell_dict
from tournaments.demo import play_rounds
from tournaments.models import (
    EntryPlayer,
    RankingScope,
    SeasonRankingRule,
    SeasonRule,
    StoredRanking,
    Tournament,
)
from tournaments.services.results import publish
from tournaments.services.results.season_ranking import season_ranking
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


@pytest.fixture(scope="module")
def _events_rows(django_db_setup, django_db_blocker):
    """``members``, the director and their ``events``, built once for the module."""
    with module_rows(django_db_blocker):
        season = Season.for_date(datetime.date(2025, 3, 1))
        members = make_members()
        director = make_user("dir", Role.DIRECTOR)
        movements = SimpleNamespace(mitchell=mitchell_dict)
        yield [t.pk for t in build_events(season, members, movements, make_pairs, director)]


@pytest.fixture
def members(_events_rows, db):
    """The module's sixty members (``members``), who played its events."""
    return list(Member.objects.filter(licence_number__startswith="T-").order_by("licence_number"))


@pytest.fixture
def director(_events_rows, db):
    """The director (``director``) who published the module's events."""
    return User.objects.get(username="dir")


@pytest.fixture
def events(_events_rows, db):
    """The three final events, read afresh."""
    return [Tournament.objects.get(pk=pk) for pk in _events_rows]


def build_events(season, members, movements, pairs, director):
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

"""The charts in the pages and the results PDF: each chart rendered in each language, with
its title, description and data table, numbers as SVG reads them whatever the locale, and
the names typed by people escaped."""

import collections
import re

import pytest
from django.conf import settings
from django.urls import reverse

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_howell_session, build_mitchell_session, make_members
from tests.tournaments.results.public_pages import finished
from tournaments import pdf
from tournaments.models import Entry, RankingScope, StoredRanking, Tournament
from tournaments.services.results import player_history
from tournaments.services.results.snapshot_build import build_event_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # the SVG drawn from the figures

HOSTILE = '<script>alert("x")</script> & Ñúñez'
LANGUAGES = {  # each chart's title in each language
    "es": (
        "gráfico de la clasificación",
        "marcas y puntos",
        "Porcentaje sesión a sesión",
        "ronda a ronda",
    ),
    "pt": (
        "gráfico da classificação",
        "resultados e pontos",
        "Percentagem sessão a sessão",
        "ronda a ronda",
    ),
    "en": ("ranking chart", "scores and marks", "Percentage session by session", "round by round"),
}


def _in(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _figures(html: str) -> dict[str, str]:
    """Each chart of a page: its key → its figure's HTML."""
    return dict(
        re.findall(r'<figure class="chart[^"]*" id="chart-([^"]+)".*?>(.*?)</figure>', html, re.S)
    )


def _numbers_are_plain(figure: str):
    """Coordinates use a point, never the locale's comma."""
    for attr in re.findall(r'\s(?:x|y|x1|x2|y1|y2|width|height|cx|cy)="([^"]*)"', figure):
        assert re.fullmatch(r"-?\d+(\.\d+)?", attr), attr
    for points in re.findall(r'points="([^"]*)"', figure):
        assert re.fullmatch(r"(-?\d+(\.\d+)?,-?\d+(\.\d+)? ?)+", points), points


@pytest.fixture(scope="module")
def _played_rows(django_db_setup, django_db_blocker):
    """``mitchell_session`` and ``howell_session`` on the same members, the first member
    named with a hostile name, both played and published by ``director``; built once for
    the module."""
    with module_rows(django_db_blocker):
        members = make_members()
        mitchell = build_mitchell_session(members)
        howell = build_howell_session(members)
        director = make_user("dir", Role.DIRECTOR)
        member = members[0]
        member.last_name = HOSTILE
        member.save()
        # the name a pair is ranked under, as an import or a substitution writes it
        Entry.objects.filter(entry_players__member=member).update(display_name=HOSTILE)
        tournament, _adj = finished(mitchell, director)
        howell_event, _ = finished(howell, director, seed=8, adjust=False)
        yield tournament.pk, howell_event.pk, member.pk


@pytest.fixture
def played(_played_rows, db):
    tournament, howell, member = _played_rows
    return (
        Tournament.objects.get(pk=tournament),
        Tournament.objects.get(pk=howell),
        Member.objects.get(pk=member),
    )


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_ranking_board_and_player_charts_in_each_language(client, played, language):
    tournament, howell, member = played
    ranking_title, board_title, history_title, _team = LANGUAGES[language]
    _in(client, language)
    html = client.get(reverse("results:section", args=[tournament.slug, 1, "A"])).content.decode()
    charts = _figures(html)
    assert set(charts) == {"ranking-ns", "ranking-ew"}
    ns = charts["ranking-ns"]
    assert ranking_title in ns and "<desc" in ns and '<details class="chart-data">' in ns
    assert ns.count('class="chart-bar') == 7  # seven NS pairs, one bar each
    # the hostile name is escaped in the bars, their tooltips and the table
    assert "<script>alert" not in html
    assert any("&lt;script&gt;alert" in c for c in charts.values())
    _numbers_are_plain(ns)
    stored = (
        StoredRanking.objects.filter(
            session__tournament=tournament, scope=RankingScope.SECTION, direction="NS"
        )
        .order_by("place", "number")
        .first()
    )
    percentage = f"{stored.percentage:.2f}"
    if language != "en":
        percentage = percentage.replace(".", ",")
    assert f"{percentage} %" in ns

    section = tournament.sessions.get().sections.get()
    number = section.session.boards.filter(pool=section.pool).order_by("number").first().number
    board = client.get(
        reverse("results:board", args=[tournament.slug, 1, section.pool, number])
    ).content.decode()
    chart = _figures(board)[f"board-{number}"]
    assert board_title in chart and "×" in chart
    _numbers_are_plain(chart)

    player = client.get(reverse("results:player", args=[member.pk])).content.decode()
    chart = _figures(player)["history"]
    assert history_title in chart and "<polyline" in chart
    assert chart.count("<circle") == 4  # two sessions: the player's and the club's points
    _numbers_are_plain(chart)


def test_the_club_average_is_every_pair_of_the_session(played):
    tournament, howell, member = played
    points = player_history.session_percentages(player_history.player_history(member, None))
    assert [p["name"] for p in points] == [tournament.name, howell.name]
    for p, t in zip(points, (tournament, howell), strict=True):
        lines = list(
            StoredRanking.objects.filter(
                session__tournament=t, scope=RankingScope.SECTION
            ).values_list("percentage", flat=True)
        )
        assert abs(p["club_average"] - sum(lines) / len(lines)) < 0.01


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_results_pdf_draws_the_ranking_and_frequency_charts(played, language):
    """Every chart of the PDF is lines of bars: each ranking group's under its title, a bar
    a pair named by its number in place order; each board's a line a score."""
    tournament, _howell, _member = played
    html = pdf.results_html(build_event_snapshot(tournament), language)
    assert "<svg" not in html and "<img" not in html
    assert "<details" not in html and "<script>alert" not in html
    assert "&lt;script&gt;alert" in html  # the hostile name, escaped in the ranking table
    snapshot = build_event_snapshot(tournament)
    section = snapshot.sessions[0].sections[0]
    rankings = re.findall(
        r'<div class="mono chart"><div class="head">([^<]*)</div>'
        r'<div class="rows">(.*?)</div>',
        html,
        re.S,
    )
    assert len(rankings) == 2  # North-South and East-West of the one section
    for (title, rows), line in zip(rankings, ("NS", "EW"), strict=True):
        assert LANGUAGES[language][0] in title
        ranked = sorted(
            (p for p in section.participants if p.direction == line),
            key=lambda p: (p.place is None, p.place or 0, p.number),
        )
        lines = rows.split("\n")
        assert [ln.split()[0] for ln in lines] == [str(p.number) for p in ranked]
        for ln, p in zip(lines, ranked, strict=True):
            shown = f"{p.percentage:.2f}"
            assert ln.endswith((shown if language == "en" else shown.replace(".", ",")) + " %")
        bars = [ln.count("█") for ln in lines]
        assert bars == sorted(bars, reverse=True) and bars[0] == 40
    # each board's scores and marks: a line of bars a score, as its frequency table counts
    tables = collections.Counter()  # board → tables with a score (adjusted ones left out)
    for section in snapshot.sessions[0].sections:
        for board in section.boards:
            tables[board.number] += sum(
                1 for ln in board.lines if ln.ns_score is not None and not ln.adjustment
            )
    boards = re.findall(
        r'<h3>\D*(\d+) .*?<div class="mono chart"><div class="rows">(.*?)</div>', html, re.S
    )
    assert len(boards) == tournament.sessions.get().boards.count()
    for number, rows in boards:
        lines = rows.split("\n")
        counts = [int(re.search(r"(\d+)\)$", line)[1]) for line in lines]
        assert sum(counts) == tables[int(number)]
        bars = [line.count("█") for line in lines]  # best score first: marks fall
        assert bars == sorted(bars, reverse=True) and bars[0] == 40

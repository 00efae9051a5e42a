"""A player reads the charts on a phone, a tablet and a computer, in each language: the
section's ranking as bars, a board's scores and marks, their own sessions against the club's
average, and a team's points round by round (another team picked from the list)."""

import pytest

from clubsite.demo import DEMO_PASSWORD
from clubsite.models import Member
from tests.e2e.e2e_helpers import (
    SCREENSHOTS,
    TAKE_SCREENSHOTS,
    choose_language,
    journey_languages,
    login,
    no_sideways_scroll,
    screenshot,
)
from tests.e2e.test_results_pages import build_results
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "es": {
        "ranking": "gráfico de la clasificación",
        "board": "marcas y puntos",
        "history": "Porcentaje sesión a sesión",
        "team": "ronda a ronda",
        "table": "Datos del gráfico en una tabla",
        "show": "Mostrar",
    },
    "pt": {
        "ranking": "gráfico da classificação",
        "board": "resultados e pontos",
        "history": "Percentagem sessão a sessão",
        "team": "ronda a ronda",
        "table": "Dados do gráfico numa tabela",
        "show": "Mostrar",
    },
    "en": {
        "ranking": "ranking chart",
        "board": "scores and marks",
        "history": "Percentage session by session",
        "team": "round by round",
        "table": "Chart data as a table",
        "show": "Show",
    },
}


def chart_fits(page, selector: str, name: str) -> None:
    """The chart is drawn, inside the screen's width, and photographed on its own."""
    figure = page.locator(selector)
    figure.scroll_into_view_if_needed()
    box = figure.locator("svg").bounding_box()
    assert box["width"] > 200 and box["height"] > 60
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    no_sideways_scroll(page)
    if TAKE_SCREENSHOTS:  # not in CI (.ci/run): a picture asserts nothing
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        figure.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize("language", journey_languages("en"))
def test_player_reads_the_charts(live_server, new_page, language):
    build_results()
    base, words = live_server.url, WORDS[language]
    martes = Tournament.objects.get(slug__endswith="-martes")
    swiss = Tournament.objects.get(event_type="teams")
    lucia = Member.objects.get(licence_number="AEB-10003")

    phone = new_page("phone")
    login(phone, base, "jugador", DEMO_PASSWORD)
    choose_language(phone, base, language)

    # The section's ranking: a bar per pair under each line's table; its data as a table.
    phone.goto(f"{base}/results/{martes.slug}/1/section/A/")
    ns = phone.locator("#chart-ranking-ns")
    assert words["ranking"] in ns.locator("svg title").first.text_content()
    assert (
        ns.locator(".chart-bar").count()
        == phone.locator("#ranking-ns table.ranking tbody tr").count()
    )
    chart_fits(phone, "#chart-ranking-ns", f"charts-{language}-1-ranking-phone")
    ns.locator("summary", has_text=words["table"]).click()
    assert ns.locator("details table tbody tr").first.is_visible()
    screenshot(phone, f"charts-{language}-1b-ranking-page-phone")

    # A board: its scores, best for NS first, with the marks they earned.
    pool = martes.sessions.get().sections.first().pool
    phone.goto(f"{base}/results/{martes.slug}/1/board/{pool}/1/")
    chart = phone.locator("#chart-board-1")
    assert words["board"] in chart.locator("svg title").first.text_content()
    assert chart.locator(".chart-bar").count() == phone.locator("#frequencies tbody tr").count()
    chart_fits(phone, "#chart-board-1", f"charts-{language}-2-board-phone")

    # The player's page: her percentage session by session against the club's average.
    phone.goto(f"{base}/results/player/{lucia.pk}/")
    history = phone.locator("#chart-history")
    assert words["history"] in history.locator("svg title").first.text_content()
    assert history.locator("polyline").count() == 2
    chart_fits(phone, "#chart-history", f"charts-{language}-3-player-phone")

    # The Swiss teams: the leader's VPs round by round, then another team's.
    phone.goto(f"{base}/results/{swiss.slug}/teams/")
    team = phone.locator("#chart-team")
    assert words["team"] in team.locator("svg title").first.text_content()
    assert team.locator(".chart-series.main circle").count() == 4
    chart_fits(phone, "#chart-team", f"charts-{language}-4-team-phone")
    options = phone.locator("#id_team option")
    other = options.nth(options.count() - 1)
    name = other.text_content().split(" ", 1)[1]
    phone.select_option("#id_team", other.get_attribute("value"))
    phone.locator("#chart-pick button", has_text=words["show"]).click()
    phone.wait_for_url(lambda url: "team=" in url)
    assert name in phone.locator("#chart-team-title").text_content()
    assert phone.locator("#chart-pick button").bounding_box()["height"] >= 44
    chart_fits(phone, "#chart-team", f"charts-{language}-4b-other-team-phone")

    # The narrowest phone the site serves, 360 px: every chart page still fits.
    phone.set_viewport_size({"width": 360, "height": 780})
    for path, chart in (
        (f"results/{martes.slug}/1/section/A/", "#chart-ranking-ns"),
        (f"results/{martes.slug}/1/board/{pool}/1/", "#chart-board-1"),
        (f"results/player/{lucia.pk}/", "#chart-history"),
        (f"results/{swiss.slug}/teams/", "#chart-team"),
    ):
        phone.goto(f"{base}/{path}")
        chart_fits(phone, chart, f"charts-{language}-7-{chart[7:]}-360")

    # A tablet and a computer: the same charts, wider.
    for viewport in ("tablet", "desktop"):
        page = new_page(viewport)
        choose_language(page, base, language)
        page.goto(f"{base}/results/{martes.slug}/1/section/A/")
        chart_fits(page, "#chart-ranking-ew", f"charts-{language}-5-ranking-{viewport}")
        page.goto(f"{base}/results/{swiss.slug}/teams/")
        chart_fits(page, "#chart-team", f"charts-{language}-6-team-{viewport}")

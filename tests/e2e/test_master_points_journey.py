"""Master points in a real browser, in Spanish, Portuguese and English: the secretary sets the
scale on a desktop (a negative amount and an overlap refused with the typed values kept), the
director publishes the final results and awards the points, and the player reads their
points on their page and the season's points on a phone."""

import random
from decimal import Decimal

import pytest
from django.db.models import Sum

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import (
    choose_language,
    fits_its_box,
    journey_languages,
    login,
    no_sideways_scroll,
    screenshot,
)
from tournaments import demo
from tournaments.models import (
    AuditAction,
    AuditEntry,
    PointsAward,
    PointsAwarding,
    PointsScaleRow,
)
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MESSAGES = {
    "es": {
        "negative": "Los puntos no pueden ser negativos.",
        "overlap": "se solapan",
        "saved": "Escala de puntos máster guardada.",
        "points": "Puntos máster",
        "earlier": "1 torneo de esta temporada recibió sus puntos con una escala anterior",
        "again": "Otorgar los puntos de nuevo",
    },
    "pt": {
        "negative": "Os pontos não podem ser negativos.",
        "overlap": "sobrepõem-se",
        "saved": "Tabela de pontos de mestre guardada.",
        "points": "Pontos de mestre",
        "earlier": "1 torneio desta época recebeu os pontos com uma tabela anterior",
        "again": "Atribuir os pontos de novo",
    },
    "en": {
        "negative": "Points cannot be negative.",
        "overlap": "overlap",
        "saved": "Master points scale saved.",
        "points": "Master points",
        "earlier": "1 tournament of this season was awarded with an earlier scale",
        "again": "Award the points again",
    },
}


def played_howell():
    """Seven pairs of the club (the demo player among them) have played a Howell; the
    director has finished the session and published nothing yet."""
    players = list(Member.objects.filter(status="active").order_by("licence_number"))[:14]
    _mitchell, howell = demo._movements()
    tournament = setup.create_tournament(
        name="Howell del jueves", date=demo.timezone.localdate(), public_results=True
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, howell(4, 3), demo._pairs(tournament, players))
    setup.start_session(session)
    demo.play_rounds(section, random.Random(3))
    setup.finish_session(session)
    return tournament


def fill_row(page, index, *, place="", pct="", points="", low="1", high=""):
    prefix = f"#id_rows-{index}-"
    page.fill(prefix + "min_field", low)
    page.fill(prefix + "max_field", high)
    page.fill(prefix + "place", place)
    page.fill(prefix + "min_percentage", pct)
    page.fill(prefix + "points", points)


def secretary_sets_the_scale(page, base, language, name):
    text = MESSAGES[language]
    login(page, base, "secretaria", DEMO_PASSWORD)
    page.goto(f"{base}/")
    page.click("#points-scale-link")
    page.wait_for_selector("#scale-form")
    page.fill("#id_name", "Puntos del club")
    fill_row(page, 0, place="1", points="4")
    fill_row(page, 1, place="2", points="3")
    fill_row(page, 2, place="3", points="-2")  # a slip: negative
    page.click("#scale-save")
    page.wait_for_selector(".errorlist")
    assert text["negative"] in page.inner_text("#scale-rows")
    assert page.input_value("#id_rows-2-points") == "-2"  # shown again as typed
    assert page.input_value("#id_rows-0-points") == "4"
    assert not PointsScaleRow.objects.exists()
    screenshot(page, f"{name}-1-negative-refused")
    fill_row(page, 2, place="3", points="2")
    page.click("#scale-save")
    page.wait_for_selector(".message.success")
    assert text["saved"] in page.inner_text(".messages")
    # Three more empty rows: a percentage row, and one overlapping the first.
    fill_row(page, 3, pct="45" if language == "en" else "45,0", points="1")
    fill_row(page, 4, place="1", points="5", low="5", high="12")
    page.click("#scale-save")
    page.wait_for_selector("#scale-errors")
    assert text["overlap"] in page.inner_text("#scale-errors")
    assert page.input_value("#id_rows-4-points") == "5"
    assert PointsScaleRow.objects.count() == 3
    screenshot(page, f"{name}-2-overlap-refused")
    page.check("#id_rows-4-DELETE")
    page.click("#scale-save")
    page.wait_for_selector(".message.success")
    assert PointsScaleRow.objects.count() == 4
    assert PointsScaleRow.objects.get(min_percentage__isnull=False).min_percentage == Decimal(45)
    screenshot(page, f"{name}-3-scale-saved")


def director_publishes_and_awards(page, base, tournament, name):
    login(page, base, "director", DEMO_PASSWORD)
    page.goto(f"{base}/director/{tournament.pk}/")
    assert page.locator("#points-award").count() == 0  # nothing to award before final
    page.click("#publish-final")
    page.wait_for_selector(".message.success")
    page.click("#points-award")
    page.wait_for_selector("#points-awards")
    assert (
        page.locator("#points-awards tbody tr").count()
        == PointsAward.objects.filter(tournament=tournament).count()
        > 0
    )
    screenshot(page, f"{name}-4-director-awarded")
    assert AuditEntry.objects.filter(tournament=tournament, action=AuditAction.POINTS).exists()


def scale_changes_and_the_director_awards_again(
    secretary, director, base, tournament, language, name
):
    """The secretary raises the first place's points: the scale page names the tournament
    awarded with the earlier scale; the director awards it again from its page."""
    text = MESSAGES[language]
    before = PointsAward.objects.filter(tournament=tournament).aggregate(s=Sum("points"))["s"]
    secretary.goto(f"{base}/")
    secretary.click("#points-scale-link")
    secretary.wait_for_selector("#scale-form")
    assert secretary.locator("#earlier-scale").count() == 0
    first = next(i for i in range(4) if secretary.input_value(f"#id_rows-{i}-place") == "1")
    assert secretary.input_value(f"#id_rows-{first}-points") in ("4", "4,00", "4.00")
    secretary.fill(f"#id_rows-{first}-points", "6")
    secretary.click("#scale-save")
    secretary.wait_for_selector(".message.success")
    assert text["earlier"] in secretary.inner_text("#earlier-scale")
    assert tournament.name in secretary.inner_text("#earlier-list")
    no_sideways_scroll(secretary)
    screenshot(secretary, f"{name}-3b-earlier-scale")
    director.goto(f"{base}/director/{tournament.pk}/")
    assert director.inner_text("#points-award") == text["again"]
    director.click("#points-award")
    director.wait_for_selector(".message.success")
    assert PointsAwarding.objects.get(tournament=tournament).times == 2
    after = PointsAward.objects.filter(tournament=tournament).aggregate(s=Sum("points"))["s"]
    assert after == before + 2  # the winners' 6 points instead of 4, shared
    screenshot(director, f"{name}-4b-director-awarded-again")
    secretary.reload()
    secretary.wait_for_selector("#scale-form")
    assert secretary.locator("#earlier-scale").count() == 0


def player_reads_points_on_a_phone(page, base, language, name):
    me = Member.objects.get(user__username="jugador")
    mine = PointsAward.objects.get(member=me)
    login(page, base, "jugador", DEMO_PASSWORD)
    page.goto(f"{base}/results/me/")
    page.wait_for_selector("#history")
    assert Decimal(page.get_attribute("#season-points", "data-value")) == mine.points
    cell = page.locator("#history tbody tr .master-points").first
    assert Decimal(cell.get_attribute("data-value")) == mine.points
    assert MESSAGES[language]["points"] in page.inner_text("main")
    screenshot(page, f"{name}-5-player-page")
    no_sideways_scroll(page)
    fits_its_box(page, "#history")
    page.goto(f"{base}/results/season/")
    page.wait_for_selector("#season-points")
    row = page.locator(f"#season-points tr[data-member='{me.pk}']")
    assert Decimal(row.locator("td[data-value]").get_attribute("data-value")) == mine.points
    screenshot(page, f"{name}-6-season-points")
    no_sideways_scroll(page)
    fits_its_box(page, "#season-points")


@pytest.mark.parametrize("language", journey_languages("es"))
def test_master_points_journey(live_server, new_page, language):
    build_club()
    tournament = played_howell()
    base = live_server.url
    name = f"master-points-{language}"

    secretary = new_page("desktop")
    choose_language(secretary, base, language)
    secretary_sets_the_scale(secretary, base, language, name)

    page = new_page("desktop")
    choose_language(page, base, language)
    director_publishes_and_awards(page, base, tournament, name)
    scale_changes_and_the_director_awards_again(secretary, page, base, tournament, language, name)

    page = new_page("phone")
    choose_language(page, base, language)
    player_reads_points_on_a_phone(page, base, language, name)

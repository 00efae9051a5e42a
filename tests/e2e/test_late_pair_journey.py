"""A pair arrives late at a half-table Mitchell, in es, pt and en: the director, on a
tablet, seats it from the console in the phantom's place from the round in play; the boards
that place passed show as not played in the console's grid of round 1 and on the line page,
and the pair's table card keeps the phantom's seating. Screenshots:
var/screenshots/late-pair-*.png."""

import datetime
import random

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, grant
from clubsite.models import Member
from tests.e2e.e2e_helpers import (
    choose_language,
    journey_languages,
    login,
    no_sideways_scroll,
    screenshot,
)
from tests.tournaments.conftest import mitchell_dict
from tournaments.demo import play_rounds
from tournaments.models import Result, ScoringMethod, Seating
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "es": {
        "title": "Pareja retrasada",
        "seated": "Pareja retrasada colocada",
        "unplayed": "no jugado",
    },
    "pt": {"title": "Par atrasado", "seated": "Par atrasado colocado", "unplayed": "não jogada"},
    "en": {"title": "Late pair", "seated": "Late pair seated", "unplayed": "not played"},
}


def half_table_mitchell():
    members = [
        Member.objects.create(
            first_name=f"Jugador{i:02d}", last_name=f"Mesa{i:02d}", licence_number=f"LATE-{i:03d}"
        )
        for i in range(30)
    ]
    tournament = setup.create_tournament(
        name="Miércoles", date=datetime.date(2025, 3, 5), scoring_method=ScoringMethod.MATCHPOINTS
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(13)]
    setup.seat_section(section, mitchell_dict(7, 7, 2), pairs)
    setup.start_session(session)
    play_rounds(section, random.Random(5), rounds=2)
    late = registration.register_entry(tournament, members[28:30])
    return section, late


@pytest.mark.parametrize("language", journey_languages("pt"))
def test_director_seats_a_late_pair_in_the_phantoms_place(live_server, new_page, language):
    section, late = half_table_mitchell()
    grant(User.objects.create_user(username="td", password="pass-1234-word"), Role.DIRECTOR)
    (place,) = registration.free_places(section)
    base, words = live_server.url, WORDS[language]
    tablet = new_page("tablet")
    choose_language(tablet, base, language)
    login(tablet, base, "td", "pass-1234-word")
    console = f"{base}/director/sessions/{section.session_id}/console/"
    tablet.goto(console)
    form = tablet.locator("#late-a")
    assert words["title"] in form.locator("h2").inner_text()
    assert form.locator("input[name=from_round]").input_value() == "2"
    form.locator("select[name=entry]").select_option(str(late.pk))
    form.locator("input[name=from_round]").fill("3")
    no_sideways_scroll(tablet)
    form.scroll_into_view_if_needed()
    screenshot(tablet, f"late-pair-1-console-form-{language}")
    form.locator("button[type=submit]").click()
    tablet.wait_for_url(lambda url: url.rstrip("/").endswith("/console"))
    assert words["seated"] in tablet.inner_text(".messages, main")
    assert words["unplayed"] in tablet.inner_text("main")
    assert tablet.locator("#late-a").count() == 0
    seat = Seating.objects.get(entry=late)
    assert (seat.number, seat.direction) == place
    screenshot(tablet, f"late-pair-2-seated-{language}")

    # Round 1 on the grid: the place's boards are the director's (not played).
    tablet.click("#board-states .round-switch a[data-round='1']")
    tablet.wait_for_selector("#board-states[data-round='1']")
    slot = next(
        s
        for s in plan.slots(section.movement)
        if s.round == 1 and place[0] == (s.ns if place[1] == "NS" else s.ew)
    )
    for board in slot.boards:
        cell = tablet.locator(f"#board-state-grid a[data-board='{board}']")
        assert cell.get_attribute("data-state") == "corrected"
    assert Result.objects.filter(section=section, adjustment__kind="not_played").count() == 4
    tablet.locator("#board-states").scroll_into_view_if_needed()
    screenshot(tablet, f"late-pair-3-grid-round1-{language}")
    tablet.click(f"#board-state-grid a[data-board='{slot.boards[0]}']")
    tablet.wait_for_load_state()
    assert words["unplayed"] in tablet.inner_text("main")
    screenshot(tablet, f"late-pair-4-line-{language}")

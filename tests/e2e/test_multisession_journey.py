"""A two-session pairs tournament in a real browser (issue #6, multi-session assignment).

Session 1 (a 10-table Mitchell, 20 pairs of the demo club) is played through the entry
service, as the table devices would send it, and finished. The director then opens session
2, chooses "seat this session from the previous one", picks the serpentine, looks at the
preview on a phone and on a desktop, and confirms on the desktop. Session 2 must be seated
as the course's 10-table column seats the ranking after session 1 (C03 l.429-471), and the
preview must have shown exactly those places.
"""

import datetime
import random

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, screenshot
from tournaments.demo import play_rounds
from tournaments.models import Seating
from tournaments.movements import mitchell
from tournaments.services.classification import classify as classification
from tournaments.services.classification import session_scores
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLES = 10
# movements-spec 12.2, the course's 10-table column: "table: NS rank v EW rank" in round 1.
COURSE_10 = "T1:1v14 T2:12v3 T3:5v18 T4:16v7 T5:9v2 T6:20v11 T7:13v6 T8:4v15 T9:17v10 T10:8v19"


def _played_first_session():
    tournament = setup.create_tournament(
        name="Copa de otoño", date=datetime.date(2025, 10, 4), sessions=2
    )
    players = list(Member.objects.filter(is_guest=False).order_by("licence_number")[: 4 * TABLES])
    entries = [
        registration.register_entry(tournament, players[2 * i : 2 * i + 2])
        for i in range(2 * TABLES)
    ]
    first = tournament.sessions.get(number=1)
    section = setup.add_section(first)
    setup.seat_section(section, mitchell(TABLES, 3, 2).to_dict(), entries)
    setup.start_session(first)
    play_rounds(section, random.Random(2025))
    setup.finish_session(first)
    classification.classify_session(first)
    return tournament


def _ranking_after_session_one(tournament) -> dict[int, int]:
    ranked, _totals, _names = session_scores.event_standings(
        tournament, [tournament.sessions.get(number=1)]
    )
    return {r.standing.pair: i for i, r in enumerate(ranked, start=1)}


def _preview(page, base, session) -> None:
    page.goto(f"{base}/director/sessions/{session.pk}/")
    page.click("#seat-from-previous")
    page.check("#method-form input[value=serpentine]")
    page.click("#preview-seating")
    page.wait_for_selector("#seating-preview")


def test_second_session_seated_by_serpentine(live_server, new_page):
    build_club()
    base = live_server.url
    tournament = _played_first_session()
    second = tournament.sessions.get(number=2)
    rank_of = _ranking_after_session_one(tournament)

    phone = new_page("phone")
    login(phone, base, "director", DEMO_PASSWORD)
    _preview(phone, base, second)
    screenshot(phone, "multisession-1-preview-phone")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    box = phone.locator("#confirm-seating").bounding_box()
    assert box["height"] >= 44

    page = new_page("desktop")
    login(page, base, "director", DEMO_PASSWORD)
    _preview(page, base, second)
    screenshot(page, "multisession-2-preview-desktop")
    shown = {}
    for cell in page.locator("#preview-A td.seat").all():
        shown[int(cell.get_attribute("data-entry"))] = cell.get_attribute("data-place")
    assert len(shown) == 2 * TABLES
    assert not Seating.objects.filter(session=second).exists()

    page.click("#confirm-seating")
    page.wait_for_url(f"{base}/director/sessions/{second.pk}/")
    page.wait_for_selector("#section-A")
    screenshot(page, "multisession-3-seated-desktop")

    seated = {s.entry_id: s for s in Seating.objects.filter(session=second)}
    assert {e: s.label for e, s in seated.items()} == shown
    by_table: dict[int, list] = {}
    for entry_id, s in seated.items():
        by_table.setdefault(s.number, [None, None])[0 if s.direction == "NS" else 1] = rank_of[
            entry_id
        ]
    expected = {}
    for cell in COURSE_10.split():
        table, match = cell[1:].split(":")
        expected[int(table)] = [int(x) for x in match.split("v")]
    assert by_table == expected
    section = second.sections.get()
    assert section.tables == TABLES and plan.round_count(section.movement) == 3

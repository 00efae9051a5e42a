"""Two directors correct the same result in two browsers: the second, sent from a page
showing the result before the first's correction, is refused with the current value and
kept as a conflict; the console lists it and the director keeps it from the line's page."""

import datetime

import pytest
from django.urls import reverse

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.e2e.e2e_helpers import login, screenshot
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.movements import mitchell
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.table import entry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def played_line(db):
    tournament = setup.create_tournament(name="Martes", date=datetime.date(2026, 11, 24))
    session = tournament.sessions.get()
    players = [
        Member.objects.create(
            first_name=f"N{i}", last_name=f"Apellido{i:02d}", licence_number=f"E-{i:03d}"
        )
        for i in range(12)
    ]
    entries = [registration.register_entry(tournament, players[i : i + 2]) for i in range(0, 12, 2)]
    section = setup.add_section(session, "A")
    setup.seat_section(section, mitchell(3, 3, 2).to_dict(), entries)
    setup.start_session(session)
    code = TableCode.objects.get(section=section, table=1, active=True)
    entry.submit_result(
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=10,
        table_code=code,
        idempotency_key="k-1",
    )
    return section


def test_the_second_director_is_told_and_nothing_is_overwritten(new_page, live_server, played_line):
    for name in ("ana", "bruno"):
        make_user(name, Role.DIRECTOR)
    base = live_server.url
    pages = {}
    for name, viewport in (("ana", "desktop"), ("bruno", "tablet")):
        page = new_page(viewport)
        login(page, base, name, "pass-1234-word")
        pages[name] = page
    line = base + reverse("director:line", args=[played_line.pk, 1, 1, 1])
    for page in pages.values():
        page.goto(line)
        page.wait_for_selector("#result-form")
    ana, bruno = pages["ana"], pages["bruno"]
    ana.fill("#result-form input[name=result]", "+1")
    ana.fill("#result-form input[name=reason]", "Una baza más")
    ana.click("#result-form button[type=submit]")
    ana.wait_for_load_state()
    assert Result.objects.get(section=played_line, status=ResultStatus.OK).ns_score == 450
    bruno.fill("#result-form input[name=contract]", "3NT")
    bruno.select_option("#result-form select[name=declarer]", "S")
    bruno.fill("#result-form input[name=result]", "=")
    bruno.fill("#result-form input[name=reason]", "Jugaron 3SA")
    bruno.click("#result-form button[type=submit]")
    bruno.wait_for_load_state()
    text = bruno.inner_text("body")
    screenshot(bruno, "concurrent-correction-refused-tablet")
    assert "ana cambió este resultado" in text and "NS 450" in text  # Spanish: the club's
    stored = Result.objects.get(section=played_line, status=ResultStatus.OK)
    assert stored.ns_score == 450 and stored.tricks == 11  # Ana's, not overwritten
    kept = Result.objects.get(section=played_line, status=ResultStatus.CONFLICT)
    assert kept.contract == "3NT" and kept.ns_score == 400
    # The console lists the line with a conflict; Bruno keeps his from the line's page.
    bruno.goto(base + reverse("director:console", args=[played_line.session_id]))
    assert line.removeprefix(base) in bruno.content()
    screenshot(bruno, "concurrent-correction-console-tablet")
    bruno.goto(line)
    assert "enviado por bruno" in bruno.inner_text(f"#conflict-{kept.pk}")
    bruno.fill(f"#conflict-{kept.pk} input[name=reason]", "Lo confirman los cuatro")
    bruno.click(f"#conflict-{kept.pk} button[value=new]")
    bruno.wait_for_load_state()
    stored = Result.objects.get(section=played_line, status=ResultStatus.OK)
    assert stored.contract == "3NT" and stored.ns_score == 400
    screenshot(ana, "concurrent-correction-first-desktop")

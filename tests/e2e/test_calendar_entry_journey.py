"""Online entry in a real browser, on a phone (390×844): from the calendar a player enters
with a partner and takes the last place; another pair finds the tournament full and goes to
the waiting list; a player of a placed pair cancels and the waiting pair moves up; the
director sees the entry list on the tournament's set-up page and seats the entries (the
movement advice counts them). The player's steps are taken in Spanish, the waiting pair's
in Portuguese and the cancellation in English, each page screenshotted."""

import datetime

import pytest
from e2e_helpers import login, no_sideways_scroll, screenshot

from clubsite.models import Member
from clubsite.permissions import Role
from tournaments.models import Entry, RegistrationStatus, Seating
from tournaments.services import online_entry, setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-1234-word"


def _people():
    from django.utils import timezone

    from tests.conftest import make_user

    def person(i, first, last, *roles):
        user = make_user(f"p{i}", Role.PLAYER, *roles, password=PASSWORD)
        return Member.objects.create(first_name=first, last_name=last, user=user,
                                     licence_number=f"J-{i:03d}")

    names = [("Lucía", "Fernández"), ("Antonio", "Gil"), ("María", "Soto"), ("José", "Ruiz"),
             ("Inês", "Magalhães"), ("João", "Pereira"), ("Pilar", "Vega"), ("Luis", "Mora"),
             ("Rosa", "Prieto"), ("Ángel", "Ortega"), ("Teresa", "Nieto"), ("Rafael", "Cano"),
             ("Begoña", "Lago"), ("Nuno", "Costa")]
    people = [person(i, first, last) for i, (first, last) in enumerate(names)]
    tournament = setup.create_tournament(
        name="Torneo de primavera", date=timezone.localdate() + datetime.timedelta(days=5),
        start_time=datetime.time(18, 30), venue="Sala principal", online_entry=True,
        max_tables=3)
    # five pairs entered already: one place left
    for i in (4, 6, 8, 10, 12):
        online_entry.enter(tournament, people[i:i + 2], user=people[i].user)
    return tournament, people


def _language(page, base, code):
    page.context.add_cookies([{"name": "django_language", "value": code,
                               "url": base}])


def test_enter_wait_cancel_move_up_and_seat(live_server, new_page):
    from tests.conftest import make_user

    tournament, people = _people()
    base = live_server.url
    make_user("director", Role.DIRECTOR, password=PASSWORD)

    # a visitor finds the tournament in the calendar and must sign in to enter
    phone = new_page("phone")
    _language(phone, base, "es")
    phone.goto(f"{base}/")
    phone.click("label.nav-toggle-label")
    phone.click("nav.site-nav a[href='/calendar/']")
    phone.click(f"#calendar-events li[data-slug='{tournament.slug}'] a")
    assert "5 de 6 plazas ocupadas" in phone.inner_text("#event-places")
    phone.click("#login-to-enter")
    phone.fill("input[name=username]", "p0")
    phone.fill("input[name=password]", PASSWORD)
    phone.click("form.stacked button[type=submit]")
    phone.wait_for_selector("#entry-form")
    no_sideways_scroll(phone)
    # no partner chosen: a clear message, nothing entered
    phone.click("#enter-submit")
    assert "Elige a tu pareja." in phone.inner_text("#entry-errors")
    phone.select_option("#id_player2", str(people[1].pk))
    screenshot(phone, "calendar-es-phone-enter")
    phone.click("#enter-submit")
    phone.wait_for_selector("#my-entry-status")
    assert "Inscrito: nos vemos en la mesa." in phone.inner_text(".messages")
    assert "Lucía Fernández – Antonio Gil" in phone.inner_text("#placed-list")
    no_sideways_scroll(phone)
    screenshot(phone, "calendar-es-phone-entered")

    # the next pair, in Portuguese, finds it full and waits
    waiting = new_page("phone")
    _language(waiting, base, "pt")
    login(waiting, base, "p2", PASSWORD)
    waiting.goto(f"{base}/calendar/{tournament.slug}/")
    assert "O torneio está completo" in waiting.inner_text("#my-entry")
    waiting.click("#enter-link")
    waiting.select_option("#id_player2", str(people[3].pk))
    waiting.click("#enter-submit")
    waiting.wait_for_selector("#waiting-list")
    assert "é o número 1 da lista de espera" in waiting.inner_text(".messages")
    assert "María Soto – José Ruiz" in waiting.inner_text("#waiting-list")
    no_sideways_scroll(waiting)
    screenshot(waiting, "calendar-pt-phone-waiting")

    # a player of a placed pair cancels, in English: the waiting pair moves up
    leaving = new_page("phone")
    _language(leaving, base, "en")
    login(leaving, base, "p5", PASSWORD)
    leaving.goto(f"{base}/calendar/{tournament.slug}/")
    assert "Inês Magalhães – João Pereira" in leaving.inner_text("#my-entry-status")
    leaving.click("#cancel-entry")
    leaving.wait_for_selector(".message.success")
    assert "Your entry is cancelled." in leaving.inner_text(".messages")
    assert "María Soto – José Ruiz" in leaving.inner_text("#placed-list")
    assert leaving.locator("#waiting-list").count() == 0
    no_sideways_scroll(leaving)
    screenshot(leaving, "calendar-en-phone-cancelled")
    moved = online_entry.registration_of(tournament, people[2])
    assert moved.status == RegistrationStatus.ENTERED and moved.placed_at > moved.queued_at
    waiting.reload()
    assert "Inscrito" in waiting.inner_text("#my-entry-status")

    # the director sees the list on the set-up page and seats it
    desk = new_page("desktop")
    _language(desk, base, "es")
    login(desk, base, "director", PASSWORD)
    desk.goto(f"{base}/director/{tournament.pk}/")
    listed = desk.inner_text("#online-entries")
    assert "6 de 6 plazas ocupadas" in listed and "María Soto – José Ruiz" in listed
    assert "Inês Magalhães" not in listed
    screenshot(desk, "calendar-es-director-setup")
    desk.click("#manage-registrations")
    assert "Inês Magalhães – João Pereira" in desk.text_content("#cancelled-list")
    assert desk.locator("#placed-list tbody tr").count() == 6
    no_sideways_scroll(desk)
    screenshot(desk, "calendar-es-director-list")
    desk.go_back()
    desk.click("#take-entries")
    desk.wait_for_selector(".pick-suggestion")
    assert "6 de 6 parejas presentes" in desk.inner_text("#present-form")
    assert "Sugeridos para 6 parejas" in desk.inner_text("main")
    screenshot(desk, "calendar-es-director-movement")
    desk.locator(".pick-suggestion").first.click()
    desk.wait_for_url(lambda url: "/seating/" in url)
    seated = Seating.objects.filter(session__tournament=tournament)
    assert seated.count() == 6
    names = set(Entry.objects.filter(tournament=tournament).values_list("display_name",
                                                                        flat=True))
    assert {"Lucía Fernández – Antonio Gil", "María Soto – José Ruiz"} <= names
    assert len(names) == 6 and "Inês Magalhães – João Pereira" not in names
    screenshot(desk, "calendar-es-director-seated")

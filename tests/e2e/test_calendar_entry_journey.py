"""Online entry in a real browser, on a phone (390×844): from the calendar a player enters
with a partner and takes the last place; another pair finds the tournament full and goes to
the waiting list; a player of a placed pair cancels and the waiting pair moves up; the
director sees the entry list on the tournament's set-up page and seats the entries (the
movement advice counts them). The player's steps are taken in Spanish, the waiting pair's
in Portuguese and the cancellation in English, each page screenshotted."""

import datetime

import pytest

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, no_sideways_scroll, screenshot, touch_targets
from tournaments.models import Entry, RegistrationStatus, Seating
from tournaments.services.entries import online_entry
from tournaments.services.setup import events as setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-1234-word"


def _people():
    from django.utils import timezone

    from tests.conftest import make_user

    def person(i, first, last, *roles):
        user = make_user(f"p{i}", Role.PLAYER, *roles, password=PASSWORD)
        return Member.objects.create(
            first_name=first, last_name=last, user=user, licence_number=f"J-{i:03d}"
        )

    names = [
        ("Lucía", "Fernández"),
        ("Antonio", "Gil"),
        ("María", "Soto"),
        ("José", "Ruiz"),
        ("Inês", "Magalhães"),
        ("João", "Pereira"),
        ("Pilar", "Vega"),
        ("Luis", "Mora"),
        ("Rosa", "Prieto"),
        ("Ángel", "Ortega"),
        ("Teresa", "Nieto"),
        ("Rafael", "Cano"),
        ("Begoña", "Lago"),
        ("Nuno", "Costa"),
    ]
    people = [person(i, first, last) for i, (first, last) in enumerate(names)]
    tournament = setup.create_tournament(
        name="Torneo de primavera",
        date=timezone.localdate() + datetime.timedelta(days=5),
        start_time=datetime.time(18, 30),
        venue="Sala principal",
        online_entry=True,
        max_tables=3,
    )
    # five pairs entered already: one place left
    for i in (4, 6, 8, 10, 12):
        online_entry.enter(tournament, people[i : i + 2], user=people[i].user)
    return tournament, people


def _find_partner(page, typed, member):
    """Type part of the partner's name in the picker and tap them among the matches."""
    page.fill("#q-player2", typed)
    page.locator(f"#matches-player2 button[data-member='{member.pk}']").click()
    page.wait_for_selector("#chosen-player2:not([hidden])")
    assert page.input_value("#id_player2") == str(member.pk)


def _language(page, base, code):
    page.context.add_cookies([{"name": "django_language", "value": code, "url": base}])


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
    _find_partner(phone, "antonio", people[1])
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
    _find_partner(waiting, "jose", people[3])
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
    names = set(Entry.objects.filter(tournament=tournament).values_list("display_name", flat=True))
    assert {"Lucía Fernández – Antonio Gil", "María Soto – José Ruiz"} <= names
    assert len(names) == 6 and "Inês Magalhães – João Pereira" not in names
    screenshot(desk, "calendar-es-director-seated")


def test_a_partner_found_by_typing_on_a_phone(live_server, new_page):
    """Issue #35: on a phone, "jose" (no accent, lower case) finds José among the members
    who may still enter; each match a touch-sized button; the "partner wanted" list of the
    event offers its players in one tap; nothing scrolls sideways."""
    tournament, people = _people()
    base = live_server.url
    online_entry.ask_for_partner(tournament, user=people[3].user, note="2/1")
    phone = new_page("phone")
    _language(phone, base, "es")
    login(phone, base, "p0", PASSWORD)
    phone.goto(f"{base}/calendar/{tournament.slug}/enter/")
    phone.wait_for_selector("#entry-form")
    # the "partner wanted" list: José asked; one tap makes him the partner
    wanted = phone.locator(f"#partners-wanted-pick button[data-member='{people[3].pk}']")
    assert "José Ruiz" in wanted.inner_text()
    touch_targets(phone, "#partners-wanted-pick button")
    # the search as you type: accents and case ignored, entered players left out
    phone.fill("#q-player2", "jose")
    phone.wait_for_selector("#matches-player2 button[data-partner-pick]")
    assert phone.inner_text("#matches-player2").split() == ["José", "Ruiz"]
    # Inês has entered already (with João): "INES" finds nobody
    phone.fill("#q-player2", "INES")
    phone.locator("#matches-player2", has_text="«INES»").wait_for()
    assert phone.locator("#matches-player2 button").count() == 0
    phone.fill("#q-player2", "jose")
    phone.locator("#matches-player2 button", has_text="José Ruiz").wait_for()
    touch_targets(phone, "#matches-player2 button")
    no_sideways_scroll(phone)
    screenshot(phone, "calendar-es-phone-partner-search")
    phone.locator("#matches-player2 button", has_text="José Ruiz").click()
    assert "José Ruiz" in phone.inner_text("#chosen-player2")
    assert phone.input_value("#id_player2") == str(people[3].pk)
    touch_targets(phone, "#chosen-player2 button")
    phone.click("#enter-submit")
    phone.wait_for_selector("#my-entry-status")
    assert "Lucía Fernández – José Ruiz" in phone.inner_text("#my-entry-status")
    no_sideways_scroll(phone)

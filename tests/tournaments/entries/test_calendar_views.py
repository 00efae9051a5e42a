"""The calendar, its iCalendar feed and online entry through the pages: filters, who sees
names, entering and cancelling, refusals as translated messages, the director's list."""

import datetime
import zoneinfo

import icalendar
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member
from tests.signed_in import sign_in_verified
from tournaments.models import (
    Entry,
    EventType,
    PartnerRequest,
    Registration,
    RegistrationStatus,
    ScoringMethod,
    Section,
)
from tournaments.services.entries import online_entry
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def member(i: int) -> Member:
    user = User.objects.create(username=f"m{i}")
    return Member.objects.create(
        first_name=f"Nombre{i:02d}",
        last_name=f"Apellido{i:02d}",
        licence_number=f"V-{i:03d}",
        user=user,
    )


@pytest.fixture(autouse=True)
def english(client, settings):
    """The messages are read in English here (the club's language is Spanish)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def people():
    return [member(i) for i in range(10)]


def event(name="Torneo del jueves", days=7, **options):
    options.setdefault("online_entry", True)
    options.setdefault("venue", "Sala 1")
    return setup.create_tournament(
        name=name,
        date=TODAY + datetime.timedelta(days=days),
        start_time=datetime.time(18, 30),
        **options,
    )


def as_member(client, m: Member):
    sign_in_verified(client, m.user)
    return client


def test_the_calendar_lists_upcoming_and_past_and_filters(client):
    soon = event("Pronto", days=3)
    later = event("Individual de mayo", days=40, event_type=EventType.INDIVIDUAL)
    past = event("Pasado", days=-10)
    event("Oculto", days=5, in_calendar=False)
    page = client.get(reverse("calendar:index")).content.decode()
    assert "Pronto" in page and "Individual de mayo" in page
    assert "Pasado" not in page and "Oculto" not in page
    assert page.index("Pronto") < page.index("Individual de mayo")
    past_page = client.get(reverse("calendar:index"), {"when": "past"}).content.decode()
    assert "Pasado" in past_page and "Pronto" not in past_page
    kind = client.get(reverse("calendar:index"), {"kind": "individual"}).content.decode()
    assert "Individual de mayo" in kind and "Pronto" not in kind
    month = client.get(reverse("calendar:index"), {"month": f"{past.date:%Y-%m}"}).content.decode()
    assert "Pasado" in month
    assert ("Pronto" in month) == (
        soon.date.month == past.date.month and soon.date.year == past.date.year
    )
    # nonsense filters show the default list, never an error
    odd = client.get(reverse("calendar:index"), {"month": "2026-13", "kind": "<b>", "when": "x"})
    assert odd.status_code == 200 and "Pronto" in odd.content.decode()
    assert later.slug in odd.content.decode()


def test_visitors_see_the_figures_members_the_names(client, people):
    tournament = event(max_tables=3)
    online_entry.enter(tournament, people[:2], user=people[0].user)
    url = reverse("calendar:event", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert "1 of 6 places taken" in page or "1 de 6" in page
    assert "Nombre00" not in page
    assert reverse("login") in page  # "log in to enter"
    page = as_member(client, people[5]).get(url).content.decode()
    assert "Nombre00 Apellido00 – Nombre01 Apellido01" in page


def test_anonymous_users_must_sign_in_to_enter(client):
    tournament = event()
    response = client.get(reverse("calendar:enter", args=[tournament.slug]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_member_enters_with_a_partner_and_cancels(client, people):
    tournament = event(max_tables=1)
    online_entry.enter(tournament, people[2:4], user=people[2].user)
    as_member(client, people[0])
    url = reverse("calendar:enter", args=[tournament.slug])
    assert client.get(url).status_code == 200
    # the partner is found by name: the entered players are not offered
    found = client.get(
        reverse("calendar:partner_search", args=[tournament.slug]), {"q": "apellido"}
    ).content.decode()
    assert f'value="player2:{people[1].pk}"' in found
    assert f'value="player2:{people[2].pk}"' not in found
    response = client.post(url, {"player2": people[1].pk}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("calendar:event", args=[tournament.slug])
    assert "Entered: see you at the table." in response.content.decode()
    mine = online_entry.registration_of(tournament, people[0])
    assert mine.status == RegistrationStatus.ENTERED
    # full now: the next pair waits, and moves up when one cancels
    as_member(client, people[4])
    response = client.post(url, {"player2": people[5].pk}, follow=True)
    assert "number 1 on the waiting list" in response.content.decode()
    as_member(client, people[1])
    response = client.post(reverse("calendar:cancel", args=[mine.pk]), follow=True)
    assert "Your entry is cancelled." in response.content.decode()
    assert online_entry.registration_of(tournament, people[4]).status == "entered"


def test_refusals_are_clear_messages(client, people):
    tournament = event(entry_closes_at=timezone.now() - datetime.timedelta(hours=1))
    as_member(client, people[0])
    response = client.post(
        reverse("calendar:enter", args=[tournament.slug]), {"player2": people[1].pk}
    )
    assert response.status_code == 400
    assert "Entries closed on" in response.content.decode()
    assert not Registration.objects.exists()
    # no partner chosen
    open_event = event("Abierto")
    response = client.post(reverse("calendar:enter", args=[open_event.slug]), {})
    assert response.status_code == 400 and "Choose your partner." in response.content.decode()
    # double entry
    online_entry.enter(open_event, people[2:4], user=people[2].user)
    response = client.post(
        reverse("calendar:enter", args=[open_event.slug]), {"player2": people[3].pk}
    )
    assert response.status_code == 400  # not offered any more: the form refuses the choice
    assert Registration.objects.filter(tournament=open_event).count() == 1


def test_a_refusal_speaks_the_visitors_language(client, people, settings):
    tournament = event(entry_closes_at=timezone.now() - datetime.timedelta(hours=1))
    as_member(client, people[0])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt"
    response = client.post(
        reverse("calendar:enter", args=[tournament.slug]), {"player2": people[1].pk}
    )
    assert "As inscrições fecharam" in response.content.decode()


def test_cancelling_someone_elses_entry_is_refused(client, people):
    tournament = event()
    theirs = online_entry.enter(tournament, people[:2], user=people[0].user)
    as_member(client, people[5])
    response = client.post(reverse("calendar:cancel", args=[theirs.pk]))
    assert response.status_code == 403
    assert "You can only cancel an entry you are in." in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.status == RegistrationStatus.ENTERED


def test_partner_wanted_from_the_page(client, people):
    tournament = event()
    as_member(client, people[0])
    url = reverse("calendar:partner_wanted", args=[tournament.slug])
    response = client.post(url, {"note": "<b>2/1</b>"}, follow=True)
    page = response.content.decode()
    assert "&lt;b&gt;2/1&lt;/b&gt;" in page and "<b>2/1</b>" not in page  # user text escaped
    request = PartnerRequest.objects.get(open=True)
    assert client.post(url, {"note": ""}).status_code == 400  # already on the list
    client.post(reverse("calendar:partner_withdraw", args=[request.pk]))
    assert not PartnerRequest.objects.filter(open=True).exists()


def test_the_director_adds_a_guest_after_the_closing_time_and_seats_the_entries(
    director_client, people
):
    tournament = event(entry_closes_at=timezone.now() - datetime.timedelta(hours=1), max_tables=3)
    for i in range(0, 8, 2):
        online_entry.enter(tournament, people[i : i + 2], user=None, by_director=True)
    url = reverse("director:registrations", args=[tournament.pk])
    response = director_client.post(
        url,
        {"player1": people[8].pk, "guest_first_name": "Ana", "guest_last_name": "Invitada"},
        follow=True,
    )
    assert "Entry added." in response.content.decode()
    guest_entry = online_entry.registration_of(tournament, people[8])
    assert guest_entry.players.get(seat=2).member.is_guest
    # the tournament's set-up page lists them
    page = director_client.get(reverse("director:tournament", args=[tournament.pk]))
    assert "Ana Invitada" in page.content.decode()
    response = director_client.post(reverse("director:registrations_take", args=[tournament.pk]))
    section = Section.objects.get(session__tournament=tournament)
    assert response["Location"] == reverse("director:movement", args=[section.pk])
    assert Entry.objects.filter(tournament=tournament).count() == 5
    movement = director_client.get(response["Location"])
    assert movement.context["count"] == 5  # the advice counts the entries
    assert movement.context["suggestions"] and "Suggested for 5 pairs" in movement.content.decode()


def test_the_director_cancels_and_the_waiting_pair_moves_up(director_client, people):
    tournament = event(max_tables=1)
    first = online_entry.enter(tournament, people[:2], user=people[0].user)
    online_entry.enter(tournament, people[2:4], user=people[2].user)
    waiting = online_entry.enter(tournament, people[4:6], user=people[4].user)
    response = director_client.post(
        reverse("director:registration_cancel", args=[first.pk]), follow=True
    )
    assert "moved up from the waiting list" in response.content.decode()
    waiting.refresh_from_db()
    assert waiting.status == RegistrationStatus.ENTERED


def test_raising_the_tables_moves_the_waiting_list_up(director_client, people):
    tournament = event(max_tables=1)
    for i in range(0, 6, 2):
        online_entry.enter(tournament, people[i : i + 2], user=people[i].user)
    form = director_client.get(reverse("director:tournament_edit", args=[tournament.pk]))
    data = {k: v for k, v in form.context["form"].initial.items() if v is not None}
    data.update(
        date=tournament.date.isoformat(),
        start_time="18:30",
        max_tables=2,
        entry_closes_at="",
        online_entry="on",
        in_calendar="on",
        public_results="on",
        show_traveller="on",
        opponent_confirmation="on",
    )
    response = director_client.post(reverse("director:tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert online_entry.places(tournament) == online_entry.Places(3, 4, 0)


# --- the iCalendar feed ---------------------------------------------------------------------


def test_the_feed_parses_back_with_stable_uids_local_times_and_escaped_text(client, settings):
    settings.TIME_ZONE = "Europe/Madrid"
    tricky = event('Copa "Rey", 1ª; parte\\ dos\nlíneas', days=10, venue="Sala A, planta 2")
    allday = setup.create_tournament(
        name="Día entero",
        date=TODAY + datetime.timedelta(20),
        scoring_method=ScoringMethod.MATCHPOINTS,
    )
    event("No listado", days=3, in_calendar=False)
    response = client.get(reverse("calendar:feed"))
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content
    assert all(len(line) <= 75 for line in body.split(b"\r\n"))  # folded (RFC 5545 3.1)
    cal = icalendar.Calendar.from_ical(body)
    events = {str(e["summary"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {tricky.name, "Día entero"}
    copa = events[tricky.name]
    assert str(copa["location"]) == "Sala A, planta 2"
    start = copa.decoded("dtstart")
    assert (
        start.tzinfo == zoneinfo.ZoneInfo("Europe/Madrid")
        or str(copa["dtstart"].params["TZID"]) == "Europe/Madrid"
    )
    assert (start.hour, start.minute) == (18, 30) and start.date() == tricky.date
    assert cal.walk("VTIMEZONE")[0]["tzid"] == "Europe/Madrid"
    assert events["Día entero"].decoded("dtstart") == allday.date  # an all-day event
    assert reverse("calendar:event", args=[tricky.slug]) in str(copa["url"])
    assert b"1\\xc2\\xaa\\; parte\\\\ dos\\nl" not in body  # sanity of the raw check below
    assert "parte\\\\ dos\\nlíneas".encode() in body.replace(b"\r\n ", b"")
    # the same tournament keeps its UID from one download to the next
    again = icalendar.Calendar.from_ical(client.get(reverse("calendar:feed")).content)
    assert {str(e["uid"]) for e in again.walk("VEVENT")} == {
        str(e["uid"]) for e in cal.walk("VEVENT")
    }
    # … and from one host name to another (issue #35)
    assert str(copa["uid"]) == f"tournament-{tricky.pk}@clubsite"


def test_a_captain_enters_a_team_and_a_player_an_individual(client, people):
    teams = event("Equipos", event_type=EventType.TEAMS, scoring_method=ScoringMethod.IMPS)
    as_member(client, people[0])
    url = reverse("calendar:enter", args=[teams.slug])
    short = client.post(url, {"name": "Los Ases", "player2": people[1].pk, "player3": people[2].pk})
    assert short.status_code == 400
    assert "A team has at least 4 players: choose them." in short.content.decode()
    client.post(
        url,
        {
            "name": "Los Ases",
            "player2": people[1].pk,
            "player3": people[2].pk,
            "player4": people[3].pk,
            "player5": people[4].pk,
        },
    )
    team = online_entry.registration_of(teams, people[4])
    assert team.name == "Los Ases" and team.players.get(seat=1).member == people[0]
    assert team.players.count() == 5
    solo = event("Individual", event_type=EventType.INDIVIDUAL)
    url = reverse("calendar:enter", args=[solo.slug])
    assert "player" not in "".join(client.get(url).context["form"].fields)
    client.post(url, {})
    assert online_entry.registration_of(solo, people[0]).display_name == "Nombre00 Apellido00"


def test_past_tournaments_link_to_their_published_results(client, people):
    past = event("Pasado", days=-3, online_entry=False)
    page = client.get(reverse("calendar:event", args=[past.slug])).content.decode()
    assert reverse("results:tournament", args=[past.slug]) not in page
    past.status = "final"
    past.save()
    page = client.get(reverse("calendar:event", args=[past.slug])).content.decode()
    assert reverse("results:tournament", args=[past.slug]) in page


def test_the_entry_page_says_when_entry_is_not_open(client, people):
    as_member(client, people[0])
    for options, text in (
        ({"online_entry": False}, "does not take entries online"),
        ({"entry_opens_at": timezone.now() + datetime.timedelta(days=1)}, "Entry opens on"),
        ({"entry_closes_at": timezone.now() - datetime.timedelta(days=1)}, "Entries are closed."),
    ):
        tournament = event(f"Torneo {text[:10]}", **options)
        page = client.get(reverse("calendar:enter", args=[tournament.slug]))
        assert text in page.content.decode() and "entry-form" not in page.content.decode()

"""Finding a partner on the entry page: the search as you type (an htmx fragment) matches
names with accents and case ignored, offers only members who may still enter (not oneself,
not anyone entered already, at most ten), shows only names, and is for members' accounts;
without JavaScript the search button and the pick buttons re-render the page, keeping what
was typed; the "partner wanted" list of the event offers a partner in one tap."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member, MemberStatus
from tests.signed_in import sign_in_verified
from tournaments.models import EventType, PartnerRequest, Registration
from tournaments.services.entries import online_entry
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def person(first, last, *, user=True, **extra) -> Member:
    account = User.objects.create(username=f"{first}-{last}".lower()) if user else None
    return Member.objects.create(
        first_name=first,
        last_name=last,
        user=account,
        email=f"{last.lower()}@example.com",
        phone="+34 600 000 000",
        **extra,
    )


@pytest.fixture
def tournament():
    return setup.create_tournament(
        name="Torneo del jueves",
        date=timezone.localdate() + datetime.timedelta(days=7),
        start_time=datetime.time(18, 30),
        online_entry=True,
    )


@pytest.fixture
def me(client):
    member = person("Lucía", "Fernández")
    sign_in_verified(client, member.user)
    return member


def search(client, tournament, q, **params):
    url = reverse("calendar:partner_search", args=[tournament.slug])
    return client.get(url, {"q": q, **params})


def names(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_accents_and_case_are_ignored(client, tournament, me):
    person("José", "Ruiz")
    person("Ángel", "Ortega")
    person("Inês", "Magalhães")
    assert "José Ruiz" in names(search(client, tournament, "jose"))
    assert "Ángel Ortega" in names(search(client, tournament, "ANGEL"))
    assert "Inês Magalhães" in names(search(client, tournament, "ines magalh"))
    page = names(search(client, tournament, "JOSÉ"))
    assert "José Ruiz" in page and "Ortega" not in page


def test_oneself_entered_players_guests_and_former_members_are_left_out(client, tournament, me):
    free = person("José", "Ruiz")
    entered = person("José", "Gil")
    partner = person("José", "Soto")
    person("José", "Huésped", user=False, is_guest=True)
    person("José", "Antiguo", status=MemberStatus.RESIGNED)
    online_entry.enter(tournament, [entered, partner], user=entered.user)
    page = names(search(client, tournament, "jos"))
    assert "José Ruiz" in page
    for absent in ("José Gil", "José Soto", "Huésped", "Antiguo"):
        assert absent not in page
    # nor oneself
    assert "Lucía" not in names(search(client, tournament, "lucia"))
    # each match a button that fills the place's hidden id; only names travel
    assert f'value="player2:{free.pk}"' in page and "data-partner-pick" in page
    assert "@example.com" not in page and "600 000" not in page


def test_at_most_ten_and_nothing_for_an_empty_search(client, tournament, me):
    for i in range(14):
        person("Ana", f"García{i:02d}")
    assert names(search(client, tournament, "ana")).count("data-partner-pick") == 10
    assert "data-partner-pick" not in names(search(client, tournament, "  "))


def test_a_team_mate_already_chosen_is_not_offered_again(client, me):
    teams = setup.create_tournament(
        name="Equipos",
        date=timezone.localdate() + datetime.timedelta(days=7),
        online_entry=True,
        event_type=EventType.TEAMS,
    )
    first = person("José", "Ruiz")
    person("José", "Gil")
    page = names(search(client, teams, "jose", field="player3", player2=first.pk))
    assert "José Gil" in page and "José Ruiz" not in page
    assert 'value="player3:' in page


def test_anonymous_visitors_and_accounts_without_a_member_are_refused(client, tournament):
    person("José", "Ruiz")
    response = search(client, tournament, "jose")
    assert response.status_code == 302 and "/login" in response["Location"]
    sign_in_verified(client, User.objects.create(username="no-member"))
    assert search(client, tournament, "jose").status_code == 403


def test_without_javascript_the_search_keeps_what_was_typed(client, tournament, me):
    jose = person("José", "Ruiz")
    url = reverse("calendar:enter", args=[tournament.slug])
    response = client.post(url, {"player2": "", "player2_q": "jose", "action": "search"})
    page = names(response)
    assert 'value="jose"' in page
    assert f'value="player2:{jose.pk}"' in page
    assert not Registration.objects.exists()
    # the pick button fills the place; the page says who is chosen; then the entry
    response = client.post(url, {"player2": "", "player2_q": "jose", "pick": f"player2:{jose.pk}"})
    page = names(response)
    assert f'name="player2" value="{jose.pk}"' in page
    assert "José Ruiz" in page.split('id="chosen-player2"')[1].split("</p>")[0]
    assert not Registration.objects.exists()
    response = client.post(url, {"player2": str(jose.pk), "player2_q": ""})
    assert response.status_code == 302
    assert Registration.objects.get().display_name == "Lucía Fernández – José Ruiz"


def test_a_team_keeps_its_name_and_chosen_players_through_a_search(client, me):
    teams = setup.create_tournament(
        name="Equipos",
        date=timezone.localdate() + datetime.timedelta(days=7),
        online_entry=True,
        event_type=EventType.TEAMS,
    )
    first = person("José", "Ruiz")
    url = reverse("calendar:enter", args=[teams.slug])
    page = names(
        client.post(
            url,
            {"name": "Los Ases", "player2": str(first.pk), "player3_q": "ANG", "action": "search"},
        )
    )
    assert 'value="Los Ases"' in page and 'value="ANG"' in page
    assert f'name="player2" value="{first.pk}"' in page


def test_hostile_picks_and_searches_are_harmless(client, tournament, me):
    url = reverse("calendar:enter", args=[tournament.slug])
    for pick in ("player9:1", "player2:abc", ":", "player2:\x00", "x" * 500, "player2:" + "9" * 30):
        assert client.post(url, {"pick": pick}).status_code == 200
    assert client.post(url, {"player2": "9" * 30}).status_code == 400
    assert search(client, tournament, "\x00jose", field="../../etc").status_code == 200
    assert (
        search(client, tournament, "a" * 5000, player2="9" * 30, player3="nope").status_code == 200
    )


def test_the_partner_wanted_list_offers_a_partner_in_one_tap(client, tournament, me):
    asking = person("José", "Ruiz")
    entered = person("Pilar", "Vega")
    online_entry.ask_for_partner(tournament, user=asking.user, note="2/1")
    PartnerRequest.objects.create(tournament=tournament, member=entered, open=True)
    online_entry.enter(tournament, [entered, person("Luis", "Mora")], user=entered.user)
    PartnerRequest.objects.filter(member=entered).update(open=True)
    url = reverse("calendar:enter", args=[tournament.slug])
    page = names(client.get(url))
    wanted = page.split('id="partners-wanted-pick"')[1].split("</section>")[0]
    assert "José Ruiz" in wanted and "2/1" in wanted and "Pilar" not in wanted
    assert f'value=":{asking.pk}"' in wanted
    # without JavaScript the tap fills the partner's place
    page = names(client.post(url, {"player2": "", "pick": f":{asking.pk}"}))
    assert f'name="player2" value="{asking.pk}"' in page
    assert client.post(url, {"player2": str(asking.pk)}).status_code == 302
    assert not PartnerRequest.objects.filter(member=asking, open=True).exists()

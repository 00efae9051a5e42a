"""A player of two clubs on her phone: her "my results" at one club also lists her newest
results at the other, each linked to that club's own site."""

import pytest

from clubsite.demo import DEMO_PASSWORD
from clubsite.models import Club, Member
from clubsite.tenancy import club_scope
from tests.clubs import default_club
from tests.e2e.e2e_helpers import login, screenshot
from tournaments.models import EntryPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SUR_HOST = "sur.example.org"


def _two_clubs():
    """Norte (the default club) and Sur, each with the demo's members and a published
    Mitchell; the demo's player ("jugador", Lucía) is a member of both."""
    from clubsite.demo import build_club
    from tournaments.demo import build_tournaments

    norte = default_club()
    norte.name, norte.slug = "Club Norte", "norte"
    norte.save()
    sur = Club.objects.create(name="Club Sur", slug="sur", host=SUR_HOST)
    for club in (norte, sur):
        with club_scope(club):
            build_club()
            build_tournaments(only=("martes",))
    return norte, sur


def test_a_player_of_two_clubs_sees_both_on_her_phone(live_server, new_page, settings):
    settings.SITE_URL = ""  # links to Sur take this request's scheme and port
    _norte, sur = _two_clubs()
    with club_scope(sur):
        lucia = Member.objects.get(user__username="jugador")
        entry_id = EntryPlayer.objects.get(member=lucia).entry_id
    base = live_server.url

    phone = new_page("phone")
    login(phone, base, "jugador", DEMO_PASSWORD)
    phone.goto(f"{base}/results/me/")
    # Norte's history first, as before
    assert phone.locator("#history tbody tr").count() >= 1
    # then Sur's, jumped to from the top
    phone.click("#other-clubs-jump a[href='#club-sur']")
    section = phone.locator("#club-sur")
    assert section.locator("h3").inner_text() == "Club Sur"
    rows = section.locator("tbody tr[data-club='sur']")
    assert rows.count() == 1
    link = rows.first.locator("td.event a").get_attribute("href")
    port = live_server.url.rsplit(":", 1)[1]
    assert link.startswith(f"http://{SUR_HOST}:{port}/results/")
    assert link.endswith(f"/pair/{entry_id}/")
    everything = section.locator("a.club-page").get_attribute("href")
    assert everything == f"http://{SUR_HOST}:{port}/results/player/{lucia.pk}/"
    overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    screenshot(phone, "my-results-two-clubs-phone")

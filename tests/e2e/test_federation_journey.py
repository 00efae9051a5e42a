"""A federation's officer in a real browser: adds a club and names its secretary, reads the
published results of two clubs, prepares a club's archive in the background, downloads it
and lets the club leave, on a desktop and on a phone; and
every officer page on a 360px phone in Portuguese and English."""

import io
import zipfile

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, appoint_officer, roles_of
from clubsite.models import Club, Federation
from clubsite.tenancy import club_scope
from tests.clubs import default_club
from tests.e2e.e2e_helpers import login, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "officer-pass-1234"


def _two_clubs():
    from clubsite.demo import build_club
    from tournaments.demo import build_master_points, build_tournaments

    norte = default_club()
    norte.name, norte.slug, norte.federation = "Club Norte", "norte", Federation.AEB
    norte.save()
    sur = Club.objects.create(
        name="Club Sur", slug="sur", host="sur.example.org", federation=Federation.AEB
    )
    for club in (norte, sur):
        with club_scope(club):
            build_club()
            build_tournaments(only=("martes",))
            build_master_points()
    return norte, sur


def _touch_targets_fit(page, selector):
    for box in page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    ):
        assert box[1] >= 44, (selector, box)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


def test_an_officer_adds_a_club_reads_results_and_archives_a_club_that_leaves(
    live_server, new_page, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"  # the archive's file, through default_storage
    _norte, sur = _two_clubs()
    officer = User.objects.create_user("federacion", password=PASSWORD)
    appoint_officer(officer, Federation.AEB)
    secretary = User.objects.create_user("nueva-secretaria", email="nueva@example.org")
    base = live_server.url
    # Norte and Sur, and any other club of the AEB already there: at a default club other
    # than club 1, the empty club 1 the migrations made (of the AEB, unless a flush took it)
    aeb = Club.objects.filter(federation=Federation.AEB).count()
    assert aeb >= 2

    page = new_page("desktop")
    login(page, base, "federacion", PASSWORD)
    page.goto(f"{base}/federation/")
    assert page.url.endswith("/federation/AEB/")
    assert page.locator("#clubs .club").count() == aeb
    screenshot(page, "federation-clubs-desktop")

    # a new club, then its secretary
    page.click("a[href='/federation/AEB/clubs/new/']")
    page.fill("#id_name", "Club Este")
    page.fill("#id_slug", "este")
    page.fill("#id_address", "Plaza Mayor 1\n28001 Madrid")
    screenshot(page, "federation-club-new")
    page.click("#club-form button[type=submit]")
    page.wait_for_url("**/secretary/")
    este = Club.objects.get(slug="este")
    assert este.federation == Federation.AEB
    page.fill("#id_who", "nueva@example.org")
    page.click("#secretary-form button[type=submit]")
    page.wait_for_url("**/federation/AEB/")
    assert page.locator("#clubs .club").count() == aeb + 1
    screenshot(page, "federation-secretary-named")
    with club_scope(este):
        assert Role.SECRETARY in roles_of(User.objects.get(pk=secretary.pk))

    # the published results of both clubs
    page.goto(f"{base}/federation/AEB/results/")
    assert page.locator("#results tr[data-club='norte']").count() >= 1
    assert page.locator("#results tr[data-club='sur']").count() >= 1
    link = page.locator("#results tr[data-club='sur'] a").first.get_attribute("href")
    assert link.startswith("http://sur.example.org") and "/results/" in link
    screenshot(page, "federation-results-desktop")
    page.goto(f"{base}/federation/AEB/ranking/")
    assert page.locator("#ranking tbody tr").count() > 1
    screenshot(page, "federation-ranking-desktop")

    # a club leaves: refused until its archive is ready, which is made in the background
    # while the page polls, then downloaded; once the club is gone its archive stays
    leave = f"{base}/federation/AEB/clubs/{sur.pk}/leave/"
    page.goto(leave)
    screenshot(page, "federation-leave")
    page.fill("#id_confirm", "sur")
    page.click("#leave-form button[type=submit]")
    assert page.locator("#leave-form .errorlist, #leave-form .error").count() >= 1
    assert Club.objects.filter(pk=sur.pk).exists()
    page.click("#archive-form button[type=submit]")
    page.wait_for_selector("#archive .archive[data-state='done']")
    assert page.url == leave  # htmx swapped the card in place
    screenshot(page, "federation-leave-archive-ready")
    with page.expect_download() as download_info:
        page.click("#archive-download")
    download = download_info.value
    assert download.suggested_filename.startswith("sur-")
    archive = zipfile.ZipFile(io.BytesIO(open(download.path(), "rb").read()))
    names = archive.namelist()
    assert "members.csv" in names and any(n.endswith(".xml") for n in names)
    assert any(n.endswith(".pbn") for n in names)
    page.fill("#id_confirm", "sur")
    page.click("#leave-form button[type=submit]")
    page.wait_for_url("**/federation/AEB/")
    assert not Club.objects.filter(pk=sur.pk).exists()
    assert page.locator("#archives-gone .archive").count() == 1
    screenshot(page, "federation-archives-gone")

    # on a phone
    phone = new_page("phone")
    login(phone, base, "federacion", PASSWORD)
    for path, name in (
        ("/federation/AEB/", "federation-clubs-phone"),
        ("/federation/AEB/results/", "federation-results-phone"),
        ("/federation/AEB/licences/", "federation-licences-phone"),
    ):
        phone.goto(base + path)
        _touch_targets_fit(phone, "main .toolbar .button")
        screenshot(phone, name)


# What a finger taps on the officer's pages: buttons, links drawn as buttons, fields.
TAPPABLE = "main .button, main button, main select, main input:not([type=hidden]), main textarea"


def test_the_federation_pages_fit_a_360px_phone_in_portuguese_and_english(live_server, browser):
    """Every officer page on a 360×780 phone, in European Portuguese and in English (words
    longer than Spanish ones, or shorter): the page never scrolls sideways and every button,
    field and tab is a finger's size."""
    from django.conf import settings

    from tests.e2e.e2e_helpers import fits_its_box, no_sideways_scroll, touch_targets

    _norte, sur = _two_clubs()
    officer = User.objects.create_user("federacion", password=PASSWORD)
    appoint_officer(officer, Federation.AEB)
    base = live_server.url
    host = base.split("://")[1].split(":")[0]
    pages = {
        "clubs": "/federation/AEB/",
        "results": "/federation/AEB/results/",
        "licences": "/federation/AEB/licences/",
        "ranking": "/federation/AEB/ranking/?season=all",
        "club-new": "/federation/AEB/clubs/new/",
        "secretary": f"/federation/AEB/clubs/{sur.pk}/secretary/",
        "leave": f"/federation/AEB/clubs/{sur.pk}/leave/",
    }
    for language in ("pt", "en"):
        context = browser.new_context(
            viewport={"width": 360, "height": 780}, has_touch=True, is_mobile=True
        )
        context.add_cookies(
            [
                {
                    "name": settings.LANGUAGE_COOKIE_NAME,
                    "value": language,
                    "domain": host,
                    "path": "/",
                }
            ]
        )
        page = context.new_page()
        login(page, base, "federacion", PASSWORD)
        try:
            for name, path in pages.items():
                page.goto(base + path)
                assert page.locator("html").get_attribute("lang") == language, path
                no_sideways_scroll(page)
                touch_targets(page, TAPPABLE)
                # the header is the host's club, even on a page about another club
                assert page.locator(".brand").inner_text() == "Club Norte", path
                screenshot(page, f"federation-360-{language}-{name}")
            for path, table in (("results", "#results"), ("ranking", "#ranking")):
                page.goto(base + pages[path])
                fits_its_box(page, table)  # the points in sight, not behind a scroll
            # the season picked on the phone: the form sends it, the page keeps it
            page.goto(base + "/federation/AEB/ranking/")
            page.select_option("#id_season", "all")
            page.click("#period-form button[type=submit]")
            page.wait_for_url("**/ranking/?season=all")
            assert page.locator("#ranking tbody tr").count() > 1
        finally:
            context.close()

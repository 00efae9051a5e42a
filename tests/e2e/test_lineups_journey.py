"""Team line-ups in a real browser (issue #7): a 20-board match, so two halves (C03 l.136).

The director, on a tablet, names the home team's first half with its fifth player, then
tries a second half that moves a continuing pair to the other room: refused (l.297) with the
typed players still selected. The visitors' captain, on a phone at the closed-room table,
names the visitors' first half from the table; the match screen shows who sits where. After
a substitution for the second half the public match page, on a phone, shows the rooms and
the substitution. Every page: no sideways scroll, touch targets of 44 px.
"""

import datetime

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, screenshot
from tests.e2e.table_device import sign_in
from tests.e2e.test_layout import SMALL_TARGETS
from tournaments.models import EventType, ScoringMethod, TableCode, TeamLineup, TeamMatch
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.teams import lineups, team_events

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits(page, where: str) -> None:
    assert page.evaluate(SMALL_TARGETS) == [], where
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{where} scrolls sideways by {overflow}px"


def _choose(page, form: str, prefix: str, players) -> None:
    for seat, player in zip(
        ("open_first", "open_second", "closed_first", "closed_second"), players, strict=True
    ):
        page.select_option(f"{form} select[name={prefix}-{seat}]", str(player.pk))


def test_director_and_captain_name_line_ups_for_two_halves(live_server, new_page):
    build_club()
    base = live_server.url
    tournament = setup.create_tournament(
        name="Liga de equipos",
        date=datetime.date.today(),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
        public_results=True,
    )
    team_events.configure(tournament, format="round_robin", boards_per_match=20)
    players = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[:10]
    )
    registration.register_entry(tournament, players[:5], name="Los Ases")
    registration.register_entry(tournament, players[5:10], name="Las Damas")
    session = team_events.start_teams(tournament)
    match = TeamMatch.objects.select_related("home", "away").get(session=session, number=1)
    home, away = lineups.squad(match.home), lineups.squad(match.away)

    tablet = new_page("tablet")
    login(tablet, base, "director", DEMO_PASSWORD)
    tablet.goto(f"{base}/director/{tournament.pk}/teams/")
    tablet.click(f"a.lineups-link[data-match='{match.pk}']")
    form = f"#lineup-1-{match.home_id}"
    _choose(tablet, form, f"h1-t{match.home_id}", [home[4], home[1], home[2], home[3]])
    tablet.click(f"#save-lineup-1-{match.home_id}")
    tablet.wait_for_selector("#half-1 .lineup-seats")
    assert home[4].full_name in tablet.inner_text("#seats-half-1 tr[data-room=open]")
    # the continuing pair of the open room moved to the closed room: refused, kept as typed
    form = f"#lineup-2-{match.home_id}"
    _choose(tablet, form, f"h2-t{match.home_id}", [home[2], home[3], home[4], home[1]])
    tablet.click(f"#save-lineup-2-{match.home_id}")
    tablet.wait_for_selector(f"{form} .errorlist")
    assert "sigue en la sala en que jugó el primero" in tablet.inner_text(f"{form} .errorlist")
    assert tablet.input_value(f"{form} select[name=h2-t{match.home_id}-closed_first]") == str(
        home[4].pk
    )
    screenshot(tablet, "lineups-1-director-refused-tablet")
    _fits(tablet, "director line-ups (tablet)")
    assert not TeamLineup.objects.filter(half=2).exists()

    phone = new_page("phone")
    code = TableCode.objects.get(section__session=session, table=match.closed_table, active=True)
    sign_in(phone, base, code)
    phone.click("#lineups-screen")
    form = f"#lineup-1-{match.away_id}"
    phone.wait_for_selector(form)
    # the second half: the visitors wait for the home team, which names first
    assert phone.is_visible(f"#lineup-wait-2-{match.away_id}")
    assert match.home.name in phone.inner_text(f"#lineup-wait-2-{match.away_id}")
    screenshot(phone, "lineups-2-captain-phone")
    _fits(phone, "table line-ups (phone)")
    _choose(phone, form, f"h1-t{match.away_id}", [away[0], away[4], away[2], away[3]])
    phone.click(f"#save-lineup-1-{match.away_id}")
    phone.wait_for_selector(".messages, .message, #half-1")
    assert TeamLineup.objects.get(team=match.away, half=1).table_code.table == match.closed_table
    phone.goto(f"{base}/table/play/match/?round=1")
    closed = phone.inner_text("#seats-half-1 tr[data-room=closed]")
    assert away[2].full_name in closed and home[3].full_name in closed
    assert away[4].full_name in phone.inner_text("#seats-half-1 tr[data-room=open]")
    screenshot(phone, "lineups-3-match-screen-phone")
    _fits(phone, "table match screen (phone)")

    # the second half: the home team's closed pair replaced by players 1 and 4 in its room
    lineups.set_lineup(
        match, match.home, 2, [home[4], home[1]], [home[0], home[3]], reason="Descanso"
    )
    lineups.set_lineup(match, match.away, 2, [away[2], away[3]], [away[0], away[4]])
    publish.publish_provisional(tournament, user=None)
    public = new_page("phone")
    public.goto(f"{base}/results/{tournament.slug}/teams/match/{match.pk}/")
    assert home[0].full_name in public.inner_text("#substitutions")
    assert away[2].full_name in public.inner_text("#seats-half-2 tr[data-room=open]")
    screenshot(public, "lineups-4-public-match-phone")
    _fits(public, "public match (phone)")

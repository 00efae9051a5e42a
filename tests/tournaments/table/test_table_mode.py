"""Table mode: a signed-in table device shows the table's screens only (no site menu, sign-in
button or footer to wander off to), and its pages carry what the device needs to score and
move on with no network (the board's vulnerability, the round's boards, the scripts kept)."""

from django.test import Client
from django.urls import reverse

from tournaments.models import TableCode
from tournaments.services.setup import plan


def device(section, table: int = 1) -> Client:
    code = TableCode.objects.get(section=section, table=table, active=True)
    client = Client()
    client.post(reverse("table:index"), {"table": code.label, "code": code.code})
    return client


def test_the_table_pages_have_no_site_header_menu_sign_in_or_footer(mitchell_session):
    client = device(mitchell_session)
    boards = plan.slot_for(mitchell_session.movement, 1, 1).boards
    for url in (reverse("table:home"), reverse("table:board", args=[1, boards[0]])):
        html = client.get(url).content.decode()
        assert 'class="table-header"' in html, url
        for chrome in (
            'class="site-header"',
            'class="site-nav"',
            'class="site-footer"',
            reverse("login"),
            reverse("calendar:index"),
        ):
            assert chrome not in html, (url, chrome)
        assert 'class="lang-switch"' in html  # players still choose their language
    # the rest of the site keeps its header
    assert 'class="site-header"' in Client().get(reverse("home")).content.decode()


def test_the_board_page_carries_what_the_device_scores_and_moves_on_with(mitchell_session):
    client = device(mitchell_session)
    first, second = (
        b + mitchell_session.board_offset
        for b in plan.slot_for(mitchell_session.movement, 1, 1).boards
    )
    page = client.get(reverse("table:board", args=[1, first]))
    html = page.content.decode()
    board = page.context["board"]
    assert f'data-vulnerability="{board.vulnerability}"' in html
    assert f'data-boards="{first},{second}"' in html
    assert f'data-board-url="{reverse("table:board", args=[1, 0])}"' in html
    assert 'id="offline-score"' in html and 'id="next-board"' in html
    kept = client.get(reverse("table:home")).context["offline_urls"]
    assert any(url.endswith("table_score.js") for url in kept)
    assert any(url.endswith("table_round.js") for url in kept)

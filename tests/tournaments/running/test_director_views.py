"""The director's pages: who may open them, forms that keep what was typed, and every set-up
and running step going through the services (movement, seating, prints, console, results,
adjusted scores, penalties, publication with the Law 79C override)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import shared_mitchell
from tournaments.models import (
    AuditAction,
    AuditEntry,
    EntryStatus,
    Penalty,
    Result,
    ResultStatus,
    Seating,
    SessionStatus,
    TableCode,
    TournamentStatus,
)
from tournaments.services.setup import events as setup
from tournaments.services.table import entry as entry_service
from tournaments.views.table.device import SESSION_KEY as TABLE_SESSION_KEY

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def _pages(section):
    session, tournament = section.session, section.session.tournament
    return [
        reverse("director:index"),
        reverse("director:tournament_create"),
        reverse("director:tournament", args=[tournament.pk]),
        reverse("director:tournament_edit", args=[tournament.pk]),
        reverse("director:entries", args=[tournament.pk]),
        reverse("director:member_search", args=[tournament.pk]) + "?q1=nombre&slot=1",
        reverse("director:audit", args=[tournament.pk]),
        reverse("director:session", args=[session.pk]),
        reverse("director:movement", args=[section.pk]),
        reverse("director:seating", args=[section.pk]),
        reverse("director:boards", args=[section.pk]),
        reverse("director:print_tables", args=[section.pk]),
        reverse("director:print_pairs", args=[section.pk]),
        reverse("director:print_boards", args=[section.pk]),
        reverse("director:print_sheet", args=[session.pk]),
        reverse("director:console", args=[session.pk]),
        reverse("director:penalties", args=[session.pk]),
        reverse("director:line", args=[section.pk, 1, 1, 1]),
    ]


# --- who may come in ------------------------------------------------------------------------


def test_player_gets_403_on_every_director_page(player_client, mitchell_session):
    for url in _pages(mitchell_session):
        assert player_client.get(url).status_code == 403, url


def test_table_device_cannot_open_director_pages(client, mitchell_session):
    """A table signs in with its code, not as a director: it is sent to the login page."""
    code = TableCode.objects.filter(section=mitchell_session).first()
    session = client.session
    session[TABLE_SESSION_KEY] = code.pk  # what signing in at the table stores
    session.save()
    assert client.get(reverse("table:home")).status_code == 200  # a real table device
    for url in _pages(mitchell_session):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), (
            url
        )
    post = client.post(reverse("director:session_finish", args=[mitchell_session.session_id]))
    assert post.status_code == 302 and post["Location"].startswith(reverse("login"))
    mitchell_session.session.refresh_from_db()
    assert mitchell_session.session.status == SessionStatus.RUNNING
    assert client.get(reverse("table:home")).status_code == 200  # still signed in


def test_director_opens_every_page(director_client, mitchell_session):
    for url in _pages(mitchell_session):
        assert director_client.get(url).status_code == 200, url


def test_player_cannot_post_director_actions(player_client, mitchell_session):
    result_count = Result.objects.count()
    response = player_client.post(
        reverse("director:line", args=[mitchell_session.pk, 1, 1, 1]),
        {"action": "result", "contract": "4S", "declarer": "N", "result": "=", "reason": "x"},
    )
    assert response.status_code == 403
    assert Result.objects.count() == result_count


# --- the event ------------------------------------------------------------------------------


# --- entries --------------------------------------------------------------------------------


def test_withdraw_and_substitute(director_client, mitchell_session, members):
    entry = Seating.objects.filter(section=mitchell_session).first().entry
    response = director_client.post(
        reverse("director:entry_withdraw", args=[entry.pk]), {"reason": ""}
    )
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE  # no reason, no withdrawal
    other = Seating.objects.filter(section=mitchell_session).last().entry
    leaving = other.players.first()
    joining = members[50]
    url = reverse("director:entry_substitute", args=[other.pk])
    response = director_client.post(
        url,
        {"leaving": leaving.pk, "player1": joining.pk, "reason": "Indisposición", "action": "save"},
    )
    assert response.status_code == 302
    assert joining in other.players.filter(entry_seats__active=True)
    assert AuditEntry.objects.filter(action=AuditAction.SUBSTITUTE).exists()
    director_client.post(
        reverse("director:entry_withdraw", args=[entry.pk]), {"reason": "Se marchan"}
    )
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN


# --- movement and seating -------------------------------------------------------------------


# --- print views ----------------------------------------------------------------------------


def test_print_views_show_cards_codes_and_qr(director_client, mitchell_session):
    section = mitchell_session
    html = director_client.get(reverse("director:print_tables", args=[section.pk])).content.decode()
    assert html.count('class="print-card table-card"') == 7
    html = director_client.get(reverse("director:print_pairs", args=[section.pk])).content.decode()
    assert html.count('class="print-card pair-card"') == 14
    html = director_client.get(reverse("director:print_boards", args=[section.pk])).content.decode()
    assert html.count('class="print-card board-list"') == 14
    response = director_client.get(reverse("director:print_sheet", args=[section.session_id]))
    html = response.content.decode()
    for code in TableCode.objects.filter(section=section, active=True):
        assert f'data-code="{code.code}"' in html
        # the QR code and link hold the secret token, never the short code alone
        assert f"http://testserver/table/{code.token}/" in html
        assert f"http://testserver/table/{code.code}/" not in html
    assert html.count("<svg") == 7


def test_the_sheets_qr_codes_use_the_site_url_when_set(
    director_client, mitchell_session, settings, monkeypatch
):
    from tournaments.views.director import printing as director_print

    settings.SITE_URL = "https://club.example.org"
    encoded = []
    real = director_print.qr_svg
    monkeypatch.setattr(director_print, "qr_svg", lambda text: encoded.append(text) or real(text))
    html = director_client.get(
        reverse("director:print_sheet", args=[mitchell_session.session_id])
    ).content.decode()
    codes = TableCode.objects.filter(section=mitchell_session, active=True).order_by("table")
    assert encoded == [f"https://club.example.org/table/{c.token}/" for c in codes]
    assert "http://testserver/table/" not in html


def test_table_card_lists_arriving_pairs(mitchell_session):
    from tournaments.services.setup import printing

    card = printing.table_cards(mitchell_session)[0]
    assert [line.round for line in card.lines] == list(range(1, 8))
    # EW move up one table: in round 2 EW 7 arrives at table 1 from table 7.
    assert card.lines[1].ew.label == "7EW" and card.lines[1].ew_from == 7
    assert card.lines[1].ns_from is None  # NS stay
    pair = printing.pair_cards(mitchell_session)[0]
    assert pair.pair.label == "1NS" and all(line.table == 1 for line in pair.lines)


# --- console and results --------------------------------------------------------------------


def _enter(section, rnd, table, board, contract="4S", declarer="N", tricks=10, key=None):
    code = TableCode.objects.get(section=section, table=table, active=True)
    return entry_service.submit_result(
        round=rnd,
        board=board,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        table_code=code,
        idempotency_key=key or f"k-{rnd}-{table}-{board}",
    )


def test_console_shows_progress_and_polls(director_client, mitchell_session):
    _enter(mitchell_session, 1, 1, 1)
    url = reverse("director:console", args=[mitchell_session.session_id])
    html = director_client.get(url).content.decode()
    assert 'hx-trigger="every 5s"' in html and 'http-equiv="refresh"' in html
    assert "1/2" in html
    partial = director_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="console-body"')
    assert "<html" not in partial


def test_director_corrects_a_wrong_result(director_client, mitchell_session):
    result = _enter(mitchell_session, 1, 1, 1, "4S", "N", 13).result
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    response = director_client.post(
        url, {"action": "result", "contract": "4S", "declarer": "N", "result": "+9", "reason": ""}
    )
    assert response.status_code == 400  # impossible result: the form keeps it
    assert 'value="+9"' in response.content.decode()
    response = director_client.post(
        url,
        {
            "action": "result",
            "contract": "4S",
            "declarer": "N",
            "result": "=",
            "reason": "Error al teclear",
        },
    )
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.tricks == 10 and result.ns_score == 420
    audit = AuditEntry.objects.get(action=AuditAction.CORRECTED)
    assert audit.before["ns_score"] == 510 and audit.after["ns_score"] == 420
    assert audit.user.username == "dir"


def test_director_enters_a_missing_result(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 2, 3])
    director_client.post(
        url, {"action": "result", "contract": "3NT", "declarer": "S", "result": "+1"}
    )
    row = Result.objects.get(section=mitchell_session, round=1, table=2, board__number=3)
    assert row.ns_score == 430 and row.confirmed


def test_conflict_resolved_from_the_line(director_client, mitchell_session):
    _enter(mitchell_session, 1, 1, 1, "4S", "N", 10, key="a")
    conflict = _enter(mitchell_session, 1, 1, 1, "4S", "N", 9, key="b").result
    assert conflict.status == ResultStatus.CONFLICT
    html = director_client.get(
        reverse("director:console", args=[mitchell_session.session_id])
    ).content.decode()
    assert "conflict" in html.lower()
    director_client.post(
        reverse("director:resolve", args=[conflict.pk]),
        {"keep": "new", "reason": "Los cuatro lo confirman"},
    )
    conflict.refresh_from_db()
    assert conflict.status == ResultStatus.OK
    assert Result.objects.get(idempotency_key="a").status == ResultStatus.SUPERSEDED


def test_remove_a_result(director_client, mitchell_session):
    row = _enter(mitchell_session, 1, 1, 1).result
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    director_client.post(url, {"action": "remove", "reason": "Pareja equivocada"})
    row.refresh_from_db()
    assert row.status == ResultStatus.REJECTED
    assert AuditEntry.objects.filter(action=AuditAction.DELETED).exists()


# --- adjusted scores ------------------------------------------------------------------------


def test_artificial_60_40_with_a_law(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 2])
    response = director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "artificial",
            "preset": "60/40",
            "reason": "Información no autorizada",
            "law": "12C1",
        },
    )
    assert response.status_code == 302
    row = Result.objects.get(section=mitchell_session, round=1, table=1, board__number=2)
    assert row.adjustment == {"kind": "artificial", "ns": 60, "ew": 40}
    assert row.law == "12C1" and row.reason.startswith("Información")
    assert AuditEntry.objects.get(action=AuditAction.ADJUSTED).law == "12C1"


def test_weighted_score_from_contracts(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "weighted",
            "reason": "Law 12C1c",
            "w1_percent": "30",
            "w1_contract": "4S",
            "w1_declarer": "N",
            "w1_result": "=",
            "w2_percent": "70",
            "w2_contract": "4S",
            "w2_declarer": "N",
            "w2_result": "-1",
            "law": "12C1c",
        },
    )
    row = Result.objects.get(section=mitchell_session, round=1, table=1, board__number=1)
    # Board 1: nobody vulnerable, 4S= is 420 and 4S-1 is -50.
    assert row.adjustment == {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]}


def test_adjustment_kinds_and_bad_input(director_client, mitchell_session):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    response = director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "artificial",
            "ns_side": "A+",
            "ew_side": "lots",
            "reason": "x",
            "law": "12C2",
        },
    )
    assert response.status_code == 400
    assert 'value="lots"' in response.content.decode()
    response = director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "weighted",
            "w1_percent": "30",
            "w1_contract": "4S",
            "w1_declarer": "N",
            "w1_result": "=",
            "w2_percent": "60",
            "w2_contract": "4S",
            "w2_declarer": "N",
            "w2_result": "-1",
            "reason": "x",
        },
    )
    assert response.status_code == 400  # weights add up to 90
    assert not Result.objects.exists()
    cases = [
        (
            {"kind": "artificial", "ns_side": "A+", "ew_side": "A-"},
            {"kind": "artificial", "ns": "A+", "ew": "A-"},
        ),
        (
            {"kind": "split", "split_ns": "420", "split_ew": "450"},
            {"kind": "split", "ns_score": 420, "ew_score": 450},
        ),
        (
            {"kind": "assigned", "w1_contract": "3NT", "w1_declarer": "S", "w1_result": "+1"},
            {"kind": "weighted", "outcomes": [[100, 430]]},
        ),
        (
            {"kind": "not_played", "not_played": "player_fault"},
            {"kind": "not_played", "reason": "player_fault"},
        ),
    ]
    for data, stored in cases:
        response = director_client.post(
            url, {"action": "adjust", "reason": "Motivo", "law": "12", **data}
        )
        assert response.status_code == 302, data
        row = Result.objects.get(section=mitchell_session, round=1, table=1, board__number=1)
        assert row.adjustment == stored


def test_fouled_board_keeps_the_real_result(director_client, mitchell_session):
    _enter(mitchell_session, 1, 1, 1, "4S", "N", 10)
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "fouled",
            "fouled_group": "2",
            "reason": "Tarjeta cambiada",
            "law": "87",
        },
    )
    row = Result.objects.get(section=mitchell_session, round=1, table=1, board__number=1)
    assert row.adjustment == {"kind": "fouled", "group": "2"} and row.ns_score == 420


def _current_result_html(client, url) -> str:
    return client.get(url).content.decode().split('id="current-result"')[1].split("</dd>")[0]


def test_law_citation_is_plain_text_without_the_law_texts(director_client, mitchell_session):
    from laws.models import Edition

    Edition.objects.all().delete()  # the laws tests may have imported them for the session
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 2])
    director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "artificial",
            "preset": "60/40",
            "reason": "UI",
            "law": "12C1",
        },
    )
    html = _current_result_html(director_client, url)
    assert "12C1" in html and "law-link" not in html


def test_law_citation_links_to_the_law_reference(director_client, mitchell_session):
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 2])
    director_client.post(
        url,
        {
            "action": "adjust",
            "kind": "artificial",
            "preset": "60/40",
            "reason": "UI",
            "law": "12C1",
        },
    )
    html = _current_result_html(director_client, url)
    assert 'class="law-link" href="/laws/es-2017/12/#C1"' in html
    audit = director_client.get(
        reverse("director:audit", args=[mitchell_session.session.tournament_id])
    ).content.decode()
    assert 'href="/laws/es-2017/12/#C1"' in audit


def test_procedural_penalty(director_client, mitchell_session):
    entry = Seating.objects.filter(section=mitchell_session).first().entry
    url = reverse("director:penalties", args=[mitchell_session.session_id])
    response = director_client.post(
        url, {"entry": entry.pk, "fraction_of_top": "0.25", "reason": "", "law": "90"}
    )
    assert response.status_code == 400 and not Penalty.objects.exists()
    director_client.post(
        url, {"entry": entry.pk, "fraction_of_top": "0.25", "reason": "Tardanza", "law": "90"}
    )
    penalty = Penalty.objects.get()
    assert penalty.entry == entry and str(penalty.fraction_of_top) == "0.250"


# --- publication and the correction period --------------------------------------------------


def _finished(section):
    setup.finish_session(section.session)
    return section.session.tournament


def test_publish_provisional_then_final(director_client, mitchell_session):
    tournament = mitchell_session.session.tournament
    _enter(mitchell_session, 1, 1, 1)
    director_client.post(reverse("director:publish_provisional", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PROVISIONAL
    response = director_client.post(
        reverse("director:publish_final", args=[tournament.pk]), follow=True
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PROVISIONAL  # the session is still running
    assert response.context["messages"]
    _finished(mitchell_session)
    response = director_client.post(
        reverse("director:publish_final", args=[tournament.pk]), follow=True
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL
    assert 'id="correction-period"' in response.content.decode()


def test_correction_after_the_period_needs_the_override(director_client, mitchell_session):
    result = _enter(mitchell_session, 1, 1, 1).result
    tournament = _finished(mitchell_session)
    from tournaments.services.results import publish

    publish.publish_final(tournament, user=None, at=timezone.now() - datetime.timedelta(minutes=45))
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    page = director_client.get(url).content.decode()
    assert 'name="override"' in page
    data = {
        "action": "result",
        "contract": "4S",
        "declarer": "N",
        "result": "+1",
        "reason": "Reclamación tardía",
    }
    response = director_client.post(url, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "79C" in html and 'value="+1"' in html
    result.refresh_from_db()
    assert result.ns_score == 420
    response = director_client.post(url, {**data, "override": "on"})
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.ns_score == 450
    audit = AuditEntry.objects.get(action=AuditAction.CORRECTED)
    assert audit.override
    html = director_client.get(reverse("director:audit", args=[tournament.pk])).content.decode()
    assert 'class="badge badge-expired override"' in html and "Reclamación tardía" in html


def test_adjustment_after_the_period_needs_the_override(director_client, mitchell_session):
    tournament = _finished(mitchell_session)
    from tournaments.services.results import publish

    publish.publish_final(tournament, user=None, at=timezone.now() - datetime.timedelta(hours=2))
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    data = {
        "action": "adjust",
        "kind": "artificial",
        "preset": "60/40",
        "reason": "UI",
        "law": "16",
    }
    assert director_client.post(url, data).status_code == 400
    assert not Result.objects.exists()
    assert director_client.post(url, {**data, "override": "on"}).status_code == 302
    assert AuditEntry.objects.get(action=AuditAction.ADJUSTED).override


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/phish",
        "//evil.example/phish",
        "http://evil.example/",
        "https:///evil.example",
        "javascript:alert(1)",
        "/\\evil.example",
    ],
)
def test_confirm_never_sends_the_director_off_site(director_client, mitchell_session, target):
    """A crafted ``next`` is not followed: the confirmation lands on the session's console."""
    result = _enter(mitchell_session, 1, 1, 1).result
    response = director_client.post(reverse("director:confirm", args=[result.pk]), {"next": target})
    assert response.status_code == 302
    assert response["Location"] == reverse("director:console", args=[mitchell_session.session_id])


def test_confirm_returns_to_the_line_it_came_from(director_client, mitchell_session):
    result = _enter(mitchell_session, 1, 1, 1).result
    line = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    response = director_client.post(reverse("director:confirm", args=[result.pk]), {"next": line})
    assert response.status_code == 302 and response["Location"] == line

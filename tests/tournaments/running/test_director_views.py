"""The director's pages: who may open them, forms that keep what was typed, and every set-up
and running step going through the services (movement, seating, prints, console, results,
adjusted scores, penalties, publication with the Law 79C override)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    EntryStatus,
    Penalty,
    Result,
    ResultStatus,
    Seating,
    SessionStatus,
    TableCode,
    Tournament,
    TournamentStatus,
)
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import movements as section_movements
from tournaments.services.setup import plan
from tournaments.services.table import entry as entry_service
from tournaments.views.table.device import SESSION_KEY as TABLE_SESSION_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft_section(members, pairs):
    """A tournament with 14 registered pairs and one empty section."""
    tournament = setup.create_tournament(name="Lunes", date=datetime.date(2025, 3, 3))
    pairs(tournament, members, 14)
    return setup.add_section(tournament.sessions.get())


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


def test_index_lists_newest_first(director_client, db):
    setup.create_tournament(name="Viejo", date=datetime.date(2024, 1, 1))
    setup.create_tournament(name="Nuevo", date=datetime.date(2025, 1, 1))
    html = director_client.get(reverse("director:index")).content.decode()
    assert html.index("Nuevo") < html.index("Viejo")
    assert reverse("director:tournament_create") in html


def test_tournament_form_keeps_input_on_error_then_creates(director_client):
    data = {
        "name": "",
        "date": "2025-05-06",
        "venue": "Sala Azul",
        "event_type": "pairs",
        "scoring_method": "butler",
        "session_count": "2",
        "mixed": "on",
        "correction_minutes": "45",
        "public_results": "on",
    }
    response = director_client.post(reverse("director:tournament_create"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Sala Azul"' in html and 'value="45"' in html
    assert '<option value="butler" selected>' in html
    assert Tournament.objects.count() == 0
    data["name"] = "Copa de primavera"
    response = director_client.post(reverse("director:tournament_create"), data)
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("director:tournament", args=[tournament.pk])
    assert tournament.sessions.count() == 2 and tournament.mixed
    assert tournament.scoring_method == "butler" and tournament.correction_minutes == 45
    assert not tournament.show_traveller  # unticked boxes are off


def test_editing_the_session_count_adds_and_drops_empty_sessions(director_client):
    tournament = setup.create_tournament(name="Liga", date=datetime.date(2025, 5, 6))
    url = reverse("director:tournament_edit", args=[tournament.pk])
    data = {
        "name": "Liga",
        "date": "2025-05-06",
        "event_type": "pairs",
        "scoring_method": "matchpoints",
        "session_count": "3",
        "correction_minutes": "30",
    }
    director_client.post(url, data)
    assert list(tournament.sessions.values_list("number", flat=True)) == [1, 2, 3]
    data["session_count"] = "1"
    director_client.post(url, data)
    assert list(tournament.sessions.values_list("number", flat=True)) == [1]


# --- entries --------------------------------------------------------------------------------


def test_live_search_is_accent_insensitive_and_marks_players_taken(director_client, members):
    tournament = setup.create_tournament(name="Búsqueda", date=datetime.date(2025, 1, 2))
    pena = Member.objects.create(first_name="Inés", last_name="Peña", licence_number="X-1")
    registration.register_entry(tournament, [pena, members[0]])
    url = reverse("director:member_search", args=[tournament.pk])
    html = director_client.get(
        url, {"q2": "ines pena", "slot": "2"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'name="player2"' in html and f'value="{pena.pk}"' in html
    assert "disabled" in html  # already playing
    html = director_client.get(url, {"q1": "X-1", "slot": "1"}).content.decode()
    assert "Peña" in html


def test_entry_form_keeps_the_chosen_player_and_adds_a_guest_on_the_spot(director_client, members):
    tournament = setup.create_tournament(name="Invitados", date=datetime.date(2025, 1, 2))
    url = reverse("director:entries", args=[tournament.pk])
    first = members[3]
    # Only one player chosen: refused, the choice and the search text stay.
    response = director_client.post(
        url, {"player1": first.pk, "q1": "Apellido03", "q2": "zzz", "action": "register"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'value="{first.pk}" checked' in html and 'value="Apellido03"' in html
    assert 'value="zzz"' in html
    assert not Entry.objects.exists()
    # A guest for the second seat, added without losing the first player.
    response = director_client.post(
        url,
        {
            "player1": first.pk,
            "q1": "Apellido03",
            "action": "guest2",
            "guest2-first_name": "Rocío",
            "guest2-last_name": "Quintana",
            "guest2-home_club": "Alicante",
        },
    )
    guest = Member.objects.get(last_name="Quintana")
    assert guest.is_guest
    html = response.content.decode()
    assert f'value="{first.pk}" checked' in html and f'value="{guest.pk}" checked' in html
    response = director_client.post(
        url, {"player1": first.pk, "player2": guest.pk, "action": "register"}
    )
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert set(entry.players.all()) == {first, guest}


def test_guest_without_a_name_is_refused_and_the_form_is_kept(director_client, members):
    tournament = setup.create_tournament(name="Sin nombre", date=datetime.date(2025, 1, 2))
    url = reverse("director:entries", args=[tournament.pk])
    response = director_client.post(
        url, {"player1": members[0].pk, "action": "guest2", "guest2-first_name": "Solo"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Solo"' in html and f'value="{members[0].pk}" checked' in html
    assert not Member.objects.filter(first_name="Solo").exists()


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


def test_plan_reads_the_cores_mitchell_contestants(draft_section):
    """The core names Mitchell pairs "3NS"/"3EW"; the stored movement must seat and resolve."""
    movement = section_movements.build_movement(
        "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
    )
    assert movement["rounds"][0]["tables"][0]["ns"] == "1NS"
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(draft_section, movement, entries)
    assert plan.pair_numbers(movement)[:2] == [(1, "NS"), (2, "NS")]
    slot = plan.slot_for(movement, 2, 1)
    assert (slot.ns, slot.ew) == (1, 7)
    setup.start_session(draft_section.session)
    line = entry_service.resolve_line(draft_section, 2, 1, slot.boards[0])
    assert line.ns == entries[0] and line.ew == entries[13]


def test_advice_is_shown_ranked_and_a_mitchell_is_picked(director_client, draft_section):
    url = reverse("director:movement", args=[draft_section.pk])
    html = director_client.get(url).content.decode()
    assert html.count('class="secondary pick-suggestion"') >= 3
    from tournaments.movements import advise

    advice = advise(14)[:12]
    index = next(
        i for i, s in enumerate(advice) if s.kind == "mitchell" and s.rounds == 7 and s.tables == 7
    )
    assert 'data-kind="mitchell" data-tables="7" data-rounds="7"' in html
    response = director_client.post(
        url,
        {
            "suggestion": index,
            "entries": [
                e.pk for e in Entry.objects.filter(tournament=draft_section.session.tournament)
            ],
        },
    )
    assert response.status_code == 302
    draft_section.refresh_from_db()
    assert draft_section.tables == 7
    assert Seating.objects.filter(section=draft_section).count() == 14
    assert TableCode.objects.filter(section=draft_section, active=True).count() == 7


def test_two_pools_from_the_advice_seat_two_sections_on_one_pool(director_client, members, pairs):
    """24 pairs: the advice's "two sections on the same boards" seats sections A and B of 6
    tables each, pairs alternating, both drawing on one pool of boards."""
    tournament = setup.create_tournament(name="Pools", date=datetime.date(2025, 3, 3))
    entries = pairs(tournament, members, 24)
    section = setup.add_section(tournament.sessions.get())
    url = reverse("director:movement", args=[section.pk])
    html = director_client.get(url).content.decode()
    index, suggestion, description, pickable = next(
        row
        for row in director_client.get(url).context["suggestions"]
        if row[1].kind == "mitchell_pools"
    )
    assert pickable and "Dos secciones de 6 mesas" in description and description in html
    response = director_client.post(url, {"suggestion": index, "entries": [e.pk for e in entries]})
    assert response.status_code == 302
    a, b = tournament.sessions.get().sections.order_by("letter")
    assert (a.letter, b.letter, a.pool, b.pool) == ("A", "B", "A", "A")
    assert a.tables == b.tables == 6
    assert {s.entry_id for s in Seating.objects.filter(section=a)} == {e.pk for e in entries[0::2]}
    assert {s.entry_id for s in Seating.objects.filter(section=b)} == {e.pk for e in entries[1::2]}
    boards_a = plan.plays_per_board(a.movement)
    assert boards_a == plan.plays_per_board(b.movement)
    assert len(boards_a) == 6 * suggestion.boards_per_round  # six board sets in play
    assert TableCode.objects.filter(session=a.session, active=True).count() == 12


def test_only_the_pairs_present_are_advised_for(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    url = reverse("director:movement", args=[draft_section.pk])
    response = director_client.get(url, {"picked": "1", "entries": [e.pk for e in entries[:13]]})
    assert "13" in response.content.decode()
    assert response.context["count"] == 13


def test_manual_howell_and_bad_manual_input_kept(director_client, draft_section):
    url = reverse("director:movement", args=[draft_section.pk])
    entries = [e.pk for e in Entry.objects.filter(tournament=draft_section.session.tournament)]
    response = director_client.post(
        url,
        {
            "action": "manual",
            "kind": "mitchell",
            "tables": "2",
            "rounds": "9",
            "boards_per_round": "3",
            "entries": entries,
        },
    )
    assert response.status_code == 400
    assert 'value="9"' in response.content.decode()
    assert not Seating.objects.exists()
    response = director_client.post(
        url,
        {
            "action": "manual",
            "kind": "howell",
            "tables": "7",
            "rounds": "13",
            "boards_per_round": "2",
            "entries": entries,
        },
    )
    assert response.status_code == 302
    draft_section.refresh_from_db()
    assert draft_section.movement["kind"] == "howell"
    assert plan.round_count(draft_section.movement) == 13


def test_change_rounds_before_start_and_hand_seating(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(
        draft_section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    director_client.post(
        reverse("director:change_rounds", args=[draft_section.pk]),
        {"rounds": "5", "reason": "Vamos tarde"},
    )
    draft_section.refresh_from_db()
    assert plan.round_count(draft_section.movement) == 5
    assert AuditEntry.objects.filter(action=AuditAction.MOVEMENT, reason="Vamos tarde").exists()
    # Swap the first NS pair with the first EW pair by hand.
    seats = {
        (s.number, s.direction): s.entry_id for s in Seating.objects.filter(section=draft_section)
    }
    data = {f"place-{entry}": f"{n}:{line}" for (n, line), entry in seats.items()}
    data[f"place-{seats[(1, 'NS')]}"] = "1:EW"
    data[f"place-{seats[(1, 'EW')]}"] = "1:NS"
    director_client.post(reverse("director:seating", args=[draft_section.pk]), data)
    assert (
        Seating.objects.get(section=draft_section, number=1, direction="NS").entry_id
        == seats[(1, "EW")]
    )
    # Two pairs on one place: refused, nothing changes.
    data[f"place-{seats[(2, 'NS')]}"] = "1:NS"
    director_client.post(reverse("director:seating", args=[draft_section.pk]), data)
    assert Seating.objects.filter(section=draft_section).count() == 14


def test_late_pair_takes_the_free_place(director_client, members, pairs):
    tournament = setup.create_tournament(name="Tarde", date=datetime.date(2025, 1, 2))
    entries = pairs(tournament, members, 13)
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(
        section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    late = registration.register_entry(tournament, members[40:42])
    response = director_client.post(
        reverse("director:late_entry", args=[section.pk]), {"entry": late.pk, "place": ""}
    )
    assert response.status_code == 302
    assert Seating.objects.get(entry=late).label == "7EW"
    late.refresh_from_db()
    assert late.late


def test_start_session(director_client, draft_section):
    entries = list(Entry.objects.filter(tournament=draft_section.session.tournament))
    setup.seat_section(
        draft_section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    response = director_client.post(
        reverse("director:session_start", args=[draft_section.session_id])
    )
    assert response["Location"] == reverse("director:console", args=[draft_section.session_id])
    draft_section.session.refresh_from_db()
    assert draft_section.session.status == SessionStatus.RUNNING


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

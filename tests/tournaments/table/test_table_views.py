"""Table devices over HTTP: signing in, scope, idempotent posts, conflicts, preview, moves."""

import uuid
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_rounds_before, shared_mitchell
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry, table_round
from tournaments.views.table.device import SESSION_KEY

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


def sign_in(client, section, table):
    table_code = code(section, table)
    response = client.post(
        reverse("table:index"), {"table": table_code.label, "code": table_code.code}
    )
    assert response.status_code == 302 and response["Location"] == reverse("table:home")
    return client


def result_data(round_=1, board=1, key=None, **fields):
    data = {
        "round": round_,
        "board": board,
        "level": "4",
        "strain": "S",
        "double": "",
        "declarer": "N",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": key or uuid.uuid4().hex,
    }
    data.update(fields)
    return data


def post_json(client, data):
    return client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")


# --- signing in ------------------------------------------------------------------------------


def test_sign_in_with_table_and_code_stores_the_table_in_the_session(client, mitchell_session):
    table_code = code(mitchell_session, 3)
    response = client.post(
        reverse("table:index"), {"table": " a3 ", "code": f" {table_code.code.lower()} "}
    )
    assert response.status_code == 302
    assert client.session[SESSION_KEY] == table_code.pk
    home = client.get(reverse("table:home"))
    assert home.status_code == 200
    assert home.context["tr"].table_code == table_code and home.context["tr"].round == 1
    # round 1 at table 3: NS 3 against EW 3, boards 5 and 6, Law 2 conditions
    assert [b["board"].number for b in home.context["boards"]] == [5, 6]
    assert (home.context["tr"].ns_number, home.context["tr"].ew_number) == (3, 3)
    html = home.content.decode()
    assert html.count('class="board-link') == 2 and 'data-board-key="1-5"' in html


def test_dealer_is_named_in_the_clubs_language(client, mitchell_session):
    """Board 4 is dealt by West (Law 2): Spanish tables read "Oeste", never the letter W."""
    sign_in(client, mitchell_session, 2)
    home = client.get(reverse("table:home")).content.decode()
    board = client.get(reverse("table:board", args=[1, 4])).content.decode()
    assert "Dador Oeste" in " ".join(home.split())
    assert "Dador <strong>Oeste</strong>" in board


def test_wrong_code_shows_the_form_again_with_what_was_typed(client, mitchell_session):
    response = client.post(reverse("table:index"), {"table": "A1", "code": "ZZ9ZZ"})
    assert response.status_code == 403
    assert response.context["error"] and response.context["code"] == "ZZ9ZZ"
    html = response.content.decode()
    assert 'value="ZZ9ZZ"' in html and 'value="A1"' in html and 'id="code-error"' in html
    assert SESSION_KEY not in client.session


def test_the_code_alone_signs_in_nowhere(client, mitchell_session):
    """The short code is only half of it: without its table it opens nothing."""
    table_code = code(mitchell_session, 4)
    response = client.post(reverse("table:index"), {"code": table_code.code})
    assert response.status_code == 403 and "A3" in response.context["error"]
    assert SESSION_KEY not in client.session


def test_the_code_with_another_table_is_refused(client, mitchell_session):
    table_code = code(mitchell_session, 4)
    for table in ("A5", "B4", "4x", ""):
        response = client.post(reverse("table:index"), {"table": table, "code": table_code.code})
        assert response.status_code == 403, table
        assert SESSION_KEY not in client.session


def test_the_code_of_a_session_that_is_over_is_refused(client, mitchell_session):
    table_code = code(mitchell_session, 2)
    setup.finish_session(mitchell_session.session)
    response = client.post(reverse("table:index"), {"table": "A2", "code": table_code.code})
    assert response.status_code == 403
    response = client.post(reverse("table:index"), {"token": table_code.token})
    assert response.status_code == 403
    assert SESSION_KEY not in client.session


def test_the_links_get_asks_and_does_not_sign_in(client, mitchell_session):
    table_code = code(mitchell_session, 5)
    url = reverse("table:enter", kwargs={"token": table_code.token})
    assert url == f"/table/{table_code.token}/"
    response = client.get(url)
    assert response.status_code == 200
    assert SESSION_KEY not in client.session
    html = response.content.decode()
    assert 'data-table="A5"' in html and mitchell_session.session.tournament.name in html
    assert f'name="token" value="{table_code.token}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert f'action="{reverse("table:index")}"' in html
    assert client.get(reverse("table:home"))["Location"] == reverse("table:index")


def test_posting_the_links_token_signs_in(client, mitchell_session):
    table_code = code(mitchell_session, 5)
    response = client.post(reverse("table:index"), {"token": table_code.token})
    assert response["Location"] == reverse("table:home")
    assert client.session[SESSION_KEY] == table_code.pk


def test_the_sign_in_post_needs_the_csrf_token(mitchell_session):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    table_code = code(mitchell_session, 5)
    page = browser.get(reverse("table:enter", kwargs={"token": table_code.token}))
    assert page.status_code == 200
    refused = browser.post(reverse("table:index"), {"token": table_code.token})
    assert refused.status_code == 403 and SESSION_KEY not in browser.session
    csrf = browser.cookies["csrftoken"].value
    signed = browser.post(
        reverse("table:index"), {"token": table_code.token, "csrfmiddlewaretoken": csrf}
    )
    assert signed.status_code == 302 and browser.session[SESSION_KEY] == table_code.pk


def test_a_wrong_or_old_link_is_refused_clearly(client, mitchell_session):
    table_code = code(mitchell_session, 5)
    for token in ("NOPE1", table_code.code, table_code.token[:-1]):
        response = client.get(reverse("table:enter", kwargs={"token": token}))
        assert response.status_code == 404 and response.context["message"]
        assert 'name="token"' not in response.content.decode()
    response = client.post(reverse("table:index"), {"token": "NOPE1"})
    assert response.status_code == 403 and response.context["message"]
    assert SESSION_KEY not in client.session


def test_too_many_failures_from_one_address_are_refused_with_429(
    client, mitchell_session, settings
):
    settings.TABLE_SIGNIN_MAX_FAILURES = 3
    settings.TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS = 3
    table_code = code(mitchell_session, 1)
    for table in ("A2", "A3", "A4"):
        assert (
            client.post(reverse("table:index"), {"table": table, "code": "ZZZZZ"}).status_code
            == 403
        )
    # the right code too is refused now: it is not even looked at
    response = client.post(reverse("table:index"), {"table": "A1", "code": table_code.code})
    assert response.status_code == 429
    # in the club's language, with the minutes left of the ten-minute window
    assert "Demasiados intentos fallidos. Espere 10 minutos" in response.content.decode()
    assert SESSION_KEY not in client.session
    # the card's link still works: its token cannot be guessed
    assert client.post(reverse("table:index"), {"token": table_code.token}).status_code == 302


def test_too_many_failures_for_one_table_are_refused_from_any_address(
    client, mitchell_session, settings
):
    from django.test import Client

    settings.TABLE_SIGNIN_MAX_FAILURES = 3
    table_code = code(mitchell_session, 6)
    for i in range(3):
        Client(REMOTE_ADDR=f"10.0.0.{i}").post(
            reverse("table:index"), {"table": "A6", "code": f"ZZZZ{i}"}
        )
    response = Client(REMOTE_ADDR="10.0.0.9").post(
        reverse("table:index"), {"table": "A6", "code": table_code.code}
    )
    assert response.status_code == 429 and response.context["error"]
    # another table from the same addresses is still fine
    other = code(mitchell_session, 7)
    assert (
        Client(REMOTE_ADDR="10.0.0.1")
        .post(reverse("table:index"), {"table": "A7", "code": other.code})
        .status_code
        == 302
    )


def test_a_device_that_signed_in_before_is_not_locked_out_of_its_table(mitchell_session, settings):
    from django.test import Client

    settings.TABLE_SIGNIN_MAX_FAILURES = 3
    table_code = code(mitchell_session, 6)
    phone = Client(REMOTE_ADDR="10.0.0.5")
    assert phone.post(reverse("table:index"), {"token": table_code.token}).status_code == 302
    assert phone.cookies["table_device"]["httponly"]
    phone.post(reverse("table:leave"))
    for i in range(3):  # wrong codes for A6 from elsewhere
        Client(REMOTE_ADDR=f"10.0.0.{i}").post(
            reverse("table:index"), {"table": "A6", "code": f"ZZZZ{i}"}
        )
    stranger = Client(REMOTE_ADDR="10.0.0.5").post(
        reverse("table:index"), {"table": "A6", "code": table_code.code}
    )
    assert stranger.status_code == 429
    assert "Escanee el código QR" in stranger.content.decode()
    back = phone.post(reverse("table:index"), {"table": "A6", "code": table_code.code})
    assert back.status_code == 302 and phone.session[SESSION_KEY] == table_code.pk
    # a cookie written by hand is not the device's: it is ignored
    forged = Client(REMOTE_ADDR="10.0.0.7")
    value = phone.cookies["table_device"].value
    forged.cookies["table_device"] = value[:-1] + ("B" if value[-1] == "A" else "A")
    assert (
        forged.post(reverse("table:index"), {"table": "A6", "code": table_code.code}).status_code
        == 429
    )


def test_a_good_sign_in_below_the_limit_still_works_for_another_table(
    client, mitchell_session, settings
):
    settings.TABLE_SIGNIN_MAX_FAILURES = 3
    for _ in range(2):
        client.post(reverse("table:index"), {"table": "A1", "code": "ZZZZZ"})
    other = code(mitchell_session, 2)
    assert (
        client.post(reverse("table:index"), {"table": "A2", "code": other.code}).status_code == 302
    )
    assert client.session[SESSION_KEY] == other.pk


def test_pages_need_a_signed_in_device(client, mitchell_session):
    assert client.get(reverse("table:home"))["Location"] == reverse("table:index")
    response = post_json(client, result_data())
    assert response.status_code == 403 and response.json()["error"]
    assert Result.objects.count() == 0


def test_leaving_the_table(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    client.post(reverse("table:leave"), {"pin": mitchell_session.session.table_pin})
    assert SESSION_KEY not in client.session
    assert client.get(reverse("table:home")).status_code == 302


def test_the_same_code_works_on_two_devices(client, mitchell_session, django_user_model):
    from django.test import Client

    phone = Client()
    sign_in(client, mitchell_session, 2)
    sign_in(phone, mitchell_session, 2)
    assert client.get(reverse("table:home")).status_code == 200
    assert phone.get(reverse("table:home")).status_code == 200


# --- scope -----------------------------------------------------------------------------------


def test_another_tables_board_is_refused(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    # table 2 plays boards 3-4 in round 1
    assert post_json(client, result_data(board=3)).status_code == 403
    assert client.get(reverse("table:board", args=[1, 3])).status_code == 403
    # a board of this table but another round
    assert post_json(client, result_data(round_=1, board=4)).status_code == 403
    # the form without JavaScript is refused the same way
    response = client.post(reverse("table:board", args=[1, 3]), result_data(board=3))
    assert response.status_code == 403
    assert Result.objects.count() == 0


def test_a_finished_session_refuses_its_codes(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    setup.finish_session(mitchell_session.session)
    response = client.get(reverse("table:home"))
    assert response.status_code == 403
    assert response.context["message"]
    assert post_json(client, result_data()).status_code == 403
    assert SESSION_KEY not in client.session
    assert Result.objects.count() == 0


def test_a_replaced_code_stops_working(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    setup.replace_table_code(code(mitchell_session, 1))
    assert post_json(client, result_data()).status_code == 403
    assert Result.objects.count() == 0


def test_a_device_of_another_session_writes_only_its_own_section(
    client, mitchell_session, members, movements, pairs
):
    other = setup.create_tournament(name="Otro", date=mitchell_session.session.tournament.date)
    other_section = setup.add_section(other.sessions.get())
    setup.seat_section(other_section, movements.mitchell(7, 7, 2), pairs(other, members[30:], 14))
    setup.start_session(other_section.session)
    sign_in(client, other_section, 1)
    assert post_json(client, result_data()).status_code == 201
    stored = Result.objects.get()
    assert stored.section == other_section
    assert not Result.objects.filter(section=mitchell_session).exists()
    # a result of the other session cannot be confirmed from this device
    mine = entry.submit_result(
        table_code=code(mitchell_session, 1),
        round=1,
        board=2,
        contract="3NT",
        declarer="S",
        tricks=9,
        idempotency_key="x",
    )
    assert client.post(reverse("table:confirm", args=[mine.result.pk])).status_code == 403
    mine.result.refresh_from_db()
    assert not mine.result.confirmed


# --- writing ---------------------------------------------------------------------------------


def test_json_post_is_stored_once_under_its_key(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    data = result_data(key="same-key", lead_suit="H", lead_rank="T")
    first = post_json(client, data)
    assert first.status_code == 201
    assert first.json() | {"result": None} == {
        "outcome": "created",
        "ns_score": 420,
        "board": 1,
        "round": 1,
        "result": None,
        "url": reverse("table:board", args=[1, 1]),
    }
    again = post_json(client, data)
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    row = Result.objects.get()
    assert (row.contract, row.declarer, row.tricks, row.lead, row.ns_score) == (
        "4S",
        "N",
        10,
        "HT",
        420,
    )
    assert row.entered_by_table == code(mitchell_session, 1)


def test_two_devices_same_result_different_keys_store_once(client, mitchell_session):
    from django.test import Client

    phone = sign_in(Client(), mitchell_session, 1)
    sign_in(client, mitchell_session, 1)
    assert post_json(client, result_data()).json()["outcome"] == "created"
    assert post_json(phone, result_data()).json()["outcome"] == "duplicate"
    assert Result.objects.count() == 1


def test_a_different_result_is_a_conflict_for_the_director(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    post_json(client, result_data())
    clash = post_json(client, result_data(made="-1"))
    assert clash.status_code == 200
    assert clash.json()["outcome"] == "conflict" and clash.json()["ns_score"] == -50
    ok = Result.objects.get(status=ResultStatus.OK)
    assert ok.ns_score == 420  # never overwritten
    assert Result.objects.filter(status=ResultStatus.CONFLICT).count() == 1
    page = client.get(reverse("table:board", args=[1, 1]))
    assert page.context["conflict"] and 'id="conflict-note"' in page.content.decode()
    home = client.get(reverse("table:home") + "?round=1")
    assert home.context["tr"].boards[0].conflict


def test_invalid_post_gives_field_errors(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    response = post_json(client, result_data(level="7", made="+1", declarer=""))
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"made", "declarer"} and all(errors.values())
    response = post_json(client, result_data(lead_suit="S"))
    assert set(response.json()["errors"]) == {"lead_rank"}
    assert Result.objects.count() == 0


def test_json_body_is_accepted(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    response = client.post(
        reverse("table:result"), result_data(level="PASS"), content_type="application/json"
    )
    assert response.status_code == 201 and response.json()["ns_score"] == 0
    assert Result.objects.get().contract == "PASS"


def test_a_passed_out_board_with_a_lead_is_refused_and_nothing_stored(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    response = client.post(
        reverse("table:result"),
        result_data(level="PASS", lead_suit="D", lead_rank="2"),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "lead_rank" in response.json()["errors"]
    assert not Result.objects.exists()


def test_form_without_javascript(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    page = client.get(reverse("table:board", args=[1, 2]))
    assert page.status_code == 200
    key = page.context["form"].initial["idempotency_key"]
    assert f'value="{key}"' in page.content.decode()
    # a mistake: the form comes back with what was chosen, nothing stored
    bad = client.post(
        reverse("table:board", args=[1, 2]), result_data(board=2, key=key, strain="", level="3")
    )
    assert bad.status_code == 400 and bad.context["form"].errors["strain"]
    assert 'value="3" checked' in bad.content.decode()
    assert Result.objects.count() == 0
    data = result_data(board=2, key=key, level="3", strain="NT", declarer="S", made="+1")
    saved = client.post(reverse("table:board", args=[1, 2]), data)
    assert saved.status_code == 302
    # the browser sends it again (back button, double tap): still one result
    client.post(reverse("table:board", args=[1, 2]), data)
    row = Result.objects.get()
    # board 2: NS vulnerable, 3NT+1 by South = 630
    assert (row.contract, row.tricks, row.ns_score) == ("3NT", 10, 630)


def test_preview_shows_the_servers_score(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    url = reverse("table:preview")
    # board 2, NS vulnerable: 4♥X by East two down = +300 to NS (non-vulnerable EW)
    response = client.post(
        url, result_data(board=2, level="4", strain="H", double="X", declarer="E", made="-2")
    )
    assert response.context["score"] == {"side": "NS", "points": 300}
    assert 'data-points="300"' in response.content.decode()
    response = client.post(
        url, result_data(board=2, level="6", strain="NT", declarer="N", made="=")
    )
    assert response.context["score"] == {"side": "NS", "points": 1440}
    incomplete = client.post(url, {"round": 1, "board": 1, "level": "4"})
    assert incomplete.context["score"] is None and not incomplete.context["complete"]
    impossible = client.post(url, result_data(level="7", made="+2"))
    assert impossible.context["error"]
    # the preview stores nothing, and another table's board is refused
    assert client.post(url, result_data(board=3)).status_code == 403
    assert Result.objects.count() == 0


# --- after saving ----------------------------------------------------------------------------


def test_opponents_confirm_then_the_traveller_shows_once_every_table_played(
    client, mitchell_session, director
):
    from django.test import Client

    # table 7 played board 1 in round 2 already (boards move down): +450 for NS there
    play_rounds_before(mitchell_session, 7, 2, director)
    other = sign_in(Client(), mitchell_session, 7)
    post_json(other, result_data(round_=2, board=1, level="4", strain="S", made="+1"))
    sign_in(client, mitchell_session, 1)
    post_json(client, result_data())
    page = client.get(reverse("table:board", args=[1, 1]))
    assert page.context["to_confirm"] and page.context["traveller"] is None
    row = Result.objects.get(table=1)
    response = client.post(reverse("table:confirm", args=[row.pk]))
    assert response["Location"] == reverse("table:board", args=[1, 1])
    row.refresh_from_db()
    assert row.confirmed
    # two of seven tables have played board 1: table 7's +450 is not shown yet
    page = client.get(reverse("table:board", args=[1, 1]))
    html = page.content.decode()
    assert page.context["traveller"] is None and page.context["in_play"]
    assert 'id="board-in-play"' in html and 'id="traveller"' not in html
    assert "450" not in html and "420" in html  # its own result, not the other table's
    # the five other tables play it: the whole traveller shows
    for slot in plan.slots(mitchell_session.movement):
        if 1 in slot.boards and slot.table not in (1, 7):
            play_rounds_before(mitchell_session, slot.table, slot.round, director)
            entry.submit_result(
                user=director,
                section=mitchell_session,
                table=slot.table,
                round=slot.round,
                board=1,
                contract="3NT",
                declarer="S",
                tricks=9,
                idempotency_key=f"late-{slot.round}",
            )
    page = client.get(reverse("table:board", args=[1, 1]))
    traveller = page.context["traveller"]
    assert not page.context["in_play"]
    assert [t["result"].ns_score for t in traveller["rows"]] == [450, 420] + [400] * 5
    assert traveller["top"] == 12
    assert [(t["ns_mark"], t["ew_mark"]) for t in traveller["rows"][:2]] == [
        (Decimal(12), Decimal(0)),
        (Decimal(10), Decimal(2)),
    ]
    html = page.content.decode()
    assert 'class="ours"' in html and 'id="board-in-play"' not in html
    assert page.context["next_board"] == 2


def test_no_traveller_when_the_club_hides_it(client, mitchell_session):
    tournament = mitchell_session.session.tournament
    tournament.show_traveller = False
    tournament.opponent_confirmation = False
    tournament.save()
    sign_in(client, mitchell_session, 1)
    post_json(client, result_data())
    page = client.get(reverse("table:board", args=[1, 1]))
    assert not page.context["to_confirm"] and page.context["traveller"] is None
    assert Result.objects.get().confirmed


def test_current_round_and_moves_in_a_mitchell(client, mitchell_session):
    sign_in(client, mitchell_session, 3)
    for board in (5, 6):
        post_json(client, result_data(board=board))
    # round 1 complete: the home page opens on round 2 by itself
    assert client.get(reverse("table:home")).context["tr"].round == 2
    done = client.get(reverse("table:home") + "?round=1")
    tr = done.context["tr"]
    assert tr.complete
    moves = {m.what: (m.number, m.table, m.line) for m in tr.moves}
    # NS stay; EW 3 move up to table 4; boards 5-6 go down to table 2
    assert moves == {"NS": (3, 3, "NS"), "EW": (3, 4, "EW"), "boards": (None, 2, "")}
    assert 'id="next-round"' in done.content.decode()


def test_moves_in_a_howell_with_a_sitout(howell_session):
    movement = howell_session.movement
    moves = {m.what: m for m in table_round.moves_after(movement, 1, 2)}
    # round 1 table 2: 2 v 7; round 2: pair 2 sits NS at table 4 against pair 1 ... read
    # the movement itself to check the answer is where the pair actually plays
    for what in ("NS", "EW"):
        move = moves[what]
        slot = next(s for s in entry.plan.slots(movement) if s.round == 2 and s.table == move.table)
        assert move.number == (slot.ns if move.line == "NS" else slot.ew)
    # pair 8 is the phantom at table 1: the pair drawn against it sits out
    sitting_out = next(s.ew for s in entry.plan.slots(movement) if s.round == 2 and s.ns == 8)
    here = next(
        s for s in entry.plan.slots(movement) if s.round == 1 and sitting_out in (s.ns, s.ew)
    )
    move = next(
        m for m in table_round.moves_after(movement, 1, here.table) if m.number == sitting_out
    )
    assert move.sitout and move.table == 1
    assert table_round.moves_after(movement, 7, 1) == []


def test_sitout_round_in_a_howell_shows_no_boards(client, howell_session):
    # pair 8 is the phantom at table 1: table 1 never has both pairs
    sign_in(client, howell_session, 1)
    page = client.get(reverse("table:home"))
    assert not page.context["tr"].plays and page.context["tr"].complete

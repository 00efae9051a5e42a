"""The opening lead: none on a passed-out board, and, once the deal is loaded, only a card the
declarer's left-hand opponent holds (Law 41A: the opening lead is made by the player on
declarer's left). Checked for every writer: the table, its correction and the director."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Board, Result, TableCode
from tournaments.scoring.deals import holds, opening_leader
from tournaments.services.errors import InvalidResult
from tournaments.services.running import corrections
from tournaments.services.table import entry, table_corrections

# North AKQ2 of spades; West (South's left) 543 of spades and AKQ2 of clubs
DEAL = "N:AKQ2.JT9.876.543 JT9.AKQ2.543.876 876.543.AKQ2.JT9 543.876.JT9.AKQ2"


def test_the_opening_leader_sits_on_declarers_left():
    assert [opening_leader(seat) for seat in "NESW"] == list("ESWN")


def test_who_holds_a_card():
    assert holds(DEAL, "W", "CA") and holds(DEAL, "W", "S5")
    assert holds(DEAL, "W", "SA") is False and holds(DEAL, "N", "SA")
    assert holds(DEAL, "E", "HA") and holds(DEAL, "E", "HT") is False
    assert holds("", "W", "SA") is None  # no deal loaded: nothing can be said
    assert holds("not a deal", "W", "SA") is None


@pytest.fixture
def dealt(mitchell_session):
    Board.objects.filter(session=mitchell_session.session, number=1).update(deal=DEAL)
    return mitchell_session


def director_posts(section, director, **fields):
    data = {"contract": "3NT", "declarer": "S", "tricks": 9, "lead": ""} | fields
    return entry.submit_result(
        user=director,
        section=section,
        table=1,
        round=1,
        board=1,
        idempotency_key=uuid.uuid4().hex,
        **data,
    )


def test_a_passed_out_board_has_no_lead(mitchell_session, director):
    with pytest.raises(InvalidResult) as refused:
        director_posts(
            mitchell_session, director, contract="PASS", declarer="", tricks=None, lead="D2"
        )
    assert refused.value.field == "lead"
    assert Result.objects.count() == 0
    stored = director_posts(
        mitchell_session, director, contract="PASS", declarer="", tricks=None
    ).result
    assert stored.contract == "PASS" and stored.lead == ""


def test_a_lead_the_leader_does_not_hold_is_refused_once_the_deal_is_loaded(dealt, director):
    with pytest.raises(InvalidResult) as refused:
        director_posts(dealt, director, lead="SA")  # North's ace: West cannot lead it
    assert refused.value.field == "lead"
    assert Result.objects.count() == 0
    assert director_posts(dealt, director, lead="CA").result.lead == "CA"


def test_without_a_deal_any_lead_is_taken(mitchell_session, director):
    assert director_posts(mitchell_session, director, lead="SA").result.lead == "SA"


def test_the_table_is_told_which_field_is_wrong_and_nothing_is_stored(dealt):
    code = TableCode.objects.get(section=dealt, table=1, active=True)
    client = Client()
    client.post(reverse("table:index"), {"table": code.label, "code": code.code})
    data = {
        "round": 1,
        "board": 1,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "=",
        "lead_suit": "S",
        "lead_rank": "A",
        "idempotency_key": uuid.uuid4().hex,
    }
    answer = client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and "lead_suit" in answer.json()["errors"]
    assert Result.objects.count() == 0
    answer = client.post(
        reverse("table:result"), data | {"lead_suit": "C"}, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 201
    row = Result.objects.get()
    # the table's own correction is checked the same way
    with pytest.raises(InvalidResult):
        table_corrections.correct_at_table(
            row, table_code=code, contract="3NT", declarer="S", tricks=9, lead="HA"
        )


def test_the_directors_correction_is_checked_too(dealt, director):
    row = director_posts(dealt, director, lead="CA").result
    with pytest.raises(InvalidResult):
        corrections.correct_result(
            row, user=director, contract="PASS", declarer="", tricks=None, lead="CA", reason="typo"
        )
    with pytest.raises(InvalidResult):
        corrections.correct_result(
            row, user=director, contract="3NT", declarer="S", tricks=9, lead="SK", reason="typo"
        )


def test_a_club_that_asks_no_lead_gets_no_lead_picker_and_stores_none(mitchell_session):
    tournament = mitchell_session.session.tournament
    code = TableCode.objects.get(section=mitchell_session, table=1, active=True)
    client = Client()
    client.post(reverse("table:index"), {"table": code.label, "code": code.code})
    board_url = reverse("table:board", args=[1, 1])
    assert 'class="lead-picker' in client.get(board_url).content.decode()
    tournament.ask_lead = False
    tournament.save(update_fields=["ask_lead"])
    assert 'class="lead-picker' not in client.get(board_url).content.decode()
    data = {
        "round": 1,
        "board": 1,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "=",
        "lead_suit": "S",
        "lead_rank": "A",
        "idempotency_key": uuid.uuid4().hex,
    }
    answer = client.post(reverse("table:result"), data, HTTP_ACCEPT="application/json")
    assert answer.status_code == 201 and Result.objects.get().lead == ""

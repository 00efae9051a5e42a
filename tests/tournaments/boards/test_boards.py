"""Boards: dealer and vulnerability overrides, PBN import (all or nothing), dealing by the
site, and the double-dummy task checked against a deal whose analysis is known."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Board
from tournaments.services.boards import deals as boards
from tournaments.tasks import analyse_session_boards

pytestmark = pytest.mark.django_db

DEAL_1 = "N:AKQJ.AKQ.AKQ.AKQ T98765.J.J.J9876 432.T98765.T9.T5 .432.8765432.432"
DEAL_2 = "N:K843.T542.J6.863 QT9.A3.AT4.AQJ72 AJ72.KQ.K875.K94 65.J9876.Q932.T5"
# Each hand holds one whole suit: West spades, North hearts, East diamonds, South clubs.
# Double dummy North-South take all 13 tricks in hearts or clubs and none in spades,
# diamonds or notrump (the opening leader cashes a whole suit); East-West the reverse.
# Par: East-West make 7♠, which outranks NS's grand slams, and NS have no cheap save
# (7NT would go 13 down): -1510 for NS.
ONE_SUIT_EACH = "W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def _pbn(*boards_):
    return "\n".join(
        f'[Event "Club"]\n[Board "{n}"]\n[Dealer "N"]\n[Deal "{deal}"]\n' for n, deal in boards_
    )


def test_deal_is_checked_and_normalised_from_north():
    assert boards.normalise_deal(ONE_SUIT_EACH) == (
        "N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."
    )
    for bad in (
        "N:AKQ",
        DEAL_1.replace(" .432", " A.432"),
        "X:" + DEAL_1[2:],
        DEAL_1.replace("AKQJ.", "AKQJZ."),
    ):
        with pytest.raises(ValueError):
            boards.normalise_deal(bad)


def test_pbn_import_with_a_bad_board_imports_nothing(director_client, mitchell_session):
    section = mitchell_session
    text = _pbn((1, DEAL_1), (2, DEAL_1.replace(" .432", " A.432")), (3, DEAL_2), (99, DEAL_2))
    upload = SimpleUploadedFile("boards.pbn", text.encode(), content_type="text/plain")
    response = director_client.post(
        reverse("director:pbn_import", args=[section.pk]), {"file": upload}
    )
    assert response.status_code == 400
    html = response.content.decode()
    problems = response.context["problems"]
    assert len(problems) == 2
    assert any("SA" in p for p in problems) and any("99" in p for p in problems)
    assert 'id="pbn-problems"' in html
    assert not Board.objects.filter(session=section.session).exclude(deal="").exists()


def test_pbn_import_stores_the_deals(director_client, mitchell_session):
    section = mitchell_session
    upload = SimpleUploadedFile("boards.pbn", _pbn((1, DEAL_1), (3, DEAL_2)).encode())
    response = director_client.post(
        reverse("director:pbn_import", args=[section.pk]), {"file": upload}
    )
    assert response.status_code == 302
    stored = dict(
        Board.objects.filter(session=section.session).exclude(deal="").values_list("number", "deal")
    )
    assert stored == {1: DEAL_1, 3: DEAL_2}


def test_a_file_that_is_not_pbn_is_refused(mitchell_session):
    with pytest.raises(boards.PBNImportError) as caught:
        boards.import_pbn(mitchell_session, "hello")
    assert caught.value.problems
    with pytest.raises(boards.PBNImportError):
        boards.import_pbn(mitchell_session, _pbn((1, DEAL_1), (1, DEAL_2)))


def test_dealing_is_reproducible_and_keeps_existing_deals(director_client, mitchell_session):
    section = mitchell_session
    Board.objects.filter(session=section.session, number=1).update(deal=DEAL_1)
    director_client.post(reverse("director:deal", args=[section.pk]), {"seed": "7"})
    deals = dict(Board.objects.filter(session=section.session).values_list("number", "deal"))
    assert deals[1] == DEAL_1
    assert all(boards.normalise_deal(d) == d for d in deals.values())
    assert len(set(deals.values())) == 14
    dealt = boards.deal_boards(section, seed=7, replace=True)
    again = {b.number: b.deal for b in dealt}
    assert len(dealt) == 14
    boards.deal_boards(section, seed=7, replace=True)
    assert (
        dict(Board.objects.filter(session=section.session).values_list("number", "deal")) == again
    )


def test_analysis_reports_its_count_while_another_thread_runs_a_task(
    director_client, mitchell_session
):
    """Tasks that run in the web process (the embedded set-up) share Celery's process-wide
    "inside a task" flag with the server's other threads: the analysis still says how many
    boards it analysed, not a server error."""
    from celery.result import denied_join_result
    from django.contrib import messages
    from django.contrib.messages import get_messages

    section = mitchell_session
    board = Board.objects.get(session=section.session, number=1)
    board.deal = boards.normalise_deal(ONE_SUIT_EACH)
    board.save()
    with denied_join_result():  # as while another thread's task runs
        response = director_client.post(reverse("director:analyse", args=[section.session_id]))
    assert response.status_code == 302
    done = [m for m in get_messages(response.wsgi_request) if m.level == messages.SUCCESS]
    assert len(done) == 1 and " 1 " in str(done[0])


def test_double_dummy_task_stores_table_and_par(director_client, mitchell_session):
    section = mitchell_session
    board = Board.objects.get(session=section.session, number=1)  # dealer N, nobody vul
    board.deal = boards.normalise_deal(ONE_SUIT_EACH)
    board.save()
    response = director_client.post(reverse("director:analyse", args=[section.session_id]))
    assert response.status_code == 302
    board.refresh_from_db()
    assert board.double_dummy["N"] == {"C": 13, "D": 0, "H": 13, "S": 0, "NT": 0}
    assert board.double_dummy["S"] == {"C": 13, "D": 0, "H": 13, "S": 0, "NT": 0}
    assert board.double_dummy["E"] == {"C": 0, "D": 13, "H": 0, "S": 13, "NT": 0}
    assert board.par["score"] == -1510
    assert board.par["contracts"] == ["7SE=", "7SW="]
    # Analysed boards are not analysed again unless asked.
    assert analyse_session_boards.delay(section.session_id).get() == 0
    assert analyse_session_boards.delay(section.session_id, True).get() == 1
    html = director_client.get(reverse("director:boards", args=[section.pk])).content.decode()
    assert "-1510" in html and 'class="dd-table"' in html


def test_thirteen_top_cards_make_every_notrump_trick():
    """North holds AKQJ of spades and AKQ of every other suit: thirteen winners at
    notrump whoever of North-South declares, none for East-West."""
    tricks, par = boards.analyse(DEAL_1, "N", "")
    assert tricks["N"]["NT"] == tricks["S"]["NT"] == 13
    assert tricks["E"]["NT"] == tricks["W"]["NT"] == 0
    assert par == {"score": 1520, "contracts": ["7NTN=", "7NTS="]}


def test_board_conditions_override(director_client, mitchell_session):
    section = mitchell_session
    board = Board.objects.get(session=section.session, number=2)
    url = reverse("director:board_conditions", args=[section.pk, board.pk])
    director_client.post(url, {f"b{board.pk}-dealer": "W", f"b{board.pk}-vulnerability": "All"})
    board.refresh_from_db()
    assert (board.dealer, board.vulnerability, board.conditions_overridden) == ("W", "All", True)
    director_client.post(url, {f"b{board.pk}-dealer": "E", f"b{board.pk}-vulnerability": "NS"})
    board.refresh_from_db()
    assert not board.conditions_overridden  # back to Law 2's board 2


def test_a_dealer_file_board_is_taken_once_and_only_if_the_section_plays_it():
    """The check every hand-record reader (PBN, Duplimate .dup) makes of a board's number."""
    from django.utils import translation

    from tournaments.services.boards.deals import takes_deal

    seen: set[int] = set()
    problems: list[str] = []
    with translation.override("en"):
        taken = [takes_deal(n, f"Board {n}", seen, {1, 2, 3}, problems) for n in (1, 2, 1, 9, 3)]
    assert taken == [True, True, False, False, True]
    assert problems == [
        "Board 1 appears twice in the file.",
        "Board 9 is not played in this section.",
    ]
    assert seen == {1, 2, 3, 9}

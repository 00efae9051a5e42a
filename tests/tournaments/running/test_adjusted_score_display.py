"""An adjusted score stands alone: the table's score it replaced is shown struck through and
named as replaced, never as a plain score beside it (issue #35: "60/40 · NS -100")."""

import random
import re

import pytest
from django.urls import reverse

from tournaments.demo import play_rounds
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.running.adjustments import replaced
from tournaments.services.setup import events as setup
from tournaments.services.table import entry as entry_service

pytestmark = pytest.mark.django_db


def test_replaced_names_the_side_that_scored():
    artificial = {"kind": "artificial", "ns": 60, "ew": 40}
    assert replaced(-100, artificial) == {"side": "EW", "points": 100}
    assert replaced(420, artificial) == {"side": "NS", "points": 420}
    assert replaced(None, artificial) is None
    assert replaced(420, None) is None
    assert replaced(420, {"kind": "fouled", "group": "1"}) is None  # still scores (Law 87)


def _table_result_then_adjust(section, director, contract="4S", tricks=9):
    code = TableCode.objects.get(section=section, table=1, active=True)
    entry_service.submit_result(
        round=1,
        board=1,
        contract=contract,
        declarer="N",
        tricks=tricks,
        table_code=code,
        idempotency_key="k-1-1-1",
    )
    return corrections.adjust_score(
        user=director,
        section=section,
        round=1,
        table=1,
        board=1,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Información no autorizada",
        law="12C2",
    )


def test_director_line_and_traveller_strike_the_replaced_score(
    director_client, director, mitchell_session
):
    row = _table_result_then_adjust(mitchell_session, director)
    assert row.ns_score == -50  # 4S-1, nobody vulnerable: kept on the row for the record
    html = director_client.get(
        reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    ).content.decode()
    current = html.split('id="current-result"')[1].split("</dd>")[0]
    assert "<strong>60/40</strong>" in current
    assert "-50" not in current and "NS 50" not in current
    assert "sustituido: <del>EO 50</del>" in current  # Spanish by default
    traveller = html.split('id="traveller"')[1].split("</table>")[0]
    line = traveller.split('class="this-line"')[1].split("</tr>")[0]
    assert "<del>EO 50</del>" in line
    assert '<td class="num"></td>' in line  # no score in the score column


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "replaced: <del>EW 50</del>"), ("pt", "substituído: <del>EO 50</del>")],
)
def test_replaced_in_the_readers_language(
    director_client, director, mitchell_session, settings, language, words
):
    _table_result_then_adjust(mitchell_session, director)
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = director_client.get(
        reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    ).content.decode()
    assert words in html


@pytest.fixture
def published(mitchell_session, director):
    play_rounds(mitchell_session, random.Random(1))
    board = mitchell_session.movement["rounds"][1]["tables"][1]["boards"][0]
    played = Result.objects.get(
        section=mitchell_session, round=2, table=2, board__number=board, status=ResultStatus.OK
    )
    adjusted = corrections.adjust_score(
        user=director,
        section=mitchell_session,
        round=2,
        table=2,
        board=board,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Información no autorizada",
        law="12C2",
    )
    setup.finish_session(mitchell_session.session)
    tournament = mitchell_session.session.tournament
    publish.publish_final(tournament, user=director)
    tournament.refresh_from_db()
    assert played.ns_score is not None
    return mitchell_session, tournament, adjusted


def test_public_traveller_shows_the_adjusted_score_alone(client, published):
    section, tournament, adjusted = published
    response = client.get(
        reverse("results:board", args=[tournament.slug, 1, section.pool, adjusted.board.number])
    )
    row = next(r for r in response.context["data"].rows if r["adjusted"])
    assert row["ns_plus"] is None and row["ew_plus"] is None and row["ns_score"] is None
    assert row["replaced"] == replaced(adjusted.ns_score, adjusted.adjustment)
    html = response.content.decode()
    tr = html.split('class="adjusted-note"')[1].split("</tr>")[0]
    assert "<del>" in tr and f"{row['replaced']['points']}</del>" in tr
    cells = re.findall(r'<td class="num">([^<]*)</td>', tr)
    assert cells[:2] == ["", ""]  # NS + and EW + stay empty


def test_scorecard_shows_the_adjusted_score_alone(client, published):
    section, tournament, adjusted = published
    response = client.get(reverse("results:scorecard", args=[tournament.slug, 1, adjusted.ns_id]))
    row = next(r for r in response.context["card"].rows if r["board"] == adjusted.board.number)
    assert row["adjusted"] == "60/40"
    assert row["ns_score"] is None and row["own_score"] is None
    assert row["replaced"] == replaced(adjusted.ns_score, adjusted.adjustment)
    html = response.content.decode()
    tr = html.split(f'<tr data-board="{adjusted.board.number}"')[1].split("</tr>")[0]
    assert "<strong>60/40</strong>" in tr and "<del>" in tr


def test_table_device_traveller_shows_the_adjusted_score_alone(director, mitchell_session):
    from django.template.loader import render_to_string

    from tournaments.views.table.entry import _traveller

    row = _table_result_then_adjust(mitchell_session, director)
    traveller = _traveller(row.board)
    (line,) = [r for r in traveller["rows"] if r["result"].pk == row.pk]
    assert line["score"]["points"] is None
    assert line["replaced"] == {"side": "EW", "points": 50}
    html = render_to_string("tournaments/table/_traveller.html", {"traveller": traveller})
    assert "<del>EO 50</del>" in html and "+50" not in html

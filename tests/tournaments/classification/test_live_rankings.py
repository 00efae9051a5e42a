"""Live rankings while tables post: the worker re-classifies, posts and pages only read.

With a broker, a table's post asks for one classification per refresh window (queued for
the end of the window, not run in the post); pages show the stored ranking and say which
results it includes. A director's correction is classified at once. Without a broker
(the embedded site) the page that finds the session stale classifies it in-process.

Tonight's Mitchell after two rounds (``shown``) is built once for the module
(tests/module_rows.py), each test in a savepoint of it; a real worker's test, which commits,
is test_live_ranking_worker.py.
"""

import random
import time
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.conftest import shared_shown
from tournaments.demo import play_rounds
from tournaments.models import (
    RankingScope,
    Result,
    ResultStatus,
    Session,
    StoredRanking,
    TableCode,
)
from tournaments.scoring import BoardResult, TravellerLine, display_round, score_session
from tournaments.services.classification import reclassification, store
from tournaments.services.running import corrections
from tournaments.services.table import entry


def core_percentages(section) -> dict[int, object]:
    """Every pair's percentage as the scoring core computes it from the stored results."""
    lines: dict[int, list] = {}
    for r in Result.objects.filter(section=section, status=ResultStatus.OK):
        lines.setdefault(r.board.number, []).append(TravellerLine(r.ns_id, r.ew_id, r.ns_score))
    rounds = section.movement["rounds"]  # a Mitchell: each board once a round, all tables
    per_pair = len(rounds) * len(rounds[0]["tables"][0]["boards"])
    scored = score_session(
        [BoardResult(b, tuple(ls)) for b, ls in sorted(lines.items())],
        expected=section.movement["tables"],
        boards_per_pair=per_pair,
    )
    return {e: display_round(t.percentage) for e, t in scored.totals.items()}


def stored_percentages(section) -> dict[int, object]:
    return dict(
        StoredRanking.objects.filter(section=section, scope=RankingScope.SECTION).values_list(
            "entry_id", "percentage"
        )
    )


def section_url(section):
    return reverse(
        "results:section",
        args=[section.session.tournament.slug, section.session.number, section.letter],
    )


def post_from_table(client, section, table, round_, board):
    """What a table's device does: sign in with its code, then post the result as JSON."""
    code = TableCode.objects.get(section=section, table=table, active=True)
    client.post(reverse("table:index"), {"table": code.label, "code": code.code})
    return client.post(
        reverse("table:result"),
        {
            "round": round_,
            "board": board,
            "level": "3",
            "strain": "NT",
            "double": "",
            "declarer": "N",
            "made": "=",
            "lead_suit": "",
            "lead_rank": "",
            "idempotency_key": uuid.uuid4().hex,
        },
        HTTP_ACCEPT="application/json",
    )


shown = shared_shown()


def version(section) -> int:
    return Session.objects.get(pk=section.session_id).ranking_version


@pytest.mark.django_db
def test_a_tables_post_queues_the_classification_and_does_not_run_it(
    client, shown, broker, monkeypatch, django_capture_on_commit_callbacks
):
    before = version(shown)
    now = 1_800_000_000.0  # the clock stands still: the window's end is exact, never timed
    monkeypatch.setattr(reclassification, "time", SimpleNamespace(time=lambda: now))
    with django_capture_on_commit_callbacks(execute=True):
        response = post_from_table(client, shown, table=1, round_=3, board=5)
    assert response.json()["outcome"] == "created"
    assert len(broker) == 1
    (session_id, window_end), countdown = broker[0]
    assert session_id == shown.session_id and countdown == 5
    assert window_end == now + 5
    assert version(shown) == before  # nothing was classified in the post


@pytest.mark.django_db
def test_a_burst_of_posts_gives_one_classification_per_window(
    shown, broker, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.RANKING_REFRESH_SECONDS = 30
    codes = {c.table: c for c in TableCode.objects.filter(section=shown, active=True)}
    slots = [(t["table"], b) for t in shown.movement["rounds"][2]["tables"] for b in t["boards"]]

    def post(table, board):
        with django_capture_on_commit_callbacks(execute=True):
            outcome = entry.submit_result(
                table_code=codes[table],
                round=3,
                board=board,
                contract="2S",
                declarer="S",
                tricks=8,
                idempotency_key=uuid.uuid4().hex,
            )
        assert outcome.outcome == "created"

    for table, board in slots[:10]:
        post(table, board)
    assert len(broker) == 1  # ten posts, one task
    cache.delete(reclassification._pending_key(shown.session_id))  # the window's key expires
    for table, board in slots[10:]:
        post(table, board)
    # the next window: one more; and the round's last line asks for one now (not at 30 s)
    assert len(broker) == 3
    assert [countdown for _args, countdown in broker] == [30, 30, None]

    # A worker running late (a minute behind) takes the second task first: its run starts
    # after the first window closed, so it holds every result the first task stood for,
    # and the first task is skipped when it comes.
    first, second = (args for args, _countdown in broker[:2])
    late = time.time() + 60
    monkeypatch.setattr(store, "time", SimpleNamespace(time=lambda: late))  # the run starts late
    before = version(shown)
    assert reclassification.run_requested(*second) == before + 1
    assert reclassification.run_requested(*first) is None
    assert version(shown) == before + 1
    assert stored_percentages(shown) == core_percentages(shown)


@pytest.mark.django_db
def test_a_stale_page_asks_the_worker_and_says_what_it_shows(client, shown, broker):
    before = version(shown)
    play_rounds(shown, random.Random(12), rounds=3)  # their own requests were lost
    response = client.get(section_url(shown))
    assert response.status_code == 200
    assert [args[0] for args, _countdown in broker] == [shown.session_id]
    assert version(shown) == before  # the reader did no scoring
    html = response.content.decode()
    assert 'id="ranking-through"' in html and 'data-pending="1"' in html
    client.get(section_url(shown))
    assert len(broker) == 1  # other readers in the window are covered by that request
    cache.delete(reclassification._pending_key(shown.session_id))  # the window ends,
    reclassification.run_requested(*broker[0][0])  # then the queued task runs
    html = client.get(section_url(shown)).content.decode()
    assert 'id="ranking-through"' in html and "data-pending" not in html  # still running
    assert stored_percentages(shown) == core_percentages(shown)


@pytest.mark.django_db
def test_a_directors_correction_is_ranked_at_once(
    client, shown, broker, director, django_capture_on_commit_callbacks
):
    before = version(shown)
    row = Result.objects.filter(section=shown, status=ResultStatus.OK).first()
    with django_capture_on_commit_callbacks(execute=True):
        corrections.correct_result(
            row, user=director, contract="7NT", declarer="N", tricks=13, reason="Tecleado mal"
        )
    assert version(shown) == before + 1 and broker == []
    assert stored_percentages(shown) == core_percentages(shown)
    assert "data-pending" not in client.get(section_url(shown)).content.decode()


@pytest.mark.django_db
def test_without_a_broker_the_page_classifies_and_posts_do_not(client, shown, settings):
    settings.RANKING_REFRESH_SECONDS = 5
    before = version(shown)
    assert (
        post_from_table(
            client,
            shown,
            table=2,
            round_=3,
            board=shown.movement["rounds"][2]["tables"][1]["boards"][0],
        ).json()["outcome"]
        == "created"
    )
    assert version(shown) == before
    response = client.get(section_url(shown))
    assert version(shown) == before + 1  # the first reader of the window, in-process
    assert "data-pending" not in response.content.decode()
    assert stored_percentages(shown) == core_percentages(shown)
    # another post in the same window: the next reader shows what is stored, once a window
    assert (
        post_from_table(
            client,
            shown,
            table=3,
            round_=3,
            board=shown.movement["rounds"][2]["tables"][2]["boards"][0],
        ).json()["outcome"]
        == "created"
    )
    assert 'data-pending="1"' in client.get(section_url(shown)).content.decode()
    assert version(shown) == before + 1


def ranking_tables(response) -> str:
    html = response.content.decode()
    return html[
        html.index('<section class="ranking-group"') : html.index('<p class="muted small">')
    ]


@pytest.mark.django_db
def test_the_ranking_page_renders_its_tables_once_per_stored_version(client, shown):
    url = section_url(shown)
    first = client.get(url)
    assert "tables" in first.context  # rendered
    again = client.get(url)
    assert "tables" not in again.context  # the tables came from the cache
    assert ranking_tables(again) == ranking_tables(first)
    assert ranking_tables(again).count("<tr data-entry=") == 14
    sorted_page = client.get(url, {"ns-sort": "-percentage"})
    assert "tables" in sorted_page.context  # another sort is another fragment
    play_rounds(shown, random.Random(13), rounds=3)
    after = client.get(url)  # stale: classified here (no broker), then rendered anew
    assert "tables" in after.context
    rows = [r for item in after.context["tables"] for r in item["table"].data]
    assert {r["entry_id"]: r["percentage"] for r in rows} == core_percentages(shown)

"""The live ranking's classification is debounced: queued by the first post of a window, it
runs once the posts pause (``RANKING_QUIET_SECONDS``), at the latest when the window ends
(``RANKING_REFRESH_SECONDS``); results that come in while it runs are asked for again."""

import random
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from tests.tournaments.classification.test_live_rankings import (
    core_percentages,
    stored_percentages,
    version,
)
from tournaments.demo import play_rounds
from tournaments.models import TableCode
from tournaments.services.classification import reclassification
from tournaments.services.table import entry
from tournaments.tasks import classify_session_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def debounced(broker, settings):
    settings.RANKING_REFRESH_SECONDS = 30
    settings.RANKING_QUIET_SECONDS = 0.25
    return broker


@pytest.fixture
def clock(monkeypatch):
    """The services' clock, set by the test (nothing here waits for real time)."""
    now = SimpleNamespace(value=1_800_000_000.0)
    monkeypatch.setattr(reclassification, "time", SimpleNamespace(time=lambda: now.value))
    return now


def post(section, table, board, capture):
    code = TableCode.objects.get(section=section, table=table, active=True)
    with capture(execute=True):
        outcome = entry.submit_result(
            table_code=code,
            round=3,
            board=board,
            contract="2S",
            declarer="S",
            tricks=8,
            idempotency_key=uuid.uuid4().hex,
        )
    assert outcome.outcome == "created"


def slots(section):
    return [(t["table"], b) for t in section.movement["rounds"][2]["tables"] for b in t["boards"]]


def test_the_first_post_queues_a_look_after_the_quiet_period(
    shown, debounced, clock, django_capture_on_commit_callbacks
):
    table, board = slots(shown)[0]
    post(shown, table, board, django_capture_on_commit_callbacks)
    assert len(debounced) == 1
    (session_id, window_end), countdown = debounced[0]
    assert countdown == 0.25 and window_end == clock.value + 30
    assert reclassification.quiet_wait(session_id, window_end) == 0.25  # no pause yet
    clock.value += 0.1
    assert reclassification.quiet_wait(session_id, window_end) == pytest.approx(0.15)
    clock.value += 0.2
    assert reclassification.quiet_wait(session_id, window_end) == 0  # paused: classify


def test_posts_without_a_pause_are_classified_when_the_window_ends(
    shown, debounced, clock, django_capture_on_commit_callbacks
):
    pending = slots(shown)[:-1]  # the round's last line would ask for a classification now
    window_end = None
    for table, board in pending[:-1]:
        post(shown, table, board, django_capture_on_commit_callbacks)
        window_end = window_end or debounced[0][0][1]
        assert reclassification.quiet_wait(shown.session_id, window_end) > 0
        clock.value += 0.2  # never a quarter of a second without a post
    clock.value = window_end - 0.1
    post(shown, *pending[-1], django_capture_on_commit_callbacks)  # ...to the window's end
    assert len(debounced) == 1  # one window, one task
    assert reclassification.quiet_wait(shown.session_id, window_end) == pytest.approx(0.1)
    clock.value = window_end
    assert reclassification.quiet_wait(shown.session_id, window_end) == 0


def test_the_task_waits_for_the_pause_then_classifies_and_closes_the_window(
    shown, debounced, clock, django_capture_on_commit_callbacks
):
    before = version(shown)
    table, board = slots(shown)[0]
    post(shown, table, board, django_capture_on_commit_callbacks)
    args, _countdown = debounced[0]
    assert classify_session_task(*args) is None  # posted a moment ago: it looks again
    assert debounced[1] == (args, 0.25) and version(shown) == before
    clock.value += 1  # the posts paused
    assert classify_session_task(*args) == before + 1
    assert stored_percentages(shown) == core_percentages(shown)
    assert cache.get(reclassification._pending_key(shown.session_id)) is None
    # the next post opens a new window at once, without waiting for the old one's end
    table, board = slots(shown)[1]
    post(shown, table, board, django_capture_on_commit_callbacks)
    assert len(debounced) == 3 and debounced[2][1] == 0.25


def test_results_stored_during_a_classification_are_asked_for_again(
    shown, debounced, clock, monkeypatch, django_capture_on_commit_callbacks
):
    table, board = slots(shown)[0]
    post(shown, table, board, django_capture_on_commit_callbacks)
    args, _countdown = debounced[0]
    clock.value += 1
    classify = reclassification.classify_session

    def classify_then_a_round_arrives(session):
        version_ = classify(session)
        play_rounds(shown, random.Random(3), rounds=4)  # posted while the worker stored
        return version_

    monkeypatch.setattr(reclassification, "classify_session", classify_then_a_round_arrives)
    classify_session_task(*args)
    assert len(debounced) == 2 and debounced[1][0][0] == shown.session_id  # asked again


def test_a_run_at_its_windows_end_leaves_a_newer_window_open(shown, debounced, clock):
    window_end = clock.value  # this task's window ended; a post has opened the next one
    cache.set(reclassification._pending_key(shown.session_id), True, timeout=30)
    before = version(shown)
    play_rounds(shown, random.Random(5), rounds=3)
    assert classify_session_task(shown.session_id, window_end) == before + 1
    assert cache.get(reclassification._pending_key(shown.session_id)) is True
    assert len(debounced) == 0  # the newer window's task stands for what comes next

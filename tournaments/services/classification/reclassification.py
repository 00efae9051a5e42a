"""When a session is classified again: after a result post (queued for the worker, once per
window, or at once when the post completes its section's round), after a director's change (in the request, once committed), and when a page finds
it stale.

The worker's task is queued through ``tournaments.queueing.classify_session``, which looks it
up by name, so services never import the tasks above them.
"""

from __future__ import annotations

import logging
import time
from contextlib import suppress

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, OperationalError, transaction

from tournaments import queueing
from tournaments.models import Session, Tournament
from tournaments.services.classification.classify import classify_session
from tournaments.services.classification.store import is_stale, started_key
from tournaments.services.classification.windows import (
    FAILED,
    QUEUED,
    close_window,
    log_once,
    once_per_window,
    tasks_run_inline,
)
from tournaments.services.results.results_pdf import results_corrected
from tournaments.services.table import round_done

logger = logging.getLogger(__name__)
# A completed round asks for its classification once in this long (a session's length).
ROUND_KEY_SECONDS = 12 * 3600


def follow_live(session: Session) -> bool:
    """What a live page calls before reading stored rankings; True while they lag behind.

    A session never classified is classified at once (there is nothing to show otherwise).
    A stale one is handed to the worker (``request_classification``; coalesced, so readers
    that find it stale cost a cache lookup), and the page shows the stored ranking with
    the time it covers. With a broker, posts already request their own classification and
    this is the safety net for changes that did not (a lost task, an edit in the admin);
    without one (the embedded site) posts queue nothing and this classifies in-process, at
    most once per window.
    """
    if session.ranking_version == 0:
        classify_session(session)
        return False
    if _queued(session.pk):
        return True  # a post already asked the worker: newer results are on their way
    if not is_stale(session):
        return False
    if request_classification(session.pk, here_if_unqueued=True):  # no broker: it ran here
        session.refresh_from_db(fields=["ranking_version", "classified_through"])
        return False
    return True


def request_classification(session_id: int, *, here_if_unqueued: bool = False) -> bool:
    """Ask for ``session_id`` to be re-classified soon; True if it was done in this call.

    With a broker, the first request of a ``RANKING_REFRESH_SECONDS`` window queues
    ``classify_session_task`` to run when the window ends, and the later ones of the
    window are already covered by it (a cache key marks the window; it expires before the
    task starts, so a result posted while the key is present is committed before the task
    loads). A burst of forty tables posting gives one classification per window, done by
    the worker, so result posts and ranking pages do no scoring. Without a broker the task
    runs here, in-process (the embedded site), at most once per window.

    A broker that is down (Redis restarting) costs a post nothing: the result is stored and
    the next change or reader asks again. A reader passes ``here_if_unqueued``: it then
    classifies in-process, as the embedded site does, so rankings keep following the
    results from the database alone until the broker is back.

    Call it after the change is committed (``transaction.on_commit``). Pages call it (through
    ``follow_live``) when they find a session stale.
    """
    interval = max(0, getattr(settings, "RANKING_REFRESH_SECONDS", 0))
    # The task stands for every change committed before its window closes.
    window_end = time.time() + interval

    def queue(countdown: int | None) -> None:
        queueing.classify_session(session_id, window_end, first_countdown(countdown or 0))

    outcome = once_per_window(
        queue,
        name="classification",
        key=_pending_key(session_id),
        seconds=interval,
        what=f"the classification of session {session_id}",
        raise_when_eager=True,
    )
    if outcome == QUEUED:
        return tasks_run_inline()
    if outcome == FAILED and here_if_unqueued:
        session = Session.objects.filter(pk=session_id).first()
        if session is not None:
            classify_session(session)
            return True
    return False


def run_requested(session_id: int, window_end: float | None = None) -> int | None:
    """The worker's side of ``request_classification``; the new version, or None if skipped.

    The task covers the changes committed before ``window_end`` (those that found its
    window open and queued nothing). Skipped when the session is gone, or when a
    classification of it started after ``window_end``: that run already loaded them all
    (a duplicate queued by another web process, or a late queue).
    """
    if window_end is not None:
        try:
            started = cache.get(started_key(session_id))
        except Exception:
            started = None
        if started is not None and started > window_end:
            return None
    session = Session.objects.filter(pk=session_id).first()
    if session is None:
        return None
    version = classify_session(session)
    if tasks_run_inline():
        return version  # in-process (no broker): the window only spaces the runs
    # A run before its window's end (the posts paused) closes the window once the ranking is
    # stored: a post from now on opens a new one (and queues its own task); one that found it
    # open was committed before this check, which asks again for what came in during the run.
    # At or after the end the key has expired and may be a newer window's: left alone.
    if window_end is not None and time.time() < window_end - 0.05:
        close_window(_pending_key(session_id))
    if is_stale(session):
        request_classification(session_id)
    return version


def changed_by_director(session_id: int) -> None:
    """A director's correction, adjustment, removal or penalty: classify once it is
    committed, in the request. They are rare, and the director (and every page) must see
    the corrected ranking at once rather than after the refresh interval. Published results
    also get their PDF re-made (``results_pdf.results_corrected``, debounced), which the new
    ranking asks for itself (``classify_session``); only a classification that could not
    run here asks for it below, and the PDF's job then classifies. A process that
    classified the session last re-scores only the changed boards and rewrites only their
    marks (``incremental``, inside ``classify_session``)."""

    def classify() -> None:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            return
        try:
            classify_session(session)
        except OperationalError:  # SQLite busy with a table's post: the pages catch up
            logger.warning("session %s left stale after a correction", session_id, exc_info=True)
            results_corrected(session.tournament_id)

    transaction.on_commit(classify)


def result_posted(
    session_id: int,
    *,
    section=None,
    round_number: int | None = None,
    stored_before: int | None = None,
) -> None:
    """A new result: with a broker, its classification is requested once committed.

    When the result is the last one of its section's round (``section`` and ``round_number``
    given; ``stored_before``, the round's results counted under the post's lock), the
    classification is queued at once rather than at the window's end: the
    players finishing a round, or the session, see the ranking it completes without waiting
    for the window (``classify_round_now``).

    Without one (the embedded site) the device's post does no scoring at all: the next page
    that reads the session finds it stale and classifies it (``follow_live``), so the work
    is only done when someone looks, and a post never waits behind it on SQLite.
    """
    if tasks_run_inline():
        return

    def request() -> None:
        _note_post(session_id)
        request_classification(session_id)
        if section is not None and round_number is not None:
            try:
                done = round_done.completes_round(section, round_number, stored_before)
            except DatabaseError:  # the result is stored: the window still classifies it
                log_once("round-done", "could not tell whether round %s is complete", round_number)
                done = False
            if done:
                classify_round_now(session_id, section.pk, round_number)

    transaction.on_commit(request)


def classify_round_now(session_id: int, section_id: int, round_number: int) -> bool:
    """Queue the session's classification to run now, once per completed round; True if
    queued.

    The window's task, if one is waiting, still runs at its end: one extra classification,
    harmless (it loads what is stored), and it covers results that came in meanwhile. Two
    tables that finish the round together both see it complete; the cache key keeps it to
    one run (kept for the session's length, a round completes once: a late correction is
    the director's, classified in the request).
    """
    key = f"clubsite:classify-round:{section_id}:{round_number}"

    def queue(_countdown: int | None) -> None:
        queueing.classify_session(session_id, time.time(), None)

    return (
        once_per_window(
            queue,
            name="classification",
            key=key,
            seconds=ROUND_KEY_SECONDS,
            what=f"the classification of session {session_id}",
        )
        == QUEUED
    )


# --- the debounce: classify once the posts pause, at the latest when the window ends -------


def _last_post_key(session_id: int) -> str:
    return f"clubsite:classify-last-post:{session_id}"


def _note_post(session_id: int) -> None:
    """When the session's latest result came in (the queued task waits for a pause)."""
    seconds = max(0, getattr(settings, "RANKING_REFRESH_SECONDS", 0))
    if seconds and _quiet_seconds():
        with suppress(Exception):  # a cache that is down: the task runs at once
            cache.set(_last_post_key(session_id), time.time(), timeout=seconds + 60)


def _quiet_seconds() -> float:
    return max(0.0, float(getattr(settings, "RANKING_QUIET_SECONDS", 0)))


def first_countdown(interval: int) -> float | int | None:
    """When a newly queued classification first looks: after one quiet period, not at the
    window's end (``quiet_wait`` then holds it while posts keep coming)."""
    quiet = _quiet_seconds()
    if not interval:
        return None
    return min(quiet, interval) if quiet else interval


def quiet_wait(session_id: int, window_end: float | None) -> float:
    """Seconds the worker's task should still wait before classifying (0: now).

    A burst of posts is classified once the posts pause for ``RANKING_QUIET_SECONDS``, or
    when its window ends (``RANKING_REFRESH_SECONDS`` after the first post) if they never
    do: so the last results of a round show a fraction of a second after they are posted,
    and forty tables posting without a pause still cost one classification per window.
    """
    quiet = _quiet_seconds()
    if window_end is None or not quiet or tasks_run_inline():
        return 0.0
    try:
        last = cache.get(_last_post_key(session_id))
    except Exception:
        last = None
    now = time.time()
    if last is None:
        return 0.0
    wait = min(last + quiet, window_end) - now
    return wait if wait > 0.02 else 0.0


def _queued(session_id: int) -> bool:
    """Whether a queued classification of the session is waiting for its window to end."""
    if tasks_run_inline():
        return False  # there the key only spaces the in-process runs
    try:
        return cache.get(_pending_key(session_id)) is not None
    except Exception:
        return False


def _pending_key(session_id: int) -> str:
    return f"clubsite:classify-pending:{session_id}"


def mark_stale(tournament: Tournament) -> None:
    """Seating or names changed (withdrawal, substitute, late pair): rankings must be redone.

    Pages find the sessions stale and ask for their classification; the sessions already
    shown are also requested here once the change is committed.
    """
    Session.objects.filter(tournament=tournament).update(classified_through=None)
    shown = list(
        Session.objects.filter(tournament=tournament, ranking_version__gt=0).values_list(
            "pk", flat=True
        )
    )
    for session_id in shown:
        result_posted(session_id)

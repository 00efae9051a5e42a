"""From stored results to stored rankings: a session's classification, computed and stored.

``store_session`` loads a session (``session_data``), scores it (``session_scores`` for
pairs and individuals, ``team_standings`` for a teams event, match by match), ranks it with
the core's ``rank`` and writes ``StoredRanking``, ``StoredMark`` and ``StoredMatch`` rows under
a new version in one transaction, so pages read a finished classification with a constant
number of queries. A Mitchell ranks NS and EW apart (two winners), every other movement has
one ranking; sections of one pool are also ranked together; withdrawn entries are not ranked.

It only stores: what follows a new ranking (the published PDF, the master points) is
``classify.classify_session``'s, the entry point everything else calls. Master points, which
``classify`` calls after a classification, bring the rankings current through here.
"""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from fractions import Fraction

from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from clubsite.ops.warmup import collector_paused
from tournaments.models import (
    EventType,
    RankingScope,
    Session,
    StoredMatch,
    StoredRanking,
    Tournament,
)
from tournaments.scoring import display_round
from tournaments.services.classification import file_figures, incremental, rows
from tournaments.services.classification.session_data import (
    PoolScore,
    SessionData,
    latest_change,
    load_session,
)
from tournaments.services.classification.session_scores import event_standings, score_data
from tournaments.services.teams.team_standings import classify_teams

CLASSIFY_LOCK = 6006  # PostgreSQL advisory lock class: one re-classification per session
_local_lock = threading.RLock()  # elsewhere (SQLite, one process): one at a time
STARTED_TTL = 3600


# --- ranking and storing --------------------------------------------------------------------


def _decimal(value) -> object:
    return display_round(value, 2)


def _exact(value: Fraction) -> str:
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def match_rows(data: SessionData, pools: list[PoolScore], version: int) -> list[StoredMatch]:
    return [
        StoredMatch(
            session=data.session,
            section_id=section_id,
            entry_id=m.pair,
            round=m.round,
            opponent_id=m.opponent,
            imps=_decimal(m.imps),
            boards=m.boards,
            vps=_decimal(m.vps),
            version=version,
        )
        for pool in pools
        for section_id, m in pool.matches
    ]


def store_session(session: Session) -> int:
    """Re-classify ``session`` from its results and store it; returns the new ranking version.

    One classification of a session at a time: the worker's run and a director's
    correction may overlap, and the later one must load after the earlier one stored, or
    an older ranking could be written over a newer one. On PostgreSQL a transaction-level
    advisory lock (released however the transaction ends); on SQLite, the embedded
    single-process site, a process lock, with the load kept outside the write transaction.
    ``session`` is updated in place with the new version and stamp.
    """
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CLASSIFY_LOCK, session.pk])
            with collector_paused():
                return _classify(session)
    with _local_lock, collector_paused():
        return _classify(session)


def _classify(session: Session) -> int:
    with suppress(Exception):  # only lets queued duplicates be skipped
        cache.set(started_key(session.pk), time.time(), timeout=STARTED_TTL)
    taken = incremental.take(session)
    if taken is not None:  # what changed since this process's last run: rows that differ
        state, changes = taken
        return _store(session, state.data, state.marks, state.rankings, kept=state, changes=changes)
    data = load_session(session, result_stamps=False)
    if data.session.tournament.event_type == EventType.TEAMS:
        return classify_teams(data)
    state = incremental.build(data)
    if state is not None:
        return _store(session, data, state.marks, state.rankings, kept=state)
    pools = score_data(data)
    file_places = file_figures.overlay(data, pools)  # an imported event's result of record
    marks = rows.pool_mark_rows(data, pools)
    return _store(session, data, marks, rows.ranking_rows(data, pools, file_places), pools=pools)


def _store(
    session: Session,
    data: SessionData,
    marks: dict[tuple, tuple],
    rankings: dict[tuple, tuple],
    *,
    kept: incremental.SessionState | None = None,
    changes: incremental.Changes | None = None,
    pools: list[PoolScore] | None = None,
) -> int:
    """Write a classification's rows under a new version: only those of ``changes`` (the
    keys that differ from the rows ``kept`` stored), or all of them. ``pools``: a session
    not kept, whose VPs per match are stored too."""
    through = (kept.through if kept is not None else data.stamp) or timezone.now()
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if kept is None or kept.stamp != (locked.ranking_version, locked.classified_through):
            changes = None
        version = locked.ranking_version + 1
        rows.write_rankings(data.session, rankings, changes and changes.rankings, version)
        rows.write_marks(locked.pk, marks, changes and changes.marks, version)
        if changes is None:  # matches are stored only by a run that kept nothing
            StoredMatch.objects.filter(session=locked).delete()
            if pools is not None:
                StoredMatch.objects.bulk_create(match_rows(data, pools, version), batch_size=2000)
        locked.ranking_version = version
        locked.classified_through = through
        locked.save(update_fields=["ranking_version", "classified_through"])
        if kept is not None:
            incremental.remember(kept, version, through)
    session.ranking_version, session.classified_through = version, through
    if data.session.tournament.session_count > 1:
        classify_event(data.session.tournament, {session.pk: kept} if kept else {})
    return version


def is_stale(session: Session) -> bool:
    """Whether a result or penalty changed since the stored rankings; a session read with
    ``session_data.newest_changes`` (a results page's) is answered without a query."""
    if session.ranking_version == 0:
        return True
    if hasattr(session, "newest_result") and hasattr(session, "newest_penalty"):
        stamps = (session.newest_result, session.newest_penalty)
        latest = max((x for x in stamps if x is not None), default=None)
    else:
        latest = latest_change(session)
    return latest is not None and (
        session.classified_through is None or latest > session.classified_through
    )


def started_key(session_id: int) -> str:
    return f"clubsite:classify-started:{session_id}"


# --- several sessions -----------------------------------------------------------------------


def classify_event(tournament: Tournament, kept: dict | None = None) -> None:
    """Totals over every session, stored as the tournament's ranking. ``kept``: session id
    → its state just classified (``incremental``); other sessions' kept states are read when
    the database agrees with them, the rest loaded and scored."""
    sessions = [s for s in tournament.sessions.order_by("number") if s.sections.exists()]
    scored = {}
    for s in sessions:
        state = (kept or {}).get(s.pk) or incremental.peek(s)
        if state is not None:
            scored[s.pk] = state.pool_scores()
    ranking, totals, names = event_standings(tournament, sessions, scored)
    published = file_figures.event_overlay(tournament, sessions) or {}  # an imported event's
    rows = []
    for ranked in ranking:
        e = ranked.standing.pair
        t = totals[e] if totals is not None else None
        row = StoredRanking(
            tournament=tournament,
            scope=RankingScope.EVENT,
            entry_id=e,
            names=names.get(e, ""),
            place=ranked.place,
            tied=ranked.tied,
            decided_by=ranked.decided_by or "",
            points=_decimal(t.points if t else ranked.standing.score),
            maximum=t.maximum if t else None,
            percentage=_decimal(t.percentage) if t else None,
            exact=_exact(ranked.standing.score),
        )
        file_figures.as_published(row, published.get(str(e)))
        rows.append(row)
    rows.sort(key=lambda r: (r.place, r.entry_id))
    with transaction.atomic():
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).delete()
        StoredRanking.objects.bulk_create(rows)


def store_if_stale(session: Session) -> bool:
    """``store_session`` when a result changed since the stored rankings; True if it did.
    Nothing follows (see ``classify.ensure_current`` for the entry point that does)."""
    if not is_stale(session):
        return False
    store_session(session)
    return True

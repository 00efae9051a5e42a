"""From stored results to stored rankings: the dispatcher every classification goes through.

``classify_session`` loads a session (``session_data``), scores it (``session_scores`` for
pairs and individuals, ``team_standings`` for a teams event, match by match), ranks it with
the core's ``rank`` and writes ``StoredRanking``, ``StoredMark`` and ``StoredMatch`` rows under
a new version in one transaction, so pages read a finished classification with a constant
number of queries. A Mitchell ranks NS and EW apart (two winners), every other movement has
one ranking; sections of one pool are also ranked together; withdrawn entries are not ranked.

When it runs (after posts, corrections, or a stale page) is ``reclassification``'s business.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from contextlib import suppress
from fractions import Fraction

from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from ..models import (
    EntryStatus,
    EventType,
    RankingScope,
    Section,
    Session,
    StoredMatch,
    StoredRanking,
    Tournament,
)
from ..scoring import Standing, display_round, rank
from ..scoring.handicap import handicapped
from ..scoring.ranking import DEFAULT_TIE_BREAKS
from . import file_figures, incremental, plan
from .results_pdf import results_corrected
from .session_data import PoolScore, SessionData, latest_change, load_session
from .session_scores import event_standings, score_data
from .signals import results_reclassified
from .team_standings import classify_teams

CLASSIFY_LOCK = 6006  # PostgreSQL advisory lock class: one re-classification per session
_local_lock = threading.RLock()  # elsewhere (SQLite, one process): one at a time
STARTED_TTL = 3600


# --- loading --------------------------------------------------------------------------------


# --- ranking and storing --------------------------------------------------------------------


def _decimal(value) -> object:
    return display_round(value, 2)


def _exact(value: Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def ranking_rows(data: SessionData, pools: list[PoolScore], version: int,
                 file_places: dict[int, dict] | None = None) -> list[StoredRanking]:
    """``file_places``: an imported event's places as its file gives them (entry →
    {"place", "tied"} or, for a file ranked with handicaps, {"handicap_place",
    "handicap_tied"}; ``file_figures``), kept for each section's ranking. A handicap event
    also ranks each group on percentage + handicap / 2 (``scoring.handicap``)."""
    handicaps = data.session.tournament.handicap_ranking
    seats = {s["entry_id"]: s for s in data.seatings}
    active = {e for e, s in seats.items() if s["entry__status"] == EntryStatus.ACTIVE}
    rows: list[StoredRanking] = []
    tournament_id = data.session.tournament_id
    for pool in pools:
        scores = ({e: t.percentage for e, t in pool.totals.items()} if pool.totals is not None
                  else pool.imp_totals)
        groups: list[tuple[str, Section | None, str]] = []
        directional = any(plan.is_directional(s.movement) for s in pool.sections)
        lines = ("NS", "EW") if directional else ("",)
        for section in pool.sections:
            groups += [(RankingScope.SECTION, section, line) for line in lines]
        if len(pool.sections) > 1:
            groups += [(RankingScope.POOL, None, line) for line in lines]
        for scope, section, line in groups:
            members = [e for e in scores if e in active and e in seats
                       and (section is None or seats[e]["section_id"] == section.pk)
                       and seats[e]["direction"] == line]
            standings = [Standing(e, scores[e],
                                  tops=pool.totals[e].tops if pool.totals is not None else 0,
                                  name=seats[e]["entry__name"] or seats[e]["entry__display_name"])
                         for e in members]
            shared = (data.session.tournament.conventions or {}).get("places") == "shared"
            tie_breaks = () if shared else DEFAULT_TIE_BREAKS
            given = (file_places or {}) if scope == RankingScope.SECTION else {}
            with_handicap = (_handicap_ranking(standings, seats, tie_breaks, given)
                             if handicaps and pool.totals is not None else {})
            for ranked in rank(standings, tie_breaks=tie_breaks):
                e = ranked.standing.pair
                total = pool.totals[e] if pool.totals is not None else None
                place, tied, decided_by = ranked.place, ranked.tied, ranked.decided_by or ""
                if "place" in given.get(e, {}):
                    place, tied, decided_by = given[e]["place"], given[e]["tied"], ""
                rows.append(StoredRanking(**with_handicap.get(e, {}),
                    tournament_id=tournament_id, session=data.session, section=section,
                    scope=scope, pool=pool.pool, direction=line, entry_id=e,
                    number=seats[e]["number"], names=ranked.standing.name,
                    place=place, tied=tied, decided_by=decided_by,
                    points=_decimal(total.points if total else scores[e]),
                    maximum=total.maximum if total else None,
                    percentage=_decimal(total.percentage) if total else None,
                    exact=_exact(scores[e]), boards=pool.boards.get(e, 0), version=version,
                ))
    return rows


def _handicap_ranking(standings: list[Standing], seats: dict, tie_breaks, given: dict
                      ) -> dict[int, dict]:
    """Entry → its handicap fields: the handicap, percentage + handicap / 2, and the place
    that gives among the group (or the file's, when it ranked with handicaps)."""
    hcp = {s.pair: seats[s.pair]["entry__handicap"] for s in standings}
    again = [dataclasses.replace(s, score=handicapped(s.score, hcp[s.pair])) for s in standings]
    out = {}
    for ranked in rank(again, tie_breaks=tie_breaks):
        e = ranked.standing.pair
        place, tied = ranked.place, ranked.tied
        if "handicap_place" in given.get(e, {}):
            place, tied = given[e]["handicap_place"], given[e]["handicap_tied"]
        out[e] = {"handicap": hcp[e], "handicap_percentage": _decimal(ranked.standing.score),
                  "handicap_place": place, "handicap_tied": tied}
    return out


def match_rows(data: SessionData, pools: list[PoolScore], version: int) -> list[StoredMatch]:
    return [StoredMatch(session=data.session, section_id=section_id, entry_id=m.pair,
                        round=m.round, opponent_id=m.opponent, imps=_decimal(m.imps),
                        boards=m.boards, vps=_decimal(m.vps), version=version)
            for pool in pools for section_id, m in pool.matches]


def classify_session(session: Session) -> int:
    """Re-classify ``session`` from its results; returns the new ranking version.

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
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                               [CLASSIFY_LOCK, session.pk])
            version = _classify(session)
    else:
        with _local_lock:
            version = _classify(session)
    _published_results_follow(session.tournament_id)
    return version


def _published_results_follow(tournament_id: int) -> None:
    """A new ranking of published results: their PDF is re-made (debounced, once per
    window however many classifications), so the published PDF follows the results."""
    transaction.on_commit(lambda: results_corrected(tournament_id))
    transaction.on_commit(lambda: results_reclassified.send(sender=None,
                                                            tournament_id=tournament_id))


def _classify(session: Session) -> int:
    with suppress(Exception):  # only lets queued duplicates be skipped
        cache.set(started_key(session.pk), time.time(), timeout=STARTED_TTL)
    data = load_session(session)
    if data.session.tournament.event_type == EventType.TEAMS:
        return classify_teams(data)
    memo = incremental.memo_for(session.pk)
    pools = score_data(data, memo)
    file_places = file_figures.overlay(data, pools)  # an imported event's result of record
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        version = locked.ranking_version + 1
        through = data.stamp or timezone.now()
        StoredRanking.objects.filter(session=locked).delete()
        StoredRanking.objects.bulk_create(ranking_rows(data, pools, version, file_places),
                                          batch_size=2000)
        # only the boards whose marks changed since this process's last run, when it can tell
        incremental.store_marks(data, pools, locked, version, through, memo)
        StoredMatch.objects.filter(session=locked).delete()
        StoredMatch.objects.bulk_create(match_rows(data, pools, version), batch_size=2000)
        locked.ranking_version = version
        locked.classified_through = through
        locked.save(update_fields=["ranking_version", "classified_through"])
    session.ranking_version, session.classified_through = version, locked.classified_through
    if data.session.tournament.session_count > 1:
        classify_event(data.session.tournament)
    return version


def is_stale(session: Session) -> bool:
    if session.ranking_version == 0:
        return True
    latest = latest_change(session)
    return latest is not None and (session.classified_through is None
                                   or latest > session.classified_through)


def ensure_current(session: Session) -> bool:
    """Re-classify now when a result changed since the stored rankings; True if it did.

    For what must be exact when it is made (PDFs, exports, published documents). Pages
    read while results arrive use ``follow_live``, which leaves the work to the worker.
    """
    if not is_stale(session):
        return False
    classify_session(session)
    return True


def started_key(session_id: int) -> str:
    return f"clubsite:classify-started:{session_id}"


def classify_tournament(tournament: Tournament) -> None:
    for session in tournament.sessions.all():
        if session.sections.exists():
            classify_session(session)


# --- several sessions -----------------------------------------------------------------------


def classify_event(tournament: Tournament) -> None:
    """Totals over every session, stored as the tournament's ranking."""
    sessions = [s for s in tournament.sessions.order_by("number") if s.sections.exists()]
    ranking, totals, names = event_standings(tournament, sessions)
    published = file_figures.event_overlay(tournament, sessions) or {}  # an imported event's
    rows = []
    for ranked in ranking:
        e = ranked.standing.pair
        t = totals[e] if totals is not None else None
        row = StoredRanking(
            tournament=tournament, scope=RankingScope.EVENT, entry_id=e, names=names.get(e, ""),
            place=ranked.place, tied=ranked.tied, decided_by=ranked.decided_by or "",
            points=_decimal(t.points if t else ranked.standing.score),
            maximum=t.maximum if t else None, percentage=_decimal(t.percentage) if t else None,
            exact=_exact(ranked.standing.score),
        )
        file_figures.as_published(row, published.get(str(e)))
        rows.append(row)
    rows.sort(key=lambda r: (r.place, r.entry_id))
    with transaction.atomic():
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).delete()
        StoredRanking.objects.bulk_create(rows)

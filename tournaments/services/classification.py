"""From stored results to stored rankings, through the scoring core.

A session is loaded in a fixed number of queries whatever its size, mapped to the core's
inputs (``BoardResult``/``TravellerLine`` per pool of sections sharing boards), scored by
``score_session`` (matchpoints) or ``score_imp_pairs_board`` (cross-IMPs, Butler), ranked by
``rank``, and written back as ``StoredRanking`` and ``StoredMark`` rows in one transaction,
so pages read a finished classification with a constant number of queries.

Rules applied here, where the data decides what the core is told:

- the theoretical number of results on a board (N, hence the top) counts every table the
  movement sends the board to, across the sections of the pool; the top is the same for all
  boards of the pool (the largest N);
- a table where one side is a phantom or has withdrawn gives the present pair a relay line
  (``NotPlayed``): its own average, as the course scores a sit-out;
- a line where both pairs were present but no result exists is left out (the console shows
  it as missing, the director scores it as not played);
- a Mitchell ranks NS and EW apart (two winners), every other movement has one ranking;
  sections of one pool are also ranked together; withdrawn entries are not ranked;
- in IMP-scored events a procedural penalty's amount is read as IMPs (as VPs when the
  tournament converts each round's match to VPs: pairs are then ranked on their VPs);
- an individual pool is scored by ``services.individual`` (each side's marks credited to both
  partners), one ranking of players.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from contextlib import suppress
from dataclasses import dataclass, field
from fractions import Fraction

from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, connection, transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from ..models import (
    EntryStatus,
    EventType,
    Penalty,
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    Seating,
    Section,
    Session,
    StoredMark,
    StoredMatch,
    StoredRanking,
    Tournament,
)
from ..scoring import (
    BoardResult,
    NotPlayed,
    PairMatch,
    PairTotal,
    SessionScore,
    Standing,
    TravellerLine,
    Unplayed,
    combine_sessions,
    display_round,
    match_victory_points,
    rank,
    score_imp_pairs_board,
    score_session,
)
from ..scoring import Penalty as CorePenalty
from ..scoring.ranking import DEFAULT_TIE_BREAKS
from . import plan
from .adjustments import core_entry
from .bulk import insert_rows
from .windows import FAILED, QUEUED, once_per_window

IMP_METHODS = {ScoringMethod.BUTLER: "butler", ScoringMethod.CROSS_IMPS: "cross"}
CLASSIFY_LOCK = 6006  # PostgreSQL advisory lock class: one re-classification per session
_local_lock = threading.RLock()  # elsewhere (SQLite, one process): one at a time
STARTED_TTL = 3600
logger = logging.getLogger(__name__)


# --- loading --------------------------------------------------------------------------------


@dataclass
class SessionData:
    """Everything classification and the console need, read in five queries."""

    session: Session
    sections: list[Section]
    seatings: list[dict]
    results: list[dict]
    penalties: list[dict]
    stamp: object = None  # newest change included (results or penalties)

    def seat_map(self) -> dict[tuple[int, int, str], dict]:
        return {(s["section_id"], s["number"], s["direction"]): s for s in self.seatings}


def load_session(session: Session) -> SessionData:
    session = Session.objects.select_related("tournament").get(pk=session.pk)
    sections = list(Section.objects.filter(session=session).order_by("letter"))
    seatings = list(Seating.objects.filter(session=session).values(
        "section_id", "entry_id", "number", "direction", "entry__status",
        "entry__display_name", "entry__name"))
    results = list(Result.objects.filter(section__session=session).values(
        "id", "section_id", "board__number", "round", "table", "ns_id", "ew_id", "south_id",
        "west_id", "contract",
        "declarer", "tricks", "ns_score", "adjustment", "status", "confirmed", "modified_at"))
    penalties = list(Penalty.objects.filter(session=session).values(
        "entry_id", "fraction_of_top", "board_number", "modified_at"))
    stamps = [r["modified_at"] for r in results] + [p["modified_at"] for p in penalties]
    effective = [r for r in results if r["status"] == ResultStatus.OK]
    return SessionData(session, sections, seatings, effective, penalties,
                       max(stamps, default=None))


def latest_change(session: Session):
    """The newest result or penalty change of the session (one query, two aggregates)."""

    def newest(model, key: str) -> Subquery:
        return Subquery(model.objects.filter(**{key: OuterRef("pk")}).order_by()
                        .values(key).annotate(m=Max("modified_at")).values("m"))

    r, p = (Session.objects.filter(pk=session.pk).order_by()
            .annotate(r=newest(Result, "section__session"), p=newest(Penalty, "session"))
            .values_list("r", "p").get())
    return max((x for x in (r, p) if x is not None), default=None)


# --- mapping and scoring (no queries) -------------------------------------------------------


@dataclass
class PoolScore:
    pool: str
    sections: list[Section]
    top: int | None
    totals: dict[int, PairTotal] | None = None  # matchpoints
    imp_totals: dict[int, Fraction] | None = None  # IMP methods
    boards: dict[int, int] = field(default_factory=dict)  # entry → boards with a mark
    marks: list[tuple] = field(default_factory=list)  # (section, board, entry, dir, opp, mark, kind)
    session_score: SessionScore | None = None
    matches: list[tuple[int, PairMatch]] = field(default_factory=list)  # (section, match): VPs


def pool_inputs(data: SessionData, sections: list[Section], imp: bool
                ) -> tuple[list[BoardResult], int, int, dict[tuple[int, int], int]]:
    """The core's boards for one pool, its N, boards per pair, and (board, entry) → section."""
    seats = data.seat_map()
    section_ids = {s.pk for s in sections}
    lines: dict[int, list[TravellerLine]] = defaultdict(list)
    where: dict[tuple[int, int], int] = {}
    played: set[tuple[int, int, int, int]] = set()
    for r in data.results:
        if r["section_id"] not in section_ids:
            continue
        number = r["board__number"]
        lines[number].append(TravellerLine(
            r["ns_id"], r["ew_id"], core_entry(r["ns_score"], r["adjustment"], imp_scoring=imp)))
        played.add((r["section_id"], r["round"], r["table"], number))
        where[(number, r["ns_id"])] = where[(number, r["ew_id"])] = r["section_id"]
    plays: dict[int, int] = defaultdict(int)
    per_pair = 0
    for section in sections:
        directional = plan.is_directional(section.movement)
        per_pair = max(per_pair, plan.round_count(section.movement)
                       * plan.boards_per_round(section.movement))
        for slot in plan.slots(section.movement):
            present = []
            for number, line in ((slot.ns, "NS"), (slot.ew, "EW")):
                seat = seats.get((section.pk, number, line if directional else ""))
                ok = seat is not None and seat["entry__status"] == EntryStatus.ACTIVE
                present.append(seat["entry_id"] if ok else None)
            for b in slot.boards:
                number = b + section.board_offset
                plays[number] += 1
                if (section.pk, slot.round, slot.table, number) in played:
                    continue
                ns_id, ew_id = present
                if (ns_id is None) != (ew_id is None):
                    lines[number].append(TravellerLine(ns_id, ew_id, NotPlayed(Unplayed.RELAY)))
                    where[(number, ns_id or ew_id)] = section.pk
        # A pair the movement sits out (the phantom's table is not laid out) is scored on
        # the set it misses like a relay, so every pair has the same number of boards.
        for _round, pair_number, sat_out in plan.sitout_boards(section.movement):
            seat = seats.get((section.pk, pair_number, ""))
            if seat is None or seat["entry__status"] != EntryStatus.ACTIVE:
                continue
            for b in sat_out:
                number = b + section.board_offset
                plays[number] += 1
                lines[number].append(TravellerLine(seat["entry_id"], None,
                                                   NotPlayed(Unplayed.RELAY)))
                where[(number, seat["entry_id"])] = section.pk
    expected = max(plays.values(), default=0)
    boards = [BoardResult(n, tuple(lines[n])) for n in sorted(lines)]
    return boards, expected, per_pair, where


def score_pool(data: SessionData, pool: str, sections: list[Section]) -> PoolScore:
    if any(plan.is_individual(s.movement) for s in sections):
        from .individual import score_pool as score_individual_pool

        return score_individual_pool(data, pool, sections)
    method = data.session.tournament.scoring_method
    imp = method in IMP_METHODS
    boards, expected, per_pair, where = pool_inputs(data, sections, imp)
    # an imported event is scored as its file was (imports.usebio_conventions); ours: {}
    conventions = data.session.tournament.conventions or {}
    entries = {e for b in boards for line in b.lines for e in (line.ns_pair, line.ew_pair)
               if e is not None}
    out = PoolScore(pool, sections, None)
    if not imp:
        penalties = [CorePenalty(p["entry_id"], Fraction(str(p["fraction_of_top"])),
                                 p["board_number"])
                     for p in data.penalties if p["entry_id"] in entries]
        scored = score_session(boards, expected=max(expected, 1), boards_per_pair=per_pair or None,
                               penalties=penalties, factoring=conventions.get("factoring",
                                                                              "neuberg"))
        out.top, out.totals, out.session_score = scored.top, scored.totals, scored
        out.boards = {p: t.boards for p, t in scored.totals.items()}
        out.marks = [(where[(m.board, m.pair)], m.board, m.pair, m.direction, m.opponent,
                      m.mark, m.kind) for m in scored.marks]
        return out
    totals: dict[int, Fraction] = defaultdict(Fraction)
    counts: dict[int, int] = defaultdict(int)
    for b in boards:
        marks = score_imp_pairs_board([line.entry for line in b.lines], IMP_METHODS[method],
                                      rule=conventions.get("butler_datum", "course"),
                                      round_to=conventions.get("butler_round_to"))
        for line, m in zip(b.lines, marks, strict=True):
            for pair, direction, opp, value in ((line.ns_pair, "NS", line.ew_pair, m.ns),
                                                (line.ew_pair, "EW", line.ns_pair, m.ew)):
                if pair is None:
                    continue
                counts[pair] += 1
                totals[pair] += value or 0
                kind = "unplayed" if value is None else "result"
                out.marks.append((where[(b.board, pair)], b.board, pair, direction, opp,
                                  value or Fraction(0), kind))
    if data.session.tournament.converts_matches_to_vps:
        totals = _match_vps(data, sections, out)
    for p in data.penalties:
        if p["entry_id"] in totals:
            totals[p["entry_id"]] -= Fraction(str(p["fraction_of_top"]))
    out.imp_totals, out.boards = dict(totals), dict(counts)
    return out


def match_rounds(data: SessionData, sections: list[Section]) -> dict[tuple[int, int], int]:
    """(board, entry) → the round the entry plays the board in (its match), movement's word."""
    seats = data.seat_map()
    out: dict[tuple[int, int], int] = {}
    for section in sections:
        directional = plan.is_directional(section.movement)
        for slot in plan.slots(section.movement):
            for number, line in ((slot.ns, "NS"), (slot.ew, "EW")):
                seat = seats.get((section.pk, number, line if directional else ""))
                if seat is not None:
                    for b in slot.boards:
                        out[(b + section.board_offset, seat["entry_id"])] = slot.round
        for rnd, pair_number, sat_out in plan.sitout_boards(section.movement):
            seat = seats.get((section.pk, pair_number, ""))
            if seat is not None:
                for b in sat_out:
                    out[(b + section.board_offset, seat["entry_id"])] = rnd
    return out


def _match_vps(data: SessionData, sections: list[Section], out: PoolScore
               ) -> dict[int, Fraction]:
    """Each pair's VPs: its IMPs per round (a match) on the tournament's scale (C03 l.207-208);
    the matches are kept on ``out`` and a procedural penalty then comes off the VPs."""
    rounds = match_rounds(data, sections)
    section_of: dict[tuple[int, int], int] = {}
    board_imps = []
    for section_id, board, entry, _direction, opp, mark, kind in out.marks:
        rnd = rounds.get((board, entry), 0)
        section_of[(entry, rnd)] = section_id
        board_imps.append((entry, rnd, opp, None if kind == "unplayed" else mark))
    matches = match_victory_points(board_imps, data.session.tournament.match_vp_scale)
    out.matches = [(section_of[(m.pair, m.round)], m) for m in matches]
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for m in matches:
        totals[m.pair] += m.vps
    return totals


def score_data(data: SessionData) -> list[PoolScore]:
    pools: dict[str, list[Section]] = defaultdict(list)
    for section in data.sections:
        if section.movement:
            pools[section.pool].append(section)
    return [score_pool(data, pool, sections) for pool, sections in sorted(pools.items())]


# --- ranking and storing --------------------------------------------------------------------


def _decimal(value) -> object:
    return display_round(value, 2)


def _exact(value: Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def ranking_rows(data: SessionData, pools: list[PoolScore], version: int) -> list[StoredRanking]:
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
            for ranked in rank(standings, tie_breaks=() if shared else DEFAULT_TIE_BREAKS):
                e = ranked.standing.pair
                total = pool.totals[e] if pool.totals is not None else None
                rows.append(StoredRanking(
                    tournament_id=tournament_id, session=data.session, section=section,
                    scope=scope, pool=pool.pool, direction=line, entry_id=e,
                    number=seats[e]["number"], names=ranked.standing.name,
                    place=ranked.place, tied=ranked.tied, decided_by=ranked.decided_by or "",
                    points=_decimal(total.points if total else scores[e]),
                    maximum=total.maximum if total else None,
                    percentage=_decimal(total.percentage) if total else None,
                    exact=_exact(scores[e]), boards=pool.boards.get(e, 0), version=version,
                ))
    return rows


MARK_FIELDS = ("session", "section", "board_number", "entry", "direction", "opponent",
               "result", "mark", "kind", "version", "percentage")


def mark_rows(data: SessionData, pools: list[PoolScore], version: int) -> list[tuple]:
    """The board marks as plain rows in the order of ``MARK_FIELDS`` (``bulk.insert_rows``)."""
    result_of = {}
    for r in data.results:
        for holder in ("ns_id", "ew_id", "south_id", "west_id"):  # south/west: individuals
            if r.get(holder) is not None:
                result_of[(r["board__number"], r[holder])] = r["id"]
    session_id = data.session.pk
    rows = []
    for pool in pools:
        for section_id, board, entry, direction, opp, mark, kind in pool.marks:
            rows.append((
                session_id, section_id, board, entry, direction, opp,
                result_of.get((board, entry)), _decimal(mark), kind, version,
                _decimal(Fraction(mark) * 100 / pool.top) if pool.top else None,
            ))
    return rows


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
    from .publish import results_corrected

    transaction.on_commit(lambda: results_corrected(tournament_id))


def _classify(session: Session) -> int:
    with suppress(Exception):  # only lets queued duplicates be skipped
        cache.set(_started_key(session.pk), time.time(), timeout=STARTED_TTL)
    data = load_session(session)
    if data.session.tournament.event_type == EventType.TEAMS:
        from .teams import classify_teams  # teams are scored match by match

        return classify_teams(data)
    pools = score_data(data)
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        version = locked.ranking_version + 1
        StoredRanking.objects.filter(session=locked).delete()
        StoredMark.objects.filter(session=locked).delete()
        StoredRanking.objects.bulk_create(ranking_rows(data, pools, version), batch_size=2000)
        insert_rows(StoredMark, MARK_FIELDS, mark_rows(data, pools, version))
        StoredMatch.objects.filter(session=locked).delete()
        StoredMatch.objects.bulk_create(match_rows(data, pools, version), batch_size=2000)
        locked.ranking_version = version
        locked.classified_through = data.stamp or timezone.now()
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
    from ..tasks import classify_session_task

    interval = max(0, getattr(settings, "RANKING_REFRESH_SECONDS", 0))
    # The task stands for every change committed before its window closes.
    outcome = once_per_window(classify_session_task, (session_id, time.time() + interval),
                              key=_pending_key(session_id), seconds=interval,
                              what=f"the classification of session {session_id}",
                              raise_when_eager=True)
    if outcome == QUEUED:
        return bool(classify_session_task.app.conf.task_always_eager)
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
            started = cache.get(_started_key(session_id))
        except Exception:
            started = None
        if started is not None and started > window_end:
            return None
    session = Session.objects.filter(pk=session_id).first()
    if session is None:
        return None
    return classify_session(session)


def changed_by_director(session_id: int) -> None:
    """A director's correction, adjustment, removal or penalty: classify once it is
    committed, in the request. They are rare, and the director (and every page) must see
    the corrected ranking at once rather than after the refresh interval. Published results
    also get their PDF re-made (``publish.results_corrected``, debounced)."""
    from .publish import results_corrected

    def classify() -> None:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            return
        try:
            classify_session(session)
        except OperationalError:  # SQLite busy with a table's post: the pages catch up
            logger.warning("session %s left stale after a correction", session_id,
                           exc_info=True)
        results_corrected(session.tournament_id)

    transaction.on_commit(classify)


def result_posted(session_id: int) -> None:
    """A new result: with a broker, its classification is requested once committed.

    Without one (the embedded site) the device's post does no scoring at all: the next page
    that reads the session finds it stale and classifies it (``follow_live``), so the work
    is only done when someone looks, and a post never waits behind it on SQLite.
    """
    from ..tasks import classify_session_task

    if classify_session_task.app.conf.task_always_eager:
        return
    transaction.on_commit(lambda: request_classification(session_id))


def _queued(session_id: int) -> bool:
    """Whether a queued classification of the session is waiting for its window to end."""
    from ..tasks import classify_session_task

    if classify_session_task.app.conf.task_always_eager:
        return False  # there the key only spaces the in-process runs
    try:
        return cache.get(_pending_key(session_id)) is not None
    except Exception:
        return False


def _pending_key(session_id: int) -> str:
    return f"clubsite:classify-pending:{session_id}"


def _started_key(session_id: int) -> str:
    return f"clubsite:classify-started:{session_id}"


def mark_stale(tournament: Tournament) -> None:
    """Seating or names changed (withdrawal, substitute, late pair): rankings must be redone.

    Pages find the sessions stale and ask for their classification; the sessions already
    shown are also requested here once the change is committed.
    """
    Session.objects.filter(tournament=tournament).update(classified_through=None)
    shown = list(Session.objects.filter(tournament=tournament, ranking_version__gt=0)
                 .values_list("pk", flat=True))
    for session_id in shown:
        result_posted(session_id)


def classify_tournament(tournament: Tournament) -> None:
    for session in tournament.sessions.all():
        if session.sections.exists():
            classify_session(session)


# --- several sessions -----------------------------------------------------------------------


def _session_for_event(pools: list[PoolScore]) -> SessionScore | None:
    """One ``SessionScore`` for a session, its pools' points rescaled to a common top so
    percentages are kept (a pair plays in one pool per session)."""
    scored = [p for p in pools if p.session_score is not None]
    if not scored:
        return None
    top = max(p.top for p in scored)
    per_pair = max(p.session_score.boards_per_pair for p in scored)
    totals = {}
    for p in scored:
        for pair, t in p.session_score.totals.items():
            points = t.percentage * top * per_pair / 100
            totals[pair] = PairTotal(pair, points, top * per_pair, t.percentage, t.boards, t.tops)
    return SessionScore(top, per_pair, totals, ())


def event_standings(tournament: Tournament, sessions: list[Session]
                    ) -> tuple[list, dict | None, dict[int, str]]:
    """Totals over ``sessions`` (matchpoints: ``combine_sessions``; IMPs: sums), ranked:
    the ranked standings of active entries, the matchpoint totals (None for IMPs) and names.

    Also what seats a later session by serpentine (the ranking of the sessions so far)."""
    scored = [score_data(load_session(s)) for s in sessions]
    names: dict[int, str] = {}
    active: set[int] = set()
    for s in sessions:
        for seat in Seating.objects.filter(session=s).values(
                "entry_id", "entry__name", "entry__display_name", "entry__status"):
            names[seat["entry_id"]] = seat["entry__name"] or seat["entry__display_name"]
            if seat["entry__status"] == EntryStatus.ACTIVE:
                active.add(seat["entry_id"])
    if tournament.scoring_method in IMP_METHODS:
        sums: dict[int, Fraction] = defaultdict(Fraction)
        for pools in scored:
            for pool in pools:
                for e, v in (pool.imp_totals or {}).items():
                    sums[e] += v
        standings = [Standing(e, v, name=names.get(e, "")) for e, v in sums.items() if e in active]
        totals = None
    else:
        per_session = [x for x in (_session_for_event(p) for p in scored) if x is not None]
        totals = combine_sessions(per_session)
        standings = [Standing(e, t.percentage, name=names.get(e, ""))
                     for e, t in totals.items() if e in active]
    return rank(standings), totals, names


def classify_event(tournament: Tournament) -> None:
    """Totals over every session, stored as the tournament's ranking."""
    sessions = [s for s in tournament.sessions.order_by("number") if s.sections.exists()]
    ranking, totals, names = event_standings(tournament, sessions)
    rows = []
    for ranked in ranking:
        e = ranked.standing.pair
        t = totals[e] if totals is not None else None
        rows.append(StoredRanking(
            tournament=tournament, scope=RankingScope.EVENT, entry_id=e, names=names.get(e, ""),
            place=ranked.place, tied=ranked.tied, decided_by=ranked.decided_by or "",
            points=_decimal(t.points if t else ranked.standing.score),
            maximum=t.maximum if t else None, percentage=_decimal(t.percentage) if t else None,
            exact=_exact(ranked.standing.score),
        ))
    with transaction.atomic():
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).delete()
        StoredRanking.objects.bulk_create(rows)

"""A session's classification kept in the process, so a correction reads, scores and writes
only what it changed.

A full classification reads every result of the session, scores every board, ranks every
pair and replaces every stored row: at 200 tables, 6,000 results and 12,000 board marks for
one corrected score. Each process keeps, per session, the last classification it committed
(``SessionState``): the inputs other than results as read (the tournament's settings, the
sections with their movement's text, the seats), every result by id, each pool's layout and
its tally (``scoring.tally``: board marks and pair totals), and the rows it stored. The next
run then reads:

- the session, with the count and the sum of the ids of its results (one query);
- the sections, seats and penalties (each a few hundred rows at most, compared by value);
- the results stamped since the newest one it kept, less ``LOOKBACK``: a transaction that
  stamped a result before the last run read and committed after is read again.

It applies the results that differ, scores again the boards they are on, settles the pairs
whose marks moved, ranks again and writes only the rows that differ (``rows``).

Nothing is trusted that the database does not confirm: the state is used only when the
session's stored ``ranking_version`` and ``classified_through`` are those this process wrote
(recorded once the transaction commits; a run takes the state out while it works, so a
rolled-back one leaves nothing behind), when every input other than results is the same,
and when the count and id sum of the session's results are what the state holds after the
changes (a deleted result, or one written with an old stamp, gives a full run). Sessions not
kept, always classified in full: teams, individuals, pairs ranked on VPs per match, and
imported events that keep their file's figures.
"""

from __future__ import annotations

import bisect
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Count, OuterRef, Subquery, Sum

from tournaments.models import EventType, Result, ResultStatus, Session
from tournaments.scoring import SessionScore
from tournaments.scoring.tally import ImpTally, SessionTally
from tournaments.services.classification import rows as stored_rows
from tournaments.services.classification.session_data import (
    RESULT_FIELDS,
    SEATING_FIELDS,
    PoolScore,
    SessionData,
    read_penalties,
    read_seatings,
    read_sections,
)
from tournaments.services.classification.session_scores import (
    PoolLayout,
    board_lines,
    new_tally,
    pool_layout,
    pool_penalties,
    pool_results,
    pools_of,
    real_lines,
)
from tournaments.services.setup import plan

LOOKBACK = timedelta(seconds=60)  # longer than any transaction that writes a result
KEPT_SESSIONS = 8  # sessions a process keeps (a few MB each at 60 tables)
LINE = ("section_id", "board__number", "round", "table", "ns_id", "ew_id")
SCORED = ("ns_score", "adjustment")

_lock = threading.Lock()
_kept: OrderedDict[tuple, SessionState] = OrderedDict()


@dataclass
class PoolState:
    """One pool of a kept session: its layout, tally and each board's effective results."""

    pool: str
    layout: PoolLayout
    tally: SessionTally | ImpTally
    results: dict[int, list[dict]]  # board → effective results, by (section, round, table)
    where: dict[int, dict[int, int]]  # board → entry → its section there
    imp: bool
    formats: stored_rows.MarkFormat
    real: dict[int, int] = field(default_factory=dict)  # board → real results (IMP field)
    most: int = 0  # the most real results of a board: a factored cross-IMP file's field


@dataclass
class SessionState:
    """One session's last committed classification, as this process wrote it."""

    data: SessionData  # the session, its sections, seats and penalties (results: below)
    inputs: tuple  # what a run compares before trusting the rest
    stamp: tuple = (0, None)  # (ranking_version, classified_through) it wrote
    ids: set[int] = field(default_factory=set)  # every result row's id, any status
    id_sum: int = 0
    results_stamp: object = None  # the newest result change read
    effective: dict[int, dict] = field(default_factory=dict)  # id → effective result
    pools: dict[str, PoolState] = field(default_factory=dict)
    pool_of: dict[int, str] = field(default_factory=dict)  # section → pool
    marks: dict[tuple, tuple] = field(default_factory=dict)  # ``rows`` keyed mark rows
    mark_keys: dict[tuple[int, int], list[tuple]] = field(default_factory=dict)  # by board, entry
    rankings: dict[tuple, tuple] = field(default_factory=dict)
    figures: stored_rows.Figures = field(default_factory=stored_rows.Figures)

    @property
    def through(self):
        stamps = [p["modified_at"] for p in self.data.penalties]
        if self.results_stamp is not None:
            stamps.append(self.results_stamp)
        return max(stamps, default=None)

    def pool_scores(self) -> list[PoolScore]:
        """Each pool's totals as ranking and the event's totals read them (no marks)."""
        out = []
        for state in self.pools.values():
            tally = state.tally
            score = PoolScore(
                state.pool, state.layout.sections, None, directional=state.layout.directional
            )
            if isinstance(tally, SessionTally):
                score.top, score.totals = tally.top, tally.totals
                score.boards = {p: t.boards for p, t in tally.totals.items()}
                score.session_score = SessionScore(tally.top, tally.theoretical, tally.totals, ())
            else:
                totals = dict(tally.totals)
                for entry_id, fraction in pool_penalties(self.data, tally):
                    totals[entry_id] -= fraction
                score.imp_totals, score.boards = totals, dict(tally.counts)
            out.append(score)
        return out


# --- what is kept ---------------------------------------------------------------------------


def _key(session_id: int) -> tuple:
    return (connection.alias, connection.settings_dict.get("NAME"), session_id)


def forget(session_id: int | None = None) -> None:
    """Drop what is kept (one session, or all): the next run classifies in full."""
    with _lock:
        if session_id is None:
            _kept.clear()
        else:
            _kept.pop(_key(session_id), None)


def remember(state: SessionState, version: int, through) -> None:
    """Keep ``state`` as the classification stored under ``version`` once the transaction
    commits (a later run finds it only if the database still agrees)."""
    state.stamp = (version, through)
    key = _key(state.data.session.pk)

    def keep() -> None:
        with _lock:
            _kept[key] = state
            _kept.move_to_end(key)
            while len(_kept) > KEPT_SESSIONS:
                _kept.popitem(last=False)

    transaction.on_commit(keep)


def peek(session: Session) -> SessionState | None:
    """The kept state of ``session`` if it is what the database holds now (``session`` read
    fresh), without taking it; for reading its totals (the event's ranking)."""
    with _lock:
        state = _kept.get(_key(session.pk))
    if state is None or state.stamp != (session.ranking_version, session.classified_through):
        return None
    return state


def _inputs(data: SessionData, seats: list[tuple] | None = None) -> tuple:
    """What a run compares before trusting a kept state: the tournament's settings, the
    sections (their movements by digest) and the seats (``seats``: as read flat)."""
    t = data.session.tournament
    settings = (
        t.event_type,
        t.scoring_method,
        t.match_vp_scale,
        t.handicap_ranking,
        t.keeps_file_results,
        t.session_count,
        json.dumps(t.conventions or {}, sort_keys=True),
    )
    sections = tuple(
        (s.pk, s.letter, s.pool, s.board_offset, s.movement_digest) for s in data.sections
    )
    if seats is None:
        seats = [tuple(s[f] for f in SEATING_FIELDS) for s in data.seatings]
    return settings, sections, seats


def keepable(data: SessionData) -> bool:
    """Whether a run may keep this session: pairs (matchpoints or IMPs, not VPs per match),
    scored by our rules."""
    t = data.session.tournament
    return (
        t.event_type != EventType.TEAMS
        and not t.keeps_file_results
        and not t.converts_matches_to_vps
        and not any(plan.is_individual(s.movement) for s in data.sections if s.movement)
    )


# --- a full run -----------------------------------------------------------------------------


def build(data: SessionData) -> SessionState | None:
    """Score a loaded session from scratch into a state (None: not keepable)."""
    if not keepable(data):
        return None
    state = SessionState(data, _inputs(data))
    state.ids = set(data.result_ids)
    state.id_sum = sum(data.result_ids)
    state.results_stamp = data.results_stamp
    state.effective = {r["id"]: r for r in data.results}
    imp = data.session.tournament.method.imp_form is not None
    for pool, sections in pools_of(data):
        layout = pool_layout(data, sections)
        results = pool_results(data, layout)
        boards, where = {}, {}
        for number in sorted(results.keys() | layout.relays.keys()):
            boards[number], where[number] = board_lines(
                number, results.get(number, []), layout, imp
            )
        real = {n: real_lines(b) for n, b in boards.items()} if imp else {}
        most = max(real.values(), default=0)
        tally = new_tally(data, layout, most)
        for number, board in boards.items():
            tally.put_board(number, board)
        if isinstance(tally, SessionTally):
            tally.set_penalties(pool_penalties(data, tally))
        tally.settle()
        top = tally.top if isinstance(tally, SessionTally) else None
        pstate = PoolState(
            pool, layout, tally, results, where, imp, stored_rows.MarkFormat(top), real, most
        )
        state.pools[pool] = pstate
        for s in sections:
            state.pool_of[s.pk] = pool
        _mark_rows(state, pstate, {n: set(w) for n, w in where.items()}, set(), {})
    state.rankings = stored_rows.ranking_rows(data, state.pool_scores(), figures=state.figures)
    data.results = []  # kept by board in the pools; the list would be stale
    return state


def _boards(pstate: PoolState) -> dict[int, object]:
    return {
        n: board_lines(n, pstate.results.get(n, []), pstate.layout, pstate.imp)[0]
        for n in pstate.tally.boards
    }


# --- a run after a change -------------------------------------------------------------------


@dataclass
class Changes:
    """What a run on a kept state found to write: the keys of the rows that differ."""

    marks: set[tuple] | None
    rankings: set[tuple] | None


def take(session: Session) -> tuple[SessionState, Changes] | None:
    """The kept state of ``session`` brought up to date with what changed since, taken out
    of the process's keeping (``remember`` puts it back once the run commits), and the rows
    it changed; None when there is none or the database does not agree with it."""
    with _lock:
        state = _kept.pop(_key(session.pk), None)
    if state is None:
        return None
    results = Result.objects.filter(section__session=OuterRef("pk")).order_by()
    row = (
        Session.objects.select_related("tournament")
        .defer("file_figures")
        .annotate(
            result_count=Subquery(
                results.values("section__session").annotate(n=Count("pk")).values("n")
            ),
            result_id_sum=Subquery(
                results.values("section__session").annotate(n=Sum("pk")).values("n")
            ),
        )
        .get(pk=session.pk)
    )
    if state.stamp != (row.ranking_version, row.classified_through):
        return None
    # the movements are compared by digest, not read again
    sections = list(read_sections(row).defer("movement"))
    data = SessionData(row, sections, [], [], [])
    if _inputs(data, read_seatings(row, flat=True)) != state.inputs:
        return None
    # the same inputs as those kept, hence still ``keepable``
    data.sections = state.data.sections  # the movements as read then
    data.seatings = state.data.seatings
    data.session.file_figures = {}  # not kept when a file's figures count
    data.penalties = read_penalties(row)
    since = Result.objects.filter(section__session=row)
    if state.results_stamp is not None:
        since = since.filter(modified_at__gt=state.results_stamp - LOOKBACK)
    touched = _apply(state, list(since.values(*RESULT_FIELDS)))
    if len(state.ids) != (row.result_count or 0) or state.id_sum != (row.result_id_sum or 0):
        return None
    state.data = data
    return state, _rescore(state, touched)


def _line(r: dict) -> tuple:
    return tuple(r[f] for f in LINE) + tuple(r[f] for f in SCORED)


def _apply(state: SessionState, rows: list[dict]) -> dict[str, set[int]]:
    """Put the results read since into the state; returns each pool's boards they touch."""
    touched: dict[str, set[int]] = {}
    for r in rows:
        rid = r["id"]
        if rid not in state.ids:
            state.ids.add(rid)
            state.id_sum += rid
        if state.results_stamp is None or r["modified_at"] > state.results_stamp:
            state.results_stamp = r["modified_at"]
        old = state.effective.get(rid)
        pool = state.pool_of.get(r["section_id"])
        new = r if r["status"] == ResultStatus.OK and pool is not None else None
        if old is not None and new is not None and _line(old) == _line(new):
            state.effective[rid] = new
            continue
        if old is not None:
            on_board = state.pools[state.pool_of[old["section_id"]]].results
            board = on_board[old["board__number"]]
            board.remove(next(x for x in board if x["id"] == rid))
            touched.setdefault(state.pool_of[old["section_id"]], set()).add(old["board__number"])
            del state.effective[rid]
        if new is not None:
            board = state.pools[pool].results.setdefault(new["board__number"], [])
            keys = [(x["section_id"], x["round"], x["table"], x["id"]) for x in board]
            at = bisect.bisect(keys, (new["section_id"], new["round"], new["table"], rid))
            board.insert(at, new)
            touched.setdefault(pool, set()).add(new["board__number"])
            state.effective[rid] = new
    return touched


def _rescore(state: SessionState, touched: dict[str, set[int]]) -> Changes:
    """Score the touched boards again, settle, rank; the rows that differ."""
    data = state.data
    candidates: set[tuple] = set()
    before: dict[tuple, tuple | None] = {}
    for name, pstate in state.pools.items():
        tally = pstate.tally
        holders: dict[int, set[int]] = {}
        for number in touched.get(name, set()):
            holders[number] = _holders(tally, number)
            if pstate.results.get(number) == []:
                del pstate.results[number]
            board, where = board_lines(
                number, pstate.results.get(number, []), pstate.layout, pstate.imp
            )
            if board.lines:
                tally.put_board(number, board)
                pstate.where[number] = where
                holders[number].update(where)
            else:
                tally.drop_board(number)
                pstate.where.pop(number, None)
            if pstate.imp:
                pstate.real[number] = real_lines(board)
        if pstate.imp and max(pstate.real.values(), default=0) != pstate.most:
            # a cross-IMP file's field follows the largest board: score them all again
            boards = _boards(pstate)
            for number in boards:
                holders.setdefault(number, set()).update(_holders(tally, number))
            pstate.most = max(pstate.real.values(), default=0)
            tally = pstate.tally = new_tally(data, pstate.layout, pstate.most)
            for number, board in boards.items():
                tally.put_board(number, board)
        if isinstance(tally, SessionTally):
            tally.set_penalties(pool_penalties(data, tally))
        for pair, boards in tally.settle().items():
            for number in boards:
                holders.setdefault(number, set()).add(pair)
        _mark_rows(state, pstate, holders, candidates, before)
    marks: set[tuple] | None = {k for k in candidates if before.get(k) != state.marks.get(k)}
    if len(marks) > stored_rows.REWRITE_ALL_SHARE * max(len(state.marks), 1):  # type: ignore[arg-type]
        marks = None  # replace them all
    rankings = stored_rows.ranking_rows(data, state.pool_scores(), figures=state.figures)
    changed = stored_rows.differing(state.rankings, rankings, share=None)
    state.rankings = rankings
    return Changes(marks, changed)


def _holders(tally: SessionTally | ImpTally, number: int) -> set[int]:
    """The pairs with a line on board ``number``."""
    return {p for ns, ew, _e in tally.boards.get(number, ()) for p in (ns, ew) if p is not None}


def _mark_rows(
    state: SessionState,
    pstate: PoolState,
    holders: dict[int, set[int]],
    candidates: set[tuple],
    before: dict[tuple, tuple | None],
) -> None:
    """Make again the mark rows of each (board, entry) in ``holders``."""
    tally = pstate.tally
    for number, pairs in holders.items():
        result_of = {}
        for r in pstate.results.get(number, ()):
            result_of[r["ns_id"]] = result_of[r["ew_id"]] = r["id"]
        where = pstate.where.get(number, {})
        for pair in pairs:
            for key in state.mark_keys.pop((number, pair), ()):
                before.setdefault(key, state.marks.get(key))
                candidates.add(key)
                del state.marks[key]
            if isinstance(tally, SessionTally):
                kept = tally.pairs.get(pair)
                finals = kept.finals.get(number, []) if kept is not None else []
            else:
                finals = tally.marks.get(pair, {}).get(number, [])
            keys = []
            for pb in finals:
                key, values = stored_rows.mark_row(
                    pb, where[pair], result_of.get(pair), pstate.formats
                )
                before.setdefault(key, state.marks.get(key))
                candidates.add(key)
                state.marks[key] = values
                keys.append(key)
            if keys:
                state.mark_keys[(number, pair)] = keys

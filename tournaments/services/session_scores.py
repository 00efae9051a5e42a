"""A session's scores, from its loaded results through the scoring core (no writes).

Rules applied here, where the data decides what the core is told:

- the theoretical number of results on a board (N, hence the top) counts every table the
  movement sends the board to, across the sections of the pool; the top is the same for all
  boards of the pool (the largest N);
- a table where one side is a phantom or has withdrawn gives the present pair a relay line
  (``NotPlayed``): its own average, as the course scores a sit-out;
- a line where both pairs were present but no result exists is left out (the console shows
  it as missing, the director scores it as not played);
- in IMP-scored events a procedural penalty's amount is read as IMPs (as VPs when the
  tournament converts each round's match to VPs: pairs are then ranked on their VPs);
- an individual pool is scored by ``services.individual`` (each side's marks credited to both
  partners), one ranking of players.

``event_standings`` adds sessions up: the tournament's ranking, and what seats a later
session by serpentine.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import MutableMapping
from fractions import Fraction

from ..models import EntryStatus, Seating, Section, Session, Tournament
from ..scoring import (
    BoardResult,
    NotPlayed,
    PairTotal,
    Real,
    SessionScore,
    Standing,
    TravellerLine,
    Unplayed,
    combine_sessions,
    match_victory_points,
    rank,
    score_imp_pairs_board,
    score_session,
)
from ..scoring import Penalty as CorePenalty
from . import plan
from .adjustments import core_entry
from .incremental import memo_for
from .individual import score_pool as score_individual_pool
from .session_data import IMP_METHODS, PoolScore, SessionData, load_session


def _layout(movement: dict, memo: MutableMapping | None) -> tuple:
    """What ``pool_inputs`` reads of a movement: whether it is directional, rounds × boards,
    its tables and its sit-outs. Reading the movement's JSON again costs a 60-table session
    more than its scoring once the boards are kept (``memo``), so the reading is kept too,
    under the movement's own text."""
    key = ("layout", json.dumps(movement, sort_keys=True)) if memo is not None else None
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = (plan.is_directional(movement),
                 plan.round_count(movement) * plan.boards_per_round(movement),
                 tuple(plan.slots(movement)), tuple(plan.sitout_boards(movement)))
    if memo is not None:
        memo[key] = found
    return found


def pool_inputs(data: SessionData, sections: list[Section], imp: bool,
                memo: MutableMapping | None = None
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
        directional, boards_per_pair, slots, sitouts = _layout(section.movement, memo)
        per_pair = max(per_pair, boards_per_pair)
        for slot in slots:
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
        for _round, pair_number, sat_out in sitouts:
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


def score_pool(data: SessionData, pool: str, sections: list[Section],
               memo: MutableMapping | None = None) -> PoolScore:
    """``memo``: boards already scored with the same lines are not scored again
    (``scoring.score_session``; ``services.incremental`` keeps it between runs)."""
    if any(plan.is_individual(s.movement) for s in sections):
        return score_individual_pool(data, pool, sections)
    method = data.session.tournament.scoring_method
    imp = method in IMP_METHODS
    boards, expected, per_pair, where = pool_inputs(data, sections, imp, memo)
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
                                                                              "neuberg"),
                               memo=memo)
        out.top, out.totals, out.session_score = scored.top, scored.totals, scored
        out.boards = {p: t.boards for p, t in scored.totals.items()}
        out.marks = [(where[(m.board, m.pair)], m.board, m.pair, m.direction, m.opponent,
                      m.mark, m.kind) for m in scored.marks]
        return out
    totals: dict[int, Fraction] = defaultdict(Fraction)
    counts: dict[int, int] = defaultdict(int)
    # a "factored" cross-IMP file scales each board up to the board played most often
    most = max((sum(1 for line in b.lines if isinstance(line.entry, Real)) for b in boards),
               default=0)
    options = {"rule": conventions.get("butler_datum", "course"),
               "round_to": conventions.get("butler_round_to"),
               "cross": conventions.get("cross_imps", "average"), "field": most,
               "places": conventions.get("cross_round"),
               "half": conventions.get("cross_half", "away")}
    for b in boards:
        entries = tuple(line.entry for line in b.lines)
        key = ("imps", entries, IMP_METHODS[method], tuple(sorted(options.items())))
        marks = memo.get(key) if memo is not None else None
        if marks is None:
            marks = score_imp_pairs_board(list(entries), IMP_METHODS[method], **options)
        if memo is not None:
            memo[key] = marks
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


def score_data(data: SessionData, memo: MutableMapping | None = None) -> list[PoolScore]:
    pools: dict[str, list[Section]] = defaultdict(list)
    for section in data.sections:
        if section.movement:
            pools[section.pool].append(section)
    return [score_pool(data, pool, sections, memo) for pool, sections in sorted(pools.items())]


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
    # boards the sessions' last classifications scored are not scored again (exact: a board's
    # marks are kept under everything they depend on)
    scored = [score_data(load_session(s), memo_for(s.pk)) for s in sessions]
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

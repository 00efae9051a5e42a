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

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from tournaments.models import EntryStatus, Seating, Section, Session, Tournament
from tournaments.scoring import (
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
    session_score,
)
from tournaments.scoring.tally import ImpTally, SessionTally
from tournaments.services.classification.session_data import (
    PoolScore,
    SessionData,
    load_session,
)
from tournaments.services.running.adjustments import core_entry
from tournaments.services.setup import plan
from tournaments.services.setup.individual import score_pool as score_individual_pool

_LAYOUTS: dict[str, tuple] = {}  # movement digest → its reading (``_layout``)
LAYOUTS_KEPT = 64


def _layout(section: Section) -> tuple:
    """What ``pool_layout`` reads of a section's movement: whether it is directional,
    rounds × boards, its tables and its sit-outs. Reading a 25-table movement costs more
    than scoring its session's boards, and sections and sessions share movements: the
    reading is kept under the movement's digest when the section was read with one
    (``session_data.read_sections``)."""
    digest = getattr(section, "movement_digest", None)
    found = _LAYOUTS.get(digest) if digest else None
    if found is None:
        movement = section.movement
        found = (
            plan.is_directional(movement),
            plan.round_count(movement) * plan.boards_per_round(movement),
            tuple(plan.slots(movement)),
            tuple(plan.sitout_boards(movement)),
        )
        if digest:
            if len(_LAYOUTS) >= LAYOUTS_KEPT:
                _LAYOUTS.pop(next(iter(_LAYOUTS)), None)
            _LAYOUTS[digest] = found
    return found


@dataclass
class PoolLayout:
    """What the movement and the seats say of one pool, results aside: each board's relay
    lines (a table where one side is a phantom or has withdrawn, unless a result was
    stored there; a pair the movement sits out), N (the most plays of a board) and the
    boards a pair is scored over."""

    sections: list[Section]
    # board → (section, round, table, NS entry, EW entry): one side None; round None for a
    # sit-out (a relay whatever was played)
    relays: dict[int, list[tuple]]
    expected: int
    per_pair: int
    directional: bool = False  # NS and EW ranked apart (a Mitchell)

    @property
    def section_ids(self) -> set[int]:
        return {s.pk for s in self.sections}


def pool_layout(data: SessionData, sections: list[Section]) -> PoolLayout:
    seats = data.seat_map()
    relays: dict[int, list[tuple]] = defaultdict(list)
    plays: dict[int, int] = defaultdict(int)
    per_pair = 0
    any_directional = False
    for section in sections:
        directional, boards_per_pair, slots, sitouts = _layout(section)
        any_directional = any_directional or directional
        per_pair = max(per_pair, boards_per_pair)
        for slot in slots:
            present = []
            for number, line in ((slot.ns, "NS"), (slot.ew, "EW")):
                seat = seats.get((section.pk, number, line if directional else ""))
                ok = seat is not None and seat["entry__status"] == EntryStatus.ACTIVE
                present.append(seat["entry_id"] if ok else None)
            ns_id, ew_id = present
            for b in slot.boards:
                number = b + section.board_offset
                plays[number] += 1
                if (ns_id is None) != (ew_id is None):
                    relays[number].append((section.pk, slot.round, slot.table, ns_id, ew_id))
        # A pair the movement sits out (the phantom's table is not laid out) is scored on
        # the set it misses like a relay, so every pair has the same number of boards.
        for _round, pair_number, sat_out in sitouts:
            seat = seats.get((section.pk, pair_number, ""))
            if seat is None or seat["entry__status"] != EntryStatus.ACTIVE:
                continue
            for b in sat_out:
                number = b + section.board_offset
                plays[number] += 1
                relays[number].append((section.pk, None, None, seat["entry_id"], None))
    return PoolLayout(
        sections, dict(relays), max(plays.values(), default=0), per_pair, any_directional
    )


def board_lines(
    number: int, results: list[dict], layout: PoolLayout, imp: bool
) -> tuple[BoardResult, dict[int, int]]:
    """One board of a pool for the core: its results (``results``: the pool's effective
    results on it, in order) and its relay lines; and each entry's section on it."""
    lines = []
    where: dict[int, int] = {}
    played = set()
    for r in results:
        lines.append(
            TravellerLine(
                r["ns_id"], r["ew_id"], core_entry(r["ns_score"], r["adjustment"], imp_scoring=imp)
            )
        )
        played.add((r["section_id"], r["round"], r["table"]))
        where[r["ns_id"]] = where[r["ew_id"]] = r["section_id"]
    for section_id, rnd, table, ns_id, ew_id in layout.relays.get(number, ()):
        if rnd is not None and (section_id, rnd, table) in played:
            continue
        lines.append(TravellerLine(ns_id, ew_id, NotPlayed(Unplayed.RELAY)))
        where[ns_id if ns_id is not None else ew_id] = section_id
    return BoardResult(number, tuple(lines)), where


def pool_results(data: SessionData, layout: PoolLayout) -> dict[int, list[dict]]:
    """The pool's effective results by board, in the order they were read."""
    ids = layout.section_ids
    out: dict[int, list[dict]] = defaultdict(list)
    for r in data.results:
        if r["section_id"] in ids:
            out[r["board__number"]].append(r)
    return out


def imp_options(data: SessionData, most: int) -> dict:
    """How an IMP pool's boards are scored: the conventions an imported file was scored
    with (``imports.usebio_conventions``; ours: {}) and the most real results of a board (a
    "factored" cross-IMP file scales each board up to it)."""
    conventions = data.session.tournament.conventions or {}
    return {
        "rule": conventions.get("butler_datum", "course"),
        "round_to": conventions.get("butler_round_to"),
        "cross": conventions.get("cross_imps", "average"),
        "field": most,
        "places": conventions.get("cross_round"),
        "half": conventions.get("cross_half", "away"),
    }


def real_lines(board: BoardResult) -> int:
    return sum(1 for line in board.lines if isinstance(line.entry, Real))


def new_tally(data: SessionData, layout: PoolLayout, most: int = 0) -> SessionTally | ImpTally:
    """An empty tally for one pool: matchpoints, or the tournament's IMP form (``most``: the
    most real results of a board, which a factored cross-IMP file reads)."""
    form = data.session.tournament.method.imp_form  # Butler or cross-IMPs; None: matchpoints
    if form is None:
        conventions = data.session.tournament.conventions or {}
        return SessionTally(
            expected=max(layout.expected, 1),
            boards_per_pair=layout.per_pair or None,
            factoring=conventions.get("factoring", "neuberg"),
        )
    options = imp_options(data, most)
    return ImpTally(lambda entries: score_imp_pairs_board(entries, form, **options))


def pool_penalties(data: SessionData, tally: SessionTally | ImpTally) -> list[tuple[int, Fraction]]:
    """The session's procedural penalties of the pool's pairs (matchpoints: a fraction of a
    top off the total; IMPs: IMPs, or VPs when matches are converted)."""
    if isinstance(tally, SessionTally):
        entries = {p for p, kept in tally.pairs.items() if kept.count}
    else:
        entries = {p for p, marks in tally.marks.items() if marks}
    return [
        (p["entry_id"], Fraction(str(p["fraction_of_top"])))
        for p in data.penalties
        if p["entry_id"] in entries
    ]


def score_pool(data: SessionData, pool: str, sections: list[Section]) -> PoolScore:
    """One pool scored from scratch (``incremental`` keeps the same pieces between runs)."""
    if any(plan.is_individual(s.movement) for s in sections):
        return score_individual_pool(data, pool, sections)
    layout = pool_layout(data, sections)
    results = pool_results(data, layout)
    imp = data.session.tournament.method.imp_form is not None
    boards, where = {}, {}
    for number in sorted(results.keys() | layout.relays.keys()):
        boards[number], where[number] = board_lines(number, results.get(number, []), layout, imp)
    tally = new_tally(data, layout, max(map(real_lines, boards.values()), default=0))
    for number, board in boards.items():
        tally.put_board(number, board)
    return pool_score(data, pool, layout, tally, where)


def pool_score(
    data: SessionData,
    pool: str,
    layout: PoolLayout,
    tally: SessionTally | ImpTally,
    where: dict[int, dict[int, int]],
) -> PoolScore:
    """A filled tally settled with the session's penalties, as a ``PoolScore``."""
    out = PoolScore(pool, layout.sections, None, directional=layout.directional)
    if isinstance(tally, SessionTally):
        tally.set_penalties(pool_penalties(data, tally))
        tally.settle()
        scored = session_score(tally)
        out.top, out.totals, out.session_score = scored.top, scored.totals, scored
        out.boards = {p: t.boards for p, t in scored.totals.items()}
        out.marks = [
            (where[m.board][m.pair], m.board, m.pair, m.direction, m.opponent, m.mark, m.kind)
            for m in scored.marks
        ]
        return out
    tally.settle()
    totals: dict[int, Fraction] = {}
    for number in sorted(tally.boards):
        for ns, ew, _entry in tally.boards[number]:
            for pair in (ns, ew):
                if pair is not None and pair not in totals:
                    totals[pair] = tally.totals[pair]
        for pb in (pb for p in _holders(tally, number) for pb in tally.marks[p][number]):
            out.marks.append(
                (
                    where[number][pb.pair],
                    number,
                    pb.pair,
                    pb.direction,
                    pb.opponent,
                    pb.mark,
                    pb.kind,
                )
            )
    if data.session.tournament.converts_matches_to_vps:
        totals = _match_vps(data, layout.sections, out)
    for p in data.penalties:
        if p["entry_id"] in totals:
            totals[p["entry_id"]] -= Fraction(str(p["fraction_of_top"]))
    out.imp_totals, out.boards = totals, dict(tally.counts)
    return out


def _holders(tally: ImpTally, number: int) -> list[int]:
    """The pairs on a board, each once, in the order of its lines."""
    seen: dict[int, None] = {}
    for ns, ew, _entry in tally.boards[number]:
        for pair in (ns, ew):
            if pair is not None:
                seen.setdefault(pair, None)
    return list(seen)


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


def _match_vps(data: SessionData, sections: list[Section], out: PoolScore) -> dict[int, Fraction]:
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


def pools_of(data: SessionData) -> list[tuple[str, list[Section]]]:
    """The session's pools (sections on the same boards) and their sections, by pool."""
    pools: dict[str, list[Section]] = defaultdict(list)
    for section in data.sections:
        if section.movement:
            pools[section.pool].append(section)
    return sorted(pools.items())


def score_data(data: SessionData) -> list[PoolScore]:
    return [score_pool(data, pool, sections) for pool, sections in pools_of(data)]


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


def event_standings(
    tournament: Tournament, sessions: list[Session], kept: dict[int, list[PoolScore]] | None = None
) -> tuple[list, dict | None, dict[int, str]]:
    """Totals over ``sessions`` (matchpoints: ``combine_sessions``; IMPs: sums), ranked:
    the ranked standings of active entries, the matchpoint totals (None for IMPs) and names.
    ``kept``: session id → its pools' totals already known (a kept classification's).

    Also what seats a later session by serpentine (the ranking of the sessions so far)."""
    kept = kept or {}
    scored = [kept[s.pk] if s.pk in kept else score_data(load_session(s)) for s in sessions]
    names: dict[int, str] = {}
    active: set[int] = set()
    for s in sessions:
        for seat in Seating.objects.filter(session=s).values(
            "entry_id", "entry__name", "entry__display_name", "entry__status"
        ):
            names[seat["entry_id"]] = seat["entry__name"] or seat["entry__display_name"]
            if seat["entry__status"] == EntryStatus.ACTIVE:
                active.add(seat["entry_id"])
    if tournament.method.is_pair_imps:
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
        standings = [
            Standing(e, t.percentage, name=names.get(e, ""))
            for e, t in totals.items()
            if e in active
        ]
    return rank(standings), totals, names

"""A classification's stored rows as plain keyed tuples, and writing only those that differ.

Board marks are keyed by (section, board, entry, line) and ranking lines by (scope, section,
pool, line, entry); a run that knows the rows stored before (``incremental``) deletes and
inserts again only the rows whose values differ, one statement each, and every row it
writes carries the new ranking version (a row's ``version`` is the classification that last
wrote it). Without them, or when more than a third differ, every row is replaced. Rows go
in through ``bulk.insert_rows`` (``COPY`` on PostgreSQL).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction

from django.db import connection

from tournaments.models import EntryStatus, RankingScope, Section, StoredMark, StoredRanking
from tournaments.scoring import Standing, display_round, rank
from tournaments.scoring.handicap import handicapped
from tournaments.scoring.ranking import DEFAULT_TIE_BREAKS, display_key
from tournaments.services.bulk import insert_rows
from tournaments.services.classification.session_data import PoolScore, SessionData
from tournaments.services.setup import plan

REWRITE_ALL_SHARE = Fraction(1, 3)  # more rows differ than this: delete and copy them all
MARK_FORMATS_KEPT = 20_000  # formatted marks a pool keeps

MARK_KEY = ("section", "board_number", "entry", "direction")
MARK_VALUES = ("opponent", "result", "mark", "kind", "percentage")
RANKING_KEY = ("scope", "section", "pool", "direction", "entry")
RANKING_VALUES = (
    "number",
    "names",
    "place",
    "tied",
    "decided_by",
    "points",
    "maximum",
    "percentage",
    "exact",
    "boards",
    "handicap",
    "handicap_percentage",
    "handicap_place",
    "handicap_tied",
)


def _decimal(value) -> object:
    return display_round(value, 2)


def _exact(value: Fraction) -> str:
    if type(value) is not Fraction:
        value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


# --- board marks ----------------------------------------------------------------------------


class MarkFormat(dict):
    """A pool's marks as stored (the mark and its percentage of the top, both rounded),
    each value formatted once: a board's marks repeat from pair to pair and run to run. A
    kept tally gives equal marks as one object (``scoring.tally``), so they are found by
    identity, without hashing a ``Fraction``; the object is kept with its figures, so its
    id cannot name another mark while the entry lives."""

    def __init__(self, top: int | None):
        super().__init__()
        self.top = top

    def of(self, mark) -> tuple:
        found = self.get(id(mark))
        if found is not None and found[0] is mark:
            return found[1], found[2]
        top = self.top
        value = (
            display_round(mark, 2),
            display_round(Fraction(mark) * 100 / top, 2) if top else None,
        )
        if len(self) >= MARK_FORMATS_KEPT:  # marks made anew each run (IMPs) would pile up
            self.clear()
        self[id(mark)] = (mark, *value)
        return value


def mark_row(pb, section_id: int, result_id: int | None, formats: MarkFormat) -> tuple:
    """One ``PairBoard`` as a (key, values) pair of ``MARK_KEY`` and ``MARK_VALUES``."""
    mark, percentage = formats.of(pb.mark)
    return (
        (section_id, pb.board, pb.pair, pb.direction),
        (pb.opponent, result_id, mark, pb.kind, percentage),
    )


def pool_mark_rows(data: SessionData, pools: list[PoolScore]) -> dict[tuple, tuple]:
    """Every board mark of the scored pools (the classification without a kept state)."""
    result_of = {}
    for r in data.results:
        for holder in ("ns_id", "ew_id", "south_id", "west_id"):  # south/west: individuals
            if r.get(holder) is not None:
                result_of[(r["board__number"], r[holder])] = r["id"]
    out: dict[tuple, tuple] = {}
    for pool in pools:
        formats = MarkFormat(pool.top)
        for section_id, board, entry, direction, opp, mark, kind in pool.marks:
            value, percentage = formats.of(mark)
            out[(section_id, board, entry, direction)] = (
                opp,
                result_of.get((board, entry)),
                value,
                kind,
                percentage,
            )
    return out


# --- ranking lines --------------------------------------------------------------------------


class Figures(dict):
    """Each entry's standing and stored figures (points, maximum, percentage, exact), kept
    while its total is the same object, so a run remakes only those of the totals that
    moved; and each pool's ranking groups, kept while its entries are the same (a kept
    session's seats are: ``incremental`` compares them before it runs)."""

    def __init__(self):
        super().__init__()
        self.groups: dict[str, tuple] = {}

    def of(self, entry: int, total, score, tops: int, name: str, number: int, boards: int) -> tuple:
        """(standing, its shown score as ``display_key``, the row's values before the place
        and after it: (number, names) and (points, maximum, percentage, exact, boards))."""
        figures = (
            _decimal(total.points if total is not None else score),
            total.maximum if total is not None else None,
            _decimal(total.percentage) if total is not None else None,
            _exact(score),
            boards,
        )
        made = (
            Standing(entry, score, tops=tops, name=name),
            display_key(score),
            (number, name),
            figures,
        )
        self[entry] = (total, score, made)
        return made


def ranking_rows(
    data: SessionData,
    pools: list[PoolScore],
    file_places: dict[int, dict] | None = None,
    figures: Figures | None = None,
) -> dict[tuple, tuple]:
    """Every ranking line of the session, keyed by ``RANKING_KEY``, values ``RANKING_VALUES``.

    ``file_places``: an imported event's places as its file gives them (entry →
    {"place", "tied"} or, for a file ranked with handicaps, {"handicap_place",
    "handicap_tied"}; ``file_figures``), kept for each section's ranking. A handicap event
    also ranks each group on percentage + handicap / 2 (``scoring.handicap``)."""
    figures = Figures() if figures is None else figures
    tournament = data.session.tournament
    handicaps = tournament.handicap_ranking
    shared = (tournament.conventions or {}).get("places") == "shared"
    tie_breaks = () if shared else DEFAULT_TIE_BREAKS
    seats = {s["entry_id"]: s for s in data.seatings}
    rows: dict[tuple, tuple] = {}
    no_handicap = (None, None, None, False)
    for pool in pools:
        scores = (
            {e: t.percentage for e, t in pool.totals.items()}
            if pool.totals is not None
            else pool.imp_totals or {}
        )
        directional = (
            pool.directional
            if pool.directional is not None
            else any(plan.is_directional(s.movement) for s in pool.sections)
        )
        signature = (pool.pool, directional, tuple(scores))
        kept = figures.groups.get(pool.pool)
        if kept is not None and kept[0] == signature:  # the same entries: the same groups
            active, groups = kept[1], kept[2]
        else:
            active, groups = _groups(pool, scores, seats, directional)
            figures.groups[pool.pool] = (signature, active, groups)
        made = {}
        for e in active:
            total = pool.totals[e] if pool.totals is not None else None
            found = figures.get(e)
            if found is not None and found[0] is total and found[1] is scores[e]:
                made[e] = found[2]  # the same total: the same standing and figures
                continue
            made[e] = figures.of(
                e,
                total,
                scores[e],
                total.tops if total is not None else 0,
                seats[e]["entry__name"] or seats[e]["entry__display_name"],
                seats[e]["number"],
                pool.boards.get(e, 0),
            )
        for scope, section, line, group in groups:
            standings = [made[e][0] for e in group]
            shown = [made[e][1] for e in group]
            given = (file_places or {}) if scope == RankingScope.SECTION else {}
            with_handicap = (
                _handicap_ranking(standings, seats, tie_breaks, given)
                if handicaps and pool.totals is not None
                else {}
            )
            section_id = section.pk if section is not None else None
            for ranked in rank(standings, tie_breaks=tie_breaks, shown=shown):
                e = ranked.standing.pair
                place, tied, decided_by = ranked.place, ranked.tied, ranked.decided_by or ""
                if given and "place" in given.get(e, {}):
                    place, tied, decided_by = given[e]["place"], given[e]["tied"], ""
                _standing, _shown, head, tail = made[e]
                row = head + (place, tied, decided_by) + tail
                rows[(scope, section_id, pool.pool, line, e)] = (
                    row + with_handicap[e] if with_handicap else row + no_handicap
                )
    return rows


def _groups(pool: PoolScore, scores: dict, seats: dict, directional: bool) -> tuple:
    """The pool's active entries and its rankings: (scope, section, line, entries) each."""
    lines = ("NS", "EW") if directional else ("",)
    active = [e for e in scores if e in seats and seats[e]["entry__status"] == EntryStatus.ACTIVE]
    members: dict[tuple, list[int]] = {}
    for e in active:
        members.setdefault((seats[e]["section_id"], seats[e]["direction"]), []).append(e)
    groups: list[tuple[str, Section | None, str, list[int]]] = [
        (RankingScope.SECTION, section, line, members.get((section.pk, line), []))
        for section in pool.sections
        for line in lines
    ]
    if len(pool.sections) > 1:
        groups += [
            (RankingScope.POOL, None, line, [e for e in active if seats[e]["direction"] == line])
            for line in lines
        ]
    return active, groups


def _handicap_ranking(
    standings: list[Standing], seats: dict, tie_breaks, given: dict
) -> dict[int, tuple]:
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
        out[e] = (hcp[e], _decimal(ranked.standing.score), place, tied)
    return out


# --- writing --------------------------------------------------------------------------------


def differing(
    before: dict[tuple, tuple] | None, now: dict[tuple, tuple], share: Fraction | None = None
) -> set[tuple] | None:
    """The keys whose rows differ (gone, new or changed); None: replace them all (nothing
    known before, or more than ``share`` of them differ)."""
    if before is None:
        return None
    keys = set(before.keys() - now.keys())
    keys.update(k for k, v in now.items() if before.get(k) != v)
    if share is not None and len(keys) > share * max(len(now), 1):
        return None
    return keys


def write_marks(
    session_id: int, now: dict[tuple, tuple], changed: set[tuple] | None, version: int
) -> None:
    """Store the session's marks: those of ``changed`` keys, or all of them (None)."""
    marks = StoredMark.objects.filter(session_id=session_id)
    if changed is None:
        marks.delete()
        keys: Iterable[tuple] = now
    else:
        _delete_keys(StoredMark, session_id, MARK_KEY, changed)
        keys = [k for k in changed if k in now]
    insert_rows(
        StoredMark,
        ("session", *MARK_KEY, *MARK_VALUES, "version"),
        ((session_id, *k, *now[k], version) for k in keys),
    )


def write_rankings(
    session, now: dict[tuple, tuple], changed: set[tuple] | None, version: int
) -> None:
    """Store the session's ranking lines: those of ``changed`` keys, or every line (None).
    A session's line is one by scope and entry (an entry plays in one section and pool)."""
    if changed is None or len(changed) >= len(now):
        StoredRanking.objects.filter(session_id=session.pk).delete()
        keys: Iterable[tuple] = now
    else:
        if not changed:
            return
        _delete_keys(
            StoredRanking, session.pk, ("scope", "entry"), {(k[0], k[-1]) for k in changed}
        )
        keys = [k for k in changed if k in now]
    insert_rows(
        StoredRanking,
        ("tournament", "session", *RANKING_KEY, *RANKING_VALUES, "version"),
        ((session.tournament_id, session.pk, *k, *now[k], version) for k in keys),
    )


def _delete_keys(model, session_id: int, columns: tuple[str, ...], keys: set[tuple]) -> None:
    """Delete the session's rows whose ``columns`` are one of ``keys``, in one statement
    (on PostgreSQL the keys go as one array a column, which binds in one step)."""
    if not keys:
        return
    opts = model._meta
    quote = connection.ops.quote_name
    fields = [opts.get_field(c) for c in columns]
    names = ", ".join(quote(f.column) for f in fields)
    where = (
        f"DELETE FROM {quote(opts.db_table)} WHERE {quote(opts.get_field('session').column)} = %s"
    )
    if connection.vendor == "postgresql":
        arrays = ", ".join(
            "%s::text[]" if f.get_internal_type() == "CharField" else "%s::bigint[]" for f in fields
        )
        params: list = [session_id, *(list(column) for column in zip(*keys, strict=True))]
        sql = f"{where} AND ({names}) IN (SELECT * FROM unnest({arrays}))"
    else:
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        params = [session_id, *(value for key in keys for value in key)]
        sql = f"{where} AND ({names}) IN (VALUES {', '.join([one] * len(keys))})"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)

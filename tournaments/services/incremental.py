"""Re-classifying after a small change writes only the board marks that changed.

A director's correction changes one result; a full run scored all 1,800 lines of a 60-table
session again and deleted and copied its 3,600 board marks. Here the process keeps, per
session, what its last committed classification scored and stored:

- the boards' first-pass marks (``memo``, given to ``score_data``): a board's matchpoints or
  IMPs depend on that board's lines alone, so the scoring core reuses every board whose lines
  are the same and scores the others (the corrected board). The second pass (each pair's
  own percentage for its adjusted and relay marks, the totals, the penalties) always runs
  over the whole session, so what a correction does to a pair's other boards follows;
- what each (section, board)'s stored marks were made from: only the groups whose marks
  differ are deleted and inserted again, the others keep their rows and take the new
  version in one ``UPDATE``.

Nothing is trusted that the database does not confirm: the kept state is used only when the
session's stored ``ranking_version`` and ``classified_through`` are those this process wrote
(so another process's or a failed run's rows are never diffed against), it is recorded once
the transaction commits, and every input other than the boards' lines (entries, seats,
movement, penalties, conventions) is compared by value through the scoring itself. Anything
else, or more than a third of the marks changed, falls back to replacing them all, as
``classification`` always did. The rankings (a few hundred rows) are always rewritten.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import connection, transaction
from django.db.models import Q

from ..models import Session, StoredMark
from ..scoring import display_round
from .bulk import insert_rows
from .session_data import PoolScore, SessionData

MARK_FIELDS = ("session", "section", "board_number", "entry", "direction", "opponent",
               "result", "mark", "kind", "version", "percentage")
KEPT_SESSIONS = 8  # sessions a process keeps (a few MB each for 60 tables)
REWRITE_ALL_SHARE = Fraction(1, 3)  # more changed than this: delete and copy them all

_lock = threading.Lock()
_kept: OrderedDict[tuple, Kept] = OrderedDict()


@dataclass
class Kept:
    """One session's last committed classification, as this process wrote it."""

    stamp: tuple  # (ranking_version, classified_through) it wrote
    memo: dict = field(default_factory=dict)
    groups: dict[tuple[int, int], tuple] = field(default_factory=dict)


class Memo(dict):
    """The boards scored in this run; looks up what the previous run scored (kept only
    when found, so boards that are gone do not pile up)."""

    def __init__(self, previous: dict | None = None):
        super().__init__()
        self.previous = previous or {}

    def get(self, key, default=None):
        found = super().get(key)
        if found is None:
            found = self.previous.get(key)
        return default if found is None else found


def _key(session_id: int) -> tuple:
    return (connection.alias, connection.settings_dict.get("NAME"), session_id)


def memo_for(session_id: int) -> Memo:
    with _lock:
        kept = _kept.get(_key(session_id))
    return Memo(kept.memo if kept is not None else None)


def forget(session_id: int | None = None) -> None:
    """Drop what is kept (one session, or all): the next run replaces every mark."""
    with _lock:
        if session_id is None:
            _kept.clear()
        else:
            _kept.pop(_key(session_id), None)


def _groups(data: SessionData, pools: list[PoolScore]) -> dict[tuple[int, int], tuple]:
    """(section, board) → what its stored mark rows are made from, in a stable order."""
    result_of = {}
    for r in data.results:
        for holder in ("ns_id", "ew_id", "south_id", "west_id"):  # south/west: individuals
            if r.get(holder) is not None:
                result_of[(r["board__number"], r[holder])] = r["id"]
    out: dict[tuple[int, int], list] = {}
    for pool in pools:
        for section_id, board, entry, direction, opp, mark, kind in pool.marks:
            out.setdefault((section_id, board), []).append(
                (entry, direction, opp, result_of.get((board, entry)), mark, kind, pool.top))
    return {k: tuple(v) for k, v in out.items()}


def _rows(session_id: int, groups: dict, keys, version: int) -> list[tuple]:
    """The mark rows of ``keys`` in the order of ``MARK_FIELDS`` (``bulk.insert_rows``)."""
    rows = []
    for section_id, board in keys:
        for entry, direction, opp, result_id, mark, kind, top in groups[(section_id, board)]:
            rows.append((
                session_id, section_id, board, entry, direction, opp, result_id,
                display_round(mark, 2), kind, version,
                display_round(Fraction(mark) * 100 / top, 2) if top else None,
            ))
    return rows


def mark_rows(data: SessionData, pools: list[PoolScore], version: int) -> list[tuple]:
    """Every board mark of the session as a plain row (``MARK_FIELDS``)."""
    groups = _groups(data, pools)
    return _rows(data.session.pk, groups, groups, version)


def store_marks(data: SessionData, pools: list[PoolScore], locked: Session, version: int,
                through, memo: Memo) -> list[tuple[int, int]] | None:
    """Write the session's marks under ``version`` (inside the classification's transaction,
    ``locked`` still holding the previous version, ``through`` its next
    ``classified_through``); returns the (section, board) groups written again, or None
    when every mark was replaced."""
    groups = _groups(data, pools)
    key = _key(locked.pk)
    with _lock:
        kept = _kept.get(key)
    previous = (kept.groups if kept is not None
                and kept.stamp == (locked.ranking_version, locked.classified_through) else None)
    changed = None
    if previous is not None:
        changed = [k for k in groups.keys() | previous.keys()
                   if groups.get(k) != previous.get(k)]
        marks = sum(len(g) for g in groups.values())
        if sum(len(groups.get(k, ())) for k in changed) > REWRITE_ALL_SHARE * max(marks, 1):
            changed = None
    marks_of = StoredMark.objects.filter(session_id=locked.pk)
    if changed is None:
        marks_of.delete()
        insert_rows(StoredMark, MARK_FIELDS, _rows(locked.pk, groups, groups, version))
    else:
        if changed:
            where = Q()
            for section_id, board in changed:
                where |= Q(section_id=section_id, board_number=board)
            marks_of.filter(where).delete()
        marks_of.update(version=version)
        insert_rows(StoredMark, MARK_FIELDS,
                    _rows(locked.pk, groups, [k for k in changed if k in groups], version))

    def remember() -> None:  # a later run finds it only if the database still agrees
        with _lock:
            _kept[key] = Kept((version, through), dict(memo), groups)
            _kept.move_to_end(key)
            while len(_kept) > KEPT_SESSIONS:
                _kept.popitem(last=False)

    transaction.on_commit(remember)
    return changed

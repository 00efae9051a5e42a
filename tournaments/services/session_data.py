"""A session's results as classification reads them, and a pool's scores as it computes them.

Loaded in a fixed number of queries whatever the session's size (``load_session``), so the
classification, the director's console and the seating of a later session read the same
rows; ``PoolScore`` is what scoring one pool of sections gives back (pairs, IMP pairs or
individual), before it is ranked and stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Max, OuterRef, Subquery

from ..models import Penalty, Result, ResultStatus, ScoringMethod, Seating, Section, Session
from ..scoring import PairMatch, PairTotal, SessionScore

IMP_METHODS = {ScoringMethod.BUTLER: "butler", ScoringMethod.CROSS_IMPS: "cross"}


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
        "entry__display_name", "entry__name", "entry__handicap"))
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


def newest_changes() -> dict[str, Subquery]:
    """Annotations of a session queryset: its newest result and penalty change."""

    def newest(model, key: str) -> Subquery:
        return Subquery(model.objects.filter(**{key: OuterRef("pk")}).order_by()
                        .values(key).annotate(m=Max("modified_at")).values("m"))

    return {"newest_result": newest(Result, "section__session"),
            "newest_penalty": newest(Penalty, "session")}


def latest_change(session: Session):
    """The newest result or penalty change of the session (one query, two aggregates)."""
    r, p = (Session.objects.filter(pk=session.pk).order_by().annotate(**newest_changes())
            .values_list("newest_result", "newest_penalty").get())
    return max((x for x in (r, p) if x is not None), default=None)


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

"""A session's results as classification reads them, and a pool's scores as it computes them.

Loaded in a fixed number of queries whatever the session's size (``load_session``), so the
classification, the director's console and the seating of a later session read the same
rows; ``PoolScore`` is what scoring one pool of sections gives back (pairs, IMP pairs or
individual), before it is ranked and stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import F, OuterRef, Subquery, TextField
from django.db.models.functions import MD5, Cast

from tournaments.models import (
    Penalty,
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
)
from tournaments.scoring import PairMatch, PairTotal, SessionScore

RESULT_FIELDS = (
    "id",
    "section_id",
    "board__number",
    "round",
    "table",
    "ns_id",
    "ew_id",
    "south_id",
    "west_id",
    "contract",
    "declarer",
    "tricks",
    "ns_score",
    "adjustment",
    "status",
    "confirmed",
    "modified_at",
)
SEATING_FIELDS = (
    "section_id",
    "entry_id",
    "number",
    "direction",
    "entry__status",
    "entry__display_name",
    "entry__name",
    "entry__handicap",
)
PENALTY_FIELDS = ("entry_id", "fraction_of_top", "board_number", "modified_at")


@dataclass
class SessionData:
    """Everything classification and the console need, read in five queries."""

    session: Session
    sections: list[Section]
    seatings: list[dict]
    results: list[dict]
    penalties: list[dict]
    stamp: object = None  # newest change included (results or penalties)
    # every result row read, whatever its status: ids, and the newest change among them
    result_ids: list[int] = field(default_factory=list)
    results_stamp: object = None

    def seat_map(self) -> dict[tuple[int, int, str], dict]:
        return {(s["section_id"], s["number"], s["direction"]): s for s in self.seatings}


def read_sections(session: Session):
    """The session's sections by letter, each with the digest of its movement as stored
    (``movement_digest``), which a kept classification compares without reading the JSON."""
    return (
        Section.objects.filter(session=session)
        .annotate(movement_digest=MD5(Cast("movement", TextField())))
        .order_by("letter")
    )


def read_seatings(session: Session, *, flat: bool = False) -> list:
    """The session's seats with their entries (dicts of ``SEATING_FIELDS``; ``flat``:
    tuples, for comparing)."""
    seats = Seating.objects.filter(session=session)
    if flat:
        return list(seats.values_list(*SEATING_FIELDS))
    return list(seats.values(*SEATING_FIELDS))


def read_penalties(session: Session) -> list[dict]:
    return list(Penalty.objects.filter(session=session).values(*PENALTY_FIELDS))


def load_session(session: Session, *, result_stamps: bool = True) -> SessionData:
    """The session's rows. ``result_stamps=False``: each result without its ``modified_at``
    (the driver parses a timestamp in Python, a third of loading a 200-table session); the
    newest is read first, by an index probe a section, so a result stored meanwhile is in
    the rows and not yet in the stamp: classified again later, never missed."""
    session = Session.objects.select_related("tournament").get(pk=session.pk)
    if not result_stamps:
        newest = (
            Session.objects.filter(pk=session.pk)
            .order_by()
            .annotate(**newest_changes())
            .values_list("newest_result", flat=True)
            .get()
        )
    sections = list(read_sections(session))
    seatings = read_seatings(session)
    fields = RESULT_FIELDS if result_stamps else RESULT_FIELDS[:-1]
    results = list(Result.objects.filter(section__session=session).values(*fields))
    penalties = read_penalties(session)
    if result_stamps:
        newest = max((r["modified_at"] for r in results), default=None)
    stamps = [p["modified_at"] for p in penalties] + ([newest] if newest else [])
    effective = [r for r in results if r["status"] == ResultStatus.OK]
    return SessionData(
        session,
        sections,
        seatings,
        effective,
        penalties,
        max(stamps, default=None),
        [r["id"] for r in results],
        newest,
    )


def newest_changes() -> dict[str, Subquery]:
    """Annotations of a session queryset: its newest result and penalty change.

    The newest result is read section by section, each the first row of the index on
    (section, modified_at) read backwards, so the plan is an index probe a section whatever
    the planner's statistics say (a ``MAX`` over the session's results joined through its
    sections scanned every result of the season once statistics were stale)."""
    newest_in_section = (
        Result.objects.filter(section=OuterRef("pk"))
        .order_by("-modified_at")
        .values("modified_at")[:1]
    )
    newest_result = (
        Section.objects.filter(session=OuterRef("pk"))
        .annotate(newest=Subquery(newest_in_section))
        .order_by(F("newest").desc(nulls_last=True))
        .values("newest")[:1]
    )
    newest_penalty = (
        Penalty.objects.filter(session=OuterRef("pk"))
        .order_by("-modified_at")
        .values("modified_at")[:1]
    )
    return {
        "newest_result": Subquery(newest_result),
        "newest_penalty": Subquery(newest_penalty),
    }


def newest_in_section() -> dict[str, Subquery]:
    """Annotations of a section queryset: its newest result (the first row of the index on
    (section, modified_at) read backwards) and its session's newest penalty. Sessions many
    at once are read so, a row a section: the cost follows the sessions asked for (a
    subquery a session, ``newest_changes``, scans the sections once a session)."""
    return {
        "newest_result": Subquery(
            Result.objects.filter(section=OuterRef("pk"))
            .order_by("-modified_at")
            .values("modified_at")[:1]
        ),
        "newest_penalty": Subquery(
            Penalty.objects.filter(session=OuterRef("session_id"))
            .order_by("-modified_at")
            .values("modified_at")[:1]
        ),
    }


def latest_change(session: Session):
    """The newest result or penalty change of the session (one query, two aggregates)."""
    r, p = (
        Session.objects.filter(pk=session.pk)
        .order_by()
        .annotate(**newest_changes())
        .values_list("newest_result", "newest_penalty")
        .get()
    )
    return max((x for x in (r, p) if x is not None), default=None)


@dataclass
class PoolScore:
    pool: str
    sections: list[Section]
    top: int | None
    totals: dict[int, PairTotal] | None = None  # matchpoints
    imp_totals: dict[int, Fraction] | None = None  # IMP methods
    boards: dict[int, int] = field(default_factory=dict)  # entry → boards with a mark
    marks: list[tuple] = field(
        default_factory=list
    )  # (section, board, entry, dir, opp, mark, kind)
    session_score: SessionScore | None = None
    matches: list[tuple[int, PairMatch]] = field(default_factory=list)  # (section, match): VPs
    directional: bool | None = None  # NS and EW ranked apart; None: read the movements

"""Seating the second and later sessions of a pairs tournament from the earlier ones.

The course (C03 l.349-471) moves the contestants between sessions so each is compared with
as many others as possible: one pool is seated by the serpentine from the ranking after the
previous session, two or three pools by its fixed rotation, where group k is whoever sat in
the k-th line of session 1 (NS-A, EW-A, NS-B, ...). The director may also keep the seating.
The pure core (``movements.sessions``) says who goes where; this module reads the ranking
and the session-1 lines, deals with the field changing between sessions and seats the new
session through ``setup.seat_section``, so the entries (and the tournament totals) stay the
same and only their numbers and lines change.

Between sessions:

- a pair that withdrew is left out; its place is empty, so its opponents sit out (a
  relay, as any phantom);
- a pair registered after the previous session has no rank: the serpentine ranks it after
  everyone; the pool rotation and the kept seating give it a free place, in the section
  and line with the fewest pairs (a new table only where a serpentine-style Mitchell can
  grow: the rotation adds a table to the smallest section);
- the rotation is refused when two lines meeting in a section would differ by more than one
  pair (more than one table without opponents), and the kept seating when a late pair has
  no free place: the director chooses another method or seats by hand.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    EntryStatus,
    EventType,
    Result,
    Seating,
    Section,
    Session,
    SessionStatus,
)
from tournaments.movements import MovementError, max_mitchell_rounds, mitchell
from tournaments.movements.sessions import pool_assignment, serpentine
from tournaments.services.classification import classify as classification
from tournaments.services.classification import session_scores
from tournaments.services.errors import TournamentError
from tournaments.services.running.progress import session_progress
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

SERPENTINE, POOLS, SAME = "serpentine", "pools", "same"
METHODS = (
    (SERPENTINE, gettext_lazy("Serpentine from the ranking of the sessions so far (one pool)")),
    (POOLS, gettext_lazy("Rotation of 2 or 3 pools (the course's table)")),
    (SAME, gettext_lazy("Keep the same seating")),
)
POOL_TABLE_SESSIONS = {2: 3, 3: 5}  # sessions each course table covers; then it starts again
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class PlannedSeat:
    entry: Entry
    letter: str
    number: int
    direction: str
    rank: int | None = None  # place in the ranking the serpentine read
    group: int | None = None  # session-1 line (pool rotation)
    late: bool = False

    @property
    def label(self) -> str:
        return f"{self.number}{self.direction}"


@dataclass
class PlannedSection:
    letter: str
    pool: str
    board_offset: int
    movement: dict
    seats: list[PlannedSeat]

    @property
    def tables(self) -> int:
        return plan.table_count(self.movement)

    def first_round(self) -> list[dict]:
        """Round 1 as the preview shows it: table, NS seat, EW seat (None: nobody)."""
        directional = plan.is_directional(self.movement)
        at = {(s.number, s.direction): s for s in self.seats}
        rows = []
        for slot in plan.slots(self.movement):
            if slot.round != 1:
                continue
            rows.append(
                {
                    "table": slot.table,
                    "ns": at.get((slot.ns, "NS" if directional else "")),
                    "ew": at.get((slot.ew, "EW" if directional else "")),
                }
            )
        seated = {id(r[k]) for r in rows for k in ("ns", "ew") if r[k] is not None}
        for seat in self.seats:  # sitting out round 1 (a phantom's table is not laid out)
            if id(seat) not in seated:
                rows.append({"table": None, "ns": seat, "ew": None})
        for row in rows:
            row["seats"] = (row["ns"], row["ew"])
        return sorted(rows, key=lambda r: (r["table"] is None, r["table"] or 0))


@dataclass
class SeatingPlan:
    session: Session
    method: str
    sections: list[PlannedSection]
    source: str = ""
    late: list[Entry] = field(default_factory=list)
    withdrawn: list[Entry] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        """What the director saw in the preview; confirming a different plan is refused."""
        text = "|".join(
            f"{p.letter}:{s.entry.pk}:{s.number}{s.direction}"
            for p in self.sections
            for s in sorted(p.seats, key=lambda s: s.entry.pk)
        )
        return hashlib.sha256(f"{self.method}|{text}".encode()).hexdigest()[:16]


# --- checks ---------------------------------------------------------------------------------


def previous_session(session: Session) -> Session:
    """The session before ``session``, once it may seat the next one: refused (nothing
    changes) unless ``session`` is a later session still being set up and the previous one
    is finished with every result in."""
    session = Session.objects.select_related("tournament").get(pk=session.pk)
    tournament = session.tournament
    if tournament.event_type != EventType.PAIRS:
        raise TournamentError(_("Seating from the previous session is for pairs events."))
    if session.number < 2:
        raise TournamentError(
            _("The first session is seated from the entries, not from a previous session.")
        )
    if (
        session.status != SessionStatus.DRAFT
        or Result.objects.filter(section__session=session).exists()
    ):
        raise TournamentError(_("The session has started: its seating can no longer change."))
    previous = Session.objects.select_related("tournament").get(
        tournament=tournament, number=session.number - 1
    )
    if previous.status != SessionStatus.FINISHED:
        raise TournamentError(
            _("Session %(number)s is not finished: finish it first.") % {"number": previous.number}
        )
    if not Seating.objects.filter(session=previous).exists():
        raise TournamentError(
            _("Nobody was seated in session %(number)s.") % {"number": previous.number}
        )
    progress = session_progress(previous)
    if not progress.complete:
        raise TournamentError(
            _(
                "Session %(number)s is not classified: %(missing)s results are missing and "
                "%(conflicts)s conflicts are open."
            )
            % {
                "number": previous.number,
                "missing": len(progress.missing),
                "conflicts": len(progress.conflicts),
            }
        )
    return previous


def ranking_so_far(session: Session) -> list[Entry]:
    """Active entries best first on the totals of the sessions before ``session``."""
    earlier = [
        s
        for s in Session.objects.filter(
            tournament_id=session.tournament_id, number__lt=session.number
        ).order_by("number")
        if s.sections.exists()
    ]
    for s in earlier:
        classification.ensure_current(s)  # the stored session rankings agree with this order
    ranked, _totals, _names = session_scores.event_standings(session.tournament, earlier)
    # a tie the tie-breaks leave (same names) goes by registration, so preview = confirm
    ranked = sorted(ranked, key=lambda r: (r.place, r.standing.pair))
    entries = Entry.objects.in_bulk([r.standing.pair for r in ranked])
    return [entries[r.standing.pair] for r in ranked if r.standing.pair in entries]


def _active_entries(session: Session) -> list[Entry]:
    return list(
        Entry.objects.filter(
            tournament_id=session.tournament_id, status=EntryStatus.ACTIVE
        ).order_by("id")
    )


def _withdrawn_since(previous: Session) -> list[Entry]:
    return list(
        Entry.objects.filter(seatings__session=previous)
        .exclude(status=EntryStatus.ACTIVE)
        .order_by("id")
    )


# --- the three methods ----------------------------------------------------------------------


def _mitchell(tables: int, like: Section | None, empty: list[tuple[int, str]]) -> dict:
    """A Mitchell for ``tables`` tables with the previous session's rounds and boards."""
    rounds = plan.round_count(like.movement) if like is not None and like.movement else None
    per_round = plan.boards_per_round(like.movement) if like is not None and like.movement else 2
    limit = max_mitchell_rounds(tables, "skip")
    rounds = min(rounds, limit) if rounds else limit
    phantom = f"{empty[0][0]}{empty[0][1]}" if len(empty) == 1 else None
    try:
        return mitchell(tables, rounds, per_round or 2, phantom=phantom).to_dict()
    except MovementError as exc:
        raise TournamentError(
            _("This movement is not possible: %(reason)s") % {"reason": exc}, "method"
        ) from exc


def _serpentine(session: Session, previous: Session, variant12: str) -> SeatingPlan:
    ranked = ranking_so_far(session)
    known = {e.pk for e in ranked}
    late = [e for e in _active_entries(session) if e.pk not in known]
    order = ranked + late
    try:
        seating = serpentine([e.pk for e in order], variant12)  # type: ignore[arg-type]
    except MovementError as exc:
        raise TournamentError(
            _(
                "The serpentine needs at least 7 pairs (4 tables); there are %(count)s: seat "
                "this session by hand."
            )
            % {"count": len(order)},
            "method",
        ) from exc
    by_pk = {e.pk: e for e in order}
    rank_of = {e.pk: i for i, e in enumerate(order, start=1)}
    late_pks = {e.pk for e in late}
    seats, empty = [], []
    for s in seating.seats:
        for who, line in ((s.ns, "NS"), (s.ew, "EW")):
            if who is None:
                empty.append((s.table, line))
                continue
            seats.append(
                PlannedSeat(by_pk[who], "A", s.table, line, rank=rank_of[who], late=who in late_pks)
            )
    first = previous.sections.order_by("letter").first()
    movement = _mitchell(seating.tables, first, empty)
    section = PlannedSection(
        "A", first.pool if first else "A", first.board_offset if first else 0, movement, seats
    )
    if seating.source.startswith("course table"):
        source = _(
            "The serpentine table of the AEB directors' course (2003), column for "
            "%(tables)s tables."
        ) % {"tables": seating.tables}
    else:
        source = _(
            "The AEB directors' course prints no column for %(tables)s tables; its rule "
            "is applied (odd among odd tables, even among even, about half the field "
            "apart)"
        ) % {"tables": seating.tables}
    return SeatingPlan(session, SERPENTINE, [section], source, late, _withdrawn_since(previous))


def _session_one_lines(session: Session) -> list[tuple[Section, str]]:
    first = Session.objects.get(tournament_id=session.tournament_id, number=1)
    sections = list(first.sections.order_by("letter"))
    if len(sections) not in POOL_TABLE_SESSIONS or not all(
        s.movement and plan.is_directional(s.movement) for s in sections
    ):
        raise TournamentError(
            _(
                "The pool rotation needs session 1 played as 2 or 3 Mitchell sections; it had "
                "%(count)s section(s)."
            )
            % {"count": len(sections)},
            "method",
        )
    return [(s, line) for s in sections for line in ("NS", "EW")]


def _pools(session: Session, previous: Session) -> SeatingPlan:
    lines = _session_one_lines(session)
    pools = len(lines) // 2
    turn = (session.number - 1) % POOL_TABLE_SESSIONS[pools] + 1
    where = pool_assignment(pools, turn)
    letters = [s.letter for s, _line in lines[::2]]
    # The course names pools in the order of session 1's lines (Azul then Roja; A, B, C).
    names = []
    for _line, pool in pool_assignment(pools, 1).values():
        if pool not in names:
            names.append(pool)
    pool_letter = {name: letters[i] for i, name in enumerate(names)}
    first = lines[0][0].session
    placed: dict[tuple[str, str], list[tuple[Entry, int, int]]] = {}
    seen: set[int] = set()
    group_seats = Seating.objects.filter(session=first).select_related("entry", "section")
    for group, (section, line) in enumerate(lines, start=1):
        target_line, pool = where[group]
        key = (pool_letter[pool], target_line)
        for seat in group_seats:
            if seat.section_id == section.pk and seat.direction == line:
                seen.add(seat.entry_id)
                if seat.entry.status == EntryStatus.ACTIVE:
                    placed.setdefault(key, []).append((seat.entry, seat.number, group))
    late = [e for e in _active_entries(session) if e.pk not in seen]
    sizes = {
        letter: max(
            [n for key, got in placed.items() if key[0] == letter for _e, n, _g in got], default=0
        )
        for letter in letters
    }
    late_seats: dict[tuple[str, str], list[tuple[Entry, int, int | None]]] = {}
    for entry in late:  # the free place (or a new table) of the line with fewest pairs

        def count(key):
            return len(placed.get(key, [])) + len(late_seats.get(key, []))

        key = min(
            ((lt, ln) for lt in letters for ln in ("NS", "EW")),
            key=lambda k: (count(k), letters.index(k[0]), k[1]),
        )
        taken = {n for _e, n, _g in placed.get(key, []) + late_seats.get(key, [])}
        number = next(n for n in range(1, sizes[key[0]] + 2) if n not in taken)
        sizes[key[0]] = max(sizes[key[0]], number)
        late_seats.setdefault(key, []).append((entry, number, None))
    previous_sections = {s.letter: s for s in previous.sections.all()}
    first_sections = {s.letter: s for s, _line in lines}
    out = []
    for letter in letters:
        ns = placed.get((letter, "NS"), []) + late_seats.get((letter, "NS"), [])
        ew = placed.get((letter, "EW"), []) + late_seats.get((letter, "EW"), [])
        if abs(len(ns) - len(ew)) > 1 or not ns or not ew:
            raise TournamentError(
                _(
                    "Section %(letter)s would have %(ns)s NS and %(ew)s EW pairs: the rotation "
                    "cannot take this field; choose another method or seat by hand."
                )
                % {"letter": letter, "ns": len(ns), "ew": len(ew)},
                "method",
            )
        tables = sizes[letter]
        used = {(n, "NS") for _e, n, _g in ns} | {(n, "EW") for _e, n, _g in ew}
        empty = [
            (t, ln) for t in range(1, tables + 1) for ln in ("NS", "EW") if (t, ln) not in used
        ]
        like = previous_sections.get(letter) or first_sections[letter]
        seats = [
            PlannedSeat(e, letter, n, ln, group=g, late=g is None)
            for ln, got in (("NS", ns), ("EW", ew))
            for e, n, g in got
        ]
        out.append(
            PlannedSection(
                letter,
                first_sections[letter].pool,
                first_sections[letter].board_offset,
                _mitchell(tables, like, empty),
                seats,
            )
        )
    source = _(
        "The %(pools)s-pool table of the AEB directors' course (2003), its session %(turn)s."
    ) % {"pools": pools, "turn": turn}
    return SeatingPlan(session, POOLS, out, source, late, _withdrawn_since(previous))


def _same(session: Session, previous: Session) -> SeatingPlan:
    sections = list(previous.sections.order_by("letter"))
    seats = list(Seating.objects.filter(session=previous).select_related("entry", "section"))
    seen = {s.entry_id for s in seats}
    late = [e for e in _active_entries(session) if e.pk not in seen]
    out = []
    for section in sections:
        kept = [
            PlannedSeat(s.entry, section.letter, s.number, s.direction)
            for s in seats
            if s.section_id == section.pk and s.entry.status == EntryStatus.ACTIVE
        ]
        out.append(
            PlannedSection(
                section.letter, section.pool, section.board_offset, section.movement, kept
            )
        )
    for entry in late:
        free = [
            (len(p.seats), i, place)
            for i, p in enumerate(out)
            for place in plan.pair_numbers(p.movement)
            if place not in {(s.number, s.direction) for s in p.seats}
        ]
        if not free:
            raise TournamentError(
                _(
                    "There is no free place for the late pair %(name)s: choose "
                    "the serpentine or seat by hand."
                )
                % {"name": entry},
                "method",
            )
        _n, i, (number, line) = min(free, key=lambda f: (f[0], f[1]))
        out[i].seats.append(PlannedSeat(entry, out[i].letter, number, line, late=True))
    return SeatingPlan(session, SAME, out, "", late, _withdrawn_since(previous))


def plan_seating(session: Session, method: str, *, variant12: str = "b") -> SeatingPlan:
    """Where every active entry sits in ``session`` by ``method``; nothing is written."""
    previous = previous_session(session)
    if method == SERPENTINE:
        return _serpentine(session, previous, variant12)
    if method == POOLS:
        return _pools(session, previous)
    if method == SAME:
        return _same(session, previous)
    raise TournamentError(_("Choose how to seat the session."), "method")


@transaction.atomic
def apply_seating(seating_plan: SeatingPlan, *, user) -> list[Seating]:
    """Seat the session as planned: sections (created or reused by letter), their movement
    and the entries' numbers and lines; sections the plan does not use are removed."""
    session = Session.objects.select_for_update(no_key=True).get(pk=seating_plan.session.pk)
    previous_session(session)
    wanted = {p.letter for p in seating_plan.sections}
    stale = session.sections.exclude(letter__in=wanted)
    Seating.objects.filter(session=session).delete()
    stale.delete()
    seatings = []
    for planned in seating_plan.sections:
        section = session.sections.filter(letter=planned.letter).first()
        if section is None:
            section = setup.add_section(
                session, planned.letter, pool=planned.pool, board_offset=planned.board_offset
            )
        elif (section.pool, section.board_offset) != (planned.pool, planned.board_offset):
            section.pool, section.board_offset = planned.pool, planned.board_offset
            section.save(update_fields=["pool", "board_offset"])
        seatings += setup.seat_section(
            section,
            planned.movement,
            [],
            assignments=[(s.entry, s.number, s.direction) for s in planned.seats],
        )
    AuditEntry.objects.create(
        tournament_id=session.tournament_id,
        session=session,
        action=AuditAction.SEATING,
        user=user,
        after={
            "seated_from_previous": seating_plan.method,
            "sections": [p.letter for p in seating_plan.sections],
            "late": [e.pk for e in seating_plan.late],
            "withdrawn": [e.pk for e in seating_plan.withdrawn],
        },
        reason=seating_plan.source,
    )
    return seatings

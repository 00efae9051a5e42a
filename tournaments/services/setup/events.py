"""Setting up an event: tournament, sessions, sections, and seating from a movement (entries:
``registration``).

A movement comes from the movements core (``tournaments.movements``) as its plain dict, and
is stored on the section as is. Seating gives the present entries the movement's pair
numbers in the order the director lists them; numbers left over are phantoms, so the pair
drawn against one sits out that round. Changes once entries are seated (late pair,
withdrawal, substitute, another number of rounds) are logged in the audit trail.
"""

import secrets
from collections.abc import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Board,
    Entry,
    EventType,
    Result,
    Seating,
    Section,
    Session,
    SessionStatus,
    TableCode,
    Tournament,
    TournamentStatus,
)
from tournaments.scoring import board_conditions, methods
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.errors import TournamentError
from tournaments.services.setup import plan

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G: codes are read off a card and typed on a phone.
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 5


def as_movement_dict(movement) -> dict:
    """Accept a ``Movement`` from the core or its ``to_dict()``."""
    if isinstance(movement, dict):
        return movement
    to_dict = getattr(movement, "to_dict", None)
    if to_dict is None:
        raise TournamentError(_("Not a movement."))
    return to_dict()


# --- the event ------------------------------------------------------------------------------


def _unique_slug(name: str, date) -> str:
    base = slugify(f"{date:%Y-%m-%d}-{name}")[:170] or "torneo"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_tournament(
    *,
    name: str,
    date,
    venue: str = "",
    event_type: str = EventType.PAIRS,
    scoring_method: str = methods.DEFAULT.code,
    sessions: int = 1,
    user=None,
    **options,
) -> Tournament:
    """A tournament with its ``sessions`` sessions (numbered from 1); ``options`` are the
    publication and mixed-pairs settings of ``Tournament``."""
    if sessions < 1:
        raise TournamentError(_("A tournament has at least one session."), "sessions")
    tournament = Tournament.objects.create(
        name=name,
        slug=_unique_slug(name, date),
        date=date,
        venue=venue,
        event_type=event_type,
        scoring_method=scoring_method,
        session_count=sessions,
        created_by=user,
        **options,
    )
    Session.objects.bulk_create(
        Session(tournament=tournament, number=n) for n in range(1, sessions + 1)
    )
    return tournament


def add_section(
    session: Session, letter: str | None = None, *, pool: str | None = None, board_offset: int = 0
) -> Section:
    """A new section (A, B, … by default); it plays its own boards unless given a shared pool."""
    if letter is None:
        used = set(session.sections.values_list("letter", flat=True))
        letter = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used)
    return Section.objects.create(
        session=session, letter=letter, pool=pool or letter, board_offset=board_offset
    )


# --- entries --------------------------------------------------------------------------------


# --- seating --------------------------------------------------------------------------------


def slots_in_order(movement: dict) -> list[tuple[int, str]]:
    """The movement's pair numbers, phantoms last (NS before EW in a Mitchell)."""
    numbers = plan.pair_numbers(movement)
    return sorted(
        numbers,
        key=lambda p: (plan.is_phantom(movement, p[0], p[1] or "EW"), plan.LINE_ORDER[p[1]], p[0]),
    )


def _require_draft(session: Session) -> None:
    if session.status != SessionStatus.DRAFT:
        raise TournamentError(_("The session has started: the movement can no longer change."))
    if Result.objects.filter(section__session=session).exists():
        raise TournamentError(_("Results have been entered: the movement can no longer change."))


@transaction.atomic
def seat_section(
    section: Section,
    movement,
    entries: Iterable[Entry],
    *,
    assignments: Sequence[tuple[Entry, int, str]] | None = None,
) -> list[Seating]:
    """Store ``movement`` on the section and give ``entries`` its pair numbers in order.

    In a Mitchell the first entries take NS 1..T and the next EW 1..T. ``assignments``
    (entry, number, line) overrides the order for the entries it names, for the director
    who seats pairs by hand (mixed lines, a pair that must stay NS, multi-session rules).
    """
    session = Session.objects.select_for_update(no_key=True).get(pk=section.session_id)
    _require_draft(session)
    movement = as_movement_dict(movement)
    check_match_vps(session.tournament, [movement])
    numbers = slots_in_order(movement)
    entries = list(entries)
    fixed = {e.pk: (n, d) for e, n, d in assignments or ()}
    free = [p for p in numbers if p not in set(fixed.values())]
    unplaced = [e for e in entries if e.pk not in fixed]
    if len(unplaced) > len(free):
        raise TournamentError(
            _("The movement has places for %(places)s entries, not %(entries)s.")
            % {"places": len(numbers), "entries": len(unplaced) + len(fixed)},
            "movement",
        )
    for number, line in fixed.values():
        if (number, line) not in numbers:
            raise TournamentError(
                _("Pair %(number)s%(line)s is not in this movement.")
                % {"number": number, "line": seat_word(line)},
                "assignments",
            )
    wanted = [(e, *fixed[e.pk]) for e in (a[0] for a in assignments or ())]
    wanted += [(e, n, d) for e, (n, d) in zip(unplaced, free, strict=False)]
    Seating.objects.filter(section=section).delete()
    Seating.objects.filter(session=session, entry__in=[e for e, _n, _d in wanted]).delete()
    seatings = Seating.objects.bulk_create(
        Seating(session=session, section=section, entry=e, number=n, direction=d)
        for e, n, d in wanted
    )
    section.movement = movement
    section.tables = plan.table_count(movement)
    section.save(update_fields=["movement", "tables"])
    movements = [m for m in session.sections.values_list("movement", flat=True) if m]
    session.rounds = max(plan.round_count(m) for m in movements)
    session.boards_per_round = max(plan.boards_per_round(m) for m in movements)
    session.save(update_fields=["rounds", "boards_per_round"])
    ensure_boards(section)
    issue_table_codes(section)
    return seatings


def ensure_boards(section: Section) -> list[Board]:
    """Create the section's boards (shared with its pool) with Law 2 dealer and vulnerability."""
    wanted = sorted({b + section.board_offset for b in plan.plays_per_board(section.movement)})
    have = set(
        Board.objects.filter(session_id=section.session_id, pool=section.pool).values_list(
            "number", flat=True
        )
    )
    new = []
    for number in wanted:
        if number in have:
            continue
        dealer, vul = board_conditions(number)
        new.append(
            Board(
                session_id=section.session_id,
                pool=section.pool,
                number=number,
                dealer=dealer,
                vulnerability=vul or "",
            )
        )
    Board.objects.bulk_create(new)
    return list(
        Board.objects.filter(session_id=section.session_id, pool=section.pool, number__in=wanted)
    )


def override_board_conditions(board: Board, *, dealer: str, vulnerability: str | None) -> Board:
    """What is printed on the physical board wins over Law 2's table (Law 2, last paragraph)."""
    dealer, vul = board_conditions(board.number, (dealer, vulnerability or None))
    board.dealer, board.vulnerability = dealer, vul or ""
    board.conditions_overridden = (dealer, vul) != board_conditions(board.number)
    board.save(update_fields=["dealer", "vulnerability", "conditions_overridden"])
    return board


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _fresh_code(section: Section, table: int) -> str:
    """A short code this table never had, and no other live table of the same name (say
    A3 of another tournament) has now, so a typed table and code name one table only."""
    taken = set(
        TableCode.objects.filter(
            Q(section=section, table=table)
            | Q(section__letter=section.letter, table=table, active=True)
        ).values_list("code", flat=True)
    )
    while (code := new_code()) in taken:
        continue
    return code


def issue_table_codes(section: Section) -> list[TableCode]:
    """One active code (and link token) per table; tables that already have one keep it."""
    have = set(
        TableCode.objects.filter(section=section, active=True).values_list("table", flat=True)
    )
    for table in range(1, section.tables + 1):
        if table in have:
            continue
        try:
            with transaction.atomic():
                TableCode.objects.create(
                    section=section,
                    session_id=section.session_id,
                    table=table,
                    code=_fresh_code(section, table),
                )
        except IntegrityError:
            continue  # another request issued this table's code at the same moment
    TableCode.objects.filter(section=section, table__gt=section.tables).update(active=False)
    return list(TableCode.objects.filter(section=section, active=True).order_by("table"))


@transaction.atomic
def replace_table_code(table_code: TableCode, *, user=None, reason: str = "") -> TableCode:
    """A code that leaked (or a lost card): the old one stops working at once. The trail
    names the devices by their table code rows (never the codes: the trail is exported)."""
    table_code.active = False
    table_code.save(update_fields=["active"])
    issue_table_codes(table_code.section)
    new = TableCode.objects.get(section=table_code.section, table=table_code.table, active=True)
    AuditEntry.objects.create(
        tournament_id=table_code.section.session.tournament_id,
        session_id=table_code.session_id,
        action=AuditAction.TABLE_CODE,
        user=user,
        table_code=table_code,
        before={"table": table_code.label, "device": table_code.pk},
        after={"table": new.label, "device": new.pk},
        reason=reason,
    )
    return new


@transaction.atomic
def change_movement(section: Section, movement, *, user, reason: str = "") -> list[Seating]:
    """Another movement (e.g. fewer rounds) before the start, keeping the pairs' places when
    the new movement has them all (a session seated by serpentine keeps it), else their order."""
    seated = sorted(
        Seating.objects.filter(section=section).select_related("entry"),
        key=lambda s: (plan.LINE_ORDER[s.direction], s.number),
    )
    before = {
        "movement": section.movement.get("kind"),
        "rounds": plan.round_count(section.movement),
    }
    movement = as_movement_dict(movement)
    places = set(plan.pair_numbers(movement))
    if all((s.number, s.direction) in places for s in seated):
        seatings = seat_section(
            section, movement, [], assignments=[(s.entry, s.number, s.direction) for s in seated]
        )
    else:
        seatings = seat_section(section, movement, [s.entry for s in seated])
    AuditEntry.objects.create(
        tournament_id=section.session.tournament_id,
        session_id=section.session_id,
        action=AuditAction.MOVEMENT,
        user=user,
        before=before,
        after={"movement": movement.get("kind"), "rounds": plan.round_count(movement)},
        reason=reason,
    )
    return seatings


@transaction.atomic
def start_session(session: Session, *, user=None) -> Session:
    """Open the session to the table devices."""
    session = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
    if session.status != SessionStatus.DRAFT:
        raise TournamentError(_("The session has already started."))
    if not Seating.objects.filter(session=session).exists():
        raise TournamentError(_("Seat the entries before starting."))
    session.status, session.started_at = SessionStatus.RUNNING, timezone.now()
    session.save(update_fields=["status", "started_at"])
    Tournament.objects.filter(pk=session.tournament_id, status=TournamentStatus.DRAFT).update(
        status=TournamentStatus.RUNNING
    )
    from tournaments.services.money.table_fees import (  # table money sits beside setup, not under it
        charge_at_start,
    )

    charge_at_start(session, user=user)
    return session


@transaction.atomic
def finish_session(session: Session, *, user=None) -> Session:
    """Close the session to the table devices (the director can still correct)."""
    session = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
    if session.status != SessionStatus.RUNNING:
        raise TournamentError(_("The session is not being played."))
    session.status, session.finished_at = SessionStatus.FINISHED, timezone.now()
    session.save(update_fields=["status", "finished_at"])
    TableCode.objects.filter(session=session).update(active=False)
    return session


# --- changes once seated --------------------------------------------------------------------


def rankings_follow(tournament_id: int) -> None:
    """Who plays and under which names changed: stored rankings of the tournament are redone."""
    from tournaments.services.classification.reclassification import mark_stale

    mark_stale(Tournament(pk=tournament_id))


# --- the director's choice of movement ------------------------------------------------------


@transaction.atomic
def update_tournament(tournament: Tournament, changes: dict) -> Tournament:
    """Save the event's settings; a new session count adds sessions or drops empty ones."""
    changes = dict(changes)
    count = changes.pop("session_count", tournament.session_count)
    if count < 1:
        raise TournamentError(_("A tournament has at least one session."), "session_count")
    extra = tournament.sessions.filter(number__gt=count)
    if (
        extra.exclude(status=SessionStatus.DRAFT).exists()
        or Seating.objects.filter(session__in=extra).exists()
    ):
        raise TournamentError(_("Sessions with seated entries cannot be removed."), "session_count")
    extra.delete()
    have = set(tournament.sessions.values_list("number", flat=True))
    Session.objects.bulk_create(
        Session(tournament=tournament, number=n) for n in range(1, count + 1) if n not in have
    )
    rescored = any(
        field in changes and changes[field] != getattr(tournament, field)
        for field in ("scoring_method", "match_vp_scale", "handicap_ranking")
    )
    for field, value in changes.items():
        setattr(tournament, field, value)
    check_match_vps(
        tournament,
        [
            s.movement
            for s in Section.objects.filter(session__tournament=tournament).exclude(movement={})
        ],
    )
    tournament.session_count = count
    tournament.save()
    if rescored:  # the stored rankings were scored another way
        rankings_follow(tournament.pk)
    return tournament


def check_match_vps(tournament: Tournament, movements: Iterable[dict]) -> None:
    """Refuse VPs per match on the course's 25-VP table for a round it has no column for:
    the table (C03 l.144-161) covers 8 to 48 boards a match, and other counts are not
    defined by the source (scoring-spec §6.3)."""
    from tournaments.models import VPScale
    from tournaments.scoring.vp import COURSE25_BOARDS

    if not tournament.converts_matches_to_vps or tournament.match_vp_scale != VPScale.COURSE25:
        return
    for movement in movements:
        boards = plan.boards_per_round(movement)
        if boards not in COURSE25_BOARDS:
            raise TournamentError(
                _(
                    "The course's 25-VP table has no column for %(boards)s boards a round "
                    "(it has %(columns)s): choose a WBF scale or more boards a round."
                )
                % {"boards": boards, "columns": ", ".join(str(b) for b in COURSE25_BOARDS)},
                "match_vp_scale",
            )

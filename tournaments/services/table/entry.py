"""The one way a result gets written: by a table device (or the director entering for one).

Club Wi-Fi drops, so devices resend. A result is stored once whatever happens: the same
idempotency key from the same device (its table code, or the director) returns the stored
row, and the same key with a different result is refused (``KeyReused``), never dropped; the same line sent with the same content from
another device returns the stored row too; a *different* result for a line that already
has one is kept as a conflict for the director, never written over. A table's first post
of a line is a single INSERT; the database's unique constraints (one effective result per
line, one row per device's key) refuse whatever raced it, after which the write is retried
and takes the careful way: writers of the line serialised by a lock on that line
(``line_write.lock_line``, PostgreSQL; SQLite writes one at a time), which finds the
winner's row.

Every change after the first entry is the director's (``corrections``) and leaves an
``AuditEntry`` (who, when, before, after, why, ``audit_result``); what the table sees of its
round is ``table_round``.
"""

import time
from dataclasses import dataclass

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Board,
    BoardState,
    Direction,
    Entry,
    EntryStatus,
    Result,
    ResultStatus,
    Seating,
    Section,
    TableCode,
)
from tournaments.services.classification import reclassification
from tournaments.services.errors import InvalidResult, KeyReused, NotAllowed
from tournaments.services.setup import individual, plan
from tournaments.services.table import board_states, line_write, play_order
from tournaments.services.table.result_checks import legal_score, scored

RETRIES = 6


@dataclass(frozen=True, slots=True)
class Submission:
    """What happened to a submitted result: ``created``, ``duplicate`` or ``conflict``."""

    outcome: str
    result: Result
    round_stored: int | None = None  # a new result: its round's results stored before it

    @property
    def stored(self) -> bool:
        return self.outcome in ("created", "duplicate")


@dataclass(frozen=True, slots=True)
class Line:
    """A validated traveller line, ready to write."""

    section: Section
    board: Board
    round: int
    table: int
    ns: Entry
    ew: Entry
    south: Entry | None = None  # individual events: ns is North, ew is East
    west: Entry | None = None


# --- scope ----------------------------------------------------------------------------------


def resolve_line(
    section: Section,
    round_number: int,
    table: int,
    board_number: int,
    *,
    table_code: TableCode | None = None,
) -> Line:
    """Check that ``board_number`` is played at ``table`` in ``round_number`` and find the pairs.

    With a table code, the line must be that code's own table in its own session, which
    must be in play: anything else is refused with ``NotAllowed``.
    """
    if table_code is not None:
        if (
            not table_code.active
            or table_code.section_id != section.pk
            or table_code.table != table
        ):
            raise NotAllowed(_("This device can only enter results for its own table."))
        if not section.session.is_running:
            raise NotAllowed(_("This session is not being played."))
    slot = plan.slot_for(section.movement, round_number, table)
    if slot is None:
        raise (NotAllowed if table_code else InvalidResult)(
            _("Table %(table)s does not play round %(round)s.")
            % {"table": table, "round": round_number}
        )
    if board_number - section.board_offset not in slot.boards:
        raise (NotAllowed if table_code else InvalidResult)(
            _("Board %(board)s is not played at table %(table)s in round %(round)s.")
            % {"board": board_number, "table": table, "round": round_number}
        )
    if slot.players is not None:
        north, south, east, west = individual.line_players(section, slot)
        return Line(
            section, _board(section, board_number), round_number, table, north, east, south, west
        )
    directional = plan.is_directional(section.movement)
    wanted = {
        (slot.ns, Direction.NS if directional else Direction.NONE): "ns",
        (slot.ew, Direction.EW if directional else Direction.NONE): "ew",
    }
    found: dict[str, Entry] = {}
    # ``order_by`` here and below: the models' default orderings follow foreign keys (to
    # section, session, tournament), which costs every post a join and its compilation.
    for seating in (
        Seating.objects.filter(section=section, number__in=[slot.ns, slot.ew])
        .select_related("entry")
        .order_by()
    ):
        side = wanted.get((seating.number, seating.direction))
        if side and seating.entry.status == EntryStatus.ACTIVE:
            found[side] = seating.entry
    if len(found) < 2:
        raise InvalidResult(_("A pair is missing at this table this round (sit-out or withdrawn)."))
    return Line(
        section, _board(section, board_number), round_number, table, found["ns"], found["ew"]
    )


def _board(section: Section, board_number: int) -> Board:
    board = first_row(
        Board.objects.filter(session_id=section.session_id, pool=section.pool, number=board_number)
    )
    if board is None:
        raise InvalidResult(
            _("Board %(board)s does not exist in this session.") % {"board": board_number}
        )
    return board


# --- validation (``result_checks``) and comparison ---------------------------------------


def _same_result(row: Result, data: dict) -> bool:
    if any(getattr(row, f) != data[f] for f in ("contract", "declarer", "tricks", "ns_score")):
        return False
    if (row.adjustment or None) != (data.get("adjustment") or None):
        return False
    return not (row.lead and data["lead"] and row.lead != data["lead"])


# --- writing --------------------------------------------------------------------------------


def first_row(queryset):
    """The one row a lookup by a unique key finds, or None: ``first()`` would add an ORDER BY
    (the model's default, following foreign keys), and building it cost a table's post more
    CPU than running the query."""
    return next(iter(queryset.order_by()[:1]), None)


def retrying(write):
    """Run ``write`` again when a concurrent writer won a race (unique constraint, or SQLite's
    "database is locked" under a stale snapshot); the next run finds the winner's row."""
    for attempt in range(RETRIES):
        try:
            return write()
        except IntegrityError:
            if attempt == RETRIES - 1:
                raise
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == RETRIES - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def submit_result(
    *,
    round: int,
    board: int,
    contract: str,
    declarer: str = "",
    tricks: int | None = None,
    lead: str = "",
    idempotency_key: str,
    table_code: TableCode | None = None,
    user=None,
    section: Section | None = None,
    table: int | None = None,
    ns_score: int | None = None,
) -> Submission:
    """Write a played result once.

    A table device passes ``table_code`` (its section and table follow from it); the
    director passes ``user``, ``section`` and ``table`` and may give the traveller's
    ``ns_score`` when it differs from the contract (the number prevails, AEB norm; the
    console flags it).
    """
    if table_code is None and user is None:
        raise NotAllowed(_("Results are entered by a table device or a director."))
    if table_code is not None:
        if section is not None and section.pk != table_code.section_id:
            raise NotAllowed(_("This device can only enter results for its own table."))
        if table is not None and table != table_code.table:
            raise NotAllowed(_("This device can only enter results for its own table."))
        section, table = table_code.section, table_code.table
        if ns_score is not None:
            raise NotAllowed(_("Only the director can enter a score without its contract."))
    if not idempotency_key or len(idempotency_key) > 80:
        raise InvalidResult(_("A result needs an idempotency key (at most 80 characters)."))
    line = resolve_line(section, round, table, board, table_code=table_code)
    if table_code is not None:  # a device posts only for rounds its table has reached
        play_order.refuse_unreached_round(
            section,
            table,
            round,
            replay=Result.objects.filter(_key_scope(line, idempotency_key, table_code, None)),
        )
    data = scored(line.board, contract, declarer, tricks, lead)
    data["adjustment"] = None
    if ns_score is not None:
        data["ns_score"] = legal_score(ns_score)
    confirmed = not section.session.tournament.opponent_confirmation or user is not None
    submission = retrying(lambda: _write(line, data, idempotency_key, table_code, user, confirmed))
    if submission.outcome == "created":
        reclassification.result_posted(
            section.session_id,
            section=section,
            round_number=round,
            stored_before=submission.round_stored,
        )
    return submission


def _write(line: Line, data: dict, key: str, table_code, user, confirmed: bool) -> Submission:
    # A row already stored under this key (the device posts again after losing our answer)
    # and the line's current and conflicting rows, read together: round trips to the
    # database are most of a post's time when forty tables post at once. A key is the
    # device's own (its table code, or the director at this table): another table's key
    # that happens to be equal names another result.
    found = _key_scope(line, key, table_code, user) | Q(
        section=line.section,
        round=line.round,
        board=line.board,
        ns=line.ns,
        ew=line.ew,
        status__in=[ResultStatus.OK, ResultStatus.CONFLICT],
    )
    fields = {
        "section": line.section,
        "board": line.board,
        "round": line.round,
        "table": line.table,
        "ns": line.ns,
        "ew": line.ew,
        "south": line.south,
        "west": line.west,
        "idempotency_key": key,
        "entered_by": user,
        "entered_by_table": table_code,
        "confirmed": confirmed,
        # the state a new row starts in, stored with it (no second write to set it)
        "board_state": BoardState.CONFIRMED if confirmed else BoardState.ENTERED,
        **data,
    }
    if table_code is not None:
        # A table's first post of a line, the usual case, is one INSERT without a lock or a
        # transaction: a racing post of the same line or key makes it fail on a unique
        # constraint, and the retry takes the locked way below and finds the winner's row.
        taken, round_stored = line_write.probe(Result.objects.filter(found), line)
        if not taken:
            created = line_write.insert(lambda: Result.objects.create(**fields))
            return Submission("created", created, round_stored)
    with transaction.atomic():
        # Every writer of this line waits here, so the rows read next include the winner's.
        line_write.lock_line(line)
        rows = list(Result.objects.filter(found).order_by())
        keyed = next((r for r in rows if _in_scope(r, key, line, table_code, user)), None)
        if keyed is not None:
            if not _replay_of(keyed, line, data):
                raise KeyReused(
                    _(
                        "This key was used for another result: nothing was saved. "
                        "Send the result again as a new entry."
                    )
                )
            return Submission(
                "duplicate" if keyed.status == ResultStatus.OK else keyed.status, keyed
            )
        same_line = rows  # no row of this device's key: all are the line's
        effective = next((r for r in same_line if r.status == ResultStatus.OK), None)
        if effective is None:
            created = Result.objects.create(**fields)
            if table_code is None:  # the director typed it in: the trail says who and when
                audit_result(created, AuditAction.ENTERED, user, None, "", "", False)
            return Submission("created", created)
        if _same_result(effective, data):
            return Submission("duplicate", effective)
        for other in same_line:
            if other.status == ResultStatus.CONFLICT and _same_result(other, data):
                return Submission("conflict", other)
        conflict = Result.objects.create(
            **fields
            | {
                "status": ResultStatus.CONFLICT,
                "conflicts_with": effective,
                "confirmed": False,
                "board_state": BoardState.ENTERED,
            }
        )
        AuditEntry.objects.create(
            tournament_id=line.section.session.tournament_id,
            session_id=line.section.session_id,
            result=conflict,
            action=AuditAction.CONFLICT,
            user=user,
            table_code=table_code,
            before=effective.snapshot(),
            after=conflict.snapshot(),
            reason=_("A different result was sent for a line that already had one."),
        )
        return Submission("conflict", conflict)


def _key_scope(line: Line, key: str, table_code, user) -> Q:
    """The rows stored under ``key`` by this device: the key is unique per section, table and
    device (``Result``'s constraints), not site-wide."""
    scope = Q(idempotency_key=key, section=line.section, table=line.table)
    if table_code is not None:
        return scope & Q(entered_by_table=table_code)
    return scope & Q(entered_by=user, entered_by_table__isnull=True)


def _in_scope(row: Result, key: str, line: Line, table_code, user) -> bool:
    if row.idempotency_key != key or row.section_id != line.section.pk or row.table != line.table:
        return False
    if table_code is not None:
        return row.entered_by_table_id == table_code.pk
    return row.entered_by_table_id is None and row.entered_by_id == getattr(user, "pk", None)


def _replay_of(row: Result, line: Line, data: dict) -> bool:
    """Whether ``data`` is what was first stored under ``row``'s key: the same board and round
    and the same result, as the device sent it (before any change the director made since,
    which the trail's first ``before`` keeps)."""
    if (row.round, row.board_id) != (line.round, line.board.pk):
        return False
    if _same_result(row, data):
        return True
    first_change = first_row(
        AuditEntry.objects.filter(
            result=row,
            action__in=[AuditAction.CORRECTED, AuditAction.ADJUSTED, AuditAction.DELETED],
        )
        .exclude(before=None)
        .order_by("at", "id")
    )
    if first_change is None:
        return False
    sent = Result(
        **{
            f: first_change.before.get(f)
            for f in ("contract", "declarer", "tricks", "ns_score", "adjustment")
        },
        lead=first_change.before.get("lead") or "",
    )
    return _same_result(sent, data)


def confirm_result(result: Result, *, table_code: TableCode | None = None, user=None) -> Result:
    """The opponents' second tap (or the director's): marks the result as agreed."""
    if table_code is not None and (
        table_code.section_id != result.section_id
        or table_code.table != result.table
        or not table_code.active
    ):
        raise NotAllowed(_("This device can only confirm results of its own table."))
    with transaction.atomic():
        row = Result.objects.select_for_update(no_key=True).get(pk=result.pk)
        if not row.confirmed:
            before = row.snapshot()
            row.confirmed = True
            by_director = user is not None and table_code is None
            # the opponents' tap is no change: no line in the trail
            save_result(
                row,
                ["confirmed", "modified_at"],
                AuditAction.CONFIRMED if by_director else None,
                user=user,
                before=before,
            )
    return row


# --- the audit trail ------------------------------------------------------------------------


def save_result(
    row: Result,
    fields: list[str] | None,
    action: str | None = None,
    *,
    user=None,
    table_code=None,
    before: dict | None = None,
    reason: str = "",
    law: str = "",
    override: bool = False,
    trail: list | None = None,
) -> None:
    """Save what a writer changed on ``row`` (``fields``; None: every field) with its board
    state, and write its line of the trail (``action``; None: a change the trail does not
    record). One call, so the state is settled for the very line the trail gets: a line by a
    user and no table device is the director's, as ``board_states.trails`` reads it back.
    ``trail``: the row's trail if the writer read it already (``board_states.settle``)."""
    by_director = user is not None and table_code is None
    board_states.settle(row, (action, by_director) if action else None, trail)
    if fields is not None and "board_state" not in fields:
        fields = [*fields, "board_state"]
    row.save(update_fields=fields)
    if action:
        audit_result(row, action, user, before, reason, law, override, table_code=table_code)


def audit_result(
    row: Result,
    action: str,
    user,
    before: dict | None,
    reason: str,
    law: str,
    override: bool,
    table_code=None,
) -> None:
    """One line of the audit trail for a result (entered, confirmed, or a director's change)."""
    AuditEntry.objects.create(
        tournament_id=row.section.session.tournament_id,
        session_id=row.section.session_id,
        result=row,
        action=action,
        user=user,
        table_code=table_code,
        before=before,
        after=row.snapshot(),
        reason=reason,
        law=law,
        override=override,
    )

"""A session's cash sheet: what should come in, what came in by each method, what is
missing, and the secretary's count when she reconciles and closes it.

Expected is the sum of the session's fees (free entries count nothing); collected by method
is the sum of the payments less refunds made in that method; missing is the fees still
unpaid. So expected = collected (all methods) + missing, whatever the order of payments and
refunds. On closing the secretary gives what she counted (cash in the box, the card
terminal's total, transfers received); a count that differs from the records, or fees left
unpaid, need a note. A closed sheet is locked: no payment or refund until she reopens it,
with a reason; both are in the tournament's audit trail. Every write to the session's fees
and every closing or reopening first takes the sheet's lock (``lock``), so a payment cannot
slip in while the sheet is being closed: it waits, then finds the sheet closed. While reopened, the last count is
shown as the previous count (what was in the box then, for the recount), never as this
sheet's count nor compared with records that may have moved since.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, CashSheet, Session, TableFee, TableFeeMove
from tournaments.models import TableMethod as M
from tournaments.services.errors import TournamentError

# PostgreSQL advisory lock class: the money of one session, written by one transaction at a
# time (the two-key form, beside classification's CLASSIFY_LOCK).
CASH_SHEET_LOCK = 6007
ZERO = Decimal("0.00")
CENT = Decimal("0.01")
# The methods a secretary counts: the prepaid balance is the club's own book.
COUNTED = (M.CASH, M.CARD, M.TRANSFER)
COUNT_FIELDS = {M.CASH: "counted_cash", M.CARD: "counted_card", M.TRANSFER: "counted_transfer"}


class SheetLocked(TournamentError):
    """The session's cash sheet is closed: nothing of its fees may change."""


@dataclass
class MethodLine:
    method: str
    label: str
    collected: Decimal
    counted: Decimal | None = None
    # The count of the last closing while the sheet is reopened: what was in the box then,
    # for the recount; not compared with the records that may have moved since.
    previous: Decimal | None = None

    @property
    def difference(self) -> Decimal | None:
        return None if self.counted is None else self.counted - self.collected


@dataclass
class Figures:
    expected: Decimal
    missing: Decimal
    lines: list[MethodLine] = field(default_factory=list)
    players: int = 0
    unpaid: int = 0
    free: int = 0
    reopened: bool = False

    @property
    def collected(self) -> Decimal:
        return sum((line.collected for line in self.lines), ZERO)

    def by_method(self) -> dict[str, Decimal]:
        return {line.method: line.collected for line in self.lines}


def sheet_of(session: Session) -> CashSheet | None:
    return CashSheet.objects.filter(session=session).first()


def is_closed(session: Session) -> bool:
    return CashSheet.objects.filter(session=session, closed_at__isnull=False).exists()


def lock(session_id: int) -> None:
    """Hold the session's money until the transaction ends: one payment, refund, charge,
    closing or reopening at a time. A transaction-level advisory lock on PostgreSQL (the
    sheet row may not exist yet, and the session row is the classification's); SQLite
    writes one transaction at a time and a stale one fails with "locked" and is retried."""
    if not connection.in_atomic_block:
        raise RuntimeError("the cash sheet's lock is held by a transaction")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CASH_SHEET_LOCK, session_id])


def ensure_open(session: Session, *, raise_error: bool = True) -> bool:
    """True while the sheet is open; a closed one raises (or answers False). Takes the
    sheet's lock first, so the answer holds until the caller's transaction ends."""
    lock(session.pk)
    if not is_closed(session):
        return True
    if raise_error:
        raise SheetLocked(
            _(
                "The cash sheet of %(session)s is closed: no payment or refund "
                "can be recorded. The secretary may reopen it, saying why."
            )
            % {"session": session}
        )
    return False


def figures(session: Session) -> Figures:
    """The sheet's figures from the stored fees and moves (three queries)."""
    fees = TableFee.objects.filter(session=session, voided_at__isnull=True)
    expected = (fees.aggregate(s=Sum("amount"))["s"] or ZERO).quantize(CENT)
    missing = (fees.filter(method="").aggregate(s=Sum("amount"))["s"] or ZERO).quantize(CENT)
    moved = dict(
        TableFeeMove.objects.filter(session=session)
        .values("method")
        .annotate(s=Sum("amount"))
        .values_list("method", "s")
    )
    sheet = sheet_of(session)
    closed = bool(sheet and sheet.is_closed)
    lines = []
    for method in M:
        count = getattr(sheet, COUNT_FIELDS[method]) if sheet and method in COUNT_FIELDS else None
        lines.append(
            MethodLine(
                method.value,
                str(method.label),
                (moved.get(method.value) or ZERO).quantize(CENT),
                counted=count if closed else None,
                previous=None if closed else count,
            )
        )
    counts = list(fees.values_list("method", "amount"))
    return Figures(
        expected=expected,
        missing=missing,
        lines=lines,
        players=len(counts),
        unpaid=sum(1 for method, amount in counts if not method and amount > 0),
        free=sum(1 for _method, amount in counts if amount == 0),
        reopened=any(line.previous is not None for line in lines),
    )


def _snapshot(result: Figures) -> dict:
    after = {"expected": str(result.expected), "missing": str(result.missing)}
    for line in result.lines:
        after[line.label] = (
            str(line.collected) if line.counted is None else f"{line.collected} / {line.counted}"
        )
    return after


@transaction.atomic
def close(session: Session, *, counted: dict[str, Decimal], user=None, note: str = "") -> CashSheet:
    """Reconcile and close: store the counts, refuse an unexplained difference."""
    lock(session.pk)
    sheet, _created = CashSheet.objects.select_for_update(no_key=True).get_or_create(
        session=session
    )
    if sheet.is_closed:
        raise SheetLocked(_("This cash sheet is already closed."))
    for method in COUNTED:
        value = counted.get(method)
        if value is None:
            raise TournamentError(
                _("Give what was counted for every method (0 if none)."), field=COUNT_FIELDS[method]
            )
        if value < 0:
            raise TournamentError(
                _("A counted amount cannot be negative."), field=COUNT_FIELDS[method]
            )
    result = figures(session)
    collected = result.by_method()
    differs = [m for m in COUNTED if counted[m] != collected[m]]
    note = (note or "").strip()
    if (differs or result.missing) and not note:
        raise TournamentError(
            _(
                "The count differs from the records or fees are still "
                "unpaid: say why in the note before closing."
            ),
            field="note",
        )
    for method in COUNTED:
        setattr(sheet, COUNT_FIELDS[method], counted[method])
    sheet.note, sheet.closed_at, sheet.closed_by = note, timezone.now(), user
    sheet.save()
    AuditEntry.objects.create(
        tournament_id=session.tournament_id,
        session=session,
        action=AuditAction.CASH_CLOSED,
        user=user,
        after=_snapshot(figures(session)),
        reason=note,
    )
    return sheet


@transaction.atomic
def reopen(session: Session, *, user=None, reason: str = "") -> CashSheet:
    """Unlock a closed sheet; the reason goes to the audit trail with the closed figures."""
    lock(session.pk)
    sheet = CashSheet.objects.select_for_update(no_key=True).filter(session=session).first()
    if sheet is None or not sheet.is_closed:
        raise TournamentError(_("This cash sheet is open already."))
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError(_("Say why the cash sheet is reopened."), field="reason")
    before = _snapshot(figures(session))
    sheet.closed_at = sheet.closed_by = None
    sheet.save(update_fields=["closed_at", "closed_by"])
    AuditEntry.objects.create(
        tournament_id=session.tournament_id,
        session=session,
        action=AuditAction.CASH_REOPENED,
        user=user,
        before=before,
        reason=reason[:1000],
    )
    return sheet

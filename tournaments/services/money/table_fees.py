"""Table fees: who is charged what for a session, marking a fee paid (at the door or from
the entry list), refunding it, and the members' prepaid balances.

Every amount is a ``Decimal`` in cents. A fee is charged once per player and session (a
unique constraint) and paid once: marking it paid is a conditional update that only a fee
still unpaid passes, so two taps, two devices or a resent form store one payment and the
second one is told it was already paid. Nothing moves on a session whose cash sheet the
secretary has closed: every write here takes the sheet's lock first (``cash_sheet.lock``),
the one closing takes, then the member's row when a balance moves (always in that order).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubsite.models import Member, Season, fold
from clubsite.web.collation import collation_key
from tournaments.models import (
    AuditAction,
    AuditEntry,
    BalanceKind,
    BalanceMove,
    EntryPlayer,
    EntryStatus,
    FeeCategory,
    Seating,
    Session,
    TableFee,
    TableFeeMove,
    TableFeeRates,
    TableMethod,
)
from tournaments.services.errors import TournamentError
from tournaments.services.money.cash_sheet import ensure_open, lock
from tournaments.services.table.entry import retrying

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# What a top-up may be paid with (a balance is not topped up from itself).
TOP_UP_METHODS = (TableMethod.CASH, TableMethod.CARD, TableMethod.TRANSFER)


class MoneyError(TournamentError):
    """A payment, refund or top-up the rules refuse; the message says why."""


def shown(amount: Decimal) -> str:
    """An amount as the reader's language writes it ("5,50" in Spanish, "5.50" in English)."""
    return number_format(amount, 2)


def cents(amount) -> Decimal:
    """``amount`` as a Decimal of whole cents, or a MoneyError saying what is wrong."""
    if not isinstance(amount, Decimal):
        try:
            amount = Decimal(str(amount).strip().replace(",", "."))
        except ArithmeticError:
            raise MoneyError(
                _("Give the amount as a number, such as 5.50."), field="amount"
            ) from None
    if not amount.is_finite():
        raise MoneyError(_("Give the amount as a number, such as 5.50."), field="amount")
    if amount != amount.quantize(CENT):
        raise MoneyError(
            _("Give the amount in whole cents (two decimals at most)."), field="amount"
        )
    return amount.quantize(CENT)


# --- rates and charges ------------------------------------------------------------------------


def rates_for(season: Season) -> TableFeeRates:
    rates, _created = TableFeeRates.objects.get_or_create(season=season)
    return rates


def stored_rates(season: Season) -> TableFeeRates:
    """The season's rates as stored, or unsaved zero rates when none were set (a read)."""
    return TableFeeRates.objects.filter(season=season).first() or TableFeeRates(season=season)


def season_of(session: Session) -> Season:
    return Season.for_date(session.tournament.date)


def category_of(member: Member, rates: TableFeeRates, *, free=None, junior=None) -> str:
    """Guests pay the guest fee; a category whose membership includes the table plays free;
    junior categories pay the junior fee; everyone else the member fee. ``free`` and
    ``junior`` (sets of category ids) spare the queries when charging many players."""
    if member.is_guest:
        return FeeCategory.GUEST
    free = set(rates.free_categories.values_list("pk", flat=True)) if free is None else free
    junior = set(rates.junior_categories.values_list("pk", flat=True)) if junior is None else junior
    if member.category_id in free:
        return FeeCategory.FREE
    if member.category_id in junior:
        return FeeCategory.JUNIOR
    return FeeCategory.MEMBER


def amount_for(category: str, rates: TableFeeRates) -> Decimal:
    return {
        FeeCategory.MEMBER: rates.member_fee,
        FeeCategory.GUEST: rates.guest_fee,
        FeeCategory.JUNIOR: rates.junior_fee,
        FeeCategory.FREE: ZERO,
    }[category]


def session_players(session: Session) -> list[Member]:
    """The members playing ``session``: the active players of its active entries, only
    those seated in it once it has seatings (a later session without a pair that left)."""
    players = EntryPlayer.objects.filter(
        entry__tournament_id=session.tournament_id, entry__status=EntryStatus.ACTIVE, active=True
    )
    if Seating.objects.filter(session=session).exists():
        players = players.filter(entry__seatings__session=session)
    members = {p.member_id: p.member for p in players.select_related("member")}
    return sorted(
        members.values(),
        key=lambda m: (collation_key(m.last_name), collation_key(m.first_name), m.pk),
    )


@dataclass(frozen=True)
class Pending:
    """How the stored fees differ from who plays (read only: the door list shows it and
    offers the update): players with no fee yet, and unpaid fees of players who left."""

    new: tuple[Member, ...]
    gone: tuple[TableFee, ...]

    def __bool__(self) -> bool:
        return bool(self.new or self.gone)


def session_fees(session: Session) -> list[TableFee]:
    """The session's fees in force (cancelled ones aside): what the door list shows."""
    return list(
        TableFee.objects.filter(session=session, voided_at__isnull=True).select_related("member")
    )


def pending(session: Session, fees: list[TableFee] | None = None) -> Pending:
    """What ``charge_session`` would change now; nothing is written."""
    if fees is None:
        fees = session_fees(session)
    players = session_players(session)
    playing = {m.pk for m in players}
    charged = {f.member_id for f in fees}
    voided = set(
        TableFee.objects.filter(session=session, voided_at__isnull=False).values_list(
            "member_id", flat=True
        )
    )
    return Pending(
        tuple(m for m in players if m.pk not in charged or m.pk in voided),
        tuple(f for f in fees if f.member_id not in playing and not f.is_paid),
    )


@transaction.atomic
def charge_session(session: Session, *, user=None) -> list[TableFee]:
    """Bring the session's fees in line with who plays, when that changes for the door
    (the session starts, the director updates the list): a fee for each new player at the
    season's rate for their category. The unpaid fee of a player no longer in it is
    dropped if no money ever moved on it, otherwise cancelled and kept with its payments
    and refunds (the cash sheet's history); a player who comes back has it charged again.
    A paid fee stays until refunded; a closed sheet is left as it is. Every cancellation
    and restoration is in the audit trail."""
    if not ensure_open(session, raise_error=False):
        return session_fees(session)
    fees = list(TableFee.objects.filter(session=session).select_related("member"))
    rates = rates_for(season_of(session))
    players = session_players(session)
    playing = {m.pk for m in players}
    moved = set(TableFeeMove.objects.filter(session=session).values_list("fee_id", flat=True))
    now = timezone.now()
    for fee in fees:
        if fee.member_id in playing or fee.is_paid or fee.voided_at is not None:
            continue
        if fee.pk not in moved:
            TableFee.objects.filter(pk=fee.pk, method="").exclude(
                pk__in=TableFeeMove.objects.filter(fee_id=fee.pk).values("fee_id")
            ).delete()
        elif TableFee.objects.filter(pk=fee.pk, method="", voided_at__isnull=True).update(
            voided_at=now
        ):
            _audit_fee(
                session,
                fee,
                AuditAction.FEE_VOIDED,
                user,
                _("%(name)s no longer plays this session: the fee is cancelled, its payments kept.")
                % {"name": fee.member.full_name},
            )
    for fee in fees:
        if (
            fee.member_id in playing
            and fee.voided_at is not None
            and TableFee.objects.filter(pk=fee.pk, voided_at__isnull=False).update(voided_at=None)
        ):
            _audit_fee(
                session,
                fee,
                AuditAction.FEE_RESTORED,
                user,
                _("%(name)s plays this session again: the fee is due again.")
                % {"name": fee.member.full_name},
            )
    charged = {f.member_id for f in fees}
    free = set(rates.free_categories.values_list("pk", flat=True))
    junior = set(rates.junior_categories.values_list("pk", flat=True))
    for member in players:
        if member.pk not in charged:
            category = category_of(member, rates, free=free, junior=junior)
            TableFee.objects.get_or_create(
                session=session,
                member=member,
                defaults={"category": category, "amount": amount_for(category, rates)},
            )
    return session_fees(session)


def charge_at_start(session: Session, *, user=None) -> None:
    """The session starts: the door list is charged with who plays, when the club charges
    table fees this season (some rate above zero); later entries wait for the director's
    update of the door list, which says how many there are."""
    rates = TableFeeRates.objects.filter(season=season_of(session)).first()
    if rates and (rates.member_fee > 0 or rates.guest_fee > 0 or rates.junior_fee > 0):
        charge_session(session, user=user)


def _audit_fee(session: Session, fee: TableFee, action: str, user, reason: str) -> None:
    AuditEntry.objects.create(
        tournament_id=session.tournament_id,
        session_id=session.pk,
        action=action,
        user=user,
        reason=reason[:500],
        after={"player": fee.member.full_name, "amount": str(fee.amount)},
    )


def door_filter(
    fees: list[TableFee], *, query: str = "", unpaid_only: bool = False
) -> list[TableFee]:
    """The door list narrowed for a busy night: ``unpaid_only`` keeps the fees still due;
    ``query`` keeps players whose name holds every word typed, accents and case aside
    ("fernan luc" finds Lucía Fernández)."""
    words = fold(query).split()
    kept = []
    for fee in fees:
        if unpaid_only and not fee.is_due:
            continue
        name = fold(f"{fee.member.first_name} {fee.member.last_name}")
        if all(word in name for word in words):
            kept.append(fee)
    return kept


# --- paying and refunding ---------------------------------------------------------------------


def balance_of(member: Member | int) -> Decimal:
    member_id = member if isinstance(member, int) else member.pk
    total = BalanceMove.objects.filter(member_id=member_id).aggregate(s=Sum("amount"))["s"]
    return (total or ZERO).quantize(CENT)


def balances_of(member_ids) -> dict[int, Decimal]:
    """Several members' balances in one query (members with no line hold 0.00)."""
    ids = list(member_ids)
    sums = dict(
        BalanceMove.objects.filter(member_id__in=ids)
        .values("member_id")
        .annotate(s=Sum("amount"))
        .values_list("member_id", "s")
    )
    return {i: (sums.get(i) or ZERO).quantize(CENT) for i in ids}


def _lock_member(member_id: int) -> None:
    """Serialise every change to one member's balance (a row lock on PostgreSQL; SQLite
    writes one transaction at a time anyway)."""
    list(Member.objects.select_for_update(no_key=True).filter(pk=member_id).values_list("pk"))


def _method_label(method: str) -> str:
    return str(TableMethod(method).label) if method in TableMethod.values else method


def pay(fee: TableFee, method: str, *, user=None) -> TableFee:
    """Mark ``fee`` paid by ``method``; from the prepaid balance when the method says so.
    A write that lost a race to another device is run again, and then finds it paid."""
    if method not in TableMethod.values:
        raise MoneyError(_("Choose how the fee was paid."), field="method")
    return retrying(lambda: _pay(fee, method, user))


@transaction.atomic
def _pay(fee: TableFee, method: str, user) -> TableFee:
    lock(fee.session_id)  # before reading the fee: what is read then holds until the commit
    fee = TableFee.objects.select_related("member", "session__tournament").get(pk=fee.pk)
    ensure_open(fee.session)
    name = fee.member.full_name
    if fee.is_paid:
        raise MoneyError(
            _("%(name)s's table fee is already paid (%(method)s); it was not recorded twice.")
            % {"name": name, "method": _method_label(fee.method)}
        )
    if fee.voided_at is not None:
        raise MoneyError(
            _("%(name)s's table fee was cancelled: they no longer play this session.")
            % {"name": name}
        )
    if fee.amount <= 0:
        raise MoneyError(
            _(
                "%(name)s has nothing to pay for this session (a free entry, or no table fee set for their category)."
            )
            % {"name": name}
        )
    if method == TableMethod.PREPAID:
        _lock_member(fee.member_id)
        balance = balance_of(fee.member_id)
        allowed = rates_for(season_of(fee.session)).overdraft_allowed
        if balance - fee.amount < 0 and not allowed:
            raise MoneyError(
                _(
                    "%(name)s's prepaid balance is %(balance)s, less than the fee "
                    "of %(amount)s; the club does not let balances go below zero. "
                    "Take another method or top the balance up first."
                )
                % {"name": name, "balance": shown(balance), "amount": shown(fee.amount)}
            )
    now = timezone.now()
    marked = TableFee.objects.filter(pk=fee.pk, method="", voided_at__isnull=True).update(
        method=method, paid_at=now, paid_by=user
    )
    if not marked:  # someone else marked it between our read and our write
        fee.refresh_from_db()
        raise MoneyError(
            _("%(name)s's table fee is already paid (%(method)s); it was not recorded twice.")
            % {"name": name, "method": _method_label(fee.method)}
        )
    TableFeeMove.objects.create(
        fee=fee, session_id=fee.session_id, method=method, amount=fee.amount, user=user
    )
    if method == TableMethod.PREPAID:
        BalanceMove.objects.create(
            member_id=fee.member_id,
            kind=BalanceKind.TABLE_FEE,
            amount=-fee.amount,
            fee=fee,
            user=user,
            note=str(fee.session)[:200],
        )
    AuditEntry.objects.create(
        tournament_id=fee.session.tournament_id,
        session_id=fee.session_id,
        action=AuditAction.FEE_PAID,
        user=user,
        after={"player": name, "amount": str(fee.amount), "method": _method_label(method)},
    )
    fee.refresh_from_db()
    return fee


def refund(fee: TableFee, *, user=None, reason: str = "") -> TableFee:
    """Undo a payment (a mistaken tap, money given back): the fee is due again; a fee paid
    from the prepaid balance goes back to it."""
    return retrying(lambda: _refund(fee, user, reason))


@transaction.atomic
def _refund(fee: TableFee, user, reason: str) -> TableFee:
    lock(fee.session_id)
    fee = TableFee.objects.select_related("member", "session__tournament").get(pk=fee.pk)
    ensure_open(fee.session)
    name = fee.member.full_name
    method = fee.method
    if not method:
        raise MoneyError(
            _("%(name)s's table fee is not paid: there is nothing to refund.") % {"name": name}
        )
    if method == TableMethod.PREPAID:
        _lock_member(fee.member_id)
    undone = TableFee.objects.filter(pk=fee.pk, method=method).update(
        method="", paid_at=None, paid_by=None
    )
    if not undone:
        raise MoneyError(
            _("%(name)s's table fee changed meanwhile; look at it again.") % {"name": name}
        )
    TableFeeMove.objects.create(
        fee=fee, session_id=fee.session_id, method=method, amount=-fee.amount, user=user
    )
    if method == TableMethod.PREPAID:
        BalanceMove.objects.create(
            member_id=fee.member_id,
            kind=BalanceKind.REFUND,
            amount=fee.amount,
            fee=fee,
            user=user,
            note=str(fee.session)[:200],
        )
    AuditEntry.objects.create(
        tournament_id=fee.session.tournament_id,
        session_id=fee.session_id,
        action=AuditAction.FEE_REFUND,
        user=user,
        reason=reason[:500],
        before={"player": name, "amount": str(fee.amount), "method": _method_label(method)},
    )
    fee.refresh_from_db()
    return fee


@transaction.atomic
def top_up(member: Member, amount, method: str, *, user=None, note: str = "") -> BalanceMove:
    """The secretary records money a member leaves with the club for their table fees."""
    amount = cents(amount)
    if amount <= 0:
        raise MoneyError(_("The amount must be greater than zero."), field="amount")
    if amount >= Decimal("100000"):
        raise MoneyError(_("That amount is too large for a top-up."), field="amount")
    if method not in TOP_UP_METHODS:
        raise MoneyError(
            _("Choose how the top-up was paid: cash, card or transfer."), field="method"
        )
    _lock_member(member.pk)
    return BalanceMove.objects.create(
        member=member,
        kind=BalanceKind.TOP_UP,
        amount=amount,
        method=method,
        user=user,
        note=note[:200],
    )


def unpaid_fees(member: Member | None = None):
    """Fees still to pay (free entries owe nothing), oldest session first."""
    fees = (
        TableFee.objects.filter(method="", amount__gt=0, voided_at__isnull=True)
        .select_related("member", "session__tournament")
        .order_by("session__tournament__date", "session__number", "member__last_name")
    )
    return fees.filter(member=member) if member is not None else fees


@dataclass
class DebtPayment:
    """What ``pay_debts_from_balance`` did: the fees it paid and why it left the others."""

    paid: list[TableFee]
    left: list[tuple[TableFee, str]]


def pay_debts_from_balance(member: Member, *, user=None) -> DebtPayment:
    """Pay ``member``'s unpaid table fees from their prepaid balance, oldest first, as far as
    the balance goes (never below zero here, whatever the club allows at the door). A fee
    whose cash sheet is closed, or that the balance no longer covers, is left with the
    reason; each payment is the door's "prepaid" one (``pay``), audited the same way."""
    paid: list[TableFee] = []
    left: list[tuple[TableFee, str]] = []
    for fee in unpaid_fees(member):
        if balance_of(member) < fee.amount:
            left.append((fee, _("the balance does not cover it")))
            continue
        try:
            paid.append(pay(fee, TableMethod.PREPAID, user=user))
        except TournamentError as error:
            left.append((fee, str(error)))
    return DebtPayment(paid, left)

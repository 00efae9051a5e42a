"""The secretary's operations on members, licences and payments; each owns its transaction."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import (
    Case,
    CharField,
    DateField,
    DecimalField,
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubsite.models import (
    Club,
    Fee,
    FeeKind,
    Licence,
    LicenceStatus,
    Member,
    MemberStatus,
    Payment,
    Season,
    fold,
)


class LicenceState:
    """A member's licence standing for a season, derived in the database so lists can filter it."""

    VALID = "valid"
    IN_PROGRESS = "in_progress"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    NONE = "none"
    CHOICES = [
        (VALID, _("Valid")),
        (IN_PROGRESS, _("Requested")),
        (EXPIRED, _("Expired")),
        (CANCELLED, _("Cancelled")),
        (NONE, _("Never licensed")),
    ]
    LABELS = dict(CHOICES)


CENT = Decimal("0.01")

# The statuses of a licence the member actually held: the federation granted it.
HELD = (LicenceStatus.ACTIVE, LicenceStatus.EXPIRED)


def members_with_licence_state(season: Season, queryset: QuerySet | None = None) -> QuerySet:
    """Members annotated with ``licence_state`` and ``licence_status`` for ``season``.

    One query whatever the number of members: the state is a CASE over two subqueries.
    Without a licence for ``season`` a member is "expired" only if they held one before
    (active or expired): a request cancelled or never granted leaves them never licensed.
    """
    queryset = Member.objects.all() if queryset is None else queryset
    this_season = Licence.objects.filter(member=OuterRef("pk"), season=season)
    earlier = Licence.objects.filter(
        member=OuterRef("pk"), season__start__lt=season.start, status__in=HELD
    )
    return (
        queryset.select_related("category")
        .annotate(
            licence_status=Subquery(this_season.values("status")[:1]),
            had_licence=Exists(earlier),
        )
        .annotate(
            licence_state=Case(
                When(licence_status=LicenceStatus.ACTIVE, then=Value(LicenceState.VALID)),
                When(
                    licence_status__in=[LicenceStatus.PENDING, LicenceStatus.REQUESTED],
                    then=Value(LicenceState.IN_PROGRESS),
                ),
                When(licence_status=LicenceStatus.CANCELLED, then=Value(LicenceState.CANCELLED)),
                When(licence_status=LicenceStatus.EXPIRED, then=Value(LicenceState.EXPIRED)),
                When(had_licence=True, then=Value(LicenceState.EXPIRED)),
                default=Value(LicenceState.NONE),
                output_field=CharField(),
            )
        )
    )


def members_without_valid_licence(season: Season) -> QuerySet:
    """Active club members (not guests) with no active licence for ``season``."""
    valid = Licence.objects.filter(
        member=OuterRef("pk"), season=season, status=LicenceStatus.ACTIVE
    )
    return Member.objects.filter(status=MemberStatus.ACTIVE, is_guest=False).exclude(Exists(valid))


def fee_for(season: Season, kind: str, category, on: datetime.date | None = None) -> Decimal:
    """What ``category`` pays for ``kind`` in ``season`` for a charge made on ``on``.

    The line in force that day (the latest applying by then), so a fee changed mid-season
    reaches only the charges made after the change; before the season (an early renewal)
    or with no day given, the season's first line. No line, no category: nothing.
    """
    if category is None:
        return Decimal("0")
    lines = Fee.objects.filter(season=season, kind=kind, category=category)
    fee = lines.filter(effective_from__lte=on or season.start).order_by("-effective_from").first()
    fee = fee or lines.order_by("effective_from").first()
    return fee.amount if fee else Decimal("0")


def _licence_payments(member: Member, season: Season) -> Decimal:
    total = Payment.objects.filter(member=member, season=season, kind=FeeKind.LICENCE).aggregate(
        total=Sum("amount")
    )["total"]
    return total or Decimal("0")


@transaction.atomic
def renew_licence(member: Member, season: Season) -> Licence:
    """Ask the federation for ``member``'s licence in ``season`` (status "requested").

    A licence already active or requested is left as it is; an expired or cancelled one
    for that season is requested again, a new charge: the member's category and the fee in
    force today. The fee comes from the season's schedule; licence payments already made
    for the season count towards it (paid in advance is paid).
    """
    today = timezone.localdate()
    licence, created = Licence.objects.select_for_update(no_key=True).get_or_create(
        member=member,
        season=season,
        defaults={
            "federation": Club.current().federation,
            "number": member.licence_number,
            "category": member.category,
            "status": LicenceStatus.REQUESTED,
            "requested_on": today,
            "valid_from": season.start,
            "valid_until": season.end,
            "fee": fee_for(season, FeeKind.LICENCE, member.category, on=today),
        },
    )
    if not created and licence.status in (LicenceStatus.EXPIRED, LicenceStatus.CANCELLED):
        licence.status = LicenceStatus.REQUESTED
        licence.requested_on = today
        licence.category = member.category
        licence.number = member.licence_number or licence.number
        licence.fee = fee_for(season, FeeKind.LICENCE, member.category, on=today)
        created = True
    if created:
        licence.paid = _licence_payments(member, season) >= licence.fee
        licence.save()
    return licence


def renewal_refusal(member: Member) -> str | None:
    """Why the secretary cannot renew ``member``'s licence from the club's pages, or None.

    Without a category the season's schedule has no fee for them: the licence would read
    "fee 0.00, paid" although nobody knows what they owe. (The federation's own batch and
    imports may still record such a licence; the pages ask for the category first.)
    """
    if member.category_id is None:
        return _(
            "Choose a category for %(member)s before renewing the licence: the fee depends on it."
        ) % {"member": member.full_name}
    return None


RENEWABLE = (LicenceStatus.EXPIRED, LicenceStatus.CANCELLED)


def can_renew(member: Member, licence: Licence | None) -> bool:
    """Whether the member page offers "Renew": no licence for the season yet, or one that
    lapsed (requested, pending or active: renewing again would change nothing)."""
    return licence is None or licence.status in RENEWABLE


@transaction.atomic
def renew_licences(members, season: Season) -> list[Licence]:
    """Bulk renewal: every member given gets a licence request for ``season``."""
    return [renew_licence(member, season) for member in members]


def members_to_renew(season: Season) -> QuerySet:
    """Who the bulk renewal for ``season`` proposes: active, non-guest members licensed the
    season before, not yet requested for ``season``."""
    previous = season.previous()
    return (
        Member.objects.filter(
            status=MemberStatus.ACTIVE,
            is_guest=False,
            category__isnull=False,  # without one there is no fee: renewed one by one, later
            licences__season=previous,
            licences__status__in=HELD,
        )
        .exclude(licences__season=season)
        .distinct()
    )


@transaction.atomic
def record_payment(
    *,
    member: Member,
    season: Season,
    kind: str,
    amount: Decimal,
    method: str,
    paid_on: datetime.date,
    recorded_by=None,
    note: str = "",
) -> Payment:
    """Store a payment; a licence payment that covers the licence fee marks it paid.

    The amount must be positive and in cents: a refund is not a payment, and a third
    decimal would be rounded differently by each database.
    """
    amount = amount if isinstance(amount, Decimal) else Decimal(str(amount))
    if not amount > 0:
        raise ValidationError(_("The amount must be greater than zero."), code="not_positive")
    if amount != amount.quantize(CENT):
        raise ValidationError(
            _("Give the amount in whole cents (two decimals at most)."), code="sub_cent"
        )
    payment = Payment.objects.create(
        member=member,
        season=season,
        kind=kind,
        amount=amount,
        method=method,
        paid_on=paid_on,
        recorded_by=recorded_by,
        note=note,
    )
    if kind == FeeKind.LICENCE:
        licence = (
            Licence.objects.select_for_update(no_key=True)
            .filter(member=member, season=season)
            .first()
        )
        if licence is not None and not licence.paid:
            if _licence_payments(member, season) >= licence.fee:
                licence.paid = True
                licence.save(update_fields=["paid"])
    return payment


@dataclass(frozen=True)
class Arrear:
    member: Member
    due: Decimal
    paid: Decimal

    @property
    def balance(self) -> Decimal:
        return self.due - self.paid


def arrears(season: Season) -> list[Arrear]:
    """Active members who owe money for ``season``: membership fee of their category plus
    the fee of any licence requested for that season, less what they paid. One query.

    Membership is charged on the season's first day, or the day a member joined during it,
    at the fee line in force that day (``fee_for``); a licence at the fee stored when it
    was requested.
    """
    money = DecimalField(max_digits=10, decimal_places=2)
    lines = Fee.objects.filter(
        season=season, kind=FeeKind.MEMBERSHIP, category=OuterRef("category")
    )
    in_force = (
        lines.filter(effective_from__lte=OuterRef("charged_on"))
        .order_by("-effective_from")
        .values("amount")[:1]
    )
    first_line = lines.order_by("effective_from").values("amount")[:1]
    licence_fee = (
        Licence.objects.filter(member=OuterRef("pk"), season=season)
        .exclude(status=LicenceStatus.CANCELLED)
        .values("fee")[:1]
    )
    paid = (
        Payment.objects.filter(member=OuterRef("pk"), season=season)
        .values("member")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    start = Value(season.start, output_field=DateField())
    members = (
        Member.objects.filter(status=MemberStatus.ACTIVE, is_guest=False)
        .select_related("category")
        .annotate(charged_on=Greatest(Coalesce("joined_on", start), start))
        .annotate(
            due_membership=Coalesce(
                Subquery(in_force), Subquery(first_line), Value(Decimal("0")), output_field=money
            ),
            due_licence=Coalesce(Subquery(licence_fee), Value(Decimal("0")), output_field=money),
            paid_total=Coalesce(Subquery(paid), Value(Decimal("0")), output_field=money),
        )
    )
    result = []
    for member in members:
        due = member.due_membership + member.due_licence
        if due > member.paid_total:
            result.append(Arrear(member, due, member.paid_total))
    return result


def search_members(queryset: QuerySet, text: str) -> QuerySet:
    """Accent- and case-insensitive match on names and licence number, every word required.
    A NUL is no part of any name (and PostgreSQL refuses it in a query): it is dropped."""
    for word in fold(text.replace("\x00", "")).split():
        queryset = queryset.filter(Q(search_text__contains=word))
    return queryset

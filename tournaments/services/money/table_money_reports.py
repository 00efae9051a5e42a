"""Reports on table money: a season's or a month's sessions with what each should have
brought in, what came in by method and what is missing; the top-ups of the period; and
the unpaid fees per member. Rows are plain lists, ready for a page, a CSV or a workbook.
"""

from __future__ import annotations

import calendar
import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.utils.translation import gettext as _

from clubsite.models import Member, Season
from clubsite.web.collation import collation_key
from tournaments.models import BalanceKind, BalanceMove, CashSheet, Session, TableFee, TableFeeMove
from tournaments.models import TableMethod as M

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


def money(value) -> Decimal:
    """A sum from the database as cents (SQLite gives 13 for 13.00)."""
    return (value or ZERO).quantize(CENT)


@dataclass
class Period:
    start: datetime.date
    end: datetime.date
    label: str
    slug: str


def season_period(season: Season) -> Period:
    return Period(season.start, season.end, str(season), f"season-{season.name}")


def month_period(year: int, month: int) -> Period:
    last = calendar.monthrange(year, month)[1]
    return Period(
        datetime.date(year, month, 1),
        datetime.date(year, month, last),
        f"{year}-{month:02d}",
        f"{year}-{month:02d}",
    )


@dataclass
class SessionRow:
    session: Session
    players: int
    expected: Decimal
    missing: Decimal
    by_method: dict[str, Decimal]
    closed: bool

    @property
    def collected(self) -> Decimal:
        return sum(self.by_method.values(), ZERO)


@dataclass
class Report:
    period: Period
    rows: list[SessionRow] = field(default_factory=list)
    top_ups: dict[str, Decimal] = field(default_factory=dict)

    def total(self, name: str) -> Decimal:
        return sum((getattr(row, name) for row in self.rows), ZERO)

    def total_method(self, method: str) -> Decimal:
        return sum((row.by_method.get(method, ZERO) for row in self.rows), ZERO)

    @property
    def top_up_total(self) -> Decimal:
        return sum(self.top_ups.values(), ZERO)


def report(period: Period) -> Report:
    """The period's sessions (by their tournament's day) that charged table fees; four
    queries whatever the number of sessions."""
    in_period = Q(tournament__date__gte=period.start, tournament__date__lte=period.end)
    sessions = list(
        Session.objects.filter(in_period, table_fees__isnull=False)
        .distinct()
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id", "number")
    )
    ids = [s.pk for s in sessions]
    fees = {
        row["session"]: row
        for row in TableFee.objects.filter(session__in=ids, voided_at__isnull=True)
        .values("session")
        .annotate(
            players=Count("id"), expected=Sum("amount"), missing=Sum("amount", filter=Q(method=""))
        )
    }
    moves: dict[int, dict[str, Decimal]] = {}
    for row in (
        TableFeeMove.objects.filter(session__in=ids)
        .values("session", "method")
        .annotate(s=Sum("amount"))
    ):
        moves.setdefault(row["session"], {})[row["method"]] = row["s"]
    closed = set(
        CashSheet.objects.filter(session__in=ids, closed_at__isnull=False).values_list(
            "session", flat=True
        )
    )
    result = Report(period)
    for session in sessions:
        got = fees.get(session.pk, {})
        result.rows.append(
            SessionRow(
                session=session,
                players=got.get("players", 0),
                expected=money(got.get("expected")),
                missing=money(got.get("missing")),
                by_method={m.value: money(moves.get(session.pk, {}).get(m.value)) for m in M},
                closed=session.pk in closed,
            )
        )
    for method, total in (
        BalanceMove.objects.filter(
            kind=BalanceKind.TOP_UP, at__date__gte=period.start, at__date__lte=period.end
        )
        .values("method")
        .annotate(s=Sum("amount"))
        .values_list("method", "s")
    ):
        result.top_ups[method] = money(total)
    return result


def sessions_in(period: Period) -> list[Session]:
    """Every session of the period, with ``sheet_closed`` set, for the secretary to open its
    cash sheet (charged or not yet)."""
    closed = CashSheet.objects.filter(session=OuterRef("pk"), closed_at__isnull=False)
    return list(
        Session.objects.filter(tournament__date__gte=period.start, tournament__date__lte=period.end)
        .annotate(sheet_closed=Exists(closed))
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id", "number")
    )


def header() -> list[str]:
    return [
        _("Date"),
        _("Tournament"),
        _("Session"),
        _("Players"),
        _("Expected"),
        *[str(m.label) for m in M],
        _("Collected"),
        _("Missing"),
        _("Cash sheet"),
    ]


def table(rep: Report) -> list[list]:
    """The report as rows of cells (amounts stay Decimal: a workbook keeps them numbers)."""
    rows = []
    for row in rep.rows:
        rows.append(
            [
                row.session.tournament.date.isoformat(),
                row.session.tournament.name,
                row.session.number,
                row.players,
                row.expected,
                *[row.by_method[m.value] for m in M],
                row.collected,
                row.missing,
                _("closed") if row.closed else _("open"),
            ]
        )
    rows.append(
        [
            _("Total"),
            "",
            "",
            sum(r.players for r in rep.rows),
            rep.total("expected"),
            *[rep.total_method(m.value) for m in M],
            rep.total("collected"),
            rep.total("missing"),
            "",
        ]
    )
    for method in M:
        if method.value in rep.top_ups:
            rows.append(
                [
                    _("Top-ups"),
                    str(method.label),
                    "",
                    "",
                    "",
                    *["" for _m in M],
                    rep.top_ups[method.value],
                    "",
                    "",
                ]
            )
    return rows


@dataclass
class Debtor:
    member: Member
    fees: list[TableFee]

    @property
    def total(self) -> Decimal:
        return sum((f.amount for f in self.fees), ZERO)


def debtors(fees) -> list[Debtor]:
    """Unpaid fees grouped by member, who owes most first."""
    grouped: dict[int, Debtor] = {}
    for fee in fees:
        grouped.setdefault(fee.member_id, Debtor(fee.member, [])).fees.append(fee)
    return sorted(
        grouped.values(),
        key=lambda d: (
            -d.total,
            collation_key(d.member.last_name),
            collation_key(d.member.first_name),
        ),
    )


def debtor_header() -> list[str]:
    return [_("Last name"), _("First name"), _("Fees unpaid"), _("Owed"), _("Sessions")]


def debtor_table(rows: list[Debtor]) -> list[list]:
    return [
        [
            d.member.last_name,
            d.member.first_name,
            len(d.fees),
            d.total,
            "; ".join(
                f"{f.session.tournament.date.isoformat()} {f.session.tournament.name} "
                f"({f.session.number})"
                for f in d.fees
            ),
        ]
        for d in rows
    ]

"""Table money for the secretary (the season's rates, prepaid balances and top-ups, the
reports per season and month, unpaid fees per member) and for a player (their own
balance and unpaid fees)."""

from decimal import Decimal

from django.contrib import messages
from django.db.models import Sum
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import login_required, secretary_required
from clubsite.members.exports import csv_response, separator_for, xlsx_response
from clubsite.models import Member, Season
from clubsite.web.collation import collated
from clubsite.web.params import int_param
from tournaments.forms.director import add_service_error
from tournaments.forms.money import PeriodForm, RatesForm, TopUpForm
from tournaments.models import BalanceMove
from tournaments.services.errors import TournamentError
from tournaments.services.money import table_fees
from tournaments.services.money import table_money_reports as reports


@secretary_required
def rates(request):
    """A season's table fees by category, who plays free, and the overdraft rule."""
    season = get_object_or_404(Season, pk=int_param(request.GET, "season") or Season.current().pk)
    # Stored only by a valid save: reading the page or a refused form leaves no row.
    form = RatesForm(request.POST or None, instance=table_fees.stored_rates(season))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Table fees saved."))
        return redirect(f"{request.path}?season={season.pk}")
    return render(
        request,
        "tournaments/money/rates.html",
        {"form": form, "season": season, "seasons": Season.objects.all()},
        status=400 if form.errors else 200,
    )


def _period(request):
    form = PeriodForm(request.GET or None, initial={"season": Season.current()})
    if form.is_bound and form.is_valid():
        month = form.cleaned_data["month"]
        if month:
            return form, reports.month_period(*month)
        season = form.cleaned_data["season"] or Season.current()
        return form, reports.season_period(season)
    return form, reports.season_period(Season.current())


@secretary_required
def report(request):
    form, period = _period(request)
    rep = reports.report(period)
    return render(
        request,
        "tournaments/money/report.html",
        {
            "form": form,
            "report": rep,
            "header": reports.header(),
            "rows": reports.table(rep),
            "sessions": reports.sessions_in(period),
            "query": request.GET.urlencode(),
        },
        status=400 if form.errors else 200,
    )


def _spreadsheet_numbers(request, rows):
    """Amounts with the decimal comma where the file's cells are split by ";" (Spanish and
    Portuguese spreadsheets read "5.50" as text there)."""
    if separator_for(request) != ";":
        return rows
    return [
        [str(c).replace(".", ",") if isinstance(c, Decimal) else c for c in row] for row in rows
    ]


@secretary_required
def report_csv(request):
    _form, period = _period(request)
    rep = reports.report(period)
    return csv_response(
        request,
        f"table-money-{period.slug}.csv",
        reports.header(),
        _spreadsheet_numbers(request, reports.table(rep)),
    )


@secretary_required
def report_xlsx(request):
    _form, period = _period(request)
    rep = reports.report(period)
    return xlsx_response(
        f"table-money-{period.slug}.xlsx", period.label, reports.header(), reports.table(rep)
    )


@secretary_required
def unpaid(request):
    """Table fees not yet paid, per member."""
    rows = reports.debtors(table_fees.unpaid_fees())
    return render(
        request,
        "tournaments/money/unpaid.html",
        {"rows": rows, "total": sum((d.total for d in rows), 0)},
    )


@secretary_required
def unpaid_csv(request):
    rows = reports.debtors(table_fees.unpaid_fees())
    return csv_response(
        request,
        "unpaid-table-fees.csv",
        reports.debtor_header(),
        _spreadsheet_numbers(request, reports.debtor_table(rows)),
    )


@secretary_required
def unpaid_xlsx(request):
    rows = reports.debtors(table_fees.unpaid_fees())
    return xlsx_response(
        "unpaid-table-fees.xlsx",
        _("Unpaid table fees"),
        reports.debtor_header(),
        reports.debtor_table(rows),
    )


@secretary_required
def balances(request):
    """Members holding (or owing) a prepaid balance."""
    rows = (
        Member.objects.annotate(balance=Sum("balance_moves__amount"))
        .filter(balance__isnull=False)
        .exclude(balance=0)
        .order_by(*collated("last_name", "first_name"))
    )
    return render(
        request,
        "tournaments/money/balances.html",
        {"rows": rows, "total": sum((m.balance for m in rows), 0)},
    )


@secretary_required
def balance(request, pk):
    """One member's prepaid account: its lines, and topping it up."""
    member = get_object_or_404(Member, pk=pk)
    if request.method == "POST" and "pay_debts" in request.POST:
        _pay_debts(request, member)
        return redirect("money:balance", member.pk)
    form = TopUpForm(request.POST or None, initial={"method": "cash"})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                table_fees.top_up(
                    member, data["amount"], data["method"], user=request.user, note=data["note"]
                )
            except TournamentError as exc:
                add_service_error(form, exc)
            else:
                messages.success(
                    request,
                    _("%(amount)s added to %(name)s's balance.")
                    % {"amount": table_fees.shown(data["amount"]), "name": member.full_name},
                )
                return redirect("money:balance", member.pk)
    return render(
        request,
        "tournaments/money/balance.html",
        {"member": member, "form": form, **_account(member)},
        status=status,
    )


def _pay_debts(request, member) -> None:
    """The unpaid table fees paid from the prepaid balance, and a word on each one left."""
    done = table_fees.pay_debts_from_balance(member, user=request.user)
    if done.paid:
        messages.success(
            request,
            _("%(count)d table fees (%(amount)s) paid from the prepaid balance.")
            % {
                "count": len(done.paid),
                "amount": table_fees.shown(sum((f.amount for f in done.paid), Decimal(0))),
            },
        )
    for fee, reason in done.left:
        messages.warning(
            request,
            _("%(session)s (%(amount)s) is still unpaid: %(reason)s")
            % {"session": fee.session, "amount": table_fees.shown(fee.amount), "reason": reason},
        )


def _account(member):
    balance = table_fees.balance_of(member)
    unpaid = list(table_fees.unpaid_fees(member))
    return {
        "balance": balance,
        "can_pay_debts": bool(unpaid) and balance >= min(f.amount for f in unpaid),
        "moves": BalanceMove.objects.filter(member=member).select_related(
            "fee__session__tournament", "user"
        )[:100],
        "unpaid": unpaid,
    }


@login_required
def mine(request):
    """A player's own prepaid balance and unpaid table fees."""
    member = Member.objects.filter(user=request.user).first()
    if request.method == "POST" and member is not None and "pay_debts" in request.POST:
        _pay_debts(request, member)  # the player's own balance, for the player's own fees
        return redirect("money:mine")
    context = {"member": member}
    if member is not None:
        context.update(_account(member))
        context["owed"] = sum((f.amount for f in context["unpaid"]), 0)
    return render(request, "tournaments/money/mine.html", context)

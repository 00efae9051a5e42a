"""Table money at the session: the door list where the director (or the secretary) marks
each player's fee paid, and the session's cash sheet the secretary reconciles and closes.

Views speak HTTP and check the role; the rules are in ``services.table_fees`` and
``services.cash_sheet``.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import (
    Role,
    has_role,
    secretary_or_director_required,
    secretary_required,
)
from tournaments.forms.director import add_service_error
from tournaments.forms.money import CloseSheetForm, ReasonForm, RefundForm
from tournaments.models import TableFee, TableMethod
from tournaments.services.errors import TournamentError
from tournaments.services.money import cash_sheet, table_fees
from tournaments.views.director.common import get_session


def _door_filter(data) -> tuple[str, bool]:
    """The door list's filter as typed (a name, "unpaid only"), from a query or a form."""
    return data.get("q", "").strip()[:100], data.get("unpaid") == "1"


def _door_context(request, session, **extra):
    """Read only: the fees stored, and what an update would change (players with no fee
    yet, unpaid fees of players who left), for the director to confirm with a tap."""
    fees = table_fees.session_fees(session)
    query, unpaid_only = _door_filter(request.GET)
    shown = table_fees.door_filter(fees, query=query, unpaid_only=unpaid_only)
    balances = table_fees.balances_of(f.member_id for f in shown if f.is_due)
    rows = [{"fee": f, "balance": balances.get(f.member_id)} for f in shown]
    return {
        "session": session,
        "tournament": session.tournament,
        "rows": rows,
        "total": len(fees),
        "query": query,
        "unpaid_only": unpaid_only,
        "filtered": bool(query or unpaid_only),
        "figures": cash_sheet.figures(session),
        "sheet": cash_sheet.sheet_of(session),
        "closed": cash_sheet.is_closed(session),
        "pending": table_fees.pending(session, fees),
        "methods": [m for m in TableMethod],
        "is_secretary": has_role(request.user, Role.SECRETARY),
        **extra,
    }


@secretary_or_director_required
def door(request, pk):
    """Every player of the session with their fee: tap how they paid."""
    session = get_session(pk)
    context = _door_context(request, session)
    if getattr(request, "htmx", False):  # the filter typed into: the list alone
        return render(request, "tournaments/money/_door_list.html", context)
    return render(request, "tournaments/money/door.html", context)


@secretary_or_director_required
@require_POST
def door_update(request, pk):
    """Charge the players who joined since the fees were charged (the session's start) and
    cancel the unpaid fees of those who left; the door list itself only reads."""
    session = get_session(pk)
    if cash_sheet.is_closed(session):
        messages.error(
            request,
            _(
                "The cash sheet is closed: the door list cannot change "
                "until the secretary reopens it."
            ),
        )
    else:
        table_fees.charge_session(session, user=request.user)
        messages.success(request, _("The door list is up to date with the entries."))
    return redirect("director:table_fees", session.pk)


def _back(request, fee):
    """Back to the door list at the fee's row, with the filter the list had."""
    url = reverse("director:table_fees", args=[fee.session_id])
    query, unpaid_only = _door_filter(request.POST)
    params = urlencode(
        {k: v for k, v in (("q", query), ("unpaid", "1" if unpaid_only else "")) if v}
    )
    return redirect(f"{url}{'?' + params if params else ''}#fee-{fee.pk}")


@secretary_or_director_required
@require_POST
def fee_pay(request, pk):
    fee = get_object_or_404(TableFee.objects.select_related("member"), pk=pk)
    method = request.POST.get("method", "")
    try:
        fee = table_fees.pay(fee, method, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(name)s paid %(amount)s (%(method)s).")
            % {
                "name": fee.member.full_name,
                "amount": table_fees.shown(fee.amount),
                "method": fee.get_method_display(),
            },
        )
    return _back(request, fee)


@secretary_or_director_required
@require_POST
def fee_refund(request, pk):
    fee = get_object_or_404(TableFee.objects.select_related("member"), pk=pk)
    form = RefundForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        fee = table_fees.refund(fee, user=request.user, reason=reason)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(name)s's payment was undone: the fee is due again.")
            % {"name": fee.member.full_name},
        )
    return _back(request, fee)


def _sheet_page(request, session, *, close_form=None, reopen_form=None, status=200):
    figures = cash_sheet.figures(session)
    sheet = cash_sheet.sheet_of(session)
    if close_form is None:
        collected = figures.by_method()
        close_form = CloseSheetForm(
            initial={
                "counted_cash": collected[TableMethod.CASH],
                "counted_card": collected[TableMethod.CARD],
                "counted_transfer": collected[TableMethod.TRANSFER],
            }
        )
    return render(
        request,
        "tournaments/money/sheet.html",
        {
            "session": session,
            "tournament": session.tournament,
            "figures": figures,
            "sheet": sheet,
            "closed": bool(sheet and sheet.is_closed),
            "close_form": close_form,
            "reopen_form": reopen_form or ReasonForm(),
            "is_secretary": has_role(request.user, Role.SECRETARY),
            "trail": session.tournament.audit_entries.filter(
                session=session, action__in=["cash_closed", "cash_reopen"]
            ).select_related("user")[:20],
        },
        status=status,
    )


@secretary_or_director_required
def sheet(request, pk):
    """The session's cash sheet: expected, collected by method, missing; closing it."""
    return _sheet_page(request, get_session(pk))


@secretary_required
@require_POST
def sheet_close(request, pk):
    session = get_session(pk)
    form = CloseSheetForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        counted = {
            TableMethod.CASH: data["counted_cash"],
            TableMethod.CARD: data["counted_card"],
            TableMethod.TRANSFER: data["counted_transfer"],
        }
        try:
            cash_sheet.close(session, counted=counted, user=request.user, note=data["note"])
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("The cash sheet is closed; its fees are locked."))
            return redirect("director:cash_sheet", session.pk)
    return _sheet_page(request, session, close_form=form, status=400)


@secretary_required
@require_POST
def sheet_reopen(request, pk):
    session = get_session(pk)
    form = ReasonForm(request.POST)
    if form.is_valid():
        try:
            cash_sheet.reopen(session, user=request.user, reason=form.cleaned_data["reason"])
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("The cash sheet is open again."))
            return redirect("director:cash_sheet", session.pk)
    return _sheet_page(request, session, reopen_form=form, status=400)

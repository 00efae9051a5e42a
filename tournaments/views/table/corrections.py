"""The table corrects its saved result, or the opponents reject it (``services.table_corrections``
decides what a device may do). Both answer JSON to table.js's queue and redirect the plain
form back to the board."""

from django import forms
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubsite.web.jsonbody import BadJSON
from tournaments.forms.table import ResultForm
from tournaments.models import Result, ResultStatus
from tournaments.services.errors import InvalidResult
from tournaments.services.table import table_corrections
from tournaments.views.table.device import table_device_required, wants_json
from tournaments.views.table.entry import FORM_FIELD, _board_context, _payload


class DisputeForm(forms.Form):
    """The opponents' reason (Django's checks: no NUL, at most the service's length)."""

    reason = forms.CharField(
        max_length=table_corrections.MAX_REASON,
        error_messages={"required": gettext_lazy("Say what is wrong with the result.")},
    )


def _own_result(request, pk) -> Result:
    """A stored line of this device's table; another table's is refused (403) before the
    posted data is even read."""
    row = get_object_or_404(
        Result.objects.select_related("board", "section__session__tournament"),
        pk=pk,
        status=ResultStatus.OK,
    )
    table_corrections.own_line(row, request.table_code)
    return row


def _answer(request, row, status=200):
    url = reverse("table:board", kwargs={"round": row.round, "board": row.board.number})
    if wants_json(request):
        return JsonResponse(
            {
                "result": row.pk,
                "url": url,
                "ns_score": row.ns_score,
                "state": table_corrections.state_of(row),
            },
            status=status,
        )
    return redirect(url)


def _errors(request, row, errors: dict, form=None):
    if wants_json(request):
        return JsonResponse({"errors": errors}, status=400)
    context = _board_context(request, row.round, row.board.number)
    if form is not None:
        context["correct_form"] = form
    context["errors_open"] = True
    context["dispute_errors"] = errors.get("reason", [])
    return render(request, "tournaments/table/board.html", context, status=400)


@table_device_required
@require_POST
def correct(request, pk):
    """The table fixes its saved result before the opponents confirm it."""
    row = _own_result(request, pk)
    try:
        form = ResultForm(_payload(request))
    except BadJSON as exc:
        return JsonResponse({"errors": {"__all__": [str(exc)]}}, status=400)
    if form.is_valid() and (form.cleaned_data["round"], form.cleaned_data["board"]) != (
        row.round,
        row.board.number,
    ):
        form.add_error(None, _("This form belongs to another board."))
    if form.is_valid():
        data = form.cleaned_data
        try:
            row = table_corrections.correct_at_table(
                row,
                table_code=request.table_code,
                contract=data["contract"],
                declarer=data["declarer"],
                tricks=data["tricks"],
                lead=data["lead"],
            )
        except InvalidResult as exc:
            form.add_error(FORM_FIELD.get(exc.field), exc.message)
        else:
            if not wants_json(request):
                messages.success(
                    request, _("Board %(board)s corrected.") % {"board": row.board.number}
                )
            return _answer(request, row)
    return _errors(
        request, row, {f: [str(e) for e in errs] for f, errs in form.errors.items()}, form
    )


@table_device_required
@require_POST
def dispute(request, pk):
    """The opponents reject the saved result, saying why: the director decides."""
    row = _own_result(request, pk)
    try:
        data = _payload(request)
    except BadJSON as exc:
        return JsonResponse({"errors": {"__all__": [str(exc)]}}, status=400)
    form = DisputeForm(data)
    if not form.is_valid():
        return _errors(request, row, {f: [str(e) for e in errs] for f, errs in form.errors.items()})
    try:
        row = table_corrections.dispute_at_table(
            row, table_code=request.table_code, reason=form.cleaned_data["reason"]
        )
    except InvalidResult as exc:
        return _errors(request, row, {"reason": [exc.message]})
    if not wants_json(request):
        messages.warning(request, _("Sent to the director, who will decide."))
    return _answer(request, row)

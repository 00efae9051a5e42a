"""The director settles a result the opponents rejected at the table: keep it as entered
here, or correct it on the line's page (``director_run.line``), which settles it too."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from tournaments.forms.results import ReasonForm
from tournaments.models import Result
from tournaments.services.errors import TournamentError
from tournaments.services.table import table_corrections


def disputes_for_console(session, link) -> list[dict]:
    """The open disputes of ``session`` as the console lists them (``link``: a line's URL)."""
    return [
        {"result": r, "url": link(r), "reason": table_corrections.dispute_reason(r)}
        for r in table_corrections.open_disputes(session)
    ]


def dispute_context(current) -> dict:
    """The line page's view of its result: state (entered … corrected) and, while the
    opponents' rejection waits, their reason."""
    if current is None:
        return {"dispute": None, "current_state": "", "current_state_label": ""}
    state = table_corrections.state_of(current)
    return {
        "dispute": table_corrections.dispute_reason(current)
        if state == table_corrections.DISPUTED
        else None,
        "current_state": state,
        "current_state_label": table_corrections.STATE_LABELS[state],
    }


@director_required
@require_POST
def keep_disputed(request, pk):
    """The result stands as entered; the reason goes into the audit trail."""
    result = get_object_or_404(
        Result.objects.select_related("board", "section__session__tournament"), pk=pk
    )
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why: a change to a result needs a reason."))
    else:
        try:
            table_corrections.keep_disputed(
                result,
                user=request.user,
                reason=form.cleaned_data["reason"],
                override=form.cleaned_data["override"],
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The result stands as entered."))
    return redirect(
        "director:line", result.section_id, result.round, result.table, result.board.number
    )

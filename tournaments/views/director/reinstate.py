"""The director undoes a withdrawal (``services.reinstatement``)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from tournaments.forms.director import WithdrawForm
from tournaments.models import Entry
from tournaments.services.entries.reinstatement import reinstate_entry
from tournaments.services.errors import TournamentError


@director_required
@require_POST
def entry_reinstate(request, pk):
    """The withdrawn entry plays again; the reason goes into the audit trail."""
    entry = get_object_or_404(Entry, pk=pk)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the withdrawal is undone."))
    else:
        try:
            reinstate_entry(entry, user=request.user, reason=form.cleaned_data["reason"])
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(entry)s plays again.") % {"entry": entry})
    return redirect("director:entries", entry.tournament_id)

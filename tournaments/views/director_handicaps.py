"""The director's handicaps page: every pair's handicap typed in one form."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.formats import localize
from django.utils.translation import gettext as _

from clubsite.permissions import director_required

from ..models import EntryStatus
from ..services.handicaps import HandicapErrors, set_handicaps
from .director_common import get_tournament


@director_required
def handicaps(request, pk):
    """What is typed survives a refusal; saving re-ranks the event with the handicaps."""
    tournament = get_tournament(pk)
    entries = list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("id"))
    typed = {e.pk: "" if e.handicap is None else localize(e.handicap) for e in entries}
    errors: dict[int, str] = {}
    status = 200
    if request.method == "POST":
        typed = {e.pk: request.POST.get(f"handicap-{e.pk}", "")[:20] for e in entries}
        sent = {name for name in request.POST if name.startswith("handicap-")}
        if sent - {f"handicap-{e.pk}" for e in entries}:  # an entry withdrew meanwhile
            messages.error(request, _("The entries changed while you typed: check the "
                                      "handicaps and save again."))
            status = 400
        else:
            try:
                changed = set_handicaps(tournament, typed, request.user)
            except HandicapErrors as exc:
                errors, status = exc.errors, 400
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Handicaps saved (%(count)s changed).")
                                 % {"count": changed})
                return redirect("director:handicaps", tournament.pk)
    rows = [{"entry": e, "value": typed.get(e.pk, ""), "error": errors.get(e.pk)}
            for e in entries]
    return render(request, "tournaments/director/handicaps.html",
                  {"tournament": tournament, "rows": rows}, status=status)

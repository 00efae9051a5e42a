"""The director seats a later session of a pairs tournament from the earlier ones: choose
the method, see where every pair goes, confirm (the services do the seating)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import director_required
from tournaments.forms.director import add_service_error
from tournaments.forms.session_seating import SessionSeatingForm
from tournaments.services.errors import TournamentError
from tournaments.services.setup import seating as session_seating
from tournaments.views.director.common import get_session


@director_required
def seat_from_previous(request, pk):
    """GET: the methods; POST "preview": the planned seating; POST "confirm": seat it."""
    session = get_session(pk)
    form = SessionSeatingForm(request.POST or None)
    planned, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            method = form.cleaned_data["method"]
            try:
                planned = session_seating.plan_seating(session, method)
                if request.POST.get("action") == "confirm":
                    if form.cleaned_data["fingerprint"] != planned.fingerprint:
                        raise TournamentError(
                            _(
                                "The entries changed since the preview: check "
                                "the new seating and confirm again."
                            )
                        )
                    session_seating.apply_seating(planned, user=request.user)
                    messages.success(
                        request, _("Session %(number)s seated.") % {"number": session.number}
                    )
                    return redirect("director:session", session.pk)
                status = 200
            except TournamentError as exc:
                add_service_error(form, exc)
    return render(
        request,
        "tournaments/director/session_seating.html",
        {
            "session": session,
            "tournament": session.tournament,
            "form": form,
            "plan": planned,
            "confirm_form": SessionSeatingForm(
                initial={"method": planned.method, "fingerprint": planned.fingerprint}
            )
            if planned
            else None,
        },
        status=status,
    )

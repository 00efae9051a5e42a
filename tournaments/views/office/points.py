"""Master points: the secretary's scale, and the director's award of a final tournament."""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required, secretary_required
from clubsite.models import Season
from tournaments.forms.points import ScaleForm, ScaleRowFormSet
from tournaments.models import PointsScale
from tournaments.services.errors import TournamentError
from tournaments.services.results import master_points
from tournaments.views.director.common import get_tournament


@secretary_required
def scale(request):
    """The scale in force: who awards it, whether a pair's points are shared, its rows.
    Saved whole or not at all; a refused form shows again what was typed."""
    points_scale = PointsScale.load(create=False)  # stored by a valid save only
    form = ScaleForm(request.POST or None, instance=points_scale)
    rows = ScaleRowFormSet(request.POST or None, instance=points_scale)
    if request.method == "POST":
        if form.is_valid() and rows.is_valid():
            with transaction.atomic():
                form.save()
                rows.save()
            # A scale filled in makes the points of the season's waiting tournaments due.
            awarded = master_points.award_due()
            messages.success(request, _("Master points scale saved."))
            if awarded:
                messages.info(
                    request,
                    ngettext(
                        "Master points awarded for %(count)d tournament that was waiting for "
                        "the scale.",
                        "Master points awarded for %(count)d tournaments that were "
                        "waiting for the scale.",
                        len(awarded),
                    )
                    % {"count": len(awarded)},
                )
            return redirect("points:scale")
        messages.error(request, _("The scale was not saved: correct the rows marked below."))
    return render(
        request,
        "tournaments/points/scale.html",
        {
            "form": form,
            "rows": rows,
            "earlier": master_points.awarded_with_earlier_scale(
                Season.for_date(timezone.localdate())
            ),
        },
        status=400 if request.method == "POST" else 200,
    )


@director_required
@require_POST
def award(request, pk):
    """Award (or award again) the tournament's master points from its final results."""
    tournament = get_tournament(pk)
    try:
        count = master_points.award(tournament, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            ngettext(
                "Master points awarded to %(count)d player.",
                "Master points awarded to %(count)d players.",
                count,
            )
            % {"count": count},
        )
    return redirect("director:tournament", tournament.pk)

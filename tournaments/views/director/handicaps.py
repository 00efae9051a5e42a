"""The director's handicaps page: every pair's handicap typed in one form, each player's
(the pair's is their sum) or the pair's own; an individual's, one a player."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.formats import localize
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import director_required
from tournaments.models import EntryPlayer, EntryStatus, EventType
from tournaments.services.classification.handicaps import HandicapErrors, set_handicaps
from tournaments.views.director.common import get_tournament


@director_required
def handicaps(request, pk):
    """What is typed survives a refusal; saving re-ranks the event with the handicaps."""
    tournament = get_tournament(pk)
    entries = list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("id"))
    seats: dict[int, list] = {e.pk: [] for e in entries}
    for ep in (
        EntryPlayer.objects.filter(entry__in=entries, active=True)
        .select_related("member")
        .order_by("seat")
    ):
        seats[ep.entry_id].append(ep)
    seats = {pk: eps if len(eps) > 1 else [] for pk, eps in seats.items()}  # pairs' players
    typed = {e.pk: "" if e.handicap is None else localize(e.handicap) for e in entries}
    mine = {
        ep.pk: "" if ep.handicap is None else localize(ep.handicap)
        for eps in seats.values()
        for ep in eps
    }
    errors: dict[int, str] = {}
    status = 200
    if request.method == "POST":
        typed = {e.pk: request.POST.get(f"handicap-{e.pk}", "")[:20] for e in entries}
        mine = {pk: request.POST.get(f"player-handicap-{pk}", "")[:20] for pk in mine}
        sent = {name for name in request.POST if name.startswith("handicap-")}
        sent_players = {name for name in request.POST if name.startswith("player-handicap-")}
        if sent - {f"handicap-{e.pk}" for e in entries} or sent_players - {
            f"player-handicap-{pk}" for pk in mine
        }:
            # an entry withdrew (or a player was replaced) meanwhile
            messages.error(
                request,
                _("The entries changed while you typed: check the handicaps and save again."),
            )
            status = 400
        else:
            try:
                changed = set_handicaps(tournament, typed, request.user, players=mine)
            except HandicapErrors as exc:
                errors, status = exc.errors, 400
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, _("Handicaps saved (%(count)s changed).") % {"count": changed}
                )
                return redirect("director:handicaps", tournament.pk)
    rows = [
        {
            "entry": e,
            "value": typed.get(e.pk, ""),
            "error": errors.get(e.pk),
            "players": [{"seat": ep, "value": mine.get(ep.pk, "")} for ep in seats[e.pk]],
        }
        for e in entries
    ]
    return render(
        request,
        "tournaments/director/handicaps.html",
        {
            "tournament": tournament,
            "rows": rows,
            "per_player": any(row["players"] for row in rows),
            # an individual entry is one player: one handicap each, the player's
            "individual": tournament.event_type == EventType.INDIVIDUAL,
        },
        status=status,
    )

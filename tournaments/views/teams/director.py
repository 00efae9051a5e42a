"""The director's pages of a teams event: settings, start, the schedule, the Swiss draw and
each match's line-ups.

Registration goes through the ordinary entries page (a team is an entry with a name and four
to six players); the console, corrections and adjusted scores are those of pairs, since each
room of a match is an ordinary table. Rules live in ``services.team_events`` and the team
modules below it.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from tournaments.forms.director import add_service_error
from tournaments.forms.teams import TeamEventForm
from tournaments.models import EntryStatus, SessionStatus, TeamMatch
from tournaments.services.errors import TournamentError
from tournaments.services.teams import lineups, team_events, team_schedule, triplicate_scores
from tournaments.views.director.common import get_tournament
from tournaments.views.teams.knockout import director_context as knockout_context
from tournaments.views.teams.lineups import lineup_context, save_posted_lineup


def _teams_tournament(pk):
    tournament = get_tournament(pk)
    if not team_schedule.is_teams(tournament):
        return tournament, False
    return tournament, True


def _page(request, tournament, form, status=200):
    session = team_schedule.teams_session(tournament)
    event = team_schedule.team_event(tournament)
    started = session.status != SessionStatus.DRAFT
    registered = list(
        tournament.entries.filter(status=EntryStatus.ACTIVE)
        .prefetch_related("entry_players__member")
        .order_by("id")
    )
    numbers = team_schedule.numbers_of(session) if started else {}
    rounds = team_schedule.rounds_with_matches(session) if started else {}
    if started and event.is_triplicate:  # each table's pairs, as the course numbers them
        movement = session.sections.order_by("letter").first().movement
        for matches in rounds.values():
            for m in matches:
                m.pairs = triplicate_scores.pairs_at(movement, m.round, m.number)
    return render(
        request,
        "tournaments/teams/director.html",
        {
            "tournament": tournament,
            "session": session,
            "event": event,
            "form": form,
            "started": started,
            "teams": [(numbers.get(e.pk, i), e) for i, e in enumerate(registered, start=1)],
            "progress": [(p, rounds.get(p.round, [])) for p in team_schedule.progress(session)]
            if started
            else [],
            "can_draw": team_schedule.can_draw(session),
            "drawn": team_schedule.drawn_rounds(session) if started else 0,
            "knockout": knockout_context(session) if event.is_knockout else None,
        },
        status=status,
    )


@director_required
def settings(request, pk):
    """Format, schedule, match length, VP scale, bye award and tie-breaks; then the start."""
    tournament, ok = _teams_tournament(pk)
    if not ok:
        messages.error(request, _("This is not a teams event."))
        return redirect("director:tournament", tournament.pk)
    # the form changes the row it is bound to: a copy, so a refused change shows nowhere else
    event = team_schedule.team_event(tournament, fresh=True)
    started = team_schedule.teams_session(tournament).status != SessionStatus.DRAFT
    form = TeamEventForm(request.POST or None, instance=event, started=started)
    if request.method == "POST":
        if form.is_valid():
            try:
                team_events.configure(
                    tournament, **{name: form.cleaned_data[name] for name in form.changed_data}
                )
            except TournamentError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, _("Changes saved."))
                return redirect("director:teams", tournament.pk)
        # The form wrote into the instance while validating; show what was typed, save nothing.
        return _page(request, tournament, form, status=400)
    return _page(request, tournament, form)


@director_required
@require_POST
def start(request, pk):
    tournament, ok = _teams_tournament(pk)
    try:
        if not ok:
            raise TournamentError(_("This is not a teams event."))
        team_events.start_teams(tournament, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The event has started: table codes are ready."))
    return redirect("director:teams", tournament.pk)


@director_required
@require_POST
def draw(request, pk):
    """Draw the next Swiss round; ``force`` draws before the last results are in."""
    tournament, ok = _teams_tournament(pk)
    try:
        if not ok:
            raise TournamentError(_("This is not a teams event."))
        number = team_events.draw_next_round(
            tournament, user=request.user, force=request.POST.get("force") == "1"
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(round)s is drawn.") % {"round": number})
    return redirect("director:teams", tournament.pk)


@director_required
def match_lineups(request, pk, match):
    """Each team's line-up for each half of one match: set or changed by the director, the
    form shown again with what was typed when the course's rules refuse it."""
    tournament, ok = _teams_tournament(pk)
    if not ok:
        raise Http404(_("This is not a teams event."))
    m = get_object_or_404(
        TeamMatch.objects.select_related("home", "away", "session__tournament"),
        pk=match,
        session__tournament=tournament,
        away__isnull=False,
    )
    if not lineups.applies(m):
        raise Http404(_("This match has no line-ups."))
    bound, status = None, 200
    if request.method == "POST":
        bound = save_posted_lineup(request, m, user=request.user)
        if bound is None:
            messages.success(request, _("Line-up saved."))
            return redirect("director:teams_lineups", tournament.pk, m.pk)
        status = 400
    return render(
        request,
        "tournaments/teams/lineups.html",
        {
            "tournament": tournament,
            **lineup_context(m, bound),
            "action": reverse("director:teams_lineups", args=[tournament.pk, m.pk]),
        },
        status=status,
    )

"""The director's knockout actions: seeds, a match's carry-over, a tie-break segment and the
draw of the next stage. Each posts, then returns to the teams page; rules live in
``services.knockout``."""

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from tournaments.models import EntryStatus, SessionStatus, TeamMatch
from tournaments.services.errors import TournamentError
from tournaments.services.teams import knockout, knockout_bracket, team_schedule
from tournaments.views.director.common import get_tournament


def director_context(session) -> dict:
    """What the teams page shows of a knockout: the stage in play with each match's score,
    carry-over and tie state, and whether the next stage can be drawn."""
    if session.status == SessionStatus.DRAFT:
        return {}
    can_draw = knockout.can_draw_stage(session)  # classifies a stale session first
    stage = team_schedule.drawn_rounds(session)
    matches = list(
        TeamMatch.objects.filter(session=session, round=stage)
        .exclude(away__isnull=True)
        .select_related("home", "away", "winner")
    )
    k = session.boards_per_round
    return {
        "stage": stage,
        "stages": session.rounds,
        "matches": [(m, knockout_bracket.is_tied(m, k)) for m in matches],
        "can_draw": can_draw,
        "running": session.status == SessionStatus.RUNNING,
    }


def _act(request, pk, action, done):
    tournament = get_tournament(pk)
    try:
        if not team_schedule.is_teams(tournament):
            raise TournamentError(_("This is not a teams event."))
        outcome = action(tournament)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done(outcome))
    return redirect("director:teams", tournament.pk)


@director_required
@require_POST
def draw(request, pk):
    """Draw the next stage from the winners of the stage just decided."""
    return _act(
        request,
        pk,
        lambda t: knockout.draw_next_stage(t, user=request.user),
        lambda n: _("Stage %(stage)s is drawn.") % {"stage": n},
    )


@director_required
@require_POST
def carry_over(request, pk, match):
    """The IMPs each team carries into a match (a qualifying stage, a handicap)."""

    def action(tournament):
        try:
            home = Decimal(request.POST.get("home_carry") or 0)
            away = Decimal(request.POST.get("away_carry") or 0)
            if not (home.is_finite() and away.is_finite()):
                raise InvalidOperation
        except InvalidOperation as exc:
            raise TournamentError(_("A carry-over is 0 to 999 IMPs.")) from exc
        return knockout.set_carry_over(tournament, match, home=home, away=away, user=request.user)

    return _act(request, pk, action, lambda m: _("Carry-over saved."))


@director_required
@require_POST
def tie_segment(request, pk, match):
    """A tied match plays the tie-break boards at its two tables."""
    return _act(
        request,
        pk,
        lambda t: knockout.add_tie_segment(t, match, user=request.user),
        lambda boards: (
            _("Tie-break boards %(first)s to %(last)s added to the match.")
            % {"first": boards[0], "last": boards[-1]}
        ),
    )


@director_required
@require_POST
def seeds(request, pk):
    """The director's seeds: a number per team, 1 the best; teams left blank follow."""

    def action(tournament):
        ranked = []
        for entry in tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("id"):
            value = request.POST.get(f"seed-{entry.pk}", "").strip()
            if value:
                try:
                    ranked.append((int(value), entry.pk))
                except ValueError as exc:
                    raise TournamentError(_("A seed is a whole number.")) from exc
        ranked.sort()
        if len({s for s, _pk in ranked}) != len(ranked):
            raise TournamentError(_("Two teams have the same seed."))
        registered = [
            pk
            for pk in tournament.entries.filter(status=EntryStatus.ACTIVE)
            .order_by("id")
            .values_list("pk", flat=True)
        ]
        order = [e for _s, e in ranked] + [
            e for e in registered if e not in {e for _s, e in ranked}
        ]
        return knockout.set_seeds(tournament, order)

    return _act(request, pk, action, lambda e: _("Seeds saved."))

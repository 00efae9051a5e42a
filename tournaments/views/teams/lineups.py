"""What the director's and the table's line-up pages share: one form per team and half, and
saving one posted form. Not views themselves (no URL points here); the rules are
``services.lineups``'.
"""

from django.utils.translation import gettext as _

from tournaments.forms.director import add_service_error
from tournaments.forms.teams import LineupForm
from tournaments.models import TeamMatch
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.teams import lineups


def _prefix(team_pk: int, half: int) -> str:
    return f"h{half}-t{team_pk}"


def lineup_context(match: TeamMatch, bound=None, *, device: bool = False) -> dict:
    """Each half with who sits where and a form per team (``bound``: the posted form shown
    again with its errors). A device edits only halves not yet in play, and a team's form
    there waits (``waits_for``) until the team that names first has named its players."""
    halves = []
    saved = lineups.saved_lineups(match)
    for seats in lineups.seating(match):
        number = seats.number
        forms = []
        for team in (match.home, match.away):
            # At the table a captain waits for the team that names first (the director not).
            # A refused post shows its form again, with the refusal, rather than the wait.
            posted = bound is not None and bound[0] == (team.pk, number)
            waits = lineups.waits_for(match, team, number, saved) if device else None
            if waits is not None and not posted:
                forms.append(
                    {
                        "team": team,
                        "home": team.pk == match.home_id,
                        "form": None,
                        "waits_for": waits,
                    }
                )
                continue
            if posted:
                form = bound[1]
            else:
                open_, closed = lineups.lineup_for(match, team, number)
                form = LineupForm(
                    squad=lineups.squad(team),
                    home=team.pk == match.home_id,
                    prefix=_prefix(team.pk, number),
                    initial=dict(zip(LineupForm.SEATS, open_ + closed, strict=True)),
                )
            forms.append({"team": team, "home": team.pk == match.home_id, "form": form})
        in_play = lineups.half_in_play(match, number)
        halves.append(
            {
                "number": number,
                "seats": seats,
                "forms": forms,
                "names_first": lineups.names_first(match, number),
                "in_play": in_play,
                "editable": not (device and in_play),
            }
        )
    return {
        "match": match,
        "halves": halves,
        "two_halves": len(halves) > 1,
        "substitutions": lineups.substitutions(match),
    }


def save_posted_lineup(request, match: TeamMatch, *, user=None, table_code=None):
    """Save the posted team's line-up; ``None`` when saved, else ((team, half), the form with
    its errors). A team that does not play the match is refused outright."""
    try:
        team_pk, half = int(request.POST.get("team", "")), int(request.POST.get("half", ""))
    except ValueError as exc:
        raise NotAllowed(_("This team does not play this match.")) from exc
    if team_pk not in (match.home_id, match.away_id):
        raise NotAllowed(_("This team does not play this match."))
    team = match.home if team_pk == match.home_id else match.away
    form = LineupForm(
        request.POST,
        squad=lineups.squad(team),
        home=team_pk == match.home_id,
        prefix=_prefix(team_pk, half),
    )
    if form.is_valid():
        players = form.players()
        try:
            lineups.set_lineup(
                match,
                team,
                half,
                players[:2],
                players[2:],
                user=user,
                table_code=table_code,
                reason=form.cleaned_data["reason"],
            )
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            return None
    return (team_pk, half), form

"""The table device in a teams event: which match and room this table is, the match screen
comparing both rooms board by board, the captains' line-ups, and the wait for a Swiss round
not drawn yet.

Same guard as every table view (``table_device_required``): the device sees its own table's
match only.
"""

from dataclasses import replace

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import EventType
from tournaments.services.classification import reclassification
from tournaments.services.errors import NotAllowed
from tournaments.services.results import board_visibility
from tournaments.services.teams import knockout_bracket, team_schedule, triplicate_scores
from tournaments.services.teams import lineups as lineup_service
from tournaments.views.table.device import js_text, round_param, table_device_required
from tournaments.views.teams.lineups import lineup_context, save_posted_lineup
from tournaments.views.teams.public import board_rows, triplicate_rows, unit_context


def teams_context(table_code, tr) -> dict:
    """What the table's round page adds for a teams event (empty for pairs)."""
    session = table_code.section.session
    if session.tournament.event_type != EventType.TEAMS:
        return {}
    match = team_schedule.match_at_table(session, tr.round, table_code.table)
    drawn = team_schedule.drawn_rounds(session)
    waiting = tr.complete and drawn == tr.round and tr.round < session.rounds
    # A Swiss lays out one round at a time: the table counts the rounds planned, not drawn.
    return {
        "is_teams": True,
        "tr": replace(tr, rounds=max(tr.rounds, session.rounds)),
        "triplicate": team_schedule.team_event(session.tournament).is_triplicate,
        "team_match": match,
        "open_room": table_code.table % 2 == 1,
        "next_drawn": tr.complete and tr.round < drawn,
        "waiting_draw": waiting,
        "next_round": tr.round + 1,
        "planned_rounds": session.rounds,
    }


def _knockout_score(m):
    """A knockout match's score as the public match page gives it: the stored one, brought
    up to date as the public pages do (``follow_live``), so the two screens agree."""
    if not team_schedule.team_event(m.session.tournament).is_knockout:
        return None
    reclassification.follow_live(m.session)
    m.refresh_from_db()
    return knockout_bracket.match_score(m)


@table_device_required
def match(request):
    """Both rooms of this table's match, board by board, for the boards both rooms have
    played: scores, the home team's net, each team's IMPs and the running total; in a
    knockout also the score that decides it (averaged IMPs plus carry-over), as the public
    match page shows it, so the captains see at the table where the match stands."""
    table_code = request.table_code
    session = table_code.section.session
    from tournaments.services.table import table_round

    tr = table_round.table_round(table_code, round_param(request))
    m = (
        team_schedule.match_at_table(session, tr.round, table_code.table)
        if session.tournament.event_type == EventType.TEAMS
        else None
    )
    numbers = team_schedule.numbers_of(session) if m else {}
    units = unit_context(session.tournament) if m else {}
    # only boards every table has played: the other rooms' scores are other tables' results
    visible = board_visibility.visibility(session, table_code) if m else None
    rows = (
        (triplicate_rows(m, visible) if units.get("triplicate") else board_rows(m, visible))
        if m
        else []
    )
    pairs = None
    if units.get("triplicate"):
        pairs = triplicate_scores.pairs_at(table_code.section.movement, m.round, m.number)
    seats = lineup_service.seating(m) if m and not units.get("triplicate") else []
    return render(
        request,
        "tournaments/teams/table_match.html",
        {
            "seating": seats,
            "two_halves": len(seats) > 1,
            "substitutions": lineup_service.substitutions(m) if seats else [],
            "knockout_score": _knockout_score(m) if m else None,
            "table_code": table_code,
            "tr": tr,
            "match": m,
            "boards": rows,
            "compared": sum(1 for r in rows if r["compared"]),
            "in_play": any(r.get("in_play") for r in rows),
            "home_number": numbers.get(m.home_id) if m else None,
            "away_number": numbers.get(m.away_id) if m else None,
            "open_room": table_code.table % 2 == 1,
            "pairs": pairs,
            **units,
            "js_text": js_text(),  # the saved/waiting badge reads its words from it
            **(teams_context(table_code, tr) if m else {}),
        },
    )


@table_device_required
def lineups(request):
    """The captains name their four players for each half of this table's match, at the
    table, before the half is played; afterwards only the director changes them."""
    table_code = request.table_code
    session = table_code.section.session
    from tournaments.services.table import table_round

    tr = table_round.table_round(table_code, round_param(request))
    m = (
        team_schedule.match_at_table(session, tr.round, table_code.table)
        if session.tournament.event_type == EventType.TEAMS
        else None
    )
    if m is None or not lineup_service.applies(m):
        raise NotAllowed(_("This table has no match with line-ups this round."))
    bound, status = None, 200
    action = f"{reverse('table:lineups')}?round={tr.round}"
    if request.method == "POST":
        bound = save_posted_lineup(request, m, table_code=table_code)
        if bound is None:
            messages.success(request, _("Line-up saved."))
            return redirect(action)
        status = 400
    return render(
        request,
        "tournaments/teams/table_lineups.html",
        {
            "table_code": table_code,
            "tr": tr,
            "open_room": table_code.table % 2 == 1,
            "js_text": js_text(),
            "action": action,
            **lineup_context(m, bound, device=True),
        },
        status=status,
    )

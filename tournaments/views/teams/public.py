"""Public pages of a teams event: standings, the schedule and draw, a round, a match (with
who sat where in each half, and substitutions).

Declared ``public``; a tournament is shown only when ``services.results`` says the visitor
may see its results (public results and published, or a director), and a hidden one answers
404 like a missing one. Standings come from the stored match scores, re-classified first
when a result changed since.
"""

from fractions import Fraction

import django_tables2 as tables
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from clubsite.accounts.permissions import public
from clubsite.web.params import int_param
from tournaments.models import SessionStatus, TeamMatch, TeamScoring
from tournaments.scoring import display_round
from tournaments.services.classification import reclassification
from tournaments.services.results import board_visibility
from tournaments.services.results import pages as results
from tournaments.services.running.adjustments import describe
from tournaments.services.teams import (
    knockout_bracket,
    lineups,
    team_matches,
    team_schedule,
    team_standings,
    triplicate_scores,
)
from tournaments.services.teams.teams_scoring import POINT_UNITS
from tournaments.views.director.common import contract_html
from tournaments.views.public import charts

UNIT_HEADERS = {
    TeamScoring.VPS: gettext_lazy("VPs"),
    TeamScoring.IMPS: gettext_lazy("IMPs"),
    TeamScoring.BOARD_A_MATCH: gettext_lazy("Board points"),
    TeamScoring.TOTAL_POINTS: gettext_lazy("Total points"),
    TeamScoring.PATTON: gettext_lazy("Patton points"),
}


def unit_context(tournament) -> dict:
    """What the pages need to show a teams event's units: VPs, IMPs, or board, total or Patton
    points (a triplicate counts its pairs' IMPs)."""
    event = team_schedule.team_event(tournament)
    unit = event.unit
    return {
        "unit": unit,
        "unit_header": UNIT_HEADERS.get(unit, ""),
        "vps": unit == TeamScoring.VPS,
        "points": unit in POINT_UNITS,
        "triplicate": event.is_triplicate,
    }


def _num(key: str) -> dict:
    return {"td": {"class": f"num {key}"}, "th": {"class": f"num {key}"}}


class TeamStandingsTable(tables.Table):
    """Place, team number and name, matches, IMPs won and lost, and the total (VPs or IMPs).
    Rows are plain dicts, so sorting is in memory; the page writes the cells itself."""

    # ``position``: the standings' own order, which a knockout breaks by IMPs within a place
    place = tables.Column(verbose_name=gettext_lazy("Place"), order_by=("place", "position"))
    number = tables.Column(verbose_name=gettext_lazy("Team"), attrs=_num("number"))
    name = tables.Column(verbose_name=gettext_lazy("Name"))
    points = tables.Column(
        verbose_name=gettext_lazy("VPs"), attrs=_num("points"), order_by=("points", "place")
    )
    matches = tables.Column(
        verbose_name=gettext_lazy("Matches"), attrs=_num("matches"), order_by=("matches", "place")
    )
    won = tables.Column(
        verbose_name=gettext_lazy("IMPs +"), attrs=_num("won"), order_by=("won", "place")
    )
    lost = tables.Column(
        verbose_name=gettext_lazy("IMPs −"), attrs=_num("lost"), order_by=("lost", "place")
    )

    class Meta:
        attrs = {"class": "data ranking team-standings"}
        orderable = True
        order_by = ("place",)


def _tournament(request, slug):
    # a teams event is played in one session, its first: the session, its tournament and
    # the event's settings in one query
    session = results.visible_session(request.user, slug, 1)
    if session is None or not team_schedule.is_teams(session.tournament):
        raise Http404(_("No results for this tournament."))
    tournament = session.tournament
    if session.status != SessionStatus.DRAFT:
        reclassification.follow_live(session)  # as the pairs pages: the worker classifies
    return tournament, session


def _status(tournament) -> dict:
    return {
        "tournament": tournament,
        "correction": results.correction_period(tournament),
        "event": team_schedule.team_event(tournament),
    }


def _text(value) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return number_format(float(value), 2)


@public
def standings(request, slug):
    tournament, session = _tournament(request, slug)
    units = unit_context(tournament)
    vps = units["vps"]
    rows = []
    matches = list(TeamMatch.objects.filter(session=session))  # read once for both
    for position, line in enumerate(team_standings.standings(session, matches)):
        rows.append(
            {
                "place": line.place,
                "position": position,
                "place_label": f"{line.place}=" if line.tied else str(line.place),
                "number": line.number,
                "name": line.name,
                "entry_id": line.entry_id,
                "matches": line.matches,
                "won": line.won,
                "lost": line.lost,
                "points": line.points,
                "won_text": _text(line.won),
                "lost_text": _text(line.lost),
                "points_text": number_format(float(line.points), 2) if vps else _text(line.points),
                "decided_by": line.decided_by,
                "points_value": str(display_round(line.points)),
            }
        )
    table = TeamStandingsTable(rows)
    if not vps:
        # a short header keeps the total in view on a phone; the note below names the unit
        table.columns["points"].column.verbose_name = (
            _("Points") if units["points"] else units["unit_header"]
        )
    RequestConfig(request, paginate=False).configure(table)
    rounds = team_schedule.progress(session, matches)
    upcoming = None
    if team_schedule.team_event(tournament).is_swiss and rounds and not rounds[-1].results:
        upcoming = rounds[-1].round
    # the chart adds up the matches and teams already read for the standings
    totals = team_standings.running_totals(
        session, matches, {r["entry_id"]: (r["number"], r["name"]) for r in rows}
    )
    chart, chosen = charts.team(
        totals, rows, int_param(request.GET, "team"), str(units["unit_header"] or _("Points"))
    )
    return render(
        request,
        "tournaments/teams/standings.html",
        {
            **_status(tournament),
            "session": session,
            "table": table,
            "rounds": rounds,
            **units,
            "upcoming": upcoming,
            "chart": chart,
            "chosen": chosen,
            "teams": sorted(rows, key=lambda r: r["number"]),
        },
    )


@public
def schedule(request, slug):
    """Every round drawn so far with its matches and tables (a Swiss: the draw so far)."""
    tournament, session = _tournament(request, slug)
    numbers = team_schedule.numbers_of(session)
    rounds = team_schedule.rounds_with_matches(session)
    return render(
        request,
        "tournaments/teams/schedule.html",
        {
            **_status(tournament),
            "session": session,
            "rounds": [
                (r, [(m, numbers.get(m.home_id), numbers.get(m.away_id)) for m in matches])
                for r, matches in sorted(rounds.items())
            ],
            "planned": session.rounds,
        },
    )


@public
def round_results(request, slug, number):
    tournament, session = _tournament(request, slug)
    matches = team_schedule.rounds_with_matches(session).get(number)
    if matches is None:
        raise Http404(_("This round has not been drawn."))
    return render(
        request,
        "tournaments/teams/round.html",
        {
            **_status(tournament),
            "session": session,
            "round": number,
            "matches": matches,
            "numbers": team_schedule.numbers_of(session),
            "rounds": range(1, team_schedule.drawn_rounds(session) + 1),
            **unit_context(tournament),
        },
    )


IN_PLAY_ROW = {
    "compared": False,
    "in_play": True,
    "open": None,
    "closed": None,
    "home_net": None,
    "home_imps": "",
    "away_imps": "",
    "home_running": "",
    "away_running": "",
    "home_points": "",
    "away_points": "",
    "refused": False,
    "tables": [(t, None) for t in (1, 2, 3)],
    "ns_imps": "",
    "ew_imps": "",
}


def _hide_in_play(
    rows: list[dict], visible: board_visibility.BoardVisibility | None, match
) -> list[dict]:
    """Rows of boards a table has still to play (``board_visibility``) lose their scores."""
    if visible is None or visible.everything:
        return rows
    pool = team_schedule.teams_section(match.session).pool
    return [row if visible.shows(pool, row["number"]) else row | IN_PLAY_ROW for row in rows]


def board_rows(match, visible: board_visibility.BoardVisibility | None = None) -> list[dict]:
    """The match's boards as pages show them (shared with the table's match screen); with
    ``visible``, a board some table has still to play shows no scores yet."""
    rows = []
    for line in team_matches.match_boards(match):
        rows.append(
            {
                "number": line.number,
                "compared": line.compared,
                "open": _room(line.open),
                "closed": _room(line.closed),
                "home_net": line.home_net,
                "home_imps": _text(line.home_imps) if line.compared else "",
                "away_imps": _text(line.away_imps) if line.compared else "",
                "home_running": _text(line.home_running),
                "away_running": _text(line.away_running),
                "home_points": _text(line.home_points) if line.home_points is not None else "",
                "away_points": _text(line.away_points) if line.away_points is not None else "",
                "refused": line.refused,
            }
        )
    return _hide_in_play(rows, visible, match)


def triplicate_rows(match, visible: board_visibility.BoardVisibility | None = None) -> list[dict]:
    """A triplicate table's boards: the three tables' NS scores and this table's pairs' IMPs
    (shared with the table's match screen); with ``visible``, as ``board_rows``."""
    return _hide_in_play(
        [
            {
                "number": line.number,
                "compared": line.compared,
                "tables": [(t, _room(line.scores.get(t))) for t in (1, 2, 3)],
                "ns_imps": _text(line.ns_imps) if line.compared else "",
                "ew_imps": _text(line.ew_imps) if line.compared else "",
            }
            for line in triplicate_scores.table_boards(match)
        ],
        visible,
        match,
    )


def _room(result) -> dict | None:
    if result is None:
        return None
    return {
        "contract": contract_html(result),
        "ns_score": result.ns_score,
        "adjusted": bool(result.adjustment),
        "note": describe(result.adjustment),
    }


@public
def match(request, slug, pk):
    tournament, session = _tournament(request, slug)
    m = get_object_or_404(
        TeamMatch.objects.select_related("home", "away"), pk=pk, session=session, away__isnull=False
    )
    numbers = team_schedule.numbers_of(session)
    units = unit_context(tournament)
    pairs = None
    if units["triplicate"]:
        pairs = triplicate_scores.pairs_at(
            team_schedule.teams_section(session).movement, m.round, m.number
        )
    visible = board_visibility.visibility(session, request.user)
    boards = triplicate_rows(m, visible) if units["triplicate"] else board_rows(m, visible)
    seats = lineups.seating(m)
    if not any(h.home_named or h.away_named for h in seats):
        seats = []  # nobody named a line-up: nothing to show the public
    return render(
        request,
        "tournaments/teams/match.html",
        {
            **_status(tournament),
            "session": session,
            "match": m,
            "seating": seats,
            "two_halves": len(seats) > 1,
            "substitutions": lineups.substitutions(m) if seats else [],
            "knockout_score": knockout_bracket.match_score(m),
            "boards": boards,
            "in_play": any(row.get("in_play") for row in boards),
            "home_number": numbers.get(m.home_id),
            "away_number": numbers.get(m.away_id),
            "pairs": pairs,
            **units,
        },
    )


@public
def bracket(request, slug):
    """A knockout event's bracket. Only a knockout has one: a Swiss or a round robin is
    decided by its standings, so its bracket address is not found (the nav does not offer
    it) rather than a draw that no one will play."""
    tournament, session = _tournament(request, slug)
    if not team_schedule.team_event(tournament).is_knockout:
        raise Http404(_("Only a knockout event has a bracket."))
    return _knockout_bracket(request, tournament, session)


def _knockout_bracket(request, tournament, session):
    """A knockout event's own bracket from its stored matches: teams, IMPs, carry-over,
    tie-break segments, who went through and the winner."""

    stages, champion = (
        knockout_bracket.live_bracket(session)
        if session.status != SessionStatus.DRAFT
        else ([], None)
    )
    return render(
        request,
        "tournaments/teams/knockout.html",
        {
            **_status(tournament),
            "session": session,
            "stages": stages,
            "champion": champion,
        },
    )

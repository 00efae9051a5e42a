"""Teams events: the director's settings, the start and the Swiss draw, on top of the pairs flow.

A teams event is one session with one section "A". Its movement is an ordinary stored
movement (``kind`` "teams", numbered by team): in round r, match m plays at table 2m-1
(open room: home team NS, away team EW) and table 2m (closed room: away NS, home EW), both
tables on the round's boards (r-1)·k+1 … r·k (C03 l.249, Art. 112). So table codes, entry at
the table, conflicts, corrections, adjusted scores and the audit work as for pairs; team
numbers are the seating numbers.

Here: the director's settings (``configure``), the start (round-robin schedule, Swiss
round 1, a knockout's first stage, a Patton or triplicate) and the Swiss draw of the next
round from the standing (``movements.teams.swiss_pairings``). The rest of a teams event lives
in ``team_schedule`` (the settings row, the rounds as laid out, the matches, progress),
``team_matches`` (a match scored board by board from both rooms, ``scoring.teams.team_board``;
adjusted scores give each team its own IMPs, C03 l.790-833), ``team_standings`` (VPs from each
team's own margin, standings with the event's tie-breaks, and ``classify_teams``, which
``classification.classify_session`` calls for teams events, so publication and live pages
work unchanged), ``knockout_bracket``/``knockout`` and ``triplicate_scores``/``triplicate``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    EntryStatus,
    Seating,
    Section,
    Session,
    SessionStatus,
    TeamEvent,
    TeamFormat,
    TeamMatch,
    Tournament,
    VPScale,
)
from tournaments.movements import MovementError
from tournaments.movements.teams import round_robin, swiss_pairings
from tournaments.scoring.vp import COURSE25_BOARDS
from tournaments.services.classification.classify import classify_session
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.teams.knockout_bracket import (
    first_stage,
    seeded,
    stages_for,
    tie_rule_in_use,
)
from tournaments.services.teams.team_schedule import (
    has_started,
    is_teams,
    legs,
    progress,
    round_matches,
    round_tables,
    team_event,
    teams_movement,
    teams_of,
    teams_section,
    teams_session,
)
from tournaments.services.teams.team_standings import standings
from tournaments.services.teams.triplicate import patton_rounds, start_triplicate

# --- settings -------------------------------------------------------------------------------


# Settings the stored match scores, knockout winners or standings depend on: changing one
# after the start classifies the event again.
RESCORED_SETTINGS = ("scoring", "knockout_tie", "vp_scale", "bye_vp", "tie_breaks")


def configure(tournament: Tournament, **changes) -> TeamEvent:
    """Save the team settings; the format and the match length cannot change once started."""
    if not is_teams(tournament):
        raise TournamentError(_("This is not a teams event."))
    event = team_event(tournament, fresh=True)
    fixed = {"format", "round_robin_method", "boards_per_match", "legs", "knockout_seeding"}
    if has_started(tournament):
        changed = [f for f in fixed if f in changes and changes[f] != getattr(event, f)]
        if changed:
            raise TournamentError(
                _(
                    "The event has started: the format and the boards per "
                    "match can no longer change."
                ),
                changed[0],
            )
    started = has_started(tournament)
    rescore = started and any(
        f in changes and changes[f] != getattr(event, f) for f in RESCORED_SETTINGS
    )
    if (
        started
        and event.is_knockout
        and changes.get("knockout_tie", event.knockout_tie) != event.knockout_tie
    ):
        if tie_rule_in_use(teams_session(tournament)):
            raise TournamentError(
                _(
                    "A tie this rule decided has gone into the next stage: "
                    "the tie rule can no longer change."
                ),
                "knockout_tie",
            )
    for name, value in changes.items():
        setattr(event, name, value)
    validate_settings(event)
    event.save()
    if rescore:  # the stored scores, winners and standings follow the old settings
        classify_session(teams_session(tournament))
    return event


def validate_settings(event: TeamEvent) -> None:
    if not 1 <= event.boards_per_match <= 64:
        raise TournamentError(_("A match has 1 to 64 boards."), "boards_per_match")
    if event.vp_scale == VPScale.COURSE25 and event.boards_per_match not in COURSE25_BOARDS:
        raise TournamentError(
            _("The 25-VP table has columns for %(boards)s boards only.")
            % {"boards": ", ".join(str(b) for b in COURSE25_BOARDS)},
            "vp_scale",
        )
    if event.format == TeamFormat.SWISS and not 1 <= event.swiss_rounds <= 30:
        raise TournamentError(_("A Swiss has 1 to 30 rounds."), "swiss_rounds")
    if not 1 <= event.legs <= 4:
        raise TournamentError(_("A round robin is played in 1 to 4 legs."), "legs")
    if event.format == TeamFormat.KNOCKOUT and not 1 <= event.tie_boards <= 16:
        raise TournamentError(_("A tie-break segment has 1 to 16 boards."), "tie_boards")
    if event.bye_vp is not None and not 0 <= Decimal(event.bye_vp) <= 25:
        raise TournamentError(_("A bye is worth 0 to 25 VPs."), "bye_vp")
    if event.format == TeamFormat.PATTON and not 3 <= event.boards_per_match <= 8:
        raise TournamentError(
            _("A Patton plays 3 to 8 boards per match (the course says 3 to 5)."),
            "boards_per_match",
        )


def planned_rounds(event: TeamEvent, teams: int) -> int:
    if event.format == TeamFormat.ROUND_ROBIN:
        return (teams - 1 + teams % 2) * event.legs
    if event.format == TeamFormat.PATTON:
        return teams - 1 + teams % 2
    if event.format == TeamFormat.TRIPLICATE:
        return 4
    if event.format == TeamFormat.KNOCKOUT:
        return stages_for(teams)
    return event.swiss_rounds


# --- the movement ---------------------------------------------------------------------------


@transaction.atomic
def start_teams(
    tournament: Tournament,
    *,
    user=None,
    order: Sequence[Entry] | None = None,
    rng: random.Random | None = None,
) -> Session:
    """Number the teams, lay out the schedule (round robin: all of it; Swiss: round 1), seat
    them, issue the table codes and open the session to the table devices."""
    if not is_teams(tournament):
        raise TournamentError(_("This is not a teams event."))
    if not tournament.method.is_teams:
        raise TournamentError(
            _("A teams event is scored in IMPs or victory points."), "scoring_method"
        )
    event = team_event(tournament)
    validate_settings(event)
    session = Session.objects.select_for_update(no_key=True).get(pk=teams_session(tournament).pk)
    if session.status != SessionStatus.DRAFT or has_started(tournament):
        raise TournamentError(_("The session has already started."))
    teams = list(order) if order is not None else teams_of(tournament)
    if len(teams) < 2:
        raise TournamentError(_("A teams event needs at least two teams."))
    if event.is_triplicate:
        return start_triplicate(session, event, teams, user=user)
    if event.format == TeamFormat.SWISS and event.random_first_round:
        (rng or random.SystemRandom()).shuffle(teams)
    bracket = None
    if event.is_knockout:
        teams = seeded(event, teams, rng)  # numbered in seed order
    n, k = len(teams), event.boards_per_match
    try:
        if event.format == TeamFormat.ROUND_ROBIN:
            schedule = round_robin(n, event.round_robin_method)
            leg = [(r.round, [(m.home, m.away) for m in r.matches], r.bye) for r in schedule.rounds]
            rounds = legs(leg, event.legs)
        elif event.format == TeamFormat.PATTON:
            rounds = patton_rounds(n, k, event.round_robin_method)
        elif event.is_knockout:
            bracket, pairs, _byes = first_stage(n)
            rounds = [(1, pairs, None)]
        else:
            pairing = swiss_pairings(list(range(1, n + 1)))
            rounds = [(1, list(pairing.pairs), pairing.bye)]
    except MovementError as exc:
        raise TournamentError(
            _("This schedule is not possible: %(reason)s") % {"reason": exc}
        ) from exc
    section = session.sections.order_by("letter").first() or setup.add_section(session, "A")
    Seating.objects.filter(session=session).delete()
    Seating.objects.bulk_create(
        Seating(session=session, section=section, entry=e, number=i, direction="")
        for i, e in enumerate(teams, start=1)
    )
    section.movement = teams_movement(rounds, k, n)
    if bracket is not None:
        section.movement["bracket"] = bracket
    section.tables = section.movement["tables"]
    section.save(update_fields=["movement", "tables"])
    session.rounds, session.boards_per_round = planned_rounds(event, n), k
    session.save(update_fields=["rounds", "boards_per_round"])
    by_number = {i: e for i, e in enumerate(teams, start=1)}
    TeamMatch.objects.bulk_create(round_matches(session, rounds, by_number))
    setup.ensure_boards(section)
    setup.issue_table_codes(section)
    return setup.start_session(session, user=user)


# --- progress and the Swiss draw --------------------------------------------------------------


@transaction.atomic
def draw_next_round(tournament: Tournament, *, user=None, force: bool = False) -> int:
    """Draw round r+1 of a Swiss from the standing after round r; returns its number.

    The best-placed team not yet paired meets the best-placed team it has not met
    (``swiss_pairings``: a rematch only when no other pairing exists; a bye to the lowest team
    without one). The better-placed team of each match is the home team. ``force`` draws
    before every result of the round is in (the director's call).
    """
    event = team_event(tournament)
    if not event.is_swiss:
        raise TournamentError(_("Only a Swiss is drawn round by round."))
    session = Session.objects.select_for_update(no_key=True).get(pk=teams_session(tournament).pk)
    if session.status != SessionStatus.RUNNING:
        raise TournamentError(_("The session is not being played."))
    rounds = progress(session)
    last = rounds[-1].round if rounds else 0
    if last >= session.rounds:
        raise TournamentError(_("Every round has been drawn."))
    if rounds and not rounds[-1].complete and not force:
        raise TournamentError(
            _("Round %(round)s is not complete: %(missing)s results missing.")
            % {"round": last, "missing": rounds[-1].expected - rounds[-1].results}
        )
    classify_session(session)
    section = Section.objects.select_for_update(no_key=True).get(pk=teams_section(session).pk)
    numbers = dict(Seating.objects.filter(session=session).values_list("entry_id", "number"))
    entry_of = {n: e for e, n in numbers.items()}
    active = set(
        Entry.objects.filter(pk__in=numbers, status=EntryStatus.ACTIVE).values_list("pk", flat=True)
    )
    table = standings(session)
    order = [numbers[line.entry_id] for line in table if line.entry_id in active]
    order += sorted(numbers[e] for e in active if numbers[e] not in order)
    played, byes = [], []
    for home, away in TeamMatch.objects.filter(session=session).values_list("home_id", "away_id"):
        if away is None:
            byes.append(numbers[home])
        else:
            played.append((numbers[home], numbers[away]))
    try:
        pairing = swiss_pairings(order, played, byes)
    except MovementError as exc:
        raise TournamentError(_("No draw is possible: %(reason)s") % {"reason": exc}) from exc
    number = last + 1
    plan_round = (number, list(pairing.pairs), pairing.bye)
    movement = dict(section.movement)
    movement["rounds"] = [
        *movement.get("rounds", []),
        round_tables(number, pairing.pairs, session.boards_per_round, pairing.bye),
    ]
    section.movement = movement
    section.save(update_fields=["movement"])
    by_number = {n: Entry(pk=e) for n, e in entry_of.items()}
    TeamMatch.objects.bulk_create(round_matches(session, [plan_round], by_number))
    setup.ensure_boards(section)
    AuditEntry.objects.create(
        tournament=tournament,
        session=session,
        action=AuditAction.MOVEMENT,
        user=user,
        after={
            "round": number,
            "matches": [list(p) for p in pairing.pairs],
            "bye": pairing.bye,
            "rematches": pairing.rematches,
        },
        reason=_("Swiss draw of round %(round)s.") % {"round": number}
        + (" " + _("Drawn before the previous round was complete.") if force else ""),
    )
    return number


# --- scoring a match ------------------------------------------------------------------------


# --- standings ------------------------------------------------------------------------------


# --- what pages show ------------------------------------------------------------------------

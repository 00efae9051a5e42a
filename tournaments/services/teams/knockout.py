"""Knockout teams events, the director's actions: seeds, the next stage's draw, carry-over and
tie-break segments (the bracket as stored and scored is ``knockout_bracket``).

The course leaves the pairing to the organiser ("sorteo, cabezas de serie, sorteo dirigido",
C03 l.175) and says only that a team winning by at least 1 IMP goes through (l.177); byes and
ties are the conditions of contest's business. Here the teams are numbered in seed order
(registration, the director's seeds or a random draw), ``movements.teams.knockout`` lays out
the bracket (byes to the top seeds, seeds 1 and 2 apart until the final) and it is stored in
the section's movement under ``"bracket"``. Stage s is round s of the movement, played on the
boards (s−1)·k+1 … s·k at tables 2m−1 (open room) and 2m (closed room) like any teams match.

A match's score is its IMPs, board by board the average of both teams' own IMPs (Law 12C4,
C03 l.828-833: with split or artificial scores the two sides' IMPs differ), plus the carry-over
the director enters (a qualifying stage, a handicap). When neither team wins by 1 IMP the
event's tie rule applies: the director adds a segment of extra boards played at the same two
tables (numbered after every stage's boards so they never clash), or the higher seed goes
through, or the team that won more boards (then the higher seed). When every match of a stage
has gone through, the director draws the next stage from the winners, as a Swiss round is
drawn: a round is appended to the movement and the table devices move on.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditAction,
    AuditEntry,
    EntryStatus,
    KnockoutSeeding,
    KnockoutTie,
    Seating,
    Section,
    Session,
    SessionStatus,
    TeamEvent,
    TeamMatch,
    Tournament,
)
from tournaments.services.classification.classify import classify_session
from tournaments.services.classification.reclassification import follow_live
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.teams.knockout_bracket import _match_numbers, is_tied
from tournaments.services.teams.team_schedule import (
    drawn_rounds,
    has_started,
    is_teams,
    round_tables,
    team_event,
    teams_section,
    teams_session,
)


@transaction.atomic
def set_seeds(tournament: Tournament, entry_ids: Sequence[int]) -> TeamEvent:
    """The director's seeds, best first; only before the start."""
    if has_started(tournament):
        raise TournamentError(_("The event has started: the seeds can no longer change."))
    active = set(tournament.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True))
    ids = [int(pk) for pk in entry_ids]
    if len(set(ids)) != len(ids) or not set(ids) <= active:
        raise TournamentError(_("Give each registered team one seed."), "seeds")
    event = team_event(tournament)
    event.seeds = ids
    event.knockout_seeding = KnockoutSeeding.SEEDS
    event.save(update_fields=["seeds", "knockout_seeding"])
    return event


# --- scoring ----------------------------------------------------------------------------------


# --- placings ---------------------------------------------------------------------------------


# --- the director's actions -------------------------------------------------------------------


def _knockout_session(tournament: Tournament) -> tuple[TeamEvent, Session]:
    event = team_event(tournament)
    if not event.is_knockout:
        raise TournamentError(_("This is not a knockout event."))
    session = Session.objects.select_for_update(no_key=True).get(pk=teams_session(tournament).pk)
    if session.status != SessionStatus.RUNNING:
        raise TournamentError(_("The session is not being played."))
    return event, session


def _classify(session: Session) -> None:
    classify_session(session)


def _current_stage(session: Session) -> int:
    return drawn_rounds(session)


def can_draw_stage(session: Session) -> bool:
    """Whether every match of the last stage has a team through and a stage is left (the
    director's pages ask, the console every few seconds: like every live page they read the
    stored winners through ``follow_live``; the draw itself classifies first)."""
    if (
        session.status != SessionStatus.RUNNING
        or not is_teams(session.tournament)
        or not team_event(session.tournament).is_knockout
    ):
        return False
    follow_live(session)  # who went through is stored by the classification
    stage = _current_stage(session)
    matches = TeamMatch.objects.filter(session=session, round=stage)
    return (
        0 < stage < session.rounds
        and matches.exists()
        and not matches.filter(winner__isnull=True).exists()
    )


@transaction.atomic
def draw_next_stage(tournament: Tournament, *, user=None) -> int:
    """Pair the winners of stage s as the bracket says and append stage s+1 to the movement
    (the better seed at home); returns the new stage's number."""
    event, session = _knockout_session(tournament)
    stage = _current_stage(session)
    if stage >= session.rounds:
        raise TournamentError(_("Every stage has been drawn."))
    _classify(session)
    matches = {m.number: m for m in TeamMatch.objects.filter(session=session, round=stage)}
    undecided = [m for m in matches.values() if m.winner_id is None]
    if undecided:
        raise TournamentError(
            _("Stage %(stage)s is not decided: %(count)s matches have no team through yet.")
            % {"stage": stage, "count": len(undecided)}
        )
    section = Section.objects.select_for_update(no_key=True).get(pk=teams_section(session).pk)
    numbers = dict(Seating.objects.filter(session=session).values_list("entry_id", "number"))
    movement = dict(section.movement)
    bracket = movement["bracket"]["stages"]
    through = {
        bm: numbers[matches[n].winner_id] for bm, n in _match_numbers(bracket[stage - 1]).items()
    }

    def contestant(value) -> int:
        if isinstance(value, str):  # "W<stage>-<match>"
            return through[int(value.split("-")[1])]
        return int(value)

    pairs = []
    for m in bracket[stage]:
        a, b = contestant(m["a"]), contestant(m["b"])
        pairs.append((min(a, b), max(a, b)))
    number = stage + 1
    movement["rounds"] = [
        *movement.get("rounds", []),
        round_tables(number, pairs, session.boards_per_round),
    ]
    section.movement = movement
    section.save(update_fields=["movement"])
    entry_of = {n: e for e, n in numbers.items()}
    TeamMatch.objects.bulk_create(
        TeamMatch(session=session, round=number, number=i, home_id=entry_of[h], away_id=entry_of[a])
        for i, (h, a) in enumerate(pairs, start=1)
    )
    setup.ensure_boards(section)
    AuditEntry.objects.create(
        tournament=tournament,
        session=session,
        action=AuditAction.MOVEMENT,
        user=user,
        after={"round": number, "matches": [list(p) for p in pairs]},
        reason=_("Knockout draw of stage %(stage)s.") % {"stage": number},
    )
    return number


def _open_match(tournament: Tournament, match_pk: int) -> tuple[TeamEvent, Session, TeamMatch]:
    event, session = _knockout_session(tournament)
    match = (
        TeamMatch.objects.select_for_update(no_key=True)
        .filter(session=session, pk=match_pk, away__isnull=False)
        .first()
    )
    if match is None:
        raise TournamentError(_("No such match."))
    if match.round != _current_stage(session):
        raise TournamentError(_("The next stage has been drawn: this match is closed."))
    return event, session, match


@transaction.atomic
def set_carry_over(
    tournament: Tournament,
    match_pk: int,
    *,
    home: Decimal,
    away: Decimal,
    user=None,
    reason: str = "",
) -> TeamMatch:
    """The IMPs each team brings into a match, as the conditions of contest give them."""
    _event, session, match = _open_match(tournament, match_pk)
    home, away = Decimal(home), Decimal(away)
    if not (0 <= home <= 999 and 0 <= away <= 999):
        raise TournamentError(_("A carry-over is 0 to 999 IMPs."), "carry")
    before = {"home": str(match.home_carry), "away": str(match.away_carry)}
    match.home_carry, match.away_carry = home, away
    match.save(update_fields=["home_carry", "away_carry"])
    AuditEntry.objects.create(
        tournament=tournament,
        session=session,
        action=AuditAction.MOVEMENT,
        user=user,
        before=before,
        after={"match": match.pk, "home": str(home), "away": str(away)},
        reason=reason
        or _("Carry-over for stage %(stage)s, match %(match)s.")
        % {"stage": match.round, "match": match.number},
    )
    _classify(session)
    match.refresh_from_db()
    return match


@transaction.atomic
def add_tie_segment(tournament: Tournament, match_pk: int, *, user=None) -> list[int]:
    """A tied match plays the event's tie-break boards at the same two tables; returns them.

    The boards are numbered after every board the bracket can use and every earlier segment,
    so they never clash with a later stage.
    """
    event, session, match = _open_match(tournament, match_pk)
    if event.knockout_tie != KnockoutTie.EXTRA_BOARDS:
        raise TournamentError(_("The conditions of contest decide a tie without extra boards."))
    _classify(session)
    match.refresh_from_db()
    if not is_tied(match):
        raise TournamentError(_("Only a tied match with every board in plays a tie-break."))
    section = Section.objects.select_for_update(no_key=True).get(pk=teams_section(session).pk)
    movement = dict(section.movement)
    used = max(
        (
            int(b)
            for rnd in movement.get("rounds", ())
            for t in rnd.get("tables", ())
            for b in t["boards"]
        ),
        default=0,
    )
    first = max(used, session.rounds * session.boards_per_round) + 1
    boards = list(range(first, first + event.tie_boards))
    rounds = []
    for rnd in movement["rounds"]:
        if int(rnd["round"]) == match.round:
            rnd = {
                **rnd,
                "tables": [
                    {**t, "boards": [*t["boards"], *boards]}
                    if int(t["table"]) in (match.open_table, match.closed_table)
                    else t
                    for t in rnd["tables"]
                ],
            }
        rounds.append(rnd)
    movement["rounds"] = rounds
    section.movement = movement
    section.save(update_fields=["movement"])
    match.tie_segments = [*match.tie_segments, boards]
    match.save(update_fields=["tie_segments"])
    setup.ensure_boards(section)
    AuditEntry.objects.create(
        tournament=tournament,
        session=session,
        action=AuditAction.MOVEMENT,
        user=user,
        after={"match": match.pk, "boards": boards},
        reason=_("Tie-break segment for stage %(stage)s, match %(match)s.")
        % {"stage": match.round, "match": match.number},
    )
    _classify(session)
    return boards


# --- what the bracket page shows -----------------------------------------------------------------

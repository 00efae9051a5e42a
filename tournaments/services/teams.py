"""Teams events: schedule, Swiss draw, match scoring and standings, on top of the pairs flow.

A teams event is one session with one section "A". Its movement is an ordinary stored
movement (``kind`` "teams", numbered by team): in round r, match m plays at table 2m-1
(open room: home team NS, away team EW) and table 2m (closed room: away NS, home EW), both
tables on the round's boards (r-1)·k+1 … r·k (C03 l.249, Art. 112). So table codes, entry at
the table, conflicts, corrections, adjusted scores and the audit work as for pairs; team
numbers are the seating numbers.

What is new lives here: ``TeamMatch`` rows (who meets whom), the Swiss draw of the next
round from the standing (``movements.teams.swiss_pairings``), scoring each match board by
board from both rooms (``scoring.teams.team_board``; adjusted scores give each team its own
IMPs, C03 l.790-833), victory points from each team's own margin, and standings with the
event's tie-breaks. ``classification.classify_session`` calls ``classify_teams`` for teams
events, so publication and live pages work unchanged.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    AuditAction,
    AuditEntry,
    Entry,
    EntryStatus,
    EventType,
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    Seating,
    Section,
    Session,
    SessionStatus,
    StoredRanking,
    TeamEvent,
    TeamFormat,
    TeamMatch,
    TeamScoring,
    TieBreak,
    Tournament,
    VPScale,
)
from ..movements import MovementError
from ..movements.teams import round_robin, swiss_pairings
from ..scoring import (
    Artificial,
    NotPlayed,
    Real,
    Role,
    Split,
    Unplayed,
    Weighted,
    display_round,
)
from ..scoring.teams import ArtificialImps, team_board
from ..scoring.vp import COURSE25_BOARDS, team_vps
from . import setup
from .adjustments import core_entry
from .errors import InvalidResult, TournamentError
from .teams_scoring import POINT_UNITS, board_points

TEAM_METHODS = (ScoringMethod.VPS, ScoringMethod.IMPS)


# --- settings -------------------------------------------------------------------------------


def team_event(tournament: Tournament) -> TeamEvent:
    """The event's team settings, created with the defaults the first time they are asked for."""
    event, _created = TeamEvent.objects.get_or_create(tournament=tournament)
    return event


def is_teams(tournament: Tournament) -> bool:
    return tournament.event_type == EventType.TEAMS


def _started(tournament: Tournament) -> bool:
    return TeamMatch.objects.filter(session__tournament=tournament).exists()


# Settings the stored match scores, knockout winners or standings depend on: changing one
# after the start classifies the event again.
RESCORED_SETTINGS = ("scoring", "knockout_tie", "vp_scale", "bye_vp", "tie_breaks")


def configure(tournament: Tournament, **changes) -> TeamEvent:
    """Save the team settings; the format and the match length cannot change once started."""
    if not is_teams(tournament):
        raise TournamentError(_("This is not a teams event."))
    event = team_event(tournament)
    fixed = {"format", "round_robin_method", "boards_per_match", "legs", "knockout_seeding"}
    if _started(tournament):
        changed = [f for f in fixed if f in changes and changes[f] != getattr(event, f)]
        if changed:
            raise TournamentError(_("The event has started: the format and the boards per "
                                    "match can no longer change."), changed[0])
    started = _started(tournament)
    rescore = started and any(f in changes and changes[f] != getattr(event, f)
                              for f in RESCORED_SETTINGS)
    if started and event.is_knockout and changes.get("knockout_tie", event.knockout_tie) \
            != event.knockout_tie:
        from .knockout import tie_rule_in_use

        if tie_rule_in_use(_session(tournament)):
            raise TournamentError(_("A tie this rule decided has gone into the next stage: "
                                    "the tie rule can no longer change."), "knockout_tie")
    for name, value in changes.items():
        setattr(event, name, value)
    validate_settings(event)
    event.save()
    if rescore:  # the stored scores, winners and standings follow the old settings
        from .classification import classify_session

        classify_session(_session(tournament))
    return event


def validate_settings(event: TeamEvent) -> None:
    if not 1 <= event.boards_per_match <= 64:
        raise TournamentError(_("A match has 1 to 64 boards."), "boards_per_match")
    if event.vp_scale == VPScale.COURSE25 and event.boards_per_match not in COURSE25_BOARDS:
        raise TournamentError(
            _("The 25-VP table has columns for %(boards)s boards only.")
            % {"boards": ", ".join(str(b) for b in COURSE25_BOARDS)}, "vp_scale")
    if event.format == TeamFormat.SWISS and not 1 <= event.swiss_rounds <= 30:
        raise TournamentError(_("A Swiss has 1 to 30 rounds."), "swiss_rounds")
    if not 1 <= event.legs <= 4:
        raise TournamentError(_("A round robin is played in 1 to 4 legs."), "legs")
    if event.format == TeamFormat.KNOCKOUT and not 1 <= event.tie_boards <= 16:
        raise TournamentError(_("A tie-break segment has 1 to 16 boards."), "tie_boards")
    if event.bye_vp is not None and not 0 <= Decimal(event.bye_vp) <= 25:
        raise TournamentError(_("A bye is worth 0 to 25 VPs."), "bye_vp")
    if event.format == TeamFormat.PATTON and not 3 <= event.boards_per_match <= 8:
        raise TournamentError(_("A Patton plays 3 to 8 boards per match (the course says 3 to "
                                "5)."), "boards_per_match")


def planned_rounds(event: TeamEvent, teams: int) -> int:
    if event.format == TeamFormat.ROUND_ROBIN:
        return (teams - 1 + teams % 2) * event.legs
    if event.format == TeamFormat.PATTON:
        return teams - 1 + teams % 2
    if event.format == TeamFormat.TRIPLICATE:
        return 4
    if event.format == TeamFormat.KNOCKOUT:
        from .knockout import stages_for

        return stages_for(teams)
    return event.swiss_rounds


# --- the movement ---------------------------------------------------------------------------


RoundPlan = tuple[int, Sequence[tuple[int, int]], int | None]  # (round, [(home, away)], bye)


def round_tables(round_number: int, pairs: Sequence[tuple[int, int]], k: int,
                 bye: int | None = None) -> dict:
    """One round of the stored movement: two rooms per match on the round's boards."""
    boards = list(range((round_number - 1) * k + 1, round_number * k + 1))
    tables = []
    for m, (home, away) in enumerate(pairs, start=1):
        tables.append({"table": 2 * m - 1, "ns": home, "ew": away, "boards": boards,
                       "match": m, "room": "open"})
        tables.append({"table": 2 * m, "ns": away, "ew": home, "boards": boards,
                       "match": m, "room": "closed"})
    return {"round": round_number, "tables": tables, "bye": bye}


def teams_movement(rounds: Iterable[RoundPlan], k: int, teams: int) -> dict:
    """The stored movement of a teams event (pure): read by ``services.plan`` like any other."""
    return {"kind": "teams", "numbering": "team", "tables": 2 * (teams // 2),
            "teams": teams, "boards_per_round": k,
            "rounds": [round_tables(r, pairs, k, bye) for r, pairs, bye in rounds]}


def _session(tournament: Tournament) -> Session:
    session = tournament.sessions.order_by("number").first()
    if session is None:
        raise TournamentError(_("The tournament has no session."))
    return session


def _section(session: Session) -> Section:
    """The event's one section (created as "A" at the start)."""
    section = Section.objects.filter(session=session).order_by("letter").first()
    if section is None:
        raise TournamentError(_("The event has not started."))
    return section


def teams_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("id"))


@transaction.atomic
def start_teams(tournament: Tournament, *, user=None, order: Sequence[Entry] | None = None,
                rng: random.Random | None = None) -> Session:
    """Number the teams, lay out the schedule (round robin: all of it; Swiss: round 1), seat
    them, issue the table codes and open the session to the table devices."""
    if not is_teams(tournament):
        raise TournamentError(_("This is not a teams event."))
    if tournament.scoring_method not in TEAM_METHODS:
        raise TournamentError(_("A teams event is scored in IMPs or victory points."),
                              "scoring_method")
    event = team_event(tournament)
    validate_settings(event)
    session = Session.objects.select_for_update().get(pk=_session(tournament).pk)
    if session.status != SessionStatus.DRAFT or _started(tournament):
        raise TournamentError(_("The session has already started."))
    teams = list(order) if order is not None else teams_of(tournament)
    if len(teams) < 2:
        raise TournamentError(_("A teams event needs at least two teams."))
    if event.is_triplicate:
        from .triplicate import start_triplicate

        return start_triplicate(session, event, teams, user=user)
    if event.format == TeamFormat.SWISS and event.random_first_round:
        (rng or random.SystemRandom()).shuffle(teams)
    bracket = None
    if event.is_knockout:
        from . import knockout

        teams = knockout.seeded(event, teams, rng)  # numbered in seed order
    n, k = len(teams), event.boards_per_match
    try:
        if event.format == TeamFormat.ROUND_ROBIN:
            schedule = round_robin(n, event.round_robin_method)
            leg = [(r.round, [(m.home, m.away) for m in r.matches], r.bye)
                   for r in schedule.rounds]
            rounds = legs(leg, event.legs)
        elif event.format == TeamFormat.PATTON:
            from .triplicate import patton_rounds

            rounds = patton_rounds(n, k, event.round_robin_method)
        elif event.is_knockout:
            bracket, pairs, _byes = knockout.first_stage(n)
            rounds = [(1, pairs, None)]
        else:
            pairing = swiss_pairings(list(range(1, n + 1)))
            rounds = [(1, list(pairing.pairs), pairing.bye)]
    except MovementError as exc:
        raise TournamentError(_("This schedule is not possible: %(reason)s")
                              % {"reason": exc}) from exc
    section = session.sections.order_by("letter").first() or setup.add_section(session, "A")
    Seating.objects.filter(session=session).delete()
    Seating.objects.bulk_create(Seating(session=session, section=section, entry=e, number=i,
                                        direction="") for i, e in enumerate(teams, start=1))
    section.movement = teams_movement(rounds, k, n)
    if bracket is not None:
        section.movement["bracket"] = bracket
    section.tables = section.movement["tables"]
    section.save(update_fields=["movement", "tables"])
    session.rounds, session.boards_per_round = planned_rounds(event, n), k
    session.save(update_fields=["rounds", "boards_per_round"])
    by_number = {i: e for i, e in enumerate(teams, start=1)}
    TeamMatch.objects.bulk_create(_matches(session, rounds, by_number))
    setup.ensure_boards(section)
    setup.issue_table_codes(section)
    return setup.start_session(session, user=user)


def legs(leg: Sequence[RoundPlan], count: int) -> list[RoundPlan]:
    """A round robin played ``count`` times: every other leg swaps home and away ("si el
    encuentro es a doble vuelta, en la segunda se invierten las posiciones", C03 l.253)."""
    out = list(leg)
    for i in range(1, count):
        out += [(r + i * len(leg), [(a, h) if i % 2 else (h, a) for h, a in pairs], bye)
                for r, pairs, bye in leg]
    return out


def _matches(session: Session, rounds: Iterable[RoundPlan], by_number: dict[int, Entry]
             ) -> list[TeamMatch]:
    out = []
    for r, pairs, bye in rounds:
        for m, (home, away) in enumerate(pairs, start=1):
            out.append(TeamMatch(session=session, round=r, number=m, home=by_number[home],
                                 away=by_number[away]))
        if bye is not None:
            out.append(TeamMatch(session=session, round=r, number=0, home=by_number[bye]))
    return out


# --- progress and the Swiss draw --------------------------------------------------------------


@dataclass
class RoundProgress:
    round: int
    matches: int
    results: int  # effective results entered in the round (both rooms counted)
    expected: int

    @property
    def complete(self) -> bool:
        return self.results >= self.expected


def progress(session: Session) -> list[RoundProgress]:
    """Results entered per drawn round (two queries)."""
    k = session.boards_per_round
    counts: dict[int, int] = defaultdict(int)
    for r in Result.objects.filter(section__session=session, status=ResultStatus.OK) \
            .values_list("round", flat=True):
        counts[r] += 1
    matches: dict[int, int] = defaultdict(int)
    extra: dict[int, int] = defaultdict(int)  # a knockout's tie-break boards, in both rooms
    drawn: set[int] = set()
    for r, number, segments in TeamMatch.objects.filter(session=session) \
            .values_list("round", "number", "tie_segments"):
        drawn.add(r)
        if number:
            matches[r] += 1
            extra[r] += sum(len(segment) for segment in segments or ())
    rooms = 1 if team_event(session.tournament).is_triplicate else 2  # a triplicate table is one
    return [RoundProgress(r, matches[r], counts[r], rooms * (k * matches[r] + extra[r]))
            for r in sorted(drawn)]


def drawn_rounds(session: Session) -> int:
    return max(TeamMatch.objects.filter(session=session).values_list("round", flat=True),
               default=0)


def can_draw(session: Session) -> bool:
    """Whether the director may draw the next Swiss round now: the last round is complete."""
    tournament = session.tournament
    if not is_teams(tournament) or not team_event(tournament).is_swiss:
        return False
    if session.status != SessionStatus.RUNNING:
        return False
    rounds = progress(session)
    return bool(rounds) and rounds[-1].round < session.rounds and rounds[-1].complete


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
    session = Session.objects.select_for_update().get(pk=_session(tournament).pk)
    if session.status != SessionStatus.RUNNING:
        raise TournamentError(_("The session is not being played."))
    rounds = progress(session)
    last = rounds[-1].round if rounds else 0
    if last >= session.rounds:
        raise TournamentError(_("Every round has been drawn."))
    if rounds and not rounds[-1].complete and not force:
        raise TournamentError(_("Round %(round)s is not complete: %(missing)s results missing.")
                              % {"round": last,
                                 "missing": rounds[-1].expected - rounds[-1].results})
    from .classification import classify_session

    classify_session(session)
    section = Section.objects.select_for_update().get(pk=_section(session).pk)
    numbers = dict(Seating.objects.filter(session=session).values_list("entry_id", "number"))
    entry_of = {n: e for e, n in numbers.items()}
    active = set(Entry.objects.filter(pk__in=numbers, status=EntryStatus.ACTIVE)
                 .values_list("pk", flat=True))
    table = standings(session)
    order = [numbers[line.entry_id] for line in table if line.entry_id in active]
    order += sorted(numbers[e] for e in active if numbers[e] not in order)
    played, byes = [], []
    for home, away in TeamMatch.objects.filter(session=session).values_list("home_id",
                                                                            "away_id"):
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
    movement["rounds"] = [*movement.get("rounds", []),
                          round_tables(number, pairing.pairs, session.boards_per_round,
                                       pairing.bye)]
    section.movement = movement
    section.save(update_fields=["movement"])
    by_number = {n: Entry(pk=e) for n, e in entry_of.items()}
    TeamMatch.objects.bulk_create(_matches(session, [plan_round], by_number))
    setup.ensure_boards(section)
    AuditEntry.objects.create(
        tournament=tournament, session=session, action=AuditAction.MOVEMENT, user=user,
        after={"round": number, "matches": [list(p) for p in pairing.pairs],
               "bye": pairing.bye, "rematches": pairing.rematches},
        reason=_("Swiss draw of round %(round)s.") % {"round": number}
        + (" " + _("Drawn before the previous round was complete.") if force else ""),
    )
    return number


# --- scoring a match ------------------------------------------------------------------------


# A line the director marks not played names no side: both pairs at the table get the same
# artificial score, as the pairs' AEB norms give both the same percentage (average when no one
# is at fault, average minus for the players' fault, average plus for the organisation's).
NOT_PLAYED_ROLES = {Unplayed.RELAY: Role.PARTLY_AT_FAULT, Unplayed.JUSTIFIED: Role.PARTLY_AT_FAULT,
                    Unplayed.PLAYER_FAULT: Role.OFFENDER, Unplayed.ORGANISATION: Role.NON_OFFENDER}


def room_score(ns_score: int | None, adjustment: dict | None):
    """A stored line as the teams core reads it: NS points, a ``Split``, ``ArtificialImps``
    (±3 / 0 by role, Law 12C2b) or a ``Weighted`` score.

    A board not played in a room is an artificial score for both sides (``NOT_PLAYED_ROLES``:
    0 IMPs when no one is at fault), so the board is compared and a knockout match can be
    decided; left out, it would keep the match incomplete for good."""
    entry = core_entry(ns_score, adjustment, imp_scoring=True)
    if isinstance(entry, Real):
        return int(entry.ns_score)
    if isinstance(entry, Artificial):
        roles = [side if isinstance(side, Role) else None for side in (entry.ns, entry.ew)]
        if None in roles:
            raise InvalidResult(_("In a teams event an artificial score is A+, A or A−."),
                                "adjustment")
        return ArtificialImps.for_roles(*roles)
    if isinstance(entry, Split | Weighted):
        return entry
    if isinstance(entry, NotPlayed):
        role = NOT_PLAYED_ROLES[entry.reason]
        return ArtificialImps.for_roles(role, role)
    return None


@dataclass(frozen=True, slots=True)
class BoardComparison:
    """One board of a match from the home team's side (nets are None when adjusted)."""

    home_net: int | None
    home_imps: Fraction
    away_imps: Fraction


def compare_board(open_room, closed_room) -> BoardComparison | None:
    """Both rooms of a board → each team's IMPs; None while a room has no score.

    A weighted score (Law 12C1c) is scored outcome by outcome and the IMPs weighted.
    """
    if open_room is None or closed_room is None:
        return None
    if isinstance(open_room, Weighted) or isinstance(closed_room, Weighted):
        home, away = Fraction(0), Fraction(0)
        opens = open_room.outcomes if isinstance(open_room, Weighted) else ((1, open_room),)
        closes = closed_room.outcomes if isinstance(closed_room, Weighted) else ((1, closed_room),)
        for w1, s1 in opens:
            for w2, s2 in closes:
                board = team_board(s1, s2)
                home += Fraction(w1) * Fraction(w2) * board.a_imps
                away += Fraction(w1) * Fraction(w2) * board.b_imps
        return BoardComparison(None, home, away)
    board = team_board(open_room, closed_room)
    net = board.a_net if isinstance(open_room, int) and isinstance(closed_room, int) else None
    return BoardComparison(net, board.a_imps, board.b_imps)


@dataclass
class MatchScore:
    home_won: Fraction = Fraction(0)
    home_lost: Fraction = Fraction(0)
    away_won: Fraction = Fraction(0)
    away_lost: Fraction = Fraction(0)
    boards: int = 0
    home_points: Fraction = Fraction(0)  # board-a-match, total or Patton points
    away_points: Fraction = Fraction(0)
    refused: int = 0  # boards an artificial score keeps out of those points

    def add(self, board: BoardComparison) -> None:
        for imps, side in ((board.home_imps, "home"), (board.away_imps, "away")):
            if imps >= 0:
                setattr(self, f"{side}_won", getattr(self, f"{side}_won") + imps)
            else:
                setattr(self, f"{side}_lost", getattr(self, f"{side}_lost") - imps)
        self.boards += 1

    @property
    def home_margin(self) -> Fraction:
        return self.home_won - self.home_lost

    @property
    def away_margin(self) -> Fraction:
        return self.away_won - self.away_lost


def _lines_by_room(results: Iterable[dict]) -> dict[tuple[int, int, int, int], dict]:
    return {(r["round"], r["board__number"], r["ns_id"], r["ew_id"]): r for r in results}


def score_matches(matches: Sequence[TeamMatch], results: Iterable[dict],
                  boards_of: dict[tuple[int, int], list[int]],
                  unit: str = TeamScoring.IMPS) -> dict[int, MatchScore]:
    """Pure over loaded rows: each match's IMPs from the effective results of both rooms over
    its own boards (``boards_of_matches``), and its board-a-match, total or Patton points when
    ``unit`` is one of those."""
    rooms = _lines_by_room(results)
    out: dict[int, MatchScore] = {}
    for match in matches:
        score = MatchScore()
        out[match.pk] = score
        if match.away_id is None:
            continue
        for b in boards_of.get((match.round, match.number), ()):
            open_row = rooms.get((match.round, b, match.home_id, match.away_id))
            closed_row = rooms.get((match.round, b, match.away_id, match.home_id))
            if open_row is None or closed_row is None:
                continue
            open_room = room_score(open_row["ns_score"], open_row["adjustment"])
            closed_room = room_score(closed_row["ns_score"], closed_row["adjustment"])
            board = compare_board(open_room, closed_room)
            if board is not None:
                score.add(board)
            if unit in POINT_UNITS:
                points = board_points(unit, open_room, closed_room)
                if points is not None and points.refused:
                    score.refused += 1
                elif points is not None:
                    score.home_points += points.home
                    score.away_points += points.away
    return out


def _boards_of(movement: dict) -> dict[int, list[int]]:
    """The boards of each round as its first table plays them: right for a triplicate, whose
    tables all play the same boards; a match's own boards come from ``boards_of_matches``."""
    out: dict[int, list[int]] = {}
    for rnd in movement.get("rounds", ()):
        tables = rnd.get("tables") or []
        out[int(rnd["round"])] = [int(b) for b in tables[0]["boards"]] if tables else []
    return out


def boards_of_matches(movement: dict) -> dict[tuple[int, int], list[int]]:
    """(round, match) → the boards of that match as its open-room table plays them.

    A knockout's tie-break segment is added to the tied match's two tables only, so the
    boards of one match say nothing about another's."""
    out: dict[tuple[int, int], list[int]] = {}
    for rnd in movement.get("rounds", ()):
        for t in rnd.get("tables") or ():
            table = int(t["table"])
            room = t.get("room") or ("open" if table % 2 else "closed")
            if room != "closed":  # the open room (table 2m−1), or a triplicate's table
                number = int(t.get("match") or (table + 1) // 2)
                out[(int(rnd["round"]), number)] = [int(b) for b in t["boards"]]
    return out


# --- standings ------------------------------------------------------------------------------


@dataclass
class TeamLine:
    """A team's line in the standings."""

    entry_id: int
    number: int
    name: str
    points: Fraction = Fraction(0)  # VPs, or IMPs in an IMP-scored event
    won: Fraction = Fraction(0)
    lost: Fraction = Fraction(0)
    matches: int = 0
    boards: int = 0
    place: int = 0
    tied: bool = False
    decided_by: str = ""
    against: dict[int, Fraction] = field(default_factory=dict)  # opponent → points v them

    @property
    def imp_difference(self) -> Fraction:
        return self.won - self.lost

    @property
    def imp_quotient(self) -> Fraction:
        if self.lost == 0:
            return Fraction(10**6) if self.won else Fraction(1)
        return self.won / self.lost


def rank_teams(lines: Sequence[TeamLine], tie_breaks: Sequence[str] = ()) -> list[TeamLine]:
    """Order by points (at two decimals, as shown), then the tie-breaks in order; teams still
    level share the place. Pure."""
    def shown(value: Fraction) -> Decimal:
        return display_round(value, 2)

    def tie_key(criterion: str, group: list[TeamLine]):
        ids = {t.entry_id for t in group}
        if criterion == TieBreak.HEAD_TO_HEAD:
            return lambda t: sum((v for o, v in t.against.items() if o in ids), Fraction(0))
        if criterion == TieBreak.IMP_DIFFERENCE:
            return lambda t: t.imp_difference
        if criterion == TieBreak.IMP_QUOTIENT:
            return lambda t: t.imp_quotient
        raise TournamentError(f"unknown tie-break {criterion!r}")

    def split(group: list[TeamLine], criteria: Sequence[str], by: str) -> list[tuple[list, str, bool]]:
        if len(group) == 1:
            return [(group, by, False)]
        if not criteria:
            return [(group, "", True)]
        key = tie_key(criteria[0], group)
        values = sorted({key(t) for t in group}, reverse=True)
        if len(values) == 1:
            return split(group, criteria[1:], by)
        out = []
        for value in values:
            sub = [t for t in group if key(t) == value]
            out += split(sub, criteria[1:], criteria[0]) if len(sub) > 1 else [(sub, criteria[0], False)]
        return out

    ordered = sorted(lines, key=lambda t: (-shown(t.points), t.number))
    result: list[TeamLine] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and shown(ordered[j].points) == shown(ordered[i].points):
            j += 1
        for group, by, tied in split(ordered[i:j], list(tie_breaks), ""):
            place = len(result) + 1
            for t in sorted(group, key=lambda t: t.number):
                t.place, t.tied, t.decided_by = place, tied, by
                result.append(t)
        i = j
    return result


def _fraction(value) -> Fraction:
    """Stored decimals convert exactly; a float (computed, not stored) by its shortest text."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def standing_lines(matches: Iterable[TeamMatch], teams: dict[int, tuple[int, str]],
                   *, vps: bool, bye_vp: Fraction, points: bool = False) -> dict[int, TeamLine]:
    """Totals per team from stored match scores (pure). A match counts once a board of it has
    been scored; a bye counts once play has reached its round (a round robin lays out every
    round, and its byes, at the start)."""
    matches = list(matches)
    lines = {e: TeamLine(e, number, name) for e, (number, name) in teams.items()}
    reached = max((m.round for m in matches if m.boards_played), default=0)
    for m in matches:
        home = lines.get(m.home_id)
        if m.away_id is None:
            if home is not None and m.round <= reached:
                home.matches += 1
                home.points += bye_vp if vps else Fraction(0)
            continue
        if not m.boards_played:
            continue
        away = lines.get(m.away_id)
        sides = ((home, m.away_id, m.home_won, m.home_lost, m.home_vp, m.home_points),
                 (away, m.home_id, m.away_won, m.away_lost, m.away_vp, m.away_points))
        for line, opponent, won, lost, vp, pts in sides:
            if line is None:
                continue
            won, lost = _fraction(won), _fraction(lost)
            gained = (_fraction(pts or 0) if points else _fraction(vp or 0) if vps
                      else won - lost)
            line.points += gained
            line.won += won
            line.lost += lost
            line.matches += 1
            line.boards += m.boards_played
            line.against[opponent] = line.against.get(opponent, Fraction(0)) + gained
    return lines


def _team_names(session: Session) -> dict[int, tuple[int, str, str]]:
    return {s["entry_id"]: (s["number"], s["entry__name"] or s["entry__display_name"],
                            s["entry__status"])
            for s in Seating.objects.filter(session=session).values(
                "entry_id", "number", "entry__name", "entry__display_name", "entry__status")}


def standings(session: Session, matches: Sequence[TeamMatch] | None = None) -> list[TeamLine]:
    """The ranked standings from the stored match scores (two queries)."""
    tournament = session.tournament
    event = team_event(tournament)
    seats = _team_names(session)
    teams = {e: (n, name) for e, (n, name, status) in seats.items()
             if status == EntryStatus.ACTIVE}
    if matches is None:
        matches = list(TeamMatch.objects.filter(session=session))
    # A knockout is scored in IMPs whatever the tournament's method (``TeamEvent.unit``).
    lines = standing_lines(matches, teams, vps=event.unit == TeamScoring.VPS,
                           bye_vp=Fraction(str(event.bye_vp)), points=event.unit in POINT_UNITS)
    if event.is_knockout:  # the stage reached places the teams; IMPs come second
        from .knockout import rank_knockout

        return rank_knockout(list(lines.values()), matches, session.rounds)
    return rank_teams(list(lines.values()), event.tie_break_order)


def classify_teams(data) -> int:
    """Score every match from the loaded session (``session_data.SessionData``), store the
    match scores and the standings; returns the new ranking version."""
    session = data.session
    tournament = session.tournament
    event = team_event(tournament)
    section = next((s for s in data.sections if s.movement), None)
    matches = list(TeamMatch.objects.filter(session=session))
    movement = section.movement if section else {}
    unit = event.unit
    if event.is_triplicate:
        from .triplicate import score_triplicate

        scores = score_triplicate(matches, data.results, _boards_of(movement))
    else:
        scores = score_matches(matches, data.results, boards_of_matches(movement), unit)
    vps = unit == TeamScoring.VPS
    k = session.boards_per_round or event.boards_per_match
    before = {m.pk: _match_values(m) for m in matches}
    for m in matches:
        s = scores[m.pk]
        m.home_won, m.home_lost = _decimal(s.home_won), _decimal(s.home_lost)
        m.away_won, m.away_lost = _decimal(s.away_won), _decimal(s.away_lost)
        m.boards_played = s.boards
        if unit in POINT_UNITS and m.away_id is not None:
            m.home_points, m.away_points = _decimal(s.home_points), _decimal(s.away_points)
        else:
            m.home_points = m.away_points = None
        if m.away_id is None:
            m.home_vp, m.away_vp = (event.bye_vp if vps else None), None
        elif vps and s.boards:
            m.home_vp = display_round(team_vps(s.home_margin, k, event.vp_scale))
            m.away_vp = display_round(team_vps(s.away_margin, k, event.vp_scale))
        else:
            m.home_vp = m.away_vp = None
    if event.is_knockout and section is not None:
        from .knockout import score_knockout

        score_knockout(matches, data.results, section.movement, event)
    table = standings(session, matches)
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        version = locked.ranking_version + 1
        _save_match_scores([m for m in matches if _match_values(m) != before[m.pk]])
        if event.is_knockout:
            from .knockout import save_knockout

            save_knockout(matches)
        StoredRanking.objects.filter(session=locked).delete()
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).delete()
        rows = []
        for line in table:
            for scope, sec in ((RankingScope.SECTION, section), (RankingScope.EVENT, None)):
                if scope == RankingScope.SECTION and sec is None:
                    continue
                rows.append(StoredRanking(
                    tournament=tournament, session=locked if sec else None, section=sec,
                    scope=scope, pool=sec.pool if sec else "", entry_id=line.entry_id,
                    number=line.number, names=line.name[:300], place=line.place,
                    tied=line.tied, decided_by=line.decided_by[:20],
                    points=display_round(line.points), exact=_imps_text(line),
                    boards=line.boards, version=version))
        StoredRanking.objects.bulk_create(rows)
        locked.ranking_version = version
        locked.classified_through = data.stamp or timezone.now()
        locked.save(update_fields=["ranking_version", "classified_through"])
    return version


def _decimal(value: Fraction) -> Decimal:
    """Two decimals, half up; whole numbers (nearly every IMP total) skip the rounding."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    return display_round(value)


MATCH_SCORE_FIELDS = ("home_won", "home_lost", "away_won", "away_lost", "home_vp", "away_vp",
                      "boards_played", "home_points", "away_points")


def _match_values(match: TeamMatch) -> tuple:
    return tuple(None if getattr(match, f) is None else Decimal(getattr(match, f))
                 for f in MATCH_SCORE_FIELDS)


def _save_match_scores(changed: Sequence[TeamMatch]) -> None:
    """Write the matches whose score changed, in one batched statement: usually the matches
    of the round in play. (``bulk_update`` builds a CASE per field and row, which cost 3 s for
    500 matches.)"""
    if not changed:
        return
    columns = [TeamMatch._meta.get_field(f).column for f in MATCH_SCORE_FIELDS]
    table = connection.ops.quote_name(TeamMatch._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in columns)
    rows = []
    for m in changed:
        values = [getattr(m, f) for f in MATCH_SCORE_FIELDS]
        rows.append([None if v is None else (str(v) if isinstance(v, Decimal) else v)
                     for v in values] + [m.pk])
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)  # noqa: S608


def _number(value: Fraction) -> str:
    value = display_round(value, 2)
    return str(value.normalize()) if value == value.to_integral() else str(value)


def _imps_text(line: TeamLine) -> str:
    return f"{_number(line.won)}-{_number(line.lost)}"


# --- what pages show ------------------------------------------------------------------------


@dataclass
class BoardLine:
    number: int
    open: Result | None
    closed: Result | None
    home_net: int | None
    home_imps: Fraction | None
    away_imps: Fraction | None
    home_running: Fraction
    away_running: Fraction
    home_points: Fraction | None = None  # board-a-match, total or Patton points
    away_points: Fraction | None = None
    refused: bool = False  # an artificial score these points cannot take

    @property
    def compared(self) -> bool:
        return self.home_imps is not None


def match_boards(match: TeamMatch) -> list[BoardLine]:
    """Board by board: both rooms' results, the home team's net, each team's IMPs and the
    running totals (two queries)."""
    if match.away_id is None:
        return []
    section = _section(match.session)
    boards = boards_of_matches(section.movement).get((match.round, match.number), [])
    rows = Result.objects.filter(section=section, round=match.round, status=ResultStatus.OK,
                                 board__number__in=boards).select_related("board")
    rooms: dict[tuple[int, int], Result] = {}
    for row in rows:
        rooms[(row.board.number, row.ns_id)] = row
    unit = team_event(match.session.tournament).unit
    out, home_total, away_total = [], Fraction(0), Fraction(0)
    for b in boards:
        open_row, closed_row = rooms.get((b, match.home_id)), rooms.get((b, match.away_id))
        board, points = None, None
        if open_row is not None and closed_row is not None:
            open_room = room_score(open_row.ns_score, open_row.adjustment)
            closed_room = room_score(closed_row.ns_score, closed_row.adjustment)
            board = compare_board(open_room, closed_room)
            if unit in POINT_UNITS:
                points = board_points(unit, open_room, closed_room)
        if board is not None:
            home_total += board.home_imps
            away_total += board.away_imps
        out.append(BoardLine(b, open_row, closed_row, board.home_net if board else None,
                             board.home_imps if board else None,
                             board.away_imps if board else None, home_total, away_total,
                             points.home if points else None, points.away if points else None,
                             bool(points and points.refused)))
    return out


def match_at_table(session: Session, round_number: int, table: int) -> TeamMatch | None:
    number = table if team_event(session.tournament).is_triplicate else (table + 1) // 2
    return TeamMatch.objects.select_related("home", "away").filter(
        session=session, round=round_number, number=number).exclude(number=0).first()


def rounds_with_matches(session: Session) -> dict[int, list[TeamMatch]]:
    out: dict[int, list[TeamMatch]] = defaultdict(list)
    for m in TeamMatch.objects.filter(session=session).select_related("home", "away") \
            .order_by("round", "number"):
        out[m.round].append(m)
    return dict(out)


def numbers_of(session: Session) -> dict[int, int]:
    return dict(Seating.objects.filter(session=session).values_list("entry_id", "number"))


def teams_session(tournament: Tournament) -> Session:
    return _session(tournament)

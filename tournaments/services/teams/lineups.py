"""Team line-ups: which four players of a team sit where in each half of a match.

The rules are the course's (C03 l.130-136, l.287-309), applied by the pure core
``movements.lineups``: a match of more than 16 boards is played in two halves, otherwise in
one; each half a team names two pairs, one per room, and the room decides the line (the home
team NS in the open room, EW in the closed one). For the second half a continuing home pair
keeps its room and no pair may meet a pair it already met. Until a team names its players,
its line-up is the default: players 1-2 (the captain first) in the open room, 3-4 in the
closed room, and for the second half the course's proposal.

Once a half is in play (a result of its boards is entered in either room), its players may
change only with the director's leave and a reason ("únicamente en casos de enfermedad u
otros justificados", l.305). Every change of a saved line-up is logged in the audit trail,
and every player who comes in or goes out, between halves or during one, as a substitution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from clubsite.models import Member
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Result,
    ResultStatus,
    TeamLineup,
    TeamMatch,
)
from tournaments.movements import lineups as core
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.teams import team_schedule


def _messages() -> dict[str, str]:
    """The core's refusals in the user's language (the course's rules, C03 l.134-305)."""
    return {
        "too_few_players": _("A team needs four players to sit a match."),
        "four_different_players": _(
            "A line-up is four different players: one pair in the open room and another in "
            "the closed room."
        ),
        "not_in_team": _("Every player of a line-up must be registered in the team."),
        "home_pair_changed_room": _(
            "A home pair that continues in the second half stays in the room where it played "
            "the first half."
        ),
        "pairs_meet_again": _(
            "In the second half no pair may play against a pair it has already played."
        ),
    }


def _refuse(error: core.LineupError, field: str | None = None) -> TournamentError:
    return TournamentError(_messages().get(error.code, error.code), field)


# --- what a match is made of ----------------------------------------------------------------


def applies(match: TeamMatch) -> bool:
    """Line-ups are for two-room matches (not a bye, not a triplicate's table)."""
    return (
        match.away_id is not None
        and not team_schedule.team_event(match.session.tournament).is_triplicate
    )


def match_halves(match: TeamMatch) -> list[list[int]]:
    """The board numbers of each half: one half up to 16 boards, two above (C03 l.136)."""
    k = team_schedule.team_event(match.session.tournament).boards_per_match
    section = match.session.sections.order_by("letter").first()
    boards: list[int] = []
    for rnd in (section.movement or {}).get("rounds", ()) if section else ():
        if int(rnd["round"]) != match.round:
            continue
        for table in rnd.get("tables") or ():
            if table.get("match") == match.number:
                boards = [int(b) for b in table["boards"]][:k]
                break
    if not boards:  # a movement without match marks: the round's usual boards
        boards = list(range((match.round - 1) * k + 1, match.round * k + 1))
    return [[boards[i - 1] for i in half] for half in core.halves(len(boards))]


def squad(team: Entry) -> list[Member]:
    """The team's playing members in registration order (the captain first)."""
    return [
        p.member
        for p in team.entry_players.filter(active=True).select_related("member").order_by("seat")
    ]


def _core(lineup: TeamLineup) -> core.TeamLineup:
    return core.TeamLineup.of(lineup.open_pair, lineup.closed_pair)


def saved_lineups(match: TeamMatch) -> dict[tuple[int, int], TeamLineup]:
    """(team id, half) → the line-up the team named."""
    rows = TeamLineup.objects.filter(match=match).select_related(
        "open_first", "open_second", "closed_first", "closed_second", "entered_by", "table_code"
    )
    return {(row.team_id, row.half): row for row in rows}


def default_lineup(team: Entry) -> core.TeamLineup:
    try:
        return core.default_lineup([m.pk for m in squad(team)])
    except core.LineupError as exc:
        raise _refuse(exc) from exc


def _first_halves(match: TeamMatch, saved) -> tuple[core.TeamLineup, core.TeamLineup]:
    def first(team: Entry) -> core.TeamLineup:
        row = saved.get((team.pk, 1))
        return _core(row) if row else default_lineup(team)

    return first(match.home), first(match.away)


def second_half_proposal(match: TeamMatch) -> tuple[core.TeamLineup, core.TeamLineup]:
    """The second half by the course: the home team as it named it (else unchanged), the
    visitors seated so that no pair meets a pair it met (usually: they swap rooms)."""
    saved = saved_lineups(match)
    first_home, first_away = _first_halves(match, saved)
    home = saved.get((match.home_id, 2))
    away = saved.get((match.away_id, 2))
    try:
        return core.propose_second_half(
            first_home,
            first_away,
            home=_core(home) if home else None,
            away_pairs=_core(away) if away else None,
        )
    except core.LineupError as exc:
        raise _refuse(exc) from exc


def lineup_for(match: TeamMatch, team: Entry, half: int) -> tuple[list[int], list[int]]:
    """What a form starts from: the saved line-up, else the default or the proposal, as
    (open room first and second, closed room first and second) member ids."""
    row = saved_lineups(match).get((team.pk, half))
    if row is not None:
        return list(row.open_pair), list(row.closed_pair)
    if half == 1:
        lineup = default_lineup(team)
    else:
        home, away = second_half_proposal(match)
        lineup = home if team.pk == match.home_id else away
    order = {m.pk: i for i, m in enumerate(squad(team))}  # the captain first in a pair
    return (
        sorted(lineup.open, key=lambda i: order.get(i, 99)),
        sorted(lineup.closed, key=lambda i: order.get(i, 99)),
    )


def half_in_play(match: TeamMatch, half: int) -> bool:
    """Whether a result of the half's boards is in, in either room of the match."""
    boards = match_halves(match)[half - 1]
    return Result.objects.filter(
        section__session=match.session,
        round=match.round,
        status=ResultStatus.OK,
        table__in=(match.open_table, match.closed_table),
        board__number__in=boards,
    ).exists()


# --- setting a line-up ------------------------------------------------------------------------


def names_first(match: TeamMatch, half: int) -> Entry:
    """The team that names its players first for ``half``: the visitors in the first half
    (the home team has the right to sit after them), the home team in the second (the
    visitors then sit so no pair meets a pair it met) — the AEB directors' course."""
    return match.away if half == 1 else match.home


def waits_for(match: TeamMatch, team: Entry, half: int, saved=None) -> Entry | None:
    """The team ``team`` must wait for before naming ``half`` at the table, else ``None``."""
    first = names_first(match, half)
    if first.pk == team.pk:
        return None
    saved = saved_lineups(match) if saved is None else saved
    return None if (first.pk, half) in saved else first


def _check_order(match: TeamMatch, team: Entry, half: int, saved) -> None:
    """Refuse a captain at the table who names a half before the team that names first."""
    first = waits_for(match, team, half, saved)
    if first is None:
        return
    if half == 1:
        message = _(
            "In the first half the visitors name their players first: wait until "
            "%(team)s has named its line-up."
        )
    else:
        message = _(
            "In the second half the home team names its players first: wait until "
            "%(team)s has named its line-up."
        )
    raise TournamentError(message % {"team": first})


def _check_second_half(match: TeamMatch, saved, changed: TeamLineup) -> None:
    """The course's second-half rules (l.297-303) over the line-ups as they would be."""
    lineups = dict(saved)
    lineups[(changed.team_id, changed.half)] = changed
    if not any(half == 2 for _team, half in lineups):
        return
    first_home, first_away = _first_halves(match, lineups)
    home, away = lineups.get((match.home_id, 2)), lineups.get((match.away_id, 2))
    home2 = _core(home) if home else first_home  # the home team unchanged, by default
    try:
        if away is None:  # the visitors sit after the home team (l.303): can they still?
            core.propose_second_half(first_home, first_away, home=home2)
        else:
            core.check_second_half(first_home, first_away, home2, _core(away))
    except core.LineupError as exc:
        raise _refuse(exc) from exc


def _names(ids: Sequence[int], members: dict[int, Member]) -> list[str]:
    return [members[i].full_name for i in ids if i in members]


@transaction.atomic
def set_lineup(
    match: TeamMatch,
    team: Entry,
    half: int,
    open_players: Sequence[Member],
    closed_players: Sequence[Member],
    *,
    user=None,
    table_code=None,
    reason: str = "",
) -> TeamLineup:
    """Save ``team``'s pairs for ``half`` of ``match`` (open room first/second, closed room
    first/second: North or East first) once the course's rules accept them.

    A table device may name line-ups only for its own match, only in the course's order (the
    visitors first in the first half, the home team first in the second) and only before the
    half is in play; after that, a change of players is the director's, with a reason (l.305).
    The director may set either team at any time: the director's word overrides the order.
    """
    match = (
        TeamMatch.objects.select_for_update(of=("self",), no_key=True)
        .select_related("home", "away", "session__tournament")
        .get(pk=match.pk)
    )
    if not applies(match):
        raise TournamentError(_("This match has no line-ups."))
    if team.pk not in (match.home_id, match.away_id):
        raise NotAllowed(_("This team does not play this match."))
    if (
        table_code is not None
        and team_schedule.match_at_table(match.session, match.round, table_code.table) != match
    ):
        raise NotAllowed(_("This device can only seat the teams of its own match."))
    if half not in range(1, len(match_halves(match)) + 1):
        raise TournamentError(_("This match has no such half."), "half")
    team = match.home if team.pk == match.home_id else match.away
    members = {m.pk: m for m in squad(team)}
    ids = [getattr(p, "pk", p) for p in (*open_players, *closed_players)]
    lineup = core.TeamLineup.of(ids[:2], ids[2:])
    try:
        core.check_team(lineup, list(members))
    except core.LineupError as exc:
        raise _refuse(exc) from exc
    saved = saved_lineups(match)
    in_play = half_in_play(match, half)
    # The captains keep the course's order; the director need not. Once the half is in play
    # the device is refused below for that reason, the one that matters then.
    if table_code is not None and not in_play:
        _check_order(match, team, half, saved)
    before = saved.get((team.pk, half))
    row = before or TeamLineup(match=match, team=team, half=half)
    old = (list(row.open_pair), list(row.closed_pair)) if before else None
    row.open_first_id, row.open_second_id, row.closed_first_id, row.closed_second_id = ids
    new = (ids[:2], ids[2:])
    if old == new:
        return row
    _check_second_half(match, saved, row)
    # Who sat before: this half as saved, else (second half) the first half as it was played.
    if before is not None:
        previous = set(old[0] + old[1])
    elif half == 2:
        first = _first_halves(match, saved)[0 if team.pk == match.home_id else 1]
        previous = set(first.open | first.closed)
    else:
        previous = set()
    joining = [i for i in ids if previous and i not in previous]
    leaving = sorted(previous - set(ids)) if previous else []
    if in_play and before is not None and joining:
        if table_code is not None or user is None:
            raise NotAllowed(_("This half is in play: only the director may replace a player."))
        if not reason.strip():
            raise TournamentError(
                _(
                    "Say why a player is replaced during the half: the course "
                    "allows it only for illness or another justified "
                    "cause."
                ),
                "reason",
            )
    if in_play and before is not None and not joining and table_code is not None:
        raise NotAllowed(_("This half is in play: the seats are fixed for the half."))
    row.entered_by = user
    row.table_code = table_code
    row.save()
    everyone = {m.pk: m for m in Member.objects.filter(pk__in=set(ids) | previous)}
    where = {"match": match.pk, "round": match.round, "team": team.pk, "half": half}
    common = {
        "tournament_id": match.session.tournament_id,
        "session": match.session,
        "user": user,
        "table_code": table_code,
        "reason": reason.strip(),
    }
    if before is not None:
        AuditEntry.objects.create(
            action=AuditAction.LINEUP,
            **common,
            before=where | {"open": _names(old[0], everyone), "closed": _names(old[1], everyone)},
            after=where | {"open": _names(new[0], everyone), "closed": _names(new[1], everyone)},
        )
    if joining:
        AuditEntry.objects.create(
            action=AuditAction.SUBSTITUTE,
            **common,
            before=where | {"players": _names(leaving, everyone)},
            after=where | {"players": _names(joining, everyone), "during": in_play},
        )
    return row


# --- what pages show ------------------------------------------------------------------------


@dataclass
class RoomSeats:
    ns: list[str]
    ew: list[str]


@dataclass
class HalfSeats:
    """Who sits where in one half: each room's NS and EW players, saved line-ups only."""

    number: int
    boards: list[int]
    open: RoomSeats
    closed: RoomSeats
    home_named: bool
    away_named: bool

    @property
    def first_board(self) -> int:
        return self.boards[0]

    @property
    def last_board(self) -> int:
        return self.boards[-1]


@dataclass
class Substitution:
    at: object
    half: int
    team: str
    joining: list[str]
    leaving: list[str]
    during: bool
    reason: str


def seating(match: TeamMatch) -> list[HalfSeats]:
    """Each half's rooms as the teams named them (empty names where a team has not)."""
    if not applies(match):
        return []
    saved = saved_lineups(match)
    out = []
    for number, boards in enumerate(match_halves(match), start=1):
        home, away = saved.get((match.home_id, number)), saved.get((match.away_id, number))

        def pair(row, room):
            if row is None:
                return []
            return [
                getattr(row, f"{room}_first").full_name,
                getattr(row, f"{room}_second").full_name,
            ]

        out.append(
            HalfSeats(
                number,
                boards,
                open=RoomSeats(ns=pair(home, "open"), ew=pair(away, "open")),
                closed=RoomSeats(ns=pair(away, "closed"), ew=pair(home, "closed")),
                home_named=home is not None,
                away_named=away is not None,
            )
        )
    return out


def substitutions(match: TeamMatch) -> list[Substitution]:
    """The match's substitutions, oldest first, from the audit trail."""
    names = {match.home_id: str(match.home), match.away_id: str(match.away)}
    rows = AuditEntry.objects.filter(
        action=AuditAction.SUBSTITUTE, session=match.session, after__match=match.pk
    ).order_by("at", "id")
    return [
        Substitution(
            row.at,
            row.after.get("half", 1),
            names.get(row.after.get("team"), ""),
            row.after.get("players", []),
            (row.before or {}).get("players", []),
            bool(row.after.get("during")),
            row.reason,
        )
        for row in rows
    ]

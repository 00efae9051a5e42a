"""A teams event's schedule as stored: its settings row, the rounds laid out in the movement
(two rooms per match), the matches, and how far play has got.

Read by every other teams module; it changes nothing but the rows it lays out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import (
    Entry,
    EntryStatus,
    EventType,
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
    SessionStatus,
    TeamEvent,
    TeamMatch,
    Tournament,
)
from tournaments.services.errors import TournamentError


def team_event(tournament: Tournament, *, fresh: bool = False) -> TeamEvent:
    """The event's team settings, created with the defaults the first time they are asked for.

    A tournament a page read with its settings (``results.visible_session``: one query with
    ``select_related("team_event")``, flagged ``team_settings_read``) already holds the row:
    it is used and no query is made, however often a page asks. Otherwise, or with
    ``fresh``, the row is read (code that changes the settings reads them fresh).
    """
    if not fresh and getattr(tournament, "team_settings_read", False):
        with suppress(TeamEvent.DoesNotExist):
            return tournament.team_event
    event, _created = TeamEvent.objects.get_or_create(tournament=tournament)
    return event


def is_teams(tournament: Tournament) -> bool:
    return tournament.event_type == EventType.TEAMS


def has_started(tournament: Tournament) -> bool:
    return TeamMatch.objects.filter(session__tournament=tournament).exists()


RoundPlan = tuple[int, Sequence[tuple[int, int]], int | None]  # (round, [(home, away)], bye)


def round_tables(
    round_number: int, pairs: Sequence[tuple[int, int]], k: int, bye: int | None = None
) -> dict:
    """One round of the stored movement: two rooms per match on the round's boards."""
    boards = list(range((round_number - 1) * k + 1, round_number * k + 1))
    tables = []
    for m, (home, away) in enumerate(pairs, start=1):
        tables.append(
            {
                "table": 2 * m - 1,
                "ns": home,
                "ew": away,
                "boards": boards,
                "match": m,
                "room": "open",
            }
        )
        tables.append(
            {"table": 2 * m, "ns": away, "ew": home, "boards": boards, "match": m, "room": "closed"}
        )
    return {"round": round_number, "tables": tables, "bye": bye}


def teams_movement(rounds: Iterable[RoundPlan], k: int, teams: int) -> dict:
    """The stored movement of a teams event (pure): read by ``services.plan`` like any other."""
    return {
        "kind": "teams",
        "numbering": "team",
        "tables": 2 * (teams // 2),
        "teams": teams,
        "boards_per_round": k,
        "rounds": [round_tables(r, pairs, k, bye) for r, pairs, bye in rounds],
    }


def teams_session(tournament: Tournament) -> Session:
    session = tournament.sessions.order_by("number").first()
    if session is None:
        raise TournamentError(_("The tournament has no session."))
    return session


def teams_section(session: Session) -> Section:
    """The event's one section (created as "A" at the start)."""
    section = Section.objects.filter(session=session).order_by("letter").first()
    if section is None:
        raise TournamentError(_("The event has not started."))
    return section


def teams_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("id"))


def legs(leg: Sequence[RoundPlan], count: int) -> list[RoundPlan]:
    """A round robin played ``count`` times: every other leg swaps home and away ("si el
    encuentro es a doble vuelta, en la segunda se invierten las posiciones", C03 l.253)."""
    out = list(leg)
    for i in range(1, count):
        out += [
            (r + i * len(leg), [(a, h) if i % 2 else (h, a) for h, a in pairs], bye)
            for r, pairs, bye in leg
        ]
    return out


def round_matches(
    session: Session, rounds: Iterable[RoundPlan], by_number: dict[int, Entry]
) -> list[TeamMatch]:
    out = []
    for r, pairs, bye in rounds:
        for m, (home, away) in enumerate(pairs, start=1):
            out.append(
                TeamMatch(
                    session=session, round=r, number=m, home=by_number[home], away=by_number[away]
                )
            )
        if bye is not None:
            out.append(TeamMatch(session=session, round=r, number=0, home=by_number[bye]))
    return out


@dataclass
class RoundProgress:
    round: int
    matches: int
    results: int  # effective results entered in the round (both rooms counted)
    expected: int

    @property
    def complete(self) -> bool:
        return self.results >= self.expected


def progress(
    session: Session, drawn_matches: Iterable[TeamMatch] | None = None
) -> list[RoundProgress]:
    """Results entered per drawn round (two queries; one given the session's matches)."""
    k = session.boards_per_round
    counts: dict[int, int] = defaultdict(int)
    for r in Result.objects.filter(section__session=session, status=ResultStatus.OK).values_list(
        "round", flat=True
    ):
        counts[r] += 1
    matches: dict[int, int] = defaultdict(int)
    extra: dict[int, int] = defaultdict(int)  # a knockout's tie-break boards, in both rooms
    drawn: set[int] = set()
    if drawn_matches is None:
        rows = TeamMatch.objects.filter(session=session).values_list(
            "round", "number", "tie_segments"
        )
    else:
        rows = [(m.round, m.number, m.tie_segments) for m in drawn_matches]
    for r, number, segments in rows:
        drawn.add(r)
        if number:
            matches[r] += 1
            extra[r] += sum(len(segment) for segment in segments or ())
    rooms = 1 if team_event(session.tournament).is_triplicate else 2  # a triplicate table is one
    return [
        RoundProgress(r, matches[r], counts[r], rooms * (k * matches[r] + extra[r]))
        for r in sorted(drawn)
    ]


def drawn_rounds(session: Session) -> int:
    return max(TeamMatch.objects.filter(session=session).values_list("round", flat=True), default=0)


def can_draw(session: Session) -> bool:
    """Whether the director may draw the next Swiss round now: the last round is complete."""
    tournament = session.tournament
    if not is_teams(tournament) or not team_event(tournament).is_swiss:
        return False
    if session.status != SessionStatus.RUNNING:
        return False
    rounds = progress(session)
    return bool(rounds) and rounds[-1].round < session.rounds and rounds[-1].complete


def match_at_table(session: Session, round_number: int, table: int) -> TeamMatch | None:
    number = table if team_event(session.tournament).is_triplicate else (table + 1) // 2
    return (
        TeamMatch.objects.select_related("home", "away")
        .filter(session=session, round=round_number, number=number)
        .exclude(number=0)
        .first()
    )


def rounds_with_matches(session: Session) -> dict[int, list[TeamMatch]]:
    out: dict[int, list[TeamMatch]] = defaultdict(list)
    for m in (
        TeamMatch.objects.filter(session=session)
        .select_related("home", "away")
        .order_by("round", "number")
    ):
        out[m.round].append(m)
    return dict(out)


def numbers_of(session: Session) -> dict[int, int]:
    return dict(Seating.objects.filter(session=session).values_list("entry_id", "number"))

"""An event's results as one plain, immutable snapshot: what files, PDFs and uploads read.

``snapshot_build.build_event_snapshot`` makes it from what the classification stored
(rankings, marks, team matches) after bringing the classification up to date once. The USEBIO
and PBN writers, the results PDF and the federation uploads take it and nothing else: they
hold no model instance, so they can neither query nor re-score, and a test can build one by
hand. Frozen dataclasses; lists given are kept as tuples and dicts as read-only mappings, so
what one reader sees no other reader can change.

This module imports only the models' choices: the outer layers read it without reaching the
services that build it.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from types import MappingProxyType

from tournaments.models import TeamFormat
from tournaments.scoring import methods


def freeze(value):
    """``value`` with every list turned into a tuple and every dict into a read-only mapping,
    at any depth (a stored adjustment, double-dummy table or par)."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


class _Frozen:
    """Freezes the containers a snapshot was built with (``freeze``)."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, Mapping | list | tuple):
                object.__setattr__(self, f.name, freeze(value))


@dataclass(frozen=True)
class Player(_Frozen):
    name: str
    first_name: str
    last_name: str
    licence: str
    guest: bool
    master_points: Decimal | None = None  # awarded in this event (``services.master_points``)
    handicap: Decimal | None = None  # the player's own, when given per player


@dataclass(frozen=True)
class Participant(_Frozen):
    """A pair, team or player of a section, with its stored ranking line."""

    entry_id: int
    number: int
    direction: str  # "NS"/"EW" in a Mitchell, "" otherwise
    name: str  # team name or the players' names
    players: tuple[Player, ...]
    place: int | None = None
    tied: bool = False
    points: Decimal | None = None
    percentage: Decimal | None = None
    boards: int = 0
    # a handicap event's second ranking (``scoring.handicap``); None elsewhere
    handicap: Decimal | None = None
    handicap_percentage: Decimal | None = None
    handicap_place: int | None = None
    handicap_tied: bool = False

    @property
    def label(self) -> str:
        return f"{self.number}{self.direction}"


@dataclass(frozen=True)
class Line(_Frozen):
    """One table's result on a board with both sides' stored marks."""

    round: int
    table: int
    ns: Participant
    ew: Participant
    contract: str
    declarer: str
    lead: str
    tricks: int | None
    ns_score: int | None
    adjustment: Mapping | None  # the stored adjustment (``services.adjustments``), read-only
    ns_mark: Decimal | None
    ew_mark: Decimal | None
    ns_pct: Decimal | None = None
    ew_pct: Decimal | None = None
    south: Participant | None = None  # individual events: North is ``ns``, East ``ew``
    west: Participant | None = None


@dataclass(frozen=True)
class BoardData(_Frozen):
    number: int
    dealer: str
    vulnerability: str  # "", "NS", "EW", "All"
    deal: str
    double_dummy: Mapping | None
    par: Mapping | None
    lines: tuple[Line, ...] = ()
    public: bool = True  # its deal and traveller may be shown to anybody (board_visibility)


@dataclass(frozen=True)
class SectionData(_Frozen):
    letter: str
    pool: str
    directional: bool
    tables: int
    participants: tuple[Participant, ...]
    boards: tuple[BoardData, ...]


@dataclass(frozen=True)
class MatchBoard(_Frozen):
    """A board of a team match: both rooms and each team's own IMPs (None: not compared)."""

    number: int
    open: Line | None
    closed: Line | None
    home_imps: Decimal | None
    away_imps: Decimal | None


@dataclass(frozen=True)
class MatchData(_Frozen):
    """A team match as the classification stored it, with its boards room by room."""

    round: int
    number: int  # 0 for a bye
    home: Participant
    away: Participant | None
    home_won: Decimal
    home_lost: Decimal
    away_won: Decimal
    away_lost: Decimal
    home_vp: Decimal | None
    away_vp: Decimal | None
    boards_played: int = 0
    boards: tuple[MatchBoard, ...] = ()

    @property
    def is_bye(self) -> bool:
        return self.away is None


@dataclass(frozen=True)
class SessionData(_Frozen):
    number: int
    sections: tuple[SectionData, ...]
    version: int  # the session's ranking version
    matches: tuple[MatchData, ...] = ()  # teams events


@dataclass(frozen=True)
class EventInfo(_Frozen):
    """The tournament and the scoring conventions its results were made with."""

    slug: str
    name: str
    date: datetime.date
    venue: str
    event_type: str  # ``EventType``: pairs, individual, teams
    scoring_method: str  # ``ScoringMethod``
    converts_matches_to_vps: bool = False  # a Butler or cross-IMP pairs event ranked by VPs
    team_format: str = ""  # ``TeamFormat`` of a teams event
    team_unit: str = ""  # ``TeamScoring``: what its standings count
    identifier: str = ""  # the scorer's own name for the event: the file's, if imported

    @property
    def method(self) -> methods.Method:
        """Everything the scoring method decides (``scoring.methods``)."""
        return methods.method(self.scoring_method)

    @property
    def is_matchpoints(self) -> bool:
        return self.method.is_matchpoints

    @property
    def is_swiss(self) -> bool:
        return self.team_format == TeamFormat.SWISS


@dataclass(frozen=True)
class EventSnapshot(_Frozen):
    club_name: str
    club_id: str
    tournament: EventInfo
    sessions: tuple[SessionData, ...]
    totals: tuple[Participant, ...] = ()  # multi-session event ranking (empty for one session)
    # the versions of the results that already had a results PDF (this one's may be among
    # them): the front page counts the corrections a reader has seen
    pdf_versions: tuple[str, ...] = ()

    @property
    def version(self) -> str:
        """The results' version: every session's ranking version, e.g. "3" or "3.1"."""
        return ".".join(str(s.version) for s in self.sessions) or "0"

    @property
    def board_count(self) -> int:
        return len(
            {(s.number, b.number) for s in self.sessions for sec in s.sections for b in sec.boards}
        )


def public_deals(data: EventSnapshot) -> EventSnapshot:
    """``data`` with only the boards anybody may see (``BoardData.public``) that carry a deal:
    what a hand-record file for the public holds. A board a table has still to play is left
    out whole, its deal and its traveller alike."""
    return replace(
        data,
        sessions=tuple(
            replace(
                session,
                sections=tuple(
                    replace(
                        section,
                        boards=tuple(b for b in section.boards if b.public and b.deal),
                    )
                    for section in session.sections
                ),
            )
            for session in data.sessions
        ),
    )


def without_marks(data: EventSnapshot) -> EventSnapshot:
    """``data`` with no ranking and no marks, its deals and scores kept: what a session being
    played shows while its running ranking hides rounds (``running_ranking``)."""
    unranked = {
        "place": None,
        "tied": False,
        "points": None,
        "percentage": None,
        "handicap": None,
        "handicap_percentage": None,
        "handicap_place": None,
        "handicap_tied": False,
    }
    blank = {"ns_mark": None, "ew_mark": None, "ns_pct": None, "ew_pct": None}
    return replace(
        data,
        totals=(),
        sessions=tuple(
            replace(
                session,
                sections=tuple(
                    replace(
                        section,
                        participants=tuple(replace(p, **unranked) for p in section.participants),
                        boards=tuple(
                            replace(b, lines=tuple(replace(line, **blank) for line in b.lines))
                            for b in section.boards
                        ),
                    )
                    for section in session.sections
                ),
            )
            for session in data.sessions
        ),
    )

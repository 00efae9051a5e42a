"""One read of a tournament's results for the file writers (USEBIO, PBN) and the PDFs.

The writers never touch the ORM: they get this plain snapshot, loaded in a fixed number of
queries per session after the stored rankings are brought up to date, so a file always
carries the figures the public pages show (and the same ``version``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from clubsite.models import Club

from ..models import (
    Board,
    EntryPlayer,
    EventType,
    RankingScope,
    Result,
    ResultStatus,
    Seating,
    StoredMark,
    StoredRanking,
    Tournament,
)
from ..services import plan
from ..services.classification import ensure_current


@dataclass
class Player:
    name: str
    first_name: str
    last_name: str
    licence: str
    guest: bool


@dataclass
class Participant:
    entry_id: int
    number: int
    direction: str  # "NS"/"EW" in a Mitchell, "" otherwise
    name: str  # team name or the players' names
    players: list[Player]
    place: int | None = None
    tied: bool = False
    points: Decimal | None = None
    percentage: Decimal | None = None
    boards: int = 0

    @property
    def label(self) -> str:
        return f"{self.number}{self.direction}"


@dataclass
class Line:
    round: int
    table: int
    ns: Participant
    ew: Participant
    contract: str
    declarer: str
    lead: str
    tricks: int | None
    ns_score: int | None
    adjustment: dict | None
    ns_mark: Decimal | None
    ew_mark: Decimal | None
    ns_pct: Decimal | None = None
    ew_pct: Decimal | None = None
    south: Participant | None = None  # individual events: North is ``ns``, East ``ew``
    west: Participant | None = None


@dataclass
class BoardData:
    number: int
    dealer: str
    vulnerability: str  # "", "NS", "EW", "All"
    deal: str
    double_dummy: dict | None
    par: dict | None
    lines: list[Line] = field(default_factory=list)


@dataclass
class SectionData:
    letter: str
    pool: str
    directional: bool
    tables: int
    participants: list[Participant]
    boards: list[BoardData]


@dataclass
class SessionData:
    number: int
    sections: list[SectionData]
    version: int
    matches: list = field(default_factory=list)  # teams: ``teams_data.MatchData``


@dataclass
class EventData:
    club_name: str
    club_id: str
    tournament: Tournament
    sessions: list[SessionData]
    totals: list[Participant]  # multi-session event ranking (empty for one session)

    @property
    def version(self) -> str:
        """The results' version: every session's ranking version, e.g. "3" or "3.1"."""
        return ".".join(str(s.version) for s in self.sessions) or "0"

    @property
    def board_count(self) -> int:
        return len({(s.number, b.number) for s in self.sessions for sec in s.sections
                    for b in sec.boards})


def _players(tournament: Tournament) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = defaultdict(list)
    for ep in (EntryPlayer.objects.filter(entry__tournament=tournament, active=True)
               .select_related("member").order_by("entry_id", "seat")):
        m = ep.member
        out[ep.entry_id].append(Player(m.full_name, m.first_name, m.last_name,
                                       m.licence_number, m.is_guest))
    return out


def load_event(tournament: Tournament, *, classify: bool = True,
               session_number: int = 0) -> EventData:
    """The tournament's results as plain data (re-classifying stale sessions first); with
    ``session_number``, that session's alone (no overall ranking)."""
    club = Club.load()
    players = _players(tournament)
    sessions = []
    chosen = tournament.sessions.order_by("number")
    if session_number:
        chosen = chosen.filter(number=session_number)
    for session in chosen:
        if not session.sections.exists():
            continue
        if classify:
            ensure_current(session)
            session.refresh_from_db()
        data = _load_session(session, players)
        if tournament.event_type == EventType.TEAMS:
            from .teams_data import load_matches

            data.matches = load_matches(session, data)
        sessions.append(data)
    totals = []
    if len(sessions) > 1 and not session_number:
        # The event ranking does not store boards played: they add up over the sessions.
        played: dict[int, int] = defaultdict(int)
        for s in sessions:
            for section in s.sections:
                for p in section.participants:
                    played[p.entry_id] += p.boards
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT) \
                .order_by("place", "entry_id"):
            totals.append(Participant(r.entry_id, 0, "", r.names, players.get(r.entry_id, []),
                                      r.place, r.tied, r.points, r.percentage,
                                      r.boards or played[r.entry_id]))
    return EventData(club.name, club.federation_club_id, tournament, sessions, totals)


def _load_session(session, players) -> SessionData:
    sections = list(session.sections.order_by("letter"))
    seats = list(Seating.objects.filter(session=session).select_related("entry"))
    ranks = {(r.section_id, r.entry_id): r for r in StoredRanking.objects.filter(
        session=session, scope=RankingScope.SECTION)}
    marks = {(m.result_id, m.entry_id): m for m in StoredMark.objects.filter(
        session=session, result__isnull=False)}
    results = list(Result.objects.filter(section__session=session, status=ResultStatus.OK)
                   .select_related("board").order_by("board__number", "round", "table"))
    boards = {(b.pool, b.number): b for b in Board.objects.filter(session=session)}
    out = []
    for section in sections:
        parts: dict[int, Participant] = {}
        for s in seats:
            if s.section_id != section.pk:
                continue
            r = ranks.get((section.pk, s.entry_id))
            parts[s.entry_id] = Participant(
                s.entry_id, s.number, s.direction, s.entry.name or s.entry.display_name,
                players.get(s.entry_id, []), r.place if r else None, r.tied if r else False,
                r.points if r else None, r.percentage if r else None, r.boards if r else 0)
        by_board: dict[int, BoardData] = {}
        for number in sorted({b + section.board_offset
                              for b in plan.plays_per_board(section.movement)}):
            b = boards.get((section.pool, number))
            if b is None:
                continue
            by_board[number] = BoardData(number, b.dealer, b.vulnerability, b.deal,
                                         b.double_dummy, b.par)
        for r in results:
            if r.section_id != section.pk or r.board.number not in by_board:
                continue
            if r.ns_id not in parts or r.ew_id not in parts:
                continue
            nm, em = marks.get((r.pk, r.ns_id)), marks.get((r.pk, r.ew_id))
            by_board[r.board.number].lines.append(Line(
                r.round, r.table, parts[r.ns_id], parts[r.ew_id], r.contract, r.declarer,
                r.lead, r.tricks, r.ns_score, r.adjustment,
                nm.mark if nm else None, em.mark if em else None,
                nm.percentage if nm else None, em.percentage if em else None,
                parts.get(r.south_id), parts.get(r.west_id)))
        ordered = sorted(parts.values(), key=lambda p: (p.direction, p.place or 9999, p.number))
        out.append(SectionData(section.letter, section.pool,
                               plan.is_directional(section.movement), section.tables,
                               ordered, [by_board[n] for n in sorted(by_board)]))
    return SessionData(session.number, out, session.ranking_version)


def number_text(value: Decimal | None, places: int = 2) -> str:
    """``Decimal("12.50")`` → ``"12.5"``; ``None`` → ``""`` (files carry no trailing zeros)."""
    if value is None:
        return ""
    text = f"{Decimal(value):.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text

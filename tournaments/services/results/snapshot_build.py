"""Build an event's snapshot (``services.snapshot``) from what the classification stored.

The one place files, PDFs and uploads get their data from: the classification is brought up
to date once (``bring_current``), then the stored rankings, marks, team matches, results,
boards and seatings of every session are read in a fixed number of queries, whatever the size
of the event, and turned into plain frozen data. Nothing here scores a session; a teams
board's IMPs are the comparison of its two stored rooms (``team_matches.compare_board``), the one
the match pages show, as the classification stores match totals only.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from clubsite.models import Club
from tournaments.models import (
    Board,
    EntryPlayer,
    EventType,
    PointsAward,
    RankingScope,
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
    StoredMark,
    StoredRanking,
    TeamMatch,
    Tournament,
)
from tournaments.models.uploads import PdfKind, ResultsPdf
from tournaments.scoring import display_round
from tournaments.services.classification.classify import ensure_current
from tournaments.services.results import board_visibility
from tournaments.services.results.snapshot import (
    BoardData,
    EventInfo,
    EventSnapshot,
    Line,
    MatchBoard,
    MatchData,
    Participant,
    Player,
    SectionData,
    SessionData,
)
from tournaments.services.setup import plan
from tournaments.services.teams.team_matches import boards_of_matches, compare_board, room_score
from tournaments.services.teams.team_schedule import team_event

RESULT_FIELDS = (
    "id",
    "section_id",
    "round",
    "table",
    "board__number",
    "ns_id",
    "ew_id",
    "south_id",
    "west_id",
    "contract",
    "declarer",
    "lead",
    "tricks",
    "ns_score",
    "adjustment",
)


def played_sessions(tournament: Tournament, session_number: int = 0) -> list[Session]:
    """The sessions with sections (all, or the one numbered ``session_number``), in order."""
    sessions = tournament.sessions.filter(sections__isnull=False).distinct()
    if session_number:
        sessions = sessions.filter(number=session_number)
    return list(sessions.order_by("number"))


def bring_current(tournament: Tournament, session_number: int = 0) -> None:
    """Re-classify now every played session whose results changed since its stored rankings
    (``classification.ensure_current``): what a file or PDF about to be made needs, once."""
    for session in played_sessions(tournament, session_number):
        ensure_current(session)


def results_version(tournament: Tournament, session_number: int = 0) -> str:
    """The version a snapshot made now would carry ("3.1"), without building it."""
    return (
        ".".join(str(s.ranking_version) for s in played_sessions(tournament, session_number)) or "0"
    )


def build_event_snapshot(
    tournament: Tournament, *, session_number: int = 0, classify: bool = True
) -> EventSnapshot:
    """The tournament's results as an ``EventSnapshot``; with ``session_number`` that session's
    alone (no overall ranking). ``classify=False`` reads what is stored as it is (the caller
    has just brought it up to date)."""
    if classify:
        bring_current(tournament, session_number)
    sessions = played_sessions(tournament, session_number)
    for session in sessions:
        session.tournament = tournament  # board visibility reads its status
    club = Club.current()
    players = _players(tournament)
    info = _event_info(tournament)
    rows = _Stored(sessions)
    data = [_session(session, rows, players, info) for session in sessions]
    totals = ()
    if len(data) > 1 and not session_number:
        totals = _event_totals(tournament, data, players)
    pdf_versions = tuple(
        ResultsPdf.objects.filter(
            tournament=tournament, kind=PdfKind.RESULTS, session_number=session_number
        )
        .order_by("version")
        .values_list("version", flat=True)
        .distinct()
    )
    return EventSnapshot(
        club.name, club.federation_club_id, info, tuple(data), totals, pdf_versions
    )


def _event_info(tournament: Tournament) -> EventInfo:
    team_format = team_unit = ""
    if tournament.event_type == EventType.TEAMS:
        event = team_event(tournament)
        event.tournament = tournament
        team_format, team_unit = str(event.format), str(event.unit)
    return EventInfo(
        tournament.slug,
        tournament.name,
        tournament.date,
        tournament.venue,
        str(tournament.event_type),
        str(tournament.scoring_method),
        tournament.converts_matches_to_vps,
        team_format,
        team_unit,
        tournament.import_identifier or tournament.slug,
    )


def _players(tournament: Tournament) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = defaultdict(list)
    awarded = dict(
        PointsAward.objects.filter(tournament=tournament).values_list("member_id", "points")
    )
    for ep in (
        EntryPlayer.objects.filter(entry__tournament=tournament, active=True)
        .select_related("member")
        .order_by("entry_id", "seat")
    ):
        m = ep.member
        out[ep.entry_id].append(
            Player(
                m.full_name,
                m.first_name,
                m.last_name,
                m.licence_number,
                m.is_guest,
                awarded.get(m.pk),
                ep.handicap,
            )
        )
    return out


class _Stored:
    """Every stored row the snapshot reads, for all its sessions at once (seven queries)."""

    def __init__(self, sessions: list[Session]) -> None:
        ids = [s.pk for s in sessions]
        self.sections: dict[int, list[Section]] = defaultdict(list)
        for section in Section.objects.filter(session_id__in=ids).order_by("letter"):
            self.sections[section.session_id].append(section)
        self.seats = list(Seating.objects.filter(session_id__in=ids).select_related("entry"))
        self.ranks = {
            (r.section_id, r.entry_id): r
            for r in StoredRanking.objects.filter(session_id__in=ids, scope=RankingScope.SECTION)
        }
        self.marks = {
            (m.result_id, m.entry_id): m
            for m in StoredMark.objects.filter(session_id__in=ids, result__isnull=False)
        }
        self.results = list(
            Result.objects.filter(section__session_id__in=ids, status=ResultStatus.OK)
            .order_by("board__number", "round", "table")
            .values(*RESULT_FIELDS)
        )
        self.boards = {
            (b.session_id, b.pool, b.number): b for b in Board.objects.filter(session_id__in=ids)
        }
        self.matches: dict[int, list[TeamMatch]] = defaultdict(list)
        if any(s.tournament.event_type == EventType.TEAMS for s in sessions):
            for m in TeamMatch.objects.filter(session_id__in=ids).order_by("round", "number"):
                self.matches[m.session_id].append(m)


def _session(session: Session, rows: _Stored, players, info: EventInfo) -> SessionData:
    visible = board_visibility.visibility(session)
    sections, raw = [], {}
    for section in rows.sections[session.pk]:
        parts: dict[int, Participant] = {}
        for s in rows.seats:
            if s.section_id != section.pk:
                continue
            r = rows.ranks.get((section.pk, s.entry_id))
            parts[s.entry_id] = Participant(
                s.entry_id,
                s.number,
                s.direction,
                s.entry.name or s.entry.display_name,
                players.get(s.entry_id, []),
                r.place if r else None,
                r.tied if r else False,
                r.points if r else None,
                r.percentage if r else None,
                r.boards if r else 0,
                r.handicap if r else None,
                r.handicap_percentage if r else None,
                r.handicap_place if r else None,
                r.handicap_tied if r else False,
            )
        lines: dict[int, list[Line]] = defaultdict(list)
        for r in rows.results:
            if r["section_id"] != section.pk:
                continue
            if r["ns_id"] not in parts or r["ew_id"] not in parts:
                continue
            nm, em = rows.marks.get((r["id"], r["ns_id"])), rows.marks.get((r["id"], r["ew_id"]))
            line = Line(
                r["round"],
                r["table"],
                parts[r["ns_id"]],
                parts[r["ew_id"]],
                r["contract"],
                r["declarer"],
                r["lead"],
                r["tricks"],
                r["ns_score"],
                r["adjustment"],
                nm.mark if nm else None,
                em.mark if em else None,
                nm.percentage if nm else None,
                em.percentage if em else None,
                parts.get(r["south_id"]),
                parts.get(r["west_id"]),
            )
            lines[r["board__number"]].append(line)
            raw[(line.round, line.table, r["board__number"])] = (line, r)
        boards = []
        for number in sorted(
            {b + section.board_offset for b in plan.plays_per_board(section.movement)}
        ):
            b = rows.boards.get((session.pk, section.pool, number))
            if b is None:
                continue
            boards.append(
                BoardData(
                    number,
                    b.dealer,
                    b.vulnerability,
                    b.deal,
                    b.double_dummy,
                    b.par,
                    lines.get(number, ()),
                    visible.shows(section.pool, number),
                )
            )
        ordered = sorted(parts.values(), key=lambda p: (p.direction, p.place or 9999, p.number))
        sections.append(
            SectionData(
                section.letter,
                section.pool,
                plan.is_directional(section.movement),
                section.tables,
                tuple(ordered),
                tuple(boards),
            )
        )
    matches = ()
    if info.event_type == EventType.TEAMS and sections:
        movement = rows.sections[session.pk][0].movement or {}
        matches = _matches(rows.matches[session.pk], sections, raw, movement)
    return SessionData(session.number, tuple(sections), session.ranking_version, matches)


def _imps(value: Fraction) -> Decimal:
    return Decimal(value.numerator) if value.denominator == 1 else display_round(value)


def _matches(
    stored: list[TeamMatch], sections: list[SectionData], raw: dict, movement: dict
) -> tuple[MatchData, ...]:
    """The session's matches as stored, each board with both rooms: the open room is table
    2m-1 (home NS), the closed room table 2m (away NS)."""
    boards_of = boards_of_matches(movement)
    people = {p.entry_id: p for s in sections for p in s.participants}
    out = []
    for m in stored:
        home = people.get(m.home_id)
        if home is None:
            continue
        away = people.get(m.away_id) if m.away_id else None
        boards = []
        if away is not None:
            for number in boards_of.get((m.round, m.number), ()):
                open_line, open_row = raw.get((m.round, m.open_table, number), (None, None))
                closed_line, closed_row = raw.get((m.round, m.closed_table, number), (None, None))
                compared = None
                if open_row is not None and closed_row is not None:
                    compared = compare_board(
                        room_score(open_row["ns_score"], open_row["adjustment"]),
                        room_score(closed_row["ns_score"], closed_row["adjustment"]),
                    )
                boards.append(
                    MatchBoard(
                        number,
                        open_line,
                        closed_line,
                        _imps(compared.home_imps) if compared else None,
                        _imps(compared.away_imps) if compared else None,
                    )
                )
        out.append(
            MatchData(
                m.round,
                m.number,
                home,
                away,
                m.home_won,
                m.home_lost,
                m.away_won,
                m.away_lost,
                m.home_vp,
                m.away_vp,
                m.boards_played,
                tuple(boards),
            )
        )
    return tuple(out)


def _event_totals(
    tournament: Tournament, sessions: list[SessionData], players
) -> tuple[Participant, ...]:
    """The multi-session event ranking; boards played (not stored for the event) add up."""
    played: dict[int, int] = defaultdict(int)
    for s in sessions:
        for section in s.sections:
            for p in section.participants:
                played[p.entry_id] += p.boards
    return tuple(
        Participant(
            r.entry_id,
            0,
            "",
            r.names,
            players.get(r.entry_id, []),
            r.place,
            r.tied,
            r.points,
            r.percentage,
            r.boards or played[r.entry_id],
        )
        for r in StoredRanking.objects.filter(
            tournament=tournament, scope=RankingScope.EVENT
        ).order_by("place", "entry_id")
    )

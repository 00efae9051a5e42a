"""A tournament's results as USEBIO 1.2 XML, the exchange format federations and scorers read.

Layout written (``docs``: shared specs, formats.md): ``USEBIO › CLUB`` and one ``EVENT``
with its header, then ``SESSION › SECTION`` each holding its ``PARTICIPANTS`` (pairs with
two ``PLAYER``s and their licence numbers, teams, or players) and its ``BOARD``s with
``TRAVELLER_LINE``s carrying the marks of the event's method; a multi-session event adds
the overall totals as ``PARTICIPANTS`` directly under ``EVENT``; known deals go in a
``HANDSET`` (with each board's ``DEALER`` and ``VULNERABILITY``). Pair numbers are numbers with the line in ``DIRECTION`` (Mitchell).
Scores are from North-South's side; an artificial adjusted score is written ``A6040``;
a split or weighted score and a not-played board's reason, which SCORE cannot hold, go in
the line's ``ADJUSTMENT`` (our extension: ``SPLIT 420 -50``, ``WEIGHTED 30:420 70:-50``,
``NP PLAYER_FAULT``), which other readers skip.
A teams event writes ``TEAM``s and ``MATCH``es instead of the section's boards
(``usebio_teams``); an individual's lines also name their four players
(``NORTH_PLAYER_NUMBER`` … ``WEST_PLAYER_NUMBER``, our reading: formats.md names none).

Everything written comes from the event's snapshot (``services.snapshot``); this module
reads nothing else and scores nothing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from django.utils.translation import gettext as _

from tournaments.services.results.snapshot import EventInfo, EventSnapshot, Line, Participant

from ..models import EventType, TeamFormat, TeamScoring
from ..scoring import methods
from ..scoring.deals import SUITS, hands
from ..services.errors import TournamentError
from .numbers import number_text

TEAM_KINDS = ("TEAMS", "SWISS_TEAMS")

PROGRAM = "clubsite"
PROGRAM_VERSION = "1.0"
ROLE_PERCENT = {"A+": 60, "A": 50, "A-": 40, "A−": 40}
VULNERABILITY = {"": "None", "NS": "NS", "EW": "EW", "All": "All"}
SUIT_TAGS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}


def event_type(tournament: EventInfo) -> str:
    if tournament.event_type == EventType.TEAMS:
        return "SWISS_TEAMS" if tournament.is_swiss else "TEAMS"
    if tournament.event_type == EventType.INDIVIDUAL:
        return "INDIVIDUAL"
    known = methods.BY_CODE.get(tournament.scoring_method)
    return (known and known.usebio_event_type) or "PAIRS"


def _sub(parent: ET.Element, tag: str, text=None, **attrs) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None and text != "":
        el.text = str(text)
    return el


def score_text(line: Line) -> str:
    """NS score, or the adjusted score: ``A6040`` (artificial), ``NP`` (not played)."""
    adj = line.adjustment
    if adj:
        kind = adj.get("kind")
        if kind == "artificial":

            def pct(side) -> str:
                side = ROLE_PERCENT.get(str(side).strip().upper(), side)
                return number_text(side, 0) if not isinstance(side, str) else side

            return f"A{pct(adj.get('ns'))}{pct(adj.get('ew'))}"
        if kind == "not_played":
            return "NP"
        if kind == "split":
            return str(adj.get("ns_score", ""))
    if line.ns_score is None:
        return "NP"
    return str(line.ns_score)


def adjustment_text(line: Line) -> str:
    """What SCORE cannot carry, for a reader that knows it (others skip the element): a split
    score ``SPLIT 420 -50`` (NS's and EW's assigned scores, Law 12C1e), a weighted score
    ``WEIGHTED 30:420 70:-50`` (percent:score, Law 12C1c) and why a board was not played
    ``NP PLAYER_FAULT`` (the AEB norms)."""
    adj = line.adjustment or {}
    kind = adj.get("kind")
    if kind == "split":
        return f"SPLIT {adj.get('ns_score')} {adj.get('ew_score')}"
    if kind == "weighted":
        return "WEIGHTED " + " ".join(f"{w}:{s}" for w, s in adj.get("outcomes", []))
    if kind == "not_played":
        return f"NP {str(adj.get('reason', 'justified')).upper()}"
    return ""


def _player(parent: ET.Element, player, club_id: str) -> None:
    el = _sub(parent, "PLAYER")
    _sub(el, "PLAYER_NAME", player.name)
    _sub(el, "NATIONAL_ID_NUMBER", player.licence)
    if not player.guest:
        _sub(el, "CLUB_ID_NUMBER", club_id)
    if player.handicap is not None:  # given per player: the pair's is their sum
        _sub(el, "HANDICAP", number_text(player.handicap))
    master_points(el, player)


def master_points(el: ET.Element, player) -> None:
    """``MASTER_POINTS › MASTER_POINTS_AWARDED``: the points the player was awarded in this
    event (``services.master_points``), when any."""
    if player.master_points is not None:
        box = _sub(el, "MASTER_POINTS")
        _sub(box, "MASTER_POINTS_AWARDED", number_text(player.master_points))


def _totals(el: ET.Element, p: Participant, per_player: bool = False) -> None:
    """A handicap event writes the pair's ``HANDICAP`` (or, when they were given per player,
    each player's: ``_player``), and its percentage and place with the handicap (scratch +
    handicap / 2), as the programs that run such events publish them; the importer finds the
    scratch figures again from the handicap."""
    _sub(el, "BOARDS_PLAYED", p.boards or None)
    _sub(el, "TOTAL_SCORE", number_text(p.points))
    handicapped = p.handicap_percentage is not None
    _sub(el, "PERCENTAGE", number_text(p.handicap_percentage if handicapped else p.percentage))
    place, tied = (p.handicap_place, p.handicap_tied) if handicapped else (p.place, p.tied)
    if place is not None:
        _sub(el, "PLACE", f"{place}=" if tied else place)
    if handicapped and not (per_player and any(pl.handicap is not None for pl in p.players)):
        _sub(el, "HANDICAP", number_text(p.handicap or 0))


def _participants(
    parent: ET.Element, people: tuple[Participant, ...], kind: str, club_id: str
) -> None:
    box = _sub(parent, "PARTICIPANTS")
    for p in people:
        if kind == "TEAMS":
            el = _sub(box, "TEAM", TEAM_ID=p.number or p.entry_id, TEAM_NAME=p.name)
        elif kind == "INDIVIDUAL":
            el = _sub(box, "PLAYER")
            if p.players:
                _sub(el, "PLAYER_NAME", p.players[0].name)
                _sub(el, "NATIONAL_ID_NUMBER", p.players[0].licence)
                if not p.players[0].guest:
                    _sub(el, "CLUB_ID_NUMBER", club_id)
                master_points(el, p.players[0])
            _sub(el, "PLAYER_NUMBER", p.number or None)
            _totals(el, p)
            continue
        else:
            el = _sub(box, "PAIR")
            _sub(el, "PAIR_NUMBER", p.number or None)
            _sub(el, "DIRECTION", p.direction or None)
        _totals(el, p, per_player=True)
        for player in p.players:
            _player(el, player, club_id)


def _board(parent: ET.Element, board, mark_tag: str | None) -> None:
    el = _sub(parent, "BOARD")
    _sub(el, "BOARD_NUMBER", board.number)
    for line in board.lines:
        t = _sub(el, "TRAVELLER_LINE")
        _sub(t, "ROUND_NUMBER", line.round)
        _sub(t, "TABLE_NUMBER", line.table)
        _sub(t, "NS_PAIR_NUMBER", line.ns.number)
        _sub(t, "EW_PAIR_NUMBER", line.ew.number)
        if line.south is not None and line.west is not None:  # individual: four players
            for seat, p in (
                ("NORTH", line.ns),
                ("SOUTH", line.south),
                ("EAST", line.ew),
                ("WEST", line.west),
            ):
                _sub(t, f"{seat}_PLAYER_NUMBER", p.number)
        _sub(t, "CONTRACT", line.contract or None)
        _sub(t, "PLAYED_BY", line.declarer or None)
        _sub(t, "LEAD", line.lead or None)
        _sub(t, "TRICKS", line.tricks)
        _sub(t, "SCORE", score_text(line))
        _sub(t, "ADJUSTMENT", adjustment_text(line) or None)
        if mark_tag:
            _sub(t, f"NS_{mark_tag}", number_text(line.ns_mark))
            _sub(t, f"EW_{mark_tag}", number_text(line.ew_mark))


def usebio_scoring(tournament: EventInfo) -> str:
    """USEBIO's name of the event's scoring method ("" for a method USEBIO has no name for)."""
    known = methods.BY_CODE.get(tournament.scoring_method)
    return known.usebio_scoring if known else ""


def frame(data: EventSnapshot, kind: str) -> tuple[ET.Element, ET.Element]:
    """The file's root with its ``CLUB`` and the ``EVENT`` header; (root, event)."""
    t = data.tournament
    root = ET.Element("USEBIO", {"Version": "1.2"})
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", data.club_name)
    _sub(club, "CLUB_ID_NUMBER", data.club_id)
    event = _sub(root, "EVENT", EVENT_TYPE=kind)
    # an imported event keeps its scorer's identifier: exported again, it is the same event
    _sub(event, "EVENT_IDENTIFIER", t.identifier or t.slug)
    _sub(event, "EVENT_DESCRIPTION", t.name)
    _sub(event, "PROGRAM_NAME", PROGRAM)
    _sub(event, "PROGRAM_VERSION", PROGRAM_VERSION)
    directional = any(sec.directional for s in data.sessions for sec in s.sections)
    _sub(event, "WINNER_TYPE", 2 if directional else 1)
    _sub(event, "TITLE", t.name)
    _sub(event, "DATE", f"{t.date:%d/%m/%Y}")
    _sub(event, "VENUE", t.venue or None)
    _sub(event, "SESSION_COUNT", len(data.sessions))
    _sub(event, "SECTION_COUNT", max((len(s.sections) for s in data.sessions), default=0))
    _sub(event, "BOARDS_PLAYED", data.board_count)
    if kind in TEAM_KINDS:
        _sub(event, "BOARD_SCORING_METHOD", methods.TEAM_IMPS.usebio_scoring)  # boards: IMPs
        _sub(event, "MATCH_SCORING_METHOD", usebio_scoring(t))
    else:
        _sub(event, "BOARD_SCORING_METHOD", usebio_scoring(t))
    _sub(event, "RESULTS_VERSION", data.version)
    return root, event


def handset(event: ET.Element, data: EventSnapshot) -> None:
    """The known deals, once per board number, in a ``HANDSET``, each with its dealer and
    vulnerability (a board marked otherwise than Law 2 keeps its marking)."""
    deals: dict = {}  # board number → the first section's board with that deal
    for session in data.sessions:
        for section in session.sections:
            for board in section.boards:
                if board.deal:
                    deals.setdefault(board.number, board)
    if not deals:
        return
    box = _sub(event, "HANDSET")
    for number in sorted(deals):
        b = _sub(box, "BOARD")
        _sub(b, "BOARD_NUMBER", number)
        _sub(b, "DEALER", deals[number].dealer or None)
        _sub(b, "VULNERABILITY", VULNERABILITY.get(deals[number].vulnerability, "None"))
        for seat, suits in hands(deals[number].deal).items():
            h = _sub(b, "HAND")
            _sub(h, "DIRECTION", seat)
            for suit, holding in sorted(
                zip(SUITS, suits, strict=True), key=lambda x: "CDHS".index(x[0])
            ):
                _sub(h, SUIT_TAGS[suit], holding)


def build(data: EventSnapshot) -> ET.Element:
    """A pairs or individual event's file (a teams event's: ``usebio_teams.build``)."""
    kind = event_type(data.tournament)
    root, event = frame(data, kind)
    known = methods.BY_CODE.get(data.tournament.scoring_method)
    mark_tag = (known and known.usebio_mark_tag) or None
    for session in data.sessions:
        s_el = _sub(event, "SESSION", SESSION_ID=session.number)
        for section in session.sections:
            sec_el = _sub(s_el, "SECTION", SECTION_ID=section.letter)
            _participants(sec_el, section.participants, kind, data.club_id)
            for board in section.boards:
                _board(sec_el, board, mark_tag)
    if data.totals:
        _participants(event, data.totals, kind, data.club_id)
    handset(event, data)
    return root


def text(root: ET.Element) -> str:
    """The XML document of ``root``, indented, UTF-8 declared, with the USEBIO 1.2 DTD."""
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n' + body + "\n"
    )


def render(data: EventSnapshot) -> str:
    return text(build(data))


def check_expressible(tournament: EventInfo) -> None:
    """Refuse the teams events our USEBIO files cannot carry: their ``MATCH`` holds IMPs and
    VPs, so a knockout (carry-over, tie-break boards, who went through), a Patton evening, a
    triplicate (one match per table) or an event scored in board-a-match or total points
    would be read back as a different event. PBN carries their deals and rooms."""
    if tournament.event_type != EventType.TEAMS:
        return
    if tournament.team_format in (
        TeamFormat.KNOCKOUT,
        TeamFormat.PATTON,
        TeamFormat.TRIPLICATE,
    ) or tournament.team_unit not in (TeamScoring.VPS, TeamScoring.IMPS):
        raise TournamentError(
            _(
                "USEBIO files carry teams events scored in IMPs or VPs, round robin or Swiss; "
                "a knockout, a Patton evening, a triplicate or an event scored in board or total "
                "points cannot be written as USEBIO. Export it as PBN."
            ),
            "format",
        )

"""The teams part of a USEBIO 1.2 file: teams with their players, and the matches.

Layout written (our reading of USEBIO 1.2 and formats.md, which names ``TEAM@TEAM_ID``,
``TEAM@TEAM_NAME`` and ``MATCH`` with ``ROUND_NUMBER``, ``TEAM``, ``OPPOSING_TEAM``,
``TEAM_SCORE``, ``OPPOSING_TEAM_SCORE`` and ``BOARD``s): each ``SECTION`` holds
``PARTICIPANTS › TEAM`` (``BOARDS_PLAYED``, ``TOTAL_SCORE`` = VPs or IMPs as the standing
says, ``IMPS_WON``/``IMPS_LOST``, ``PLACE``, then the ``PLAYER``s, the captain first with
``CAPTAIN`` Y) and one ``MATCH`` per match and round: ``ROUND_NUMBER``, ``TABLE_NUMBER``
(the match number; 0 for a bye), ``TEAM`` (home) and ``OPPOSING_TEAM`` (away) by TEAM_ID,
``TEAM_IMPS``/``OPPOSING_TEAM_IMPS`` (IMPs each team won), ``TEAM_SCORE``/
``OPPOSING_TEAM_SCORE`` (VPs; the margin in IMPs when the event is scored in IMPs),
``BOARDS_PLAYED``, and its ``BOARD``s: ``BOARD_NUMBER``, each team's own IMPs on the board
(``TEAM_IMPS``/``OPPOSING_TEAM_IMPS``, signed) and the two rooms as ``TRAVELLER_LINE``s with
``ROOM`` OPEN/CLOSED, whose ``NS_PAIR_NUMBER``/``EW_PAIR_NUMBER`` are the team numbers
sitting North-South and East-West in that room.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tournaments.services.results.snapshot import EventSnapshot, Line, MatchData, Participant

from .numbers import number_text
from .usebio import _sub, event_type, frame, handset, master_points, score_text, text


def participants(parent: ET.Element, teams: tuple[Participant, ...], club_id: str) -> None:
    box = _sub(parent, "PARTICIPANTS")
    for p in teams:
        el = _sub(box, "TEAM", TEAM_ID=p.number or p.entry_id, TEAM_NAME=p.name)
        _sub(el, "BOARDS_PLAYED", p.boards or None)
        _sub(el, "TOTAL_SCORE", number_text(p.points))
        if p.place is not None:
            _sub(el, "PLACE", f"{p.place}=" if p.tied else p.place)
        for i, player in enumerate(p.players):
            pl = _sub(el, "PLAYER")
            _sub(pl, "PLAYER_NAME", player.name)
            _sub(pl, "NATIONAL_ID_NUMBER", player.licence)
            if not player.guest:
                _sub(pl, "CLUB_ID_NUMBER", club_id)
            if i == 0:
                _sub(pl, "CAPTAIN", "Y")
            master_points(pl, player)


def _room(parent: ET.Element, line: Line, room: str) -> None:
    t = _sub(parent, "TRAVELLER_LINE")
    _sub(t, "ROOM", room)
    _sub(t, "ROUND_NUMBER", line.round)
    _sub(t, "TABLE_NUMBER", line.table)
    _sub(t, "NS_PAIR_NUMBER", line.ns.number)
    _sub(t, "EW_PAIR_NUMBER", line.ew.number)
    _sub(t, "CONTRACT", line.contract or None)
    _sub(t, "PLAYED_BY", line.declarer or None)
    _sub(t, "LEAD", line.lead or None)
    _sub(t, "TRICKS", line.tricks)
    _sub(t, "SCORE", score_text(line))


def matches(parent: ET.Element, played: tuple[MatchData, ...]) -> None:
    for m in played:
        el = _sub(parent, "MATCH")
        _sub(el, "ROUND_NUMBER", m.round)
        _sub(el, "TABLE_NUMBER", m.number)
        _sub(el, "TEAM", m.home.number)
        if m.away is None:  # a bye: its VPs, or no IMPs in an IMP-scored event
            _sub(el, "TEAM_SCORE", number_text(m.home_vp) if m.home_vp is not None else 0)
            continue
        _sub(el, "OPPOSING_TEAM", m.away.number)
        _sub(el, "TEAM_IMPS", number_text(m.home_won))
        _sub(el, "OPPOSING_TEAM_IMPS", number_text(m.away_won))
        if m.home_vp is not None:
            _sub(el, "TEAM_SCORE", number_text(m.home_vp))
            _sub(el, "OPPOSING_TEAM_SCORE", number_text(m.away_vp))
        else:
            _sub(el, "TEAM_SCORE", number_text(m.home_won - m.home_lost))
            _sub(el, "OPPOSING_TEAM_SCORE", number_text(m.away_won - m.away_lost))
        _sub(el, "BOARDS_PLAYED", m.boards_played)
        for b in m.boards:
            if b.open is None and b.closed is None:
                continue
            board = _sub(el, "BOARD")
            _sub(board, "BOARD_NUMBER", b.number)
            _sub(board, "TEAM_IMPS", number_text(b.home_imps))
            _sub(board, "OPPOSING_TEAM_IMPS", number_text(b.away_imps))
            if b.open is not None:
                _room(board, b.open, "OPEN")
            if b.closed is not None:
                _room(board, b.closed, "CLOSED")


def build(data: EventSnapshot) -> ET.Element:
    """A teams event's file: the frame and deals of ``usebio``, teams and matches between."""
    root, event = frame(data, event_type(data.tournament))
    for session in data.sessions:
        s_el = _sub(event, "SESSION", SESSION_ID=session.number)
        for section in session.sections:
            sec_el = _sub(s_el, "SECTION", SECTION_ID=section.letter)
            participants(sec_el, section.participants, data.club_id)
            matches(sec_el, session.matches)
    if data.totals:
        participants(event, data.totals, data.club_id)
    handset(event, data)
    return root


def render(data: EventSnapshot) -> str:
    return text(build(data))

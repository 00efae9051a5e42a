"""Reading the matches of a USEBIO teams file (pure: no database).

Each ``MATCH`` names its round, its number (``TABLE_NUMBER``), the home ``TEAM`` and the
``OPPOSING_TEAM`` (none for a bye), the IMPs each won and each side's score (VPs, or the
IMP margin in an IMP-scored event); its ``BOARD``s hold each team's IMPs on the board and
the two rooms as traveller lines (``ROOM`` OPEN: home team North-South). The lines also
go into the section's boards, so the pairs machinery (meetings, deals, results) reads them
as any other traveller.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from django.utils.translation import gettext as _

from ..scoring import methods
from .usebio_rows import (
    FileMatch,
    FileSection,
    Problems,
    UsebioError,
    _decimal,
    _int,
    _text,
    board_number,
    traveller_line,
)


def match_method(event: ET.Element) -> str | None:
    """VPs unless the file says the matches are scored in IMPs."""
    text = _text(event, "MATCH_SCORING_METHOD") or methods.TEAM_VPS.usebio_scoring
    known = methods.from_usebio_scoring(text, players="teams")
    return known.code if known else None


def _match(el: ET.Element, section: FileSection, where: str, problems: Problems) -> FileMatch:
    rnd = _int(_text(el, "ROUND_NUMBER"), where)
    home = _int(_text(el, "TEAM"), where)
    away = _int(_text(el, "OPPOSING_TEAM"), where)
    if rnd is None or home is None:
        raise UsebioError(
            _("A match (%(where)s) needs a ROUND_NUMBER and a TEAM.") % {"where": where}
        )
    label = _("round %(round)s, match %(home)s v %(away)s, %(where)s") % {
        "round": rnd,
        "home": home,
        "away": away or "-",
        "where": where,
    }
    number = _int(_text(el, "TABLE_NUMBER"), label)
    match = FileMatch(
        rnd,
        number if number is not None else 0,
        home,
        away,
        _decimal(_text(el, "TEAM_IMPS"), label),
        _decimal(_text(el, "OPPOSING_TEAM_IMPS"), label),
        _decimal(_text(el, "TEAM_SCORE"), label),
        _decimal(_text(el, "OPPOSING_TEAM_SCORE"), label),
    )
    for b in el.findall("BOARD"):
        n = problems.check(board_number, b, label)
        if n is None:
            continue
        match.board_imps[n] = (
            _decimal(_text(b, "TEAM_IMPS"), label),
            _decimal(_text(b, "OPPOSING_TEAM_IMPS"), label),
        )
        board_label = _("board %(board)s, %(where)s") % {"board": n, "where": label}
        for t in b.findall("TRAVELLER_LINE"):
            line = problems.check(traveller_line, t, board_label)
            if line is None:
                continue
            teams = {line.ns, line.ew}
            if away is None or teams != {home, away}:
                problems.messages.append(
                    _("A line of %(where)s names teams %(ns)s and %(ew)s.")
                    % {"where": board_label, "ns": line.ns, "ew": line.ew}
                )
                continue
            line.round = line.round or rnd
            section.boards.setdefault(n, []).append(line)
    return match


def matches(
    container: ET.Element, section: FileSection, where: str, problems: Problems
) -> list[FileMatch]:
    found = [
        problems.check(_match, el, section, where, problems) for el in container.findall("MATCH")
    ]
    out = [m for m in found if m is not None]
    teams = {p.number for p in section.pairs}
    for m in out:
        for team in (m.home, m.away):
            if team is not None and team not in teams:
                problems.messages.append(
                    _(
                        "Round %(round)s names team %(team)s, which is not among the "
                        "participants (%(where)s)."
                    )
                    % {"round": m.round, "team": team, "where": where}
                )
    return out

"""Reading a USEBIO 1.2 file into plain data (pure: no database).

Accepts the layouts scorers write: ``PARTICIPANTS`` and ``BOARD`` directly under ``EVENT``,
or nested in ``SESSION`` (and ``SECTION``). Pair numbers may be ``7`` or ``1NS``, with the
line also given by ``DIRECTION``. Teams events list ``TEAM``s and their ``MATCH``es (each
holding its boards, both rooms as traveller lines; ``usebio_teams_parse``); individual
events list ``PLAYER``s and name the four players of each line. Anything the importer
cannot trust (not XML, no event, a traveller naming a pair that is not listed, a score that
is not a number) raises ``UsebioError`` listing every such row, for the person who chose
the file.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as DefusedET
from django.utils.translation import gettext as _

from tournaments.services.boards.deals import normalise_deal

from ..scoring import board_conditions, methods
from ..scoring.deals import SEATS
from .usebio_rows import (  # noqa: F401 (re-exported: the importer's names)
    MARK_TAGS,
    MAX_BYTES,
    TEAM_KINDS,
    FileEvent,
    FileLine,
    FileMatch,
    FilePair,
    FilePlayer,
    FileSection,
    Problems,
    UsebioError,
    _boards,
    _date,
    _decimal,
    _int,
    _participants,
    _place,
    _text,
    board_number,
    parse_score,
    traveller_line,
)
from .usebio_teams_parse import match_method, matches


def _containers(event: ET.Element) -> list[tuple[int, str, ET.Element]]:
    sessions = event.findall("SESSION")
    if not sessions:  # SECTIONs directly under EVENT, or the event as one section
        sections = event.findall("SECTION")
        return [
            (
                1,
                (sec.get("SECTION_ID") or _text(sec, "SECTION_ID") or "ABCDEFGH"[j])[:3].upper(),
                sec,
            )
            for j, sec in enumerate(sections)
        ] or [(1, "A", event)]
    out = []
    for i, s in enumerate(sessions, start=1):
        number = _int(s.get("SESSION_ID", "") or _text(s, "SESSION_ID"), "SESSION_ID") or i
        sections = s.findall("SECTION")
        if not sections:
            out.append((number, "A", s))
        for j, sec in enumerate(sections):
            letter = (sec.get("SECTION_ID") or _text(sec, "SECTION_ID") or "ABCDEFGH"[j])[:3]
            out.append((number, letter.upper(), sec))
    return out


DEALERS = {
    "N": "N",
    "NORTH": "N",
    "E": "E",
    "EAST": "E",
    "S": "S",
    "SOUTH": "S",
    "W": "W",
    "WEST": "W",
}
VULNERABILITIES = {
    "NONE": "",
    "NIL": "",
    "LOVE": "",
    "-": "",
    "O": "",
    "NS": "NS",
    "N-S": "NS",
    "N/S": "NS",
    "EW": "EW",
    "E-W": "EW",
    "E/W": "EW",
    "ALL": "All",
    "BOTH": "All",
    "B": "All",
}


def _holding(text: str) -> str:
    """A suit as scorers write it (``A K 10 2``, ``AKT2``, ``-`` for a void) → ``AKT2``."""
    return text.upper().replace("10", "T").replace("-", "").replace(" ", "")


def _handset_board(b: ET.Element) -> tuple[int | None, str, tuple[str, str] | None]:
    """One hand record: board number, the deal (``""`` when a hand is missing), and the
    dealer and vulnerability when the file states them (``DEALER``, ``VULNERABILITY``)."""
    number = _int(_text(b, "BOARD_NUMBER"), "HANDSET")
    seats = {}
    for h in b.findall("HAND"):
        seat = _text(h, "DIRECTION").upper()[:1]
        seats[seat] = [_holding(_text(h, t)) for t in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")]
    deal = ""
    if set(seats) == set(SEATS):
        try:
            deal = normalise_deal("N:" + " ".join(".".join(seats[s]) for s in SEATS))
        except ValueError as exc:
            raise UsebioError(
                _("The hand record of board %(board)s is not a complete deal.") % {"board": number}
            ) from exc
    dealer = DEALERS.get(_text(b, "DEALER").upper())
    vul_text = _text(b, "VULNERABILITY").upper().replace(" ", "")
    vul = VULNERABILITIES.get(vul_text)
    if (_text(b, "DEALER") and dealer is None) or (vul_text and vul is None):
        raise UsebioError(
            _("The hand record of board %(board)s names an unknown dealer or vulnerability.")
            % {"board": number}
        )
    conditions = None
    if dealer is not None or vul is not None:
        law_dealer, law_vul = board_conditions(number) if number and number > 0 else ("N", None)
        conditions = (dealer or law_dealer, vul if vul is not None else (law_vul or ""))
    return number, deal, conditions


def _handsets(root: ET.Element) -> tuple[dict[int, str], dict[int, tuple[str, str]]]:
    """Every ``HANDSET`` of the file: directly under the root beside ``EVENT`` (as real files
    put it), inside ``EVENT`` (as we write it) or inside a ``SESSION``."""
    deals: dict[int, str] = {}
    conditions: dict[int, tuple[str, str]] = {}
    for handset in root.iter("HANDSET"):
        for b in handset.findall("BOARD"):
            number, deal, stated = _handset_board(b)
            if number is None:
                continue
            if deal:
                deals.setdefault(number, deal)
            if stated is not None:
                conditions.setdefault(number, stated)
    return deals, conditions


def _overall_pair(el: ET.Element, where: str) -> FilePair:
    """A pair of the overall ranking: its players and figures (its number, if any, is the
    one of some session, so the pair is known by its players)."""
    players = [
        FilePlayer(_text(p, "PLAYER_NAME"), _text(p, "NATIONAL_ID_NUMBER"))
        for p in el.findall("PLAYER")
    ]
    if len(players) != 2 or not all(p.name for p in players):
        raise UsebioError(_("A pair of %(where)s needs two named players.") % {"where": where})
    place, tied = _place(_text(el, "PLACE"))
    return FilePair(
        0,
        "",
        players,
        _decimal(_text(el, "TOTAL_SCORE"), where),
        _decimal(_text(el, "PERCENTAGE"), where),
        place,
        tied,
    )


def _overall_player(el: ET.Element, where: str) -> FilePair:
    """A player of an individual's overall ranking, known by name and licence (as a pair of
    the pairs' is, ``_overall_pair``)."""
    player = FilePlayer(_text(el, "PLAYER_NAME"), _text(el, "NATIONAL_ID_NUMBER"))
    if not player.name:
        raise UsebioError(_("A player of %(where)s needs a name.") % {"where": where})
    place, tied = _place(_text(el, "PLACE"))
    return FilePair(
        0,
        "",
        [player],
        _decimal(_text(el, "TOTAL_SCORE"), where),
        _decimal(_text(el, "PERCENTAGE"), where),
        place,
        tied,
    )


def _overall(box: ET.Element | None, problems: Problems, shape: str = "PAIRS") -> list[FilePair]:
    """The overall ranking beside the sessions: a pairs file's PAIRs, an individual's
    PLAYERs."""
    if box is None:
        return []
    tag, read = ("PLAYER", _overall_player) if shape == "INDIVIDUAL" else ("PAIR", _overall_pair)
    found = [problems.check(read, el, _("the whole event")) for el in box.findall(tag)]
    return [p for p in found if p is not None]


def _shared_places(section: FileSection) -> None:
    """Two participants of one ranking on the same place share it, "=" written or not (some
    programs write ``10`` twice)."""
    counts = Counter((p.direction, p.place) for p in section.pairs if p.place is not None)
    for p in section.pairs:
        if p.place is not None and counts[(p.direction, p.place)] > 1:
            p.tied = True


_DECLARATION = re.compile(rb"\s*<\?xml[^>]*\?>")
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([A-Za-z0-9._-]*)["']""")


def _from_code_page(raw: bytes) -> bytes:
    """The file as the parser must read it. A file whose header means UTF-8 (it says so, or
    names no encoding) but whose bytes are not UTF-8 was written by a Windows program in the
    machine's code page (Compscore writes ``<?xml version="1.0"?>``, names in Windows-1252):
    its bytes are read as Windows-1252 (Latin-1 where that leaves a byte undefined) and given
    to the parser as UTF-8. Anything else comes back as it came: UTF-8, a declared encoding,
    UTF-16 (a byte-order mark, or the zeros of its first characters)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw[:4]:
        return raw
    body = raw.removeprefix(b"\xef\xbb\xbf")
    header = _DECLARATION.match(body)
    declared = _ENCODING.search(header.group(0)) if header else None
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return raw
    try:
        body.decode("utf-8")
        return raw
    except UnicodeDecodeError:
        pass
    try:
        text = body.decode("cp1252")
    except UnicodeDecodeError:
        text = body.decode("latin-1")
    return text.encode("utf-8")


def pairs_method(event: ET.Element, kind: str) -> str | None:
    """The code of the method a pairs file names in its BOARD_SCORING_METHOD (or
    SCORING_METHOD), else in its EVENT_TYPE ``kind``; None if neither is one we know."""
    scoring = _text(event, "BOARD_SCORING_METHOD") or _text(event, "SCORING_METHOD")
    known = methods.from_usebio_scoring(scoring, players="pairs") or methods.from_usebio_event_type(
        kind
    )
    return known.code if known else None


def parse(data: bytes | str) -> FileEvent:
    """The file as plain data; raises ``UsebioError`` for anything not importable."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise UsebioError(_("The file is too large (more than 20 MB)."))
    try:
        # defusedxml refuses entity declarations and external references while parsing, in
        # whatever encoding the file is written (a search of the raw bytes misses UTF-16);
        # the DOCTYPE naming USEBIO's DTD, which every scoring program writes, is allowed.
        root = DefusedET.fromstring(
            _from_code_page(raw), forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
    except DefusedXmlException as exc:
        raise UsebioError(_("The file declares XML entities, which are not accepted.")) from exc
    except ET.ParseError as exc:
        raise UsebioError(_("The file is not valid XML (%(detail)s).") % {"detail": exc}) from exc
    except (LookupError, ValueError) as exc:  # encoding="foo", or UTF-16/32 declared
        raise UsebioError(
            _("The file's encoding is not one this site reads (use UTF-8 or ISO-8859-1).")
        ) from exc
    if root.tag != "USEBIO":
        raise UsebioError(
            _("This is not a USEBIO file (the root element is %(tag)s).") % {"tag": root.tag}
        )
    event = root.find("EVENT")
    if event is None:
        raise UsebioError(_("The file holds no EVENT."))
    kind = (event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE")).upper()
    teams = kind in TEAM_KINDS or event.find(".//MATCH") is not None
    if teams:
        method = match_method(event)
        shape = "TEAMS"
    else:
        shape = "INDIVIDUAL" if kind == "INDIVIDUAL" else "PAIRS"
        method = methods.MATCHPOINTS.code if shape == "INDIVIDUAL" else pairs_method(event, kind)
    if method is None:
        raise UsebioError(_("Unknown event type “%(kind)s”.") % {"kind": kind})
    sections = []
    problems = Problems()
    for session, letter, container in _containers(event):
        where = _("session %(session)s, section %(section)s") % {
            "session": session,
            "section": letter,
        }
        section = FileSection(
            session,
            letter,
            _participants(container.find("PARTICIPANTS"), where, problems, shape),
            _boards(container, where, problems),
        )
        if teams:
            section.matches = matches(container, section, where, problems)
        _shared_places(section)
        for number, lines in section.boards.items():
            for line in lines:
                for pair, side in (
                    (line.ns, "NS"),
                    (line.ew, "EW"),
                    (line.south, "NS"),
                    (line.west, "EW"),
                ):
                    if pair is not None and section.pair(pair, side) is None:
                        problems.messages.append(
                            _(
                                "Board %(board)s names pair %(pair)s, who is not among the "
                                "participants (%(where)s)."
                            )
                            % {"board": number, "pair": pair, "where": where}
                        )
        if section.pairs or section.boards:
            sections.append(section)
    # sessions under the event: PARTICIPANTS beside them are the overall ranking (a teams
    # file is imported with one session: it has none)
    totals = (
        _overall(event.find("PARTICIPANTS"), problems, shape)
        if event.find("SESSION") is not None and shape in ("PAIRS", "INDIVIDUAL")
        else []
    )
    problems.raise_any()
    if teams and not any(s.matches for s in sections):
        raise UsebioError(_("The teams file holds no MATCH."))
    if not any(s.boards for s in sections):
        raise UsebioError(_("The file holds no travellers to import."))
    name = _text(event, "EVENT_DESCRIPTION") or _text(event, "TITLE") or _("Imported event")
    deals, conditions = _handsets(root)
    return FileEvent(
        _text(root.find("CLUB"), "CLUB_NAME"),
        name[:160],
        _date(_text(event, "DATE")),
        _text(event, "VENUE")[:160],
        kind if not teams or kind in TEAM_KINDS else "TEAMS",
        method,
        _text(event, "PROGRAM_NAME"),
        sections,
        deals,
        conditions,
        identifier=(
            _text(event, "EVENT_IDENTIFIER")
            or _text(event, "EVENT_ID")
            or event.get("EVENT_ID", "")
        )[:80],
        totals=totals,
    )

"""Reading a USEBIO 1.2 file into plain data (pure: no database).

Accepts the layouts scorers write: ``PARTICIPANTS`` and ``BOARD`` directly under ``EVENT``,
or nested in ``SESSION`` (and ``SECTION``). Pair numbers may be ``7`` or ``1NS``, with the
line also given by ``DIRECTION``. Anything the importer cannot trust (not XML, no event,
a traveller naming a pair that is not listed, a score that is not a number) raises
``UsebioError`` with a message for the person who chose the file.
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from ..exports.deals import SEATS, validate
from ..models import ScoringMethod
from ..services.errors import TournamentError

MAX_BYTES = 20 * 1024 * 1024
METHODS = {"MP_PAIRS": ScoringMethod.MATCHPOINTS, "PAIRS": ScoringMethod.MATCHPOINTS,
           "SWISS_PAIRS": ScoringMethod.MATCHPOINTS, "CROSS_IMP": ScoringMethod.CROSS_IMPS,
           "CROSS_IMPS": ScoringMethod.CROSS_IMPS, "BUTLER_PAIRS": ScoringMethod.BUTLER,
           "BUTLER": ScoringMethod.BUTLER}
SCORING_WORDS = {"MATCH_POINTS": ScoringMethod.MATCHPOINTS,
                 "MATCHPOINTS": ScoringMethod.MATCHPOINTS,
                 "CROSS_IMPS": ScoringMethod.CROSS_IMPS, "CROSS_IMP": ScoringMethod.CROSS_IMPS,
                 "BUTLER": ScoringMethod.BUTLER}
MARK_TAGS = ("MATCH_POINTS", "CROSS_IMP_POINTS", "BUTLER_POINTS")
_PAIR = re.compile(r"^\s*([A-Za-z]*?)(\d+)\s*(NS|EW|N|E)?\s*$", re.IGNORECASE)
_ARTIFICIAL = re.compile(r"^A(\d{2})(\d{2})$")


class UsebioError(TournamentError):
    """The file cannot be imported; nothing was written."""


@dataclass
class FilePlayer:
    name: str
    licence: str


@dataclass
class FilePair:
    number: int
    direction: str
    players: list[FilePlayer]
    total: Decimal | None
    percentage: Decimal | None
    place: int | None
    tied: bool = False


@dataclass
class FileLine:
    round: int | None
    table: int | None
    ns: int
    ew: int
    contract: str
    declarer: str
    lead: str
    tricks: int | None
    score: int | None
    adjustment: dict | None
    ns_mark: Decimal | None
    ew_mark: Decimal | None


@dataclass
class FileSection:
    session: int
    letter: str
    pairs: list[FilePair]
    boards: dict[int, list[FileLine]]

    @property
    def directional(self) -> bool:
        return any(p.direction for p in self.pairs)

    def pair(self, number: int, line: str) -> FilePair | None:
        for p in self.pairs:
            if p.number == number and (not self.directional or p.direction == line):
                return p
        return None


@dataclass
class FileEvent:
    club_name: str
    name: str
    date: datetime.date
    venue: str
    event_type: str
    scoring_method: str
    program: str
    sections: list[FileSection]
    deals: dict[int, str] = field(default_factory=dict)

    @property
    def session_count(self) -> int:
        return max((s.session for s in self.sections), default=1)


def _text(el: ET.Element | None, tag: str) -> str:
    if el is None:
        return ""
    child = el.find(tag)
    return (child.text or "").strip() if child is not None else ""


def _decimal(value: str, what: str) -> Decimal | None:
    if value == "":
        return None
    try:
        return Decimal(value.replace(",", "."))
    except InvalidOperation as exc:
        raise UsebioError(_("“%(value)s” is not a number (%(what)s).")
                          % {"value": value, "what": what}) from exc


def _int(value: str, what: str) -> int | None:
    number = _decimal(value, what)
    if number is None:
        return None
    if number != number.to_integral_value():
        raise UsebioError(_("“%(value)s” is not a whole number (%(what)s).")
                          % {"value": value, "what": what})
    return int(number)


def _pair_ref(value: str, what: str) -> tuple[int, str]:
    match = _PAIR.match(value or "")
    if match is None:
        raise UsebioError(_("“%(value)s” is not a pair number (%(what)s).")
                          % {"value": value, "what": what})
    line = (match.group(3) or "").upper()
    return int(match.group(2)), {"N": "NS", "E": "EW"}.get(line, line)


def _date(text: str) -> datetime.date:
    for fmt in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise UsebioError(_("The event has no readable date (DATE, dd/mm/yyyy)."))


def parse_score(text: str) -> tuple[int | None, dict | None]:
    """``"420"`` → (420, None); ``"A6040"`` → an artificial score; ``"NP"`` → not played."""
    original = (text or "").strip()
    text = original.upper().replace(" ", "")
    if text in ("", "NP", "NOTPLAYED"):
        return None, {"kind": "not_played", "reason": "justified"}
    match = _ARTIFICIAL.match(text)
    if match:
        return None, {"kind": "artificial", "ns": int(match.group(1)), "ew": int(match.group(2))}
    try:
        return int(text), None
    except ValueError as exc:
        raise UsebioError(_("“%(value)s” is not a score.") % {"value": original}) from exc


def _place(text: str) -> tuple[int | None, bool]:
    tied = text.endswith("=")
    return _int(text.rstrip("=").split("-")[0], "PLACE"), tied


def _direction(el: ET.Element, from_number: str) -> str:
    text = _text(el, "DIRECTION").upper()
    if not text:
        return from_number
    return {"N": "NS", "E": "EW", "S": "NS", "W": "EW"}.get(text, text)


def _participants(box: ET.Element | None, where: str) -> list[FilePair]:
    pairs = []
    if box is None:
        return pairs
    for el in box.findall("PAIR"):
        number, line = _pair_ref(_text(el, "PAIR_NUMBER"), where)
        line = _direction(el, line)
        players = [FilePlayer(_text(p, "PLAYER_NAME"), _text(p, "NATIONAL_ID_NUMBER"))
                   for p in el.findall("PLAYER")]
        if len(players) != 2 or not all(p.name for p in players):
            raise UsebioError(_("Pair %(number)s (%(where)s) needs two named players.")
                              % {"number": number, "where": where})
        place, tied = _place(_text(el, "PLACE"))
        pairs.append(FilePair(number, line, players, _decimal(_text(el, "TOTAL_SCORE"), where),
                              _decimal(_text(el, "PERCENTAGE"), where), place, tied))
    return pairs


def _marks(el: ET.Element) -> tuple[Decimal | None, Decimal | None]:
    for tag in MARK_TAGS:
        if el.find(f"NS_{tag}") is not None or el.find(f"EW_{tag}") is not None:
            return (_decimal(_text(el, f"NS_{tag}"), tag), _decimal(_text(el, f"EW_{tag}"), tag))
    return None, None


def _boards(container: ET.Element, where: str) -> dict[int, list[FileLine]]:
    boards: dict[int, list[FileLine]] = {}
    for b in container.findall("BOARD"):
        number = _int(_text(b, "BOARD_NUMBER"), "BOARD_NUMBER")
        if number is None or number < 1:
            raise UsebioError(_("A board has no number (%(where)s).") % {"where": where})
        lines = boards.setdefault(number, [])
        for t in b.findall("TRAVELLER_LINE"):
            label = _("board %(board)s, %(where)s") % {"board": number, "where": where}
            ns, _l1 = _pair_ref(_text(t, "NS_PAIR_NUMBER"), label)
            ew, _l2 = _pair_ref(_text(t, "EW_PAIR_NUMBER"), label)
            score, adjustment = parse_score(_text(t, "SCORE"))
            ns_mark, ew_mark = _marks(t)
            declarer = _text(t, "PLAYED_BY").upper()[:1]
            if declarer and declarer not in SEATS:
                raise UsebioError(_("“%(value)s” is not a seat (%(where)s).")
                                  % {"value": declarer, "where": label})
            lines.append(FileLine(_int(_text(t, "ROUND_NUMBER"), label),
                                  _int(_text(t, "TABLE_NUMBER"), label), ns, ew,
                                  _text(t, "CONTRACT"), declarer, _text(t, "LEAD"),
                                  _int(_text(t, "TRICKS"), label), score, adjustment,
                                  ns_mark, ew_mark))
    return boards


def _containers(event: ET.Element) -> list[tuple[int, str, ET.Element]]:
    sessions = event.findall("SESSION")
    if not sessions:
        return [(1, "A", event)]
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


def _deals(event: ET.Element) -> dict[int, str]:
    out = {}
    for b in event.findall("HANDSET/BOARD"):
        number = _int(_text(b, "BOARD_NUMBER"), "HANDSET")
        seats = {}
        for h in b.findall("HAND"):
            seat = _text(h, "DIRECTION").upper()[:1]
            seats[seat] = [_text(h, t).replace("-", "") for t in
                           ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")]
        if set(seats) != set(SEATS):
            continue
        try:
            out[number] = validate("N:" + " ".join(".".join(seats[s]) for s in SEATS))
        except ValueError as exc:
            raise UsebioError(_("The hand record of board %(board)s is not a complete deal.")
                              % {"board": number}) from exc
    return out


def parse(data: bytes | str) -> FileEvent:
    """The file as plain data; raises ``UsebioError`` for anything not importable."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise UsebioError(_("The file is too large (more than 20 MB)."))
    if b"<!ENTITY" in raw.upper():
        raise UsebioError(_("The file declares XML entities, which are not accepted."))
    body = re.sub(rb"<!DOCTYPE[^>]*>", b"", raw, count=1)
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise UsebioError(_("The file is not valid XML (%(detail)s).") % {"detail": exc}) from exc
    if root.tag != "USEBIO":
        raise UsebioError(_("This is not a USEBIO file (the root element is %(tag)s).")
                          % {"tag": root.tag})
    event = root.find("EVENT")
    if event is None:
        raise UsebioError(_("The file holds no EVENT."))
    kind = (event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE")).upper()
    if kind in ("TEAMS", "SWISS_TEAMS", "INDIVIDUAL") or event.find(".//MATCH") is not None:
        raise UsebioError(_("Only pairs events (matchpoints, cross-IMPs, Butler) can be "
                            "imported; this file holds a %(kind)s event.") % {"kind": kind})
    scoring = (_text(event, "BOARD_SCORING_METHOD") or _text(event, "SCORING_METHOD")).upper()
    method = SCORING_WORDS.get(scoring) or METHODS.get(kind)
    if method is None:
        raise UsebioError(_("Unknown event type “%(kind)s”.") % {"kind": kind})
    sections = []
    for session, letter, container in _containers(event):
        where = _("session %(session)s, section %(section)s") % {"session": session,
                                                                 "section": letter}
        section = FileSection(session, letter,
                              _participants(container.find("PARTICIPANTS"), where),
                              _boards(container, where))
        for number, lines in section.boards.items():
            for line in lines:
                for pair, side in ((line.ns, "NS"), (line.ew, "EW")):
                    if section.pair(pair, side) is None:
                        raise UsebioError(_(
                            "Board %(board)s names pair %(pair)s, who is not among the "
                            "participants (%(where)s).")
                            % {"board": number, "pair": pair, "where": where})
        if section.pairs or section.boards:
            sections.append(section)
    if not any(s.boards for s in sections):
        raise UsebioError(_("The file holds no travellers to import."))
    name = _text(event, "EVENT_DESCRIPTION") or _text(event, "TITLE") or _("Imported event")
    return FileEvent(_text(root.find("CLUB"), "CLUB_NAME"), name[:160],
                     _date(_text(event, "DATE")), _text(event, "VENUE")[:160], kind, method,
                     _text(event, "PROGRAM_NAME"), sections, _deals(event))

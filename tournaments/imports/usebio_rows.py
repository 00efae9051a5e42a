"""The rows of a USEBIO 1.2 file as plain data (pure: no database): the dataclasses the
importer fills, and the readers of one participant, one score and one traveller line that
``usebio_parse`` (pairs, individuals) and ``usebio_teams_parse`` (matches) share. A row the
importer cannot trust raises ``UsebioError`` naming it, for the person who chose the file.
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from ..scoring import is_legal_score, methods
from ..scoring.deals import SEATS
from .usebio_adjustments import UNPLAYED_REASONS, parse_adjustment  # noqa: F401
from .usebio_errors import UsebioError
from .usebio_errors import shown as _shown

MAX_BYTES = 20 * 1024 * 1024
MAX_NUMBER = 10**7  # above every bridge number a file holds (scores, marks, ids, places)
MARK_TAGS = methods.usebio_mark_tags()
TEAM_KINDS = ("TEAMS", "SWISS_TEAMS")
_PAIR = re.compile(r"^\s*([A-Za-z]*?)(\d+)\s*(NS|EW|N|E)?\s*$", re.IGNORECASE)
_ARTIFICIAL = re.compile(r"^A(\d{2})(\d{2})$")


class Problems:
    """Every bad row of the file, so the person who chose it can fix them all at once."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def check(self, fn, *args):
        """``fn(*args)``, or None with its message noted when it refuses the row."""
        try:
            return fn(*args)
        except UsebioError as exc:
            self.messages.append(exc.message)
            return None

    def raise_any(self) -> None:
        if self.messages:
            shown = self.messages[:50]
            more = len(self.messages) - len(shown)
            text = "\n".join(shown)
            if more:
                text += "\n" + _("…and %(count)s more.") % {"count": more}
            raise UsebioError(text)


@dataclass
class FilePlayer:
    name: str
    licence: str
    master_points: Decimal | None = None  # MASTER_POINTS › MASTER_POINTS_AWARDED, if given
    handicap: Decimal | None = None  # the player's own HANDICAP, if given


@dataclass
class FilePair:
    number: int
    direction: str
    players: list[FilePlayer]
    total: Decimal | None
    percentage: Decimal | None
    place: int | None
    tied: bool = False
    name: str = ""  # a team's name
    handicap: Decimal | None = None  # HANDICAP of the pair, or its players' summed


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
    south: int | None = None  # individual events: ``ns`` is North and ``ew`` East
    west: int | None = None
    room: str = ""  # teams: OPEN or CLOSED


@dataclass
class FileMatch:
    """A team match as the file states it (``home_imps``/``away_imps``: IMPs each won)."""

    round: int
    number: int
    home: int
    away: int | None
    home_imps: Decimal | None
    away_imps: Decimal | None
    home_score: Decimal | None  # VPs, or the IMP margin when the event is scored in IMPs
    away_score: Decimal | None
    board_imps: dict[int, tuple[Decimal | None, Decimal | None]] = field(default_factory=dict)


@dataclass
class FileSection:
    session: int
    letter: str
    pairs: list[FilePair]
    boards: dict[int, list[FileLine]]
    matches: list[FileMatch] = field(default_factory=list)

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
    # board → (dealer, vulnerability "", "NS", "EW" or "All") where the hand record states them
    conditions: dict[int, tuple[str, str]] = field(default_factory=dict)
    identifier: str = ""  # EVENT_IDENTIFIER: the scorer's own name for the event
    totals: list[FilePair] = field(default_factory=list)  # a multi-session event's overall

    @property
    def session_count(self) -> int:
        return max((s.session for s in self.sections), default=1)

    @property
    def method(self) -> methods.Method:
        """Everything the file's scoring method decides (``scoring.methods``)."""
        return methods.method(self.scoring_method)


def _text(el: ET.Element | None, tag: str) -> str:
    if el is None:
        return ""
    child = el.find(tag)
    return (child.text or "").strip() if child is not None else ""


def _decimal(value: str, what: str) -> Decimal | None:
    """A number of the file; NaN, infinities and numbers beyond ``MAX_NUMBER`` are refused,
    since no mark, score or place is one and the database could not store them."""
    if value == "":
        return None
    problem = UsebioError(
        _("“%(value)s” is not a number (%(what)s).") % {"value": _shown(value), "what": what}
    )
    if len(value) > 40:
        raise problem
    try:
        number = Decimal(value.replace(",", "."))
    except InvalidOperation as exc:
        raise problem from exc
    if not number.is_finite() or abs(number) > MAX_NUMBER:
        raise problem
    return number


def _int(value: str, what: str) -> int | None:
    number = _decimal(value, what)
    if number is None:
        return None
    if number != number.to_integral_value():
        raise UsebioError(
            _("“%(value)s” is not a whole number (%(what)s).") % {"value": value, "what": what}
        )
    return int(number)


def _pair_ref(value: str, what: str) -> tuple[int, str]:
    match = _PAIR.match(value or "")
    if match is None or len(match.group(2)) > 6:
        raise UsebioError(
            _("“%(value)s” is not a pair number (%(what)s).")
            % {"value": _shown(value or ""), "what": what}
        )
    line = (match.group(3) or "").upper()
    return int(match.group(2)), {"N": "NS", "E": "EW"}.get(line, line)


def _date(text: str) -> datetime.date:
    text = text.split("T")[0].strip() if re.match(r"^\d{4}-\d\d-\d\dT", text) else text
    for fmt in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y", "%Y.%m.%d", "%Y/%m/%d"):
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
    if not re.fullmatch(r"[+-]?[0-9]{1,5}", text):
        raise UsebioError(_("“%(value)s” is not a score.") % {"value": _shown(original)})
    score = int(text)
    if not is_legal_score(score):
        raise UsebioError(
            _("%(score)s is not a score any contract can make (Law 77).") % {"score": score}
        )
    return score, None


def _place(text: str) -> tuple[int | None, bool]:
    tied = text.endswith("=")
    return _int(text.rstrip("=").split("-")[0], "PLACE"), tied


def _direction(el: ET.Element, from_number: str) -> str:
    text = _text(el, "DIRECTION").upper()
    if not text:
        return from_number
    return {"N": "NS", "E": "EW", "S": "NS", "W": "EW"}.get(text, text)


def _file_player(el: ET.Element, where: str) -> FilePlayer:
    points = _decimal(_text(el, "MASTER_POINTS/MASTER_POINTS_AWARDED"), where)
    if points is not None and not 0 <= points < 10**6:
        raise UsebioError(
            _("Master points must be a number from 0 to 999999 (%(what)s).") % {"what": where}
        )
    return FilePlayer(
        _text(el, "PLAYER_NAME"),
        _text(el, "NATIONAL_ID_NUMBER"),
        points,
        _decimal(_text(el, "HANDICAP"), where),
    )


def _pair(el: ET.Element, where: str) -> FilePair:
    number, line = _pair_ref(_text(el, "PAIR_NUMBER"), where)
    line = _direction(el, line)
    players = [_file_player(p, where) for p in el.findall("PLAYER")]
    if len(players) != 2 or not all(p.name for p in players):
        raise UsebioError(
            _("Pair %(number)s (%(where)s) needs two named players.")
            % {"number": number, "where": where}
        )
    place, tied = _place(_text(el, "PLACE"))
    handicap = _decimal(_text(el, "HANDICAP"), where)
    if handicap is None:  # or each player's, summed (``scoring.handicap.pair_handicap``)
        given = [p.handicap for p in players]
        handicap = (
            sum((h for h in given if h is not None), Decimal(0))
            if any(h is not None for h in given)
            else None
        )
    return FilePair(
        number,
        line,
        players,
        _decimal(_text(el, "TOTAL_SCORE"), where),
        _decimal(_text(el, "PERCENTAGE"), where),
        place,
        tied,
        handicap=handicap,
    )


def _player(el: ET.Element, where: str) -> FilePair:
    """An individual event's participant: one player with a number."""
    name = _text(el, "PLAYER_NAME")
    number = _int(_text(el, "PLAYER_NUMBER"), where)
    if not name or number is None:
        raise UsebioError(
            _("A player (%(where)s) needs a name and a PLAYER_NUMBER.") % {"where": where}
        )
    place, tied = _place(_text(el, "PLACE"))
    player = _file_player(el, where)
    return FilePair(
        number,
        "",
        [player],
        _decimal(_text(el, "TOTAL_SCORE"), where),
        _decimal(_text(el, "PERCENTAGE"), where),
        place,
        tied,
        handicap=player.handicap,  # a handicap event: the player's is the entry's
    )


def _team(el: ET.Element, where: str) -> FilePair:
    number = _int(el.get("TEAM_ID", "") or _text(el, "TEAM_ID"), where)
    name = (el.get("TEAM_NAME") or _text(el, "TEAM_NAME")).strip()
    players = [_file_player(p, where) for p in el.findall("PLAYER")]
    if number is None or not players or not all(p.name for p in players):
        raise UsebioError(
            _("Team %(team)s (%(where)s) needs a TEAM_ID and named players.")
            % {"team": number or name, "where": where}
        )
    place, tied = _place(_text(el, "PLACE"))
    return FilePair(
        number, "", players, _decimal(_text(el, "TOTAL_SCORE"), where), None, place, tied, name=name
    )


def _participants(
    box: ET.Element | None, where: str, problems: Problems, kind: str = "PAIRS"
) -> list[FilePair]:
    if box is None:
        return []
    tag, read = {"TEAMS": ("TEAM", _team), "INDIVIDUAL": ("PLAYER", _player)}.get(
        kind, ("PAIR", _pair)
    )
    found = [problems.check(read, el, where) for el in box.findall(tag)]
    return [p for p in found if p is not None]


def _marks(el: ET.Element) -> tuple[Decimal | None, Decimal | None]:
    for tag in MARK_TAGS:
        if el.find(f"NS_{tag}") is not None or el.find(f"EW_{tag}") is not None:
            return (_decimal(_text(el, f"NS_{tag}"), tag), _decimal(_text(el, f"EW_{tag}"), tag))
    return None, None


def board_number(b: ET.Element, where: str) -> int:
    number = _int(_text(b, "BOARD_NUMBER"), "BOARD_NUMBER")
    if number is None or number < 1:
        raise UsebioError(_("A board has no number (%(where)s).") % {"where": where})
    return number


def traveller_line(t: ET.Element, label: str) -> FileLine:
    """One TRAVELLER_LINE; an individual line names its four players by number."""
    if t.find("NORTH_PLAYER_NUMBER") is not None:
        seats = [
            _int(_text(t, f"{seat}_PLAYER_NUMBER"), label)
            for seat in ("NORTH", "EAST", "SOUTH", "WEST")
        ]
        if None in seats:
            raise UsebioError(
                _("A line of %(where)s does not name its four players.") % {"where": label}
            )
        ns, ew, south, west = seats
    else:
        (ns, _l1), (ew, _l2) = (
            _pair_ref(_text(t, "NS_PAIR_NUMBER"), label),
            _pair_ref(_text(t, "EW_PAIR_NUMBER"), label),
        )
        south = west = None
    try:
        score, adjustment = parse_score(_text(t, "SCORE"))
        extended = parse_adjustment(_text(t, "ADJUSTMENT"), score)
    except UsebioError as exc:
        raise UsebioError(
            _("%(where)s: %(problem)s") % {"where": label, "problem": exc.message}
        ) from exc
    if extended is not None:
        adjustment = extended
        score = score if extended["kind"] == "weighted" else None
    ns_mark, ew_mark = _marks(t)
    declarer = _text(t, "PLAYED_BY").upper()[:1]
    if declarer and declarer not in SEATS:
        raise UsebioError(
            _("“%(value)s” is not a seat (%(where)s).") % {"value": declarer, "where": label}
        )
    return FileLine(
        _int(_text(t, "ROUND_NUMBER"), label),
        _int(_text(t, "TABLE_NUMBER"), label),
        ns,
        ew,
        _text(t, "CONTRACT"),
        declarer,
        _text(t, "LEAD"),
        _int(_text(t, "TRICKS"), label),
        score,
        adjustment,
        ns_mark,
        ew_mark,
        south,
        west,
        _text(t, "ROOM").upper(),
    )


def _boards(container: ET.Element, where: str, problems: Problems) -> dict[int, list[FileLine]]:
    boards: dict[int, list[FileLine]] = {}
    for b in container.findall("BOARD"):
        number = problems.check(board_number, b, where)
        if number is None:
            continue
        lines = boards.setdefault(number, [])
        for t in b.findall("TRAVELLER_LINE"):
            label = _("board %(board)s, %(where)s") % {"board": number, "where": where}
            line = problems.check(traveller_line, t, label)
            if line is not None:
                lines.append(line)
    return boards

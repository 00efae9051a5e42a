"""Individual events on the pairs machinery: single players, four to a table.

An individual entry is one player (``Entry`` with one ``EntryPlayer``) whose ``Seating.number``
is the movement's player number. The stored movement names the four seats of every table
and round (``plan.Slot.players``); a result row keeps North's entry in ``ns`` and East's in
``ew`` (so a line is identified as for pairs) and South's and West's in ``south``/``west``.
Classification scores each board as for pairs and credits the NS marks to North and South,
the EW marks to East and West (``scoring.score_individual_session``); rankings and marks are
then stored per player entry, so the ranking, scorecard, traveller and player pages read
them like any other event.

Butler and cross-IMP individuals are scored the same way in IMPs
(``scoring.score_individual_imps``): ranking, scorecards and travellers then show IMPs.

Only complete tables are scored: a table with an empty or withdrawn seat has no line (the
director fills the seat with a substitute, as the course does).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Entry, EntryStatus, Seating, Section, TableCode
from tournaments.movements.individual import (  # noqa: F401  (the set-up form offers these)
    SUPPORTED_PLAYERS,
)
from tournaments.scoring import (
    IndividualBoard,
    IndividualLine,
    score_individual_imps,
    score_individual_session,
)
from tournaments.scoring import Penalty as CorePenalty
from tournaments.services.classification.session_data import PoolScore
from tournaments.services.errors import InvalidResult, TournamentError
from tournaments.services.running.adjustments import core_entry
from tournaments.services.setup import plan

SEAT_LETTERS = ("N", "S", "E", "W")
SEAT_NAMES = {
    "N": gettext_lazy("North"),
    "S": gettext_lazy("South"),
    "E": gettext_lazy("East"),
    "W": gettext_lazy("West"),
}


def is_individual(section: Section) -> bool:
    return bool(section.movement) and plan.is_individual(section.movement)


# --- who sits where -------------------------------------------------------------------------


def seated_players(section: Section) -> dict[int, Entry]:
    """Player number → the active entry holding it."""
    return {
        s.number: s.entry
        for s in Seating.objects.filter(section=section).select_related("entry")
        if s.entry.status == EntryStatus.ACTIVE
    }


@dataclass(frozen=True, slots=True)
class SeatAt:
    """One seat of an individual table in one round."""

    seat: str  # N, S, E or W
    number: int
    entry: Entry | None

    @property
    def seat_name(self) -> str:
        return str(SEAT_NAMES[self.seat])


def seats_at(slot: plan.Slot, players: dict[int, Entry]) -> list[SeatAt]:
    if slot.players is None:
        return []
    return [
        SeatAt(seat, number, players.get(number))
        for seat, number in zip(SEAT_LETTERS, slot.players, strict=True)
    ]


def line_players(section: Section, slot: plan.Slot) -> tuple[Entry, Entry, Entry, Entry]:
    """North, South, East and West of a table's round; refuses a table with an empty seat."""
    players = seated_players(section)
    found = [players.get(number) for number in slot.players or ()]
    if len(found) != 4 or any(e is None for e in found):
        raise InvalidResult(
            _(
                "A player is missing at this table this round (empty seat or "
                "withdrawn): seat a substitute first."
            )
        )
    return found[0], found[1], found[2], found[3]  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """Where the player in ``seat`` at this table goes for the next round."""

    seat: str
    number: int
    table: int | None
    new_seat: str  # "" when the player is not in the next round

    @property
    def what(self) -> str:
        return self.seat

    @property
    def seat_name(self) -> str:
        return str(SEAT_NAMES[self.seat])

    @property
    def new_seat_name(self) -> str:
        return str(SEAT_NAMES[self.new_seat]) if self.new_seat else ""


def moves_after(movement: dict, round_number: int, table: int) -> list[PlayerMove]:
    """Pure: where each of this table's players sits in the round after ``round_number``;
    empty after the last round."""
    here = plan.slot_for(movement, round_number, table)
    following = [s for s in plan.slots(movement) if s.round == round_number + 1]
    if here is None or here.players is None or not following:
        return []
    where: dict[int, tuple[int, str]] = {}
    for s in following:
        for seat, number in zip(SEAT_LETTERS, s.players or (), strict=False):
            where[number] = (s.table, seat)
    out = []
    for seat, number in zip(SEAT_LETTERS, here.players, strict=True):
        to_table, to_seat = where.get(number, (None, ""))
        out.append(PlayerMove(seat, number, to_table, to_seat))
    return out


# --- table cards ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndividualTableLine:
    round: int
    seats: tuple[SeatAt, ...]
    boards: tuple[int, ...]
    shares_with: tuple[int, ...] = ()


@dataclass
class IndividualTableCard:
    section: str
    table: int
    code: str
    lines: list[IndividualTableLine] = field(default_factory=list)


def table_cards(section: Section) -> list[IndividualTableCard]:
    """One card per table: round by round the four seats (number and name) and the boards."""
    players = seated_players(section)
    codes = dict(
        TableCode.objects.filter(section=section, active=True).values_list("table", "code")
    )
    shared: dict[tuple[int, int], tuple[int, ...]] = {}
    for rnd in section.movement.get("rounds", ()):
        for t in rnd.get("tables", ()):
            shared[(int(rnd["round"]), int(t["table"]))] = tuple(t.get("shares_with", ()))
    cards: dict[int, IndividualTableCard] = {}
    for s in sorted(plan.slots(section.movement), key=lambda s: (s.table, s.round)):
        card = cards.setdefault(
            s.table, IndividualTableCard(section.letter, s.table, codes.get(s.table, ""))
        )
        card.lines.append(
            IndividualTableLine(
                s.round,
                tuple(seats_at(s, players)),
                tuple(b + section.board_offset for b in s.boards),
                shared.get((s.round, s.table), ()),
            )
        )
    return [cards[t] for t in sorted(cards)]


# --- player cards ---------------------------------------------------------------------------


PARTNER_SEAT = {"N": "S", "S": "N", "E": "W", "W": "E"}
OPPONENT_SEATS = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A player's round: where to sit, with whom, against whom, which boards. ``table`` is
    None when the movement leaves the player out of the round."""

    round: int
    table: int | None
    seat: str = ""
    partner: SeatAt | None = None
    opponents: tuple[SeatAt, ...] = ()
    boards: tuple[int, ...] = ()

    @property
    def sitout(self) -> bool:
        return self.table is None

    @property
    def seat_name(self) -> str:
        return str(SEAT_NAMES[self.seat]) if self.seat else ""


@dataclass
class PlayerCard:
    section: str
    number: int
    entry: Entry | None
    lines: list[PlayerLine] = field(default_factory=list)


def player_cards(section: Section) -> list[PlayerCard]:
    """One card per player number of the movement: round by round the table, the seat, the
    partner, the two opponents and the boards (the individual's pair movement card)."""
    players = seated_players(section)
    slots = list(plan.slots(section.movement))
    rounds = sorted({s.round for s in slots})
    where: dict[tuple[int, int], tuple[plan.Slot, dict[str, SeatAt]]] = {}
    for s in slots:
        seats = {seat.seat: seat for seat in seats_at(s, players)}
        for seat in seats.values():
            where[(s.round, seat.number)] = (s, seats)
    numbers = sorted({n for s in slots for n in s.players or ()})
    cards = []
    for number in numbers:
        card = PlayerCard(section.letter, number, players.get(number))
        for rnd in rounds:
            found = where.get((rnd, number))
            if found is None:
                card.lines.append(PlayerLine(rnd, None))
                continue
            slot, seats = found
            own = next(s.seat for s in seats.values() if s.number == number)
            card.lines.append(
                PlayerLine(
                    rnd,
                    slot.table,
                    own,
                    seats[PARTNER_SEAT[own]],
                    tuple(seats[o] for o in OPPONENT_SEATS[own]),
                    tuple(b + section.board_offset for b in slot.boards),
                )
            )
        cards.append(card)
    return cards


# --- the director's choice ------------------------------------------------------------------


def build_movement(players: int, boards_per_round: int = 2) -> dict:
    """The individual movement for ``players`` (8, 12 or 16) as the stored dict."""
    from tournaments.movements import MovementError, individual

    try:
        return individual(players, boards_per_round).to_dict()
    except MovementError as exc:
        raise TournamentError(
            _("This movement is not possible: %(reason)s") % {"reason": exc}, "movement"
        ) from exc


# --- classification -------------------------------------------------------------------------


def pool_boards(
    data, sections: list[Section], imp: bool = False
) -> tuple[list[IndividualBoard], int, int, dict[tuple[int, int], int]]:
    """The core's boards for one pool of individual sections, N (theoretical results per
    board, the largest in the pool: one top), boards per player and (board, entry) → section."""
    section_ids = {s.pk for s in sections}
    lines: dict[int, list[IndividualLine]] = defaultdict(list)
    where: dict[tuple[int, int], int] = {}
    for r in data.results:
        if r["section_id"] not in section_ids:
            continue
        number = r["board__number"]
        players = (r["ns_id"], r.get("south_id"), r["ew_id"], r.get("west_id"))
        lines[number].append(
            IndividualLine(*players, core_entry(r["ns_score"], r["adjustment"], imp_scoring=imp))
        )
        for p in players:
            if p is not None:
                where[(number, p)] = r["section_id"]
    plays: dict[int, int] = defaultdict(int)
    per_player = 0
    for section in sections:
        per_player = max(
            per_player, plan.round_count(section.movement) * plan.boards_per_round(section.movement)
        )
        for number, count in plan.plays_per_board(section.movement).items():
            plays[number + section.board_offset] += count
    expected = max(plays.values(), default=0)
    boards = [IndividualBoard(n, tuple(lines[n])) for n in sorted(lines)]
    return boards, expected, per_player, where


def score_pool(data, pool: str, sections: list[Section]):
    """A ``session_data.PoolScore`` for individual sections: matchpoints, or the
    tournament's IMP method (Butler, cross-IMPs) with each side's IMPs credited to both
    partners and a penalty's amount read as IMPs, as for IMP pairs."""
    form = data.session.tournament.method.imp_form
    if form is not None:
        boards, _expected, _per_player, where = pool_boards(data, sections, imp=True)
        scored = score_individual_imps(boards, form)
        totals = dict(scored.totals)
        for p in data.penalties:
            if p["entry_id"] in totals:
                totals[p["entry_id"]] -= Fraction(str(p["fraction_of_top"]))
        out = PoolScore(pool, sections, None, imp_totals=totals)
        out.boards = scored.boards
        out.marks = [
            (
                where[(m.board, m.player)],
                m.board,
                m.player,
                m.direction,
                m.opponent,
                m.imps or Fraction(0),
                "unplayed" if m.imps is None else "result",
            )
            for m in scored.marks
        ]
        return out
    boards, expected, per_player, where = pool_boards(data, sections)
    players = {
        p
        for b in boards
        for line in b.lines
        for p in (line.north, line.south, line.east, line.west)
        if p is not None
    }
    penalties = [
        CorePenalty(p["entry_id"], Fraction(str(p["fraction_of_top"])), p["board_number"])
        for p in data.penalties
        if p["entry_id"] in players
    ]
    # an imported event is scored as its file was (imports.usebio_conventions)
    conventions = data.session.tournament.conventions or {}
    scored = score_individual_session(
        boards,
        expected=max(expected, 1),
        boards_per_player=per_player or None,
        penalties=penalties,
        factoring=conventions.get("factoring", "neuberg"),
    )
    out = PoolScore(pool, sections, scored.top, totals=scored.totals, session_score=scored)
    out.boards = {p: t.boards for p, t in scored.totals.items()}
    out.marks = [
        (where[(m.board, m.pair)], m.board, m.pair, m.direction, m.opponent, m.mark, m.kind)
        for m in scored.marks
    ]
    return out

"""What a table device sees of its round: the pairs (or four players) at the table, the boards
with their stored results, where everyone moves next, and a board's traveller.
"""

from dataclasses import dataclass

from tournaments.models import (
    Board,
    Entry,
    EntryStatus,
    Result,
    ResultStatus,
    Seating,
    Section,
    StoredMark,
    TableCode,
)
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.classification import reclassification
from tournaments.services.setup import individual, plan


@dataclass(frozen=True, slots=True)
class BoardAtTable:
    """A board of a table's round: its stored result (if any) and whether a conflict waits."""

    board: Board
    result: Result | None
    conflict: bool

    @property
    def done(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class Move:
    """Where a pair (``line`` at this table now) or the boards go for the next round."""

    what: str  # "NS", "EW" (the pair sitting there now) or "boards"
    number: int | None  # the pair's number (None for boards)
    table: int | None  # None: nowhere (sits out, or boards to a relay)
    line: str  # "NS"/"EW" where the pair sits next; "" for boards
    sitout: bool = False


@dataclass(frozen=True, slots=True)
class TableRound:
    """One round at one table, as its device shows it."""

    table_code: TableCode
    round: int
    rounds: int
    ns_number: int | None
    ew_number: int | None
    ns: Entry | None
    ew: Entry | None
    boards: list[BoardAtTable]
    moves: list  # Move, or individual.PlayerMove in an individual
    seats: tuple = ()  # individual events: the four individual.SeatAt, N S E W

    @property
    def individual(self) -> bool:
        return bool(self.seats)

    @property
    def plays(self) -> bool:
        """Both pairs (all four players) are here (not a sit-out round for this table)."""
        if self.seats:
            return all(seat.entry is not None for seat in self.seats)
        return self.ns is not None and self.ew is not None

    @property
    def complete(self) -> bool:
        return not self.plays or all(b.done for b in self.boards)


def _seated(section: Section) -> dict[tuple[int, str], Entry]:
    return {
        (s.number, s.direction): s.entry
        for s in Seating.objects.filter(section=section).select_related("entry")
        if s.entry.status == EntryStatus.ACTIVE
    }


def _pair_key(movement: dict, number: int | None, line: str) -> tuple[int | None, str]:
    return number, line if plan.is_directional(movement) else ""


def moves_after(movement: dict, round_number: int, table: int) -> list[Move]:
    """Pure: where this table's pairs and boards go for the round after ``round_number``
    ("move to table X, direction Y"); empty after the last round."""
    here = plan.slot_for(movement, round_number, table)
    following = [s for s in plan.slots(movement) if s.round == round_number + 1]
    if here is None or not following:
        return []
    directional = plan.is_directional(movement)
    out = []
    for line, number in (("NS", here.ns), ("EW", here.ew)):
        if number is None or plan.is_phantom(movement, number, line):
            continue
        spots = [(s, "NS") for s in following if s.ns == number] + [
            (s, "EW") for s in following if s.ew == number
        ]
        if directional:  # a Mitchell number belongs to its line
            spots.sort(key=lambda spot: spot[1] != line)
        if not spots:
            out.append(Move(line, number, None, "", sitout=True))
            continue
        slot, new_line = spots[0]
        opponent = slot.ew if new_line == "NS" else slot.ns
        other = "EW" if new_line == "NS" else "NS"
        out.append(
            Move(
                line,
                number,
                slot.table,
                new_line,
                sitout=plan.is_phantom(movement, opponent, other),
            )
        )
    same = [s for s in following if set(s.boards) == set(here.boards)]
    out.append(Move("boards", None, same[0].table if same else None, ""))
    return out


def table_round(table_code: TableCode, round_number: int | None = None) -> TableRound:
    """The table's ``round_number`` (by default the first with results missing): its pairs,
    its boards with what is stored, and the moves for the next round."""
    section = table_code.section
    movement = section.movement
    rounds = plan.round_count(movement)
    seated = _seated(section)
    rows = Result.objects.filter(
        section=section, table=table_code.table, status__in=[ResultStatus.OK, ResultStatus.CONFLICT]
    ).select_related("board")
    stored: dict[tuple[int, int], Result] = {}
    conflicts: set[tuple[int, int]] = set()
    for row in rows:
        key = (row.round, row.board.number)
        if row.status == ResultStatus.OK:
            stored[key] = row
        else:
            conflicts.add(key)
    slots = {s.round: s for s in plan.table_slots(movement, table_code.table)}
    if round_number is None or round_number not in slots:
        round_number = next(
            (
                r
                for r, s in sorted(slots.items())
                if seated.get(_pair_key(movement, s.ns, "NS"))
                and seated.get(_pair_key(movement, s.ew, "EW"))
                and any((r, b + section.board_offset) not in stored for b in s.boards)
            ),
            max(slots, default=1),
        )
    slot = slots.get(round_number)
    if slot is None:
        return TableRound(table_code, round_number, rounds, None, None, None, None, [], [])
    numbers = [b + section.board_offset for b in slot.boards]
    boards = {
        b.number: b
        for b in Board.objects.filter(
            session_id=section.session_id, pool=section.pool, number__in=numbers
        )
    }
    seats: tuple = ()
    if slot.players is not None:
        seats = tuple(
            individual.seats_at(slot, {number: e for (number, _line), e in seated.items()})
        )
        moves: list = individual.moves_after(movement, round_number, table_code.table)
    else:
        moves = moves_after(movement, round_number, table_code.table)
    return TableRound(
        table_code,
        round_number,
        rounds,
        slot.ns,
        slot.ew,
        seated.get(_pair_key(movement, slot.ns, "NS")),
        seated.get(_pair_key(movement, slot.ew, "EW")),
        [
            BoardAtTable(boards[n], stored.get((round_number, n)), (round_number, n) in conflicts)
            for n in numbers
            if n in boards
        ],
        moves,
        seats,
    )


def boards_ahead(tr: TableRound, count: int) -> list[tuple[int, list[int]]]:
    """The ``count`` rounds after ``tr`` that the device keeps for a Wi-Fi drop, each with the
    boards the table plays there (none in a round it sits out or does not play).

    Only what the page list needs: the seats read once and the boards in one query, where
    building each round (its results, its moves) cost four queries a round on every load
    of the round page and of each page the device keeps."""
    table_code = tr.table_code
    section = table_code.section
    movement = section.movement
    slots = {s.round: s for s in plan.table_slots(movement, table_code.table)}
    wanted = [
        slots[n] for n in range(tr.round + 1, min(tr.rounds, tr.round + count) + 1) if n in slots
    ]
    if not wanted:
        return []
    seated = _seated(section)
    players = {number: e for (number, _line), e in seated.items()}
    existing = set(
        Board.objects.filter(
            session_id=section.session_id,
            pool=section.pool,
            number__in=[b + section.board_offset for s in wanted for b in s.boards],
        ).values_list("number", flat=True)
    )
    out = []
    for slot in wanted:
        if slot.players is not None:
            plays = all(seat.entry is not None for seat in individual.seats_at(slot, players))
        else:
            plays = (
                seated.get(_pair_key(movement, slot.ns, "NS")) is not None
                and seated.get(_pair_key(movement, slot.ew, "EW")) is not None
            )
        numbers = [b + section.board_offset for b in slot.boards] if plays else []
        out.append((slot.round, [n for n in numbers if n in existing]))
    return out


@dataclass(frozen=True, slots=True)
class _Joined:
    """Two players' seatings shown as one side of an individual traveller line."""

    first: Seating
    second: Seating

    @property
    def label(self) -> str:
        return f"{seat_label(self.first)}–{seat_label(self.second)}"


def seat_label(side: "Seating | _Joined | None") -> str:
    """A side of a traveller line as the reader writes it: "3EO" in Spanish and Portuguese for
    the stored "3EW" (``Seating.label`` keeps the codes), "3" in a Howell, and the two
    players' numbers of an individual's side ("3–5")."""
    if side is None:
        return ""
    if isinstance(side, _Joined):
        return side.label
    return f"{side.number}{seat_word(side.direction)}"


def traveller(board: Board) -> tuple[list[dict], int | None]:
    """The board's results entered so far in its session and pool, best NS score first, with
    the marks of the current classification (matchpoints scaled to the whole field by
    Neuberg, or IMPs) and the matchpoint top (None for IMP scoring)."""
    from collections import Counter

    reclassification.follow_live(board.session)
    rows = sorted(
        Result.objects.filter(board=board, status=ResultStatus.OK).select_related("section"),
        key=lambda r: (r.ns_score is None, -(r.ns_score or 0), r.section.letter, r.table),
    )
    numbers = {s.entry_id: s for s in Seating.objects.filter(session_id=board.session_id)}
    marks: dict[tuple[int, str], object] = {
        (m.result_id, m.direction): m.mark
        for m in StoredMark.objects.filter(
            session_id=board.session_id, board_number=board.number, result__in=rows
        )
    }
    out = []
    for row in rows:
        ns_seat, ew_seat = numbers.get(row.ns_id), numbers.get(row.ew_id)
        if row.south_id is not None:  # individual: "N–S" and "E–W" player numbers
            south, west = numbers.get(row.south_id), numbers.get(row.west_id)
            ns_seat = _Joined(ns_seat, south) if ns_seat and south else ns_seat
            ew_seat = _Joined(ew_seat, west) if ew_seat and west else ew_seat
        out.append(
            {
                "result": row,
                "section": row.section.letter,
                "ns_label": seat_label(ns_seat),
                "ew_label": seat_label(ew_seat),
                "ns_mark": marks.get((row.pk, "NS")),
                "ew_mark": marks.get((row.pk, "EW")),
            }
        )
    top = None
    if board.session.tournament.is_matchpoints:
        plays: Counter = Counter()
        for section in Section.objects.filter(session_id=board.session_id, pool=board.pool):
            plays.update(
                {
                    b + section.board_offset: n
                    for b, n in plan.plays_per_board(section.movement).items()
                }
            )
        expected = max(plays.values(), default=1)  # the classification's one top per pool
        top = 2 * (expected - 1)
    return out, top

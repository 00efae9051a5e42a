"""Reading a stored movement: the plain dict ``Movement.to_dict()`` produces.

Shape relied on: ``{"kind", "tables", "rounds": [{"round", "tables": [{"table", "ns",
"ew", "boards": [board numbers]}]}], "sitout": ...}``. ``ns``/``ew`` are pair numbers
(None for an empty seat); ``sitout`` names the phantom pair number(s), if any, whose
opponents sit out. Pair numbers are per line in a Mitchell ("directional") and unique in
every other movement. Reading it here keeps the database independent of the generator.
"""

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

# The movements core names Mitchell pairs "3NS" / "3EW" (with pools "A3NS"); others are ints.
_CONTESTANT = re.compile(r"^[A-Za-z]*?(\d+)(NS|EW)?$")


def contestant_number(contestant) -> int | None:
    """The pair number of a movement contestant: ``3``, ``"3NS"`` and ``"A3NS"`` are 3."""
    if contestant is None or isinstance(contestant, int):
        return contestant
    match = _CONTESTANT.match(str(contestant).strip())
    if match is None:
        raise ValueError(f"not a pair of a movement: {contestant!r}")
    return int(match.group(1))


@dataclass(frozen=True, slots=True)
class Slot:
    """One table in one round of a movement."""

    round: int
    table: int
    ns: int | None
    ew: int | None
    boards: tuple[int, ...]
    players: tuple[int, int, int, int] | None = None  # individual: N, S, E, W


SEATS = ("north", "south", "east", "west")


def is_individual(movement: dict) -> bool:
    """Whether the movement seats single players (N, S, E, W) rather than pairs."""
    if str(movement.get("kind", "")).lower() == "individual":
        return True
    # the tables as stored, not ``slots``: a classification asks this of every section and
    # building each slot of a 200-table session cost more than scoring one of its boards
    return any(
        _seats_players(t) for rnd in movement.get("rounds", ()) for t in rnd.get("tables", ())
    )


def is_directional(movement: dict) -> bool:
    """Whether pairs are numbered within their line (NS 1..T and EW 1..T), as in a Mitchell."""
    numbering = movement.get("numbering")
    if numbering:
        return numbering == "directional"
    return "mitchell" in str(movement.get("kind", "")).lower()


def phantoms(movement: dict) -> frozenset[int]:
    """Pair numbers that are nobody: the pair drawn against them sits out."""
    sitout = movement.get("sitout")
    if sitout is None or sitout is False:
        return frozenset()
    if isinstance(sitout, int | str):
        return frozenset({contestant_number(sitout)})
    if isinstance(sitout, dict):
        value = sitout.get("pairs", sitout.get("pair"))
        return phantoms({"sitout": value})
    return frozenset(contestant_number(p) for p in sitout if p is not None)


def _seats_players(t: dict) -> bool:
    """Whether a stored table names a player at each of its four seats (an individual's)."""
    return all(t.get(seat) is not None for seat in SEATS)


def _slot(round_number: int, t: dict) -> Slot:
    """One table of one round; an individual table names its four players."""
    boards = tuple(int(b) for b in t.get("boards", ()))
    if _seats_players(t):
        north, south, east, west = (int(t[seat]) for seat in SEATS)
        return Slot(round_number, int(t["table"]), north, east, boards, (north, south, east, west))
    return Slot(
        round_number,
        int(t["table"]),
        contestant_number(t.get("ns")),
        contestant_number(t.get("ew")),
        boards,
    )


def slots(movement: dict) -> Iterator[Slot]:
    for rnd in movement.get("rounds", ()):
        for t in rnd.get("tables", ()):
            yield _slot(int(rnd["round"]), t)


def table_slots(movement: dict, table: int) -> Iterator[Slot]:
    """The slots of one table: a table's post reads its own rounds, and building every slot
    of the movement for it was a third of the post's time at 40 tables."""
    for rnd in movement.get("rounds", ()):
        for t in rnd.get("tables", ()):
            if int(t["table"]) == table:
                yield _slot(int(rnd["round"]), t)


def sitout_boards(movement: dict) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """``(round, pair number, boards)`` for each pair the movement lists as sitting out.

    The movements core leaves the phantom's table out of a round and names the pair that
    would have met it in the round's ``sitout``; that pair's boards are the set it never
    plays anywhere else (a complete Howell plays every set once), taken from the round's
    ``relay`` boards (the sets not in play), else any relay boards it does not play. The
    course scores those boards like a relay: the pair's own average (C03 l.746).
    """
    per_round = boards_per_round(movement)
    everyone: dict[int, set[int]] = {}
    for slot in slots(movement):
        for number in (slot.ns, slot.ew):
            if number is not None:
                everyone.setdefault(number, set()).update(slot.boards)
    all_boards = set().union(*everyone.values()) if everyone else set()
    for rnd in movement.get("rounds", ()):
        relay = [int(b) for b in rnd.get("relay", ())]
        for pair in rnd.get("sitout", ()) or ():
            number = contestant_number(pair)
            if number is None:
                continue
            plays = everyone.get(number, set())
            never = [b for b in relay if b not in plays and b in all_boards]
            spare = [b for b in relay if b not in plays and b not in never]
            chosen = sorted((never + spare)[:per_round])
            if chosen:
                yield int(rnd["round"]), number, tuple(chosen)


def round_count(movement: dict) -> int:
    return len(movement.get("rounds", ()))


def table_count(movement: dict) -> int:
    if movement.get("tables"):
        return int(movement["tables"])
    return max((s.table for s in slots(movement)), default=0)


def boards_per_round(movement: dict) -> int:
    return max((len(s.boards) for s in slots(movement)), default=0)


def pair_numbers(movement: dict) -> list[tuple[int, str]]:
    """Every pair place as ``(number, line)``, phantoms included (a late pair may take one);
    the line is "" unless numbering is directional. NS before EW, then by number."""
    directional = is_directional(movement)
    seen: set[tuple[int, str]] = set()
    for s in slots(movement):
        if s.players is not None:
            seen.update((int(number), "") for number in s.players)
            continue
        for number, line in ((s.ns, "NS"), (s.ew, "EW")):
            if number is not None:
                seen.add((int(number), line if directional else ""))
    return sorted(seen, key=lambda p: (LINE_ORDER[p[1]], p[0]))


LINE_ORDER = {"": 0, "NS": 0, "EW": 1}


def _directional_phantoms(movement: dict) -> set[tuple[int, str]]:
    """In a Mitchell a phantom is a line number: ``sitout`` may be ``{"pair": 7, "line": "EW"}``."""
    sitout = movement.get("sitout")
    if isinstance(sitout, dict) and sitout.get("line"):
        return {(int(p), sitout["line"]) for p in phantoms(movement)}
    if isinstance(sitout, str) and sitout[-2:] in ("NS", "EW"):
        return {(contestant_number(sitout), sitout[-2:])}
    return {(p, "EW") for p in phantoms(movement)}


def is_phantom(movement: dict, number: int | None, line: str) -> bool:
    if number is None:
        return True
    if is_directional(movement):
        return (number, line) in _directional_phantoms(movement)
    return number in phantoms(movement)


def plays_per_board(movement: dict) -> Counter:
    """How many times each board is meant to be played (sit-out tables included: their
    boards count towards the theoretical number of results, Neuberg fills them)."""
    return Counter(b for s in slots(movement) for b in s.boards)


def slot_for_table(round_number: int, table: dict) -> Slot:
    """The slot of one table entry of round ``round_number`` of a movement."""
    return _slot(round_number, table)


def slot_for(movement: dict, round_number: int, table: int) -> Slot | None:
    # Every result posted looks its line up here: skip the other rounds' tables unbuilt.
    for rnd in movement.get("rounds", ()):
        if int(rnd["round"]) != round_number:
            continue
        for t in rnd.get("tables", ()):
            if int(t["table"]) == table:
                return _slot(round_number, t)
    return None

"""Team events: round robins (Roman and inverse squares, C03 l.238-285), Swiss/Danish pairings,
knockout brackets, the 3-team triplicate (C03 l.211-236), Patton and Butler.

A round robin is a ``Schedule`` of matches (home team first: it sits NS in the open room and EW in
the closed room, C03 l.249 and Art. 112).  ``patton`` turns a schedule into a table movement.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .design import Design
from .howell import butler as butler
from .model import Movement
from .rounds import MovementError, Round, TableRound, board_numbers

Team = Hashable


@dataclass(frozen=True, slots=True)
class Match:
    table: int
    home: int
    away: int

    def rooms(self, half: int = 1) -> dict[str, dict[str, str]]:
        """Seating per Art. 112: home NS in the open room and EW in the closed room; in the second
        half the visiting pairs change rooms so nobody meets a pair it has already met."""
        h, a = self.home, self.away
        if half == 1:
            return {
                "open": {"ns": f"{h}a", "ew": f"{a}a"},
                "closed": {"ns": f"{a}b", "ew": f"{h}b"},
            }
        return {"open": {"ns": f"{h}a", "ew": f"{a}b"}, "closed": {"ns": f"{a}a", "ew": f"{h}b"}}


# A frozen dataclass's __init__ goes through object.__setattr__ field by field (about 1 us);
# round_robin builds thousands of matches, so it fills the slots directly: the same object.
_set_table, _set_home, _set_away = (
    vars(Match)["table"].__set__,
    vars(Match)["home"].__set__,
    vars(Match)["away"].__set__,
)


def _match(table: int, home: int, away: int) -> Match:
    match = object.__new__(Match)
    _set_table(match, table)
    _set_home(match, home)
    _set_away(match, away)
    return match


@dataclass(frozen=True, slots=True)
class MatchRound:
    round: int
    matches: tuple[Match, ...]
    bye: int | None = None


@dataclass
class Schedule:
    kind: str
    teams: int
    rounds: list[MatchRound]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "teams": self.teams,
            "rounds": [
                {
                    "round": r.round,
                    "bye": r.bye,
                    "matches": [
                        {"table": m.table, "home": m.home, "away": m.away} for m in r.matches
                    ],
                }
                for r in self.rounds
            ],
            "notes": list(self.notes),
        }

    def pairs_by_round(self) -> list[list[tuple[int, int]]]:
        return [[(m.home, m.away) for m in r.matches] for r in self.rounds]


def round_robin(
    teams: int, method: Literal["roman", "inverse"] = "inverse", legs: int = 1
) -> Schedule:
    """All-play-all.  Odd counts add a phantom team; its opponent has the bye ("relais")."""
    if not isinstance(teams, int) or teams < 2:
        raise MovementError(f"a round robin needs at least 2 teams, got {teams!r}")
    if method not in ("roman", "inverse"):
        raise MovementError(f"method must be 'roman' or 'inverse', got {method!r}")
    if legs not in (1, 2):
        raise MovementError(f"legs must be 1 or 2 (single or double round robin), got {legs!r}")
    n = teams + teams % 2
    grid = roman_square(n) if method == "roman" else inverse_square(n)
    rounds: list[MatchRound] = []
    for leg in range(legs):
        for r, row in enumerate(grid, start=1):
            bye = None
            if n != teams:  # the phantom team n plays at exactly one table: its opponent's bye
                bye = next(away if home == n else home for home, away in row if n in (home, away))
                row = [m for m in row if n not in m]
            if leg:  # C03 l.251: the second leg reverses positions
                homes, aways = [a for _, a in row], [h for h, _ in row]
            else:
                homes, aways = [h for h, _ in row], [a for _, a in row]
            matches = tuple(map(_match, range(1, len(row) + 1), homes, aways))
            rounds.append(MatchRound(r + leg * len(grid), matches, bye))
    return Schedule(
        kind="round_robin",
        teams=teams,
        rounds=rounds,
        notes=(
            f"{'Roman' if method == 'roman' else 'Inverse'} square for {n} teams"
            + (f"; team {n} is a phantom (bye)" if n != teams else "")
            + ".",
        ),
    )


def roman_square(n: int) -> list[list[tuple[int, int]]]:
    """C03 l.238-253: rotate 1..n-1 left, n fixed last; pair from the middle outwards."""
    rows = []
    for r in range(n - 1):
        row = [(i + r) % (n - 1) + 1 for i in range(n - 1)] + [n]
        rows.append([(row[k - 1], row[n - k]) for k in range(n // 2, 0, -1)])
    return rows


def inverse_square(n: int) -> list[list[tuple[int, int]]]:
    """C03 l.255-285: fill first slots (n alternating at the last table), then second slots
    right-to-left and bottom-to-top, both with a counter cycling 1..n-1."""
    m, half = n - 1, n // 2
    # The k-th tick of a counter cycling 1..m is k % m + 1, so each slot's value follows from
    # how many ticks came before it: first pass row by row (half ticks a row, the last one for
    # the table with team n); second pass from the bottom row up and right to left.
    rows = []
    for r in range(m):
        start = r * half
        later = (m - 1 - r) * (half - 1) + half - 2
        row = [((start + t) % m + 1, (later - t) % m + 1) for t in range(half - 1)]
        last = (start + half - 1) % m + 1
        row.append((last, n) if r % 2 == 0 else (n, last))
        rows.append(row)
    return rows


@dataclass(frozen=True, slots=True)
class Pairing:
    pairs: tuple[tuple[Team, Team], ...]
    bye: Team | None
    rematches: int


def swiss_pairings(
    standing: Sequence[Team],
    played: Iterable[tuple[Team, Team]] = (),
    byes: Iterable[Team] = (),
    method: Literal["swiss", "danish"] = "swiss",
) -> Pairing:
    """Pair a standing (best first): 1st v 2nd, 3rd v 4th ...

    ``danish`` is the course's rule (C03 l.197-201; feed it the standing after round r-2) and
    allows rematches.  ``swiss`` avoids rematches: each team takes the best-placed opponent it has
    not met, backtracking when the rest cannot be paired; only when no rematch-free pairing exists
    is one opponent allowed twice, and so on.  With an odd count the lowest team without a bye gets
    it; nobody gets a second bye while a team without one can take it (even at a rematch's cost).
    """
    teams = list(standing)
    if len(set(teams)) != len(teams):
        raise MovementError("the standing lists a team twice")
    if len(teams) < 2:
        raise MovementError(f"need at least 2 teams to pair, got {len(teams)}")
    met: dict[frozenset[Team], int] = {}
    for a, b in played:
        key = frozenset((a, b))
        met[key] = met.get(key, 0) + 1
    bye_count: dict[Team, int] = {}
    for t in byes:
        bye_count[t] = bye_count.get(t, 0) + 1
    if method == "danish":
        bye = None
        if len(teams) % 2:
            bye = min(reversed(teams), key=lambda t: bye_count.get(t, 0))
            teams.remove(bye)
        pairs = tuple((teams[i], teams[i + 1]) for i in range(0, len(teams), 2))
        return Pairing(pairs, bye, sum(1 for a, b in pairs if frozenset((a, b)) in met))
    if method != "swiss":
        raise MovementError(f"method must be 'swiss' or 'danish', got {method!r}")
    tiers: list[list[Team | None]] = [[None]]
    if len(teams) % 2:
        counts = sorted({bye_count.get(t, 0) for t in teams})
        tiers = [[t for t in reversed(teams) if bye_count.get(t, 0) == c] for c in counts]
    limit = max(met.values(), default=0) + 1
    for tier in tiers:  # a second bye only when nobody without one can take it
        for allowed in range(limit + 1):
            for bye in tier:
                rest = [t for t in teams if t != bye]
                found = _pair(tuple(rest), met, allowed, set())
                if found is not None:
                    rematches = sum(1 for a, b in found if frozenset((a, b)) in met)
                    return Pairing(tuple(found), bye, rematches)
    raise MovementError("no pairing found")  # pragma: no cover - allowed grows until it fits


def _pair(
    rest: tuple[Team, ...],
    met: Mapping[frozenset[Team], int],
    allowed: int,
    dead: set[tuple[Team, ...]],
) -> list[tuple[Team, Team]] | None:
    if not rest:
        return []
    if rest in dead:
        return None
    first = rest[0]
    for i in range(1, len(rest)):
        other = rest[i]
        if met.get(frozenset((first, other)), 0) > allowed:
            continue
        tail = _pair(rest[1:i] + rest[i + 1 :], met, allowed, dead)
        if tail is not None:
            return [(first, other), *tail]
    dead.add(rest)
    return None


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    stage: int
    number: int
    a: Team | str | None
    b: Team | str | None

    @property
    def is_bye(self) -> bool:
        return self.a is None or self.b is None


@dataclass
class Bracket:
    size: int
    stages: list[list[KnockoutMatch]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "stages": [
                [{"stage": m.stage, "match": m.number, "a": m.a, "b": m.b} for m in stage]
                for stage in self.stages
            ],
        }


def seeding_order(size: int) -> list[int]:
    """Standard bracket: seed 1 meets the lowest seed, 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def knockout(teams: int | Sequence[Team]) -> Bracket:
    """Bracket with the seeds best first; missing places are byes for the top seeds.

    Later stages name their contestants "W<stage>-<match>" (the winner of that match).
    """
    seeds = list(range(1, teams + 1)) if isinstance(teams, int) else list(teams)
    if len(seeds) < 2:
        raise MovementError(f"a knockout needs at least 2 teams, got {len(seeds)}")
    size = 1 << math.ceil(math.log2(len(seeds)))
    order = seeding_order(size)
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    bracket = Bracket(size)
    stage_matches = [
        KnockoutMatch(1, i // 2 + 1, slots[i], slots[i + 1]) for i in range(0, size, 2)
    ]
    bracket.stages.append(stage_matches)
    stage = 1
    while len(stage_matches) > 1:
        stage += 1
        previous = stage_matches

        def winner(m: KnockoutMatch) -> Team | str:
            if m.is_bye:
                return m.a if m.a is not None else m.b
            return f"W{m.stage}-{m.number}"

        stage_matches = [
            KnockoutMatch(stage, i // 2 + 1, winner(previous[i]), winner(previous[i + 1]))
            for i in range(0, len(previous), 2)
        ]
        bracket.stages.append(stage_matches)
    return bracket


TRIPLICATE_TEAMS = ((1, 2), (3, 6), (4, 5))


def triplicate(boards_per_round: int = 3) -> Movement:
    """The course's 3-team movement (C03 l.211-236): pairs 1-6, 4 rounds, all three tables play
    the same boards at once (a multiple of 3 per round lets them rotate without waiting)."""
    if not isinstance(boards_per_round, int) or boards_per_round < 1:
        raise MovementError(f"boards_per_round must be at least 1, got {boards_per_round!r}")
    rounds = []
    for r, row in enumerate(_TRIPLICATE_ROWS, start=1):
        boards = board_numbers(r, boards_per_round)
        rounds.append(
            Round(
                r,
                tuple(
                    TableRound(
                        t, ns, ew, boards, r, shares_with=tuple(x for x in (1, 2, 3) if x != t)
                    )
                    for t, (ns, ew) in enumerate(row, start=1)
                ),
            )
        )
    return Movement(
        kind="triplicate",
        tables=3,
        boards_per_round=boards_per_round,
        rounds=rounds,
        design=Design(max_meetings=1, all_meet=True, apart=TRIPLICATE_TEAMS, split_lines=True),
        notes=("Teams A = 1 & 2, B = 3 & 6, C = 4 & 5; compare table 1 v 2, 1 v 3 and 2 v 3.",),
    )


# C03 l.167-172, read as (NS, EW) per table; the first row's symbols mark the teams.
_TRIPLICATE_ROWS = (
    ((1, 6), (5, 2), (3, 4)),
    ((1, 5), (4, 6), (3, 2)),
    ((1, 4), (5, 3), (6, 2)),
    ((1, 3), (4, 2), (6, 5)),
)


def patton(
    teams: int, boards_per_match: int = 4, method: Literal["roman", "inverse"] = "inverse"
) -> Movement:
    """Patton (C03 l.185-195): a round robin with few boards per match.  Match m of a round uses
    tables 2m-1 (open room) and 2m (closed room) with their own copy of the round's boards."""
    if not 3 <= boards_per_match <= 8:
        raise MovementError(
            f"a Patton plays 3 to 5 boards per match (C03 l.187), got {boards_per_match!r}"
        )
    schedule = round_robin(teams, method)
    rounds = []
    for mr in schedule.rounds:
        boards = board_numbers(mr.round, boards_per_match)
        entries = []
        for m in mr.matches:
            seats = m.rooms()
            open_t, closed_t = 2 * m.table - 1, 2 * m.table
            entries.append(
                TableRound(
                    open_t,
                    seats["open"]["ns"],
                    seats["open"]["ew"],
                    boards,
                    mr.round,
                    shares_with=(closed_t,),
                    copy=m.table,
                )
            )
            entries.append(
                TableRound(
                    closed_t,
                    seats["closed"]["ns"],
                    seats["closed"]["ew"],
                    boards,
                    mr.round,
                    shares_with=(open_t,),
                    copy=m.table,
                )
            )
        sitout = (f"{mr.bye}a", f"{mr.bye}b") if mr.bye is not None else ()
        rounds.append(Round(mr.round, tuple(entries), sitout))
    apart = tuple((f"{t}a", f"{t}b") for t in range(1, teams + 1))
    return Movement(
        kind="patton",
        tables=2 * (teams // 2),
        boards_per_round=boards_per_match,
        rounds=rounds,
        design=Design(max_meetings=1, apart=apart, split_lines=True),
        notes=("Home team NS in the open room (odd tables), EW in the closed room.",),
    )


__all__ = [
    "Bracket",
    "KnockoutMatch",
    "Match",
    "MatchRound",
    "Pairing",
    "Schedule",
    "butler",
    "inverse_square",
    "knockout",
    "patton",
    "roman_square",
    "round_robin",
    "seeding_order",
    "swiss_pairings",
    "triplicate",
]

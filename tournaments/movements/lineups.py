"""Seating of a team match's halves (C03 l.130-134, l.287-309; movements-spec §3 M1-M3).

A match of more than 16 boards is played in two halves, each with its own line-up. The home
team sits NS in the open room and EW in the closed room. For the second half a home pair that
continues keeps its room, a substitute pair takes the room of the pair it replaces, and the
visitors sit so that no pair meets a pair it already met. A pair is its two players: "todo
cambio entre compañeros crea una nueva pareja", so a re-formed partnership has met no one.
Pure: players are any hashable ids (member ids in the product).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

Pair = frozenset[Hashable]  # two players (in ``faced``, two pairs)


class LineupError(ValueError):
    """A line-up the rules refuse; ``code`` names the rule."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class TeamLineup:
    """One team's two pairs in one half: the open-room pair and the closed-room pair."""

    open: Pair
    closed: Pair

    @classmethod
    def of(cls, open_players: Sequence[Hashable], closed_players: Sequence[Hashable]) -> TeamLineup:
        return cls(Pair(open_players), Pair(closed_players))

    def swapped(self) -> TeamLineup:
        return TeamLineup(self.closed, self.open)


def halves(boards: int) -> list[range]:
    """Board numbers of each half: one half up to 16 boards ("los match a más de 16 manos se
    juegan a dos tiempos"), else the first ceil(n/2) boards and the rest."""
    if boards <= 16:
        return [range(1, boards + 1)]
    first = (boards + 1) // 2
    return [range(1, first + 1), range(first + 1, boards + 1)]


def default_lineup(players: Sequence[Hashable]) -> TeamLineup:
    """Players 1-2 in the open room, 3-4 in the closed room (registration order)."""
    if len(players) < 4:
        raise LineupError("too_few_players")
    return TeamLineup.of(players[:2], players[2:4])


def check_team(lineup: TeamLineup, squad: Sequence[Hashable]) -> None:
    """M1: two pairs of two distinct players of the team's squad (4-6 players)."""
    players = list(lineup.open) + list(lineup.closed)
    if len(lineup.open) != 2 or len(lineup.closed) != 2 or len(set(players)) != 4:
        raise LineupError("four_different_players")
    if not set(players) <= set(squad):
        raise LineupError("not_in_team")


def faced(home: TeamLineup, away: TeamLineup) -> set[Pair]:
    """The home-away pair meetings of a half, as sets of two pairs."""
    return {Pair((home.open, away.open)), Pair((home.closed, away.closed))}


def check_home_rooms(first_home: TeamLineup, home: TeamLineup) -> None:
    """Refuse a home pair that continues into the second half in the other room (l.297)."""
    if home.open == first_home.closed or home.closed == first_home.open:
        raise LineupError("home_pair_changed_room")


def check_second_half(
    first_home: TeamLineup, first_away: TeamLineup, home: TeamLineup, away: TeamLineup
) -> None:
    """Refuse a second half that breaks the course's rule: a continuing home pair changing
    room, or any pair meeting a pair it met in the first half (M3)."""
    check_home_rooms(first_home, home)
    if faced(home, away) & faced(first_home, first_away):
        raise LineupError("pairs_meet_again")


def propose_second_half(
    first_home: TeamLineup,
    first_away: TeamLineup,
    home: TeamLineup | None = None,
    away_pairs: TeamLineup | None = None,
) -> tuple[TeamLineup, TeamLineup]:
    """The second half by the rule: the home team as named (by default unchanged, a substitute
    pair already in the room of the pair it replaced), then the visitors' two pairs (by default
    their first-half pairs) seated so no pair meets a pair it met; swapping rooms first, which
    is the usual answer when both visiting pairs continue."""
    home = home or first_home
    check_home_rooms(first_home, home)  # the home team names first: its own error, not M3
    pairs = away_pairs or first_away
    for away in (pairs.swapped(), pairs):
        try:
            check_second_half(first_home, first_away, home, away)
        except LineupError:
            continue
        return home, away
    raise LineupError("pairs_meet_again")

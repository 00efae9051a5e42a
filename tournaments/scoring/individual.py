"""An individual session: each board matchpointed as for pairs, credited to both partners.

A traveller line of an individual has four players. The board is scored exactly as a pairs
board (``score_board`` on the line's entries against the theoretical number of results, so
tables sharing boards, like the course's 16-player tables 3 and 4, give the same top); then
North and South both receive the NS side's mark and East and West the EW side's. Totals,
percentages and the adjustments that depend on a contestant's own percentage (Law 12C2c
average-plus, relays) are computed per *player*, since nobody keeps a partner in an
individual (C03 l.315-347).

IMP-scored individuals (Butler, cross-IMPs) follow the same rule: each line is IMPed for its NS
and EW sides exactly as an IMP-pairs board (``score_imp_pairs_board``: the course's Butler
datum, C03 l.203-209, or cross-IMPs averaged over the comparisons; AEB ±2/0 for artificial
scores) and both partners of a side receive that side's IMPs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .board import Factoring, SplitRule, score_board
from .butler import DatumRule, score_imp_pairs_board
from .matchpoints import top_for
from .methods import BUTLER_FORM, ImpForm
from .session import Penalty, Provisional, SessionScore, finish_session, provisional_marks


@dataclass(frozen=True, slots=True)
class IndividualLine:
    """One line of an individual traveller; an empty seat is None (its side gets nothing)."""

    north: Hashable
    south: Hashable
    east: Hashable
    west: Hashable
    entry: object  # anything ``adjusted.as_entry`` accepts


@dataclass(frozen=True, slots=True)
class IndividualBoard:
    board: int
    lines: tuple[IndividualLine, ...]


def score_individual_session(
    boards: Sequence[IndividualBoard],
    *,
    expected: int,
    boards_per_player: int | None = None,
    edition: int = 2017,
    penalties: Sequence[Penalty] = (),
    max_average_plus_unplayed: int | None = 2,
    split_rule: SplitRule = "course",
    factoring: Factoring = "neuberg",
) -> SessionScore:
    """Matchpoint every board and total each player (``SessionScore.totals`` per player).

    ``factoring``: a board with fewer results than ``expected`` brought up to the top by
    Neuberg's formula or the plain ratio (an imported file's convention, as for pairs).

    A player's mark names as opponent the first player of the other side present (East for
    North and South, North for East and West).
    """
    provisional: list[Provisional] = []
    for b in boards:
        scored = score_board(
            [line.entry for line in b.lines], expected, split_rule=split_rule, factoring=factoring
        )
        for line, m in zip(b.lines, scored.lines, strict=True):
            ew_first = line.east if line.east is not None else line.west
            ns_first = line.north if line.north is not None else line.south
            provisional += provisional_marks(
                b.board,
                m,
                line.entry,
                (
                    (line.north, "NS", ew_first),
                    (line.south, "NS", ew_first),
                    (line.east, "EW", ns_first),
                    (line.west, "EW", ns_first),
                ),
            )
    return finish_session(
        provisional,
        top=top_for(expected),
        boards_per_pair=boards_per_player,
        edition=edition,
        penalties=penalties,
        max_average_plus_unplayed=max_average_plus_unplayed,
    )


@dataclass(frozen=True, slots=True)
class PlayerImps:
    """One player's IMPs on one board; ``imps`` is None when the line was not played."""

    board: int
    player: Hashable
    direction: str  # NS or EW
    opponent: Hashable
    imps: Fraction | None


@dataclass
class IndividualImps:
    marks: list[PlayerImps] = field(default_factory=list)
    totals: dict[Hashable, Fraction] = field(default_factory=dict)
    boards: dict[Hashable, int] = field(default_factory=dict)  # boards with a mark, per player


def score_individual_imps(
    boards: Sequence[IndividualBoard],
    method: ImpForm = BUTLER_FORM,
    *,
    rule: DatumRule = "course",
    round_to: int | None = None,
) -> IndividualImps:
    """Butler or cross-IMP every board and credit each side's IMPs to both of its players.

    Opponents are named as in ``score_individual_session`` (East for North and South,
    North for East and West).
    """
    out = IndividualImps()
    totals: dict[Hashable, Fraction] = defaultdict(Fraction)
    counts: dict[Hashable, int] = defaultdict(int)
    for b in boards:
        marks = score_imp_pairs_board(
            [line.entry for line in b.lines], method, rule=rule, round_to=round_to
        )
        for line, m in zip(b.lines, marks, strict=True):
            ew_first = line.east if line.east is not None else line.west
            ns_first = line.north if line.north is not None else line.south
            for player, direction, opponent, value in (
                (line.north, "NS", ew_first, m.ns),
                (line.south, "NS", ew_first, m.ns),
                (line.east, "EW", ns_first, m.ew),
                (line.west, "EW", ns_first, m.ew),
            ):
                if player is None:
                    continue
                out.marks.append(PlayerImps(b.board, player, direction, opponent, value))
                counts[player] += 1
                totals[player] += value or 0
    out.totals, out.boards = dict(totals), dict(counts)
    return out

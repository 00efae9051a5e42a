"""Butler ("torneo contra el par de la mano", C03 l.203-209) and IMP-pairs boards.

The course's datum drops one best NS and one best EW result and averages the
rest; the rule is a parameter because clubs use others. Artificial scores in
Butler and cross-IMPs are ±2 / 0 IMPs by AEB norm (L17 78D note, l.3125).

Where the conditions of contest say so, the IMPs a pair scores in the boards of one round
against one opponent (a match) are converted to victory points for that number of boards
(C03 l.207-208: "a la suma de P.M.I. en las manos de que conste el match contra cada pareja
se le aplica el baremo correspondiente de puntos victoria"): ``match_victory_points``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from .adjusted import Artificial, NotPlayed, Role, Split, Weighted, as_entry
from .adjusted import Real as RealResult
from .errors import ScoringError
from .imps import cross_imp_sums, imps, imps_against
from .methods import BUTLER_FORM, CROSS_FORM, ImpForm
from .numeric import Number, all_whole
from .teams import ArtificialImps
from .vp import team_vps

DatumRule = Literal["course", "mean", "trim2"] | Callable[[Sequence[Number]], Fraction]
# How a cross-IMP mark is written: the "average" over the comparisons (the course), their
# "sum", or that sum "factored" up to the comparisons of a full board (N − 1).
CrossForm = Literal["average", "sum", "factored"]
AEB_ARTIFICIAL_IMPS: dict[Role, Fraction] = {
    Role.NON_OFFENDER: Fraction(2),
    Role.PARTLY_AT_FAULT: Fraction(0),
    Role.OFFENDER: Fraction(-2),
}


def butler_datum(
    scores: Sequence[Number], rule: DatumRule = "course", round_to: int | None = None
) -> Fraction:
    """The board's datum (NS points).

    "course": without one highest and one lowest result, the mean of the rest
    (needs three results; with fewer there is nothing to drop and the plain mean
    is used). "mean": the plain mean. "trim2" (other scorers, for larger fields): without
    the two highest and the two lowest results, from five results up (as "course" below). A callable gets the scores. ``round_to``
    (e.g. 10) rounds half away from zero; the course gives no rounding.
    """
    if not scores:
        raise ScoringError("scores", list(scores), "a datum needs at least one result")
    # Whole points (the usual case) are summed as ints and divided once.
    values = (
        sorted(scores)
        if all_whole(scores)
        else sorted(
            s if type(s) is int else Fraction(str(s)) if isinstance(s, float) else Fraction(s)
            for s in scores
        )
    )
    if callable(rule):
        datum = Fraction(rule(scores))
    elif rule == "course":
        kept = values[1:-1] if len(values) >= 3 else values
        datum = (
            Fraction(sum(kept), len(kept)) if all_whole(kept) else sum(kept) / Fraction(len(kept))
        )
    elif rule == "mean":
        datum = (
            Fraction(sum(values), len(values))
            if all_whole(values)
            else sum(values) / Fraction(len(values))
        )
    elif rule == "trim2":
        kept = values[2:-2] if len(values) >= 5 else values[1:-1] if len(values) >= 3 else values
        datum = (
            Fraction(sum(kept), len(kept)) if all_whole(kept) else sum(kept) / Fraction(len(kept))
        )
    else:
        raise ScoringError(
            "rule", rule, "datum rule must be 'course', 'mean', 'trim2' or a callable"
        )
    if round_to:
        q = Decimal(datum.numerator) / Decimal(datum.denominator) / round_to
        datum = Fraction(int(q.quantize(Decimal(1), rounding=ROUND_HALF_UP))) * round_to
    return datum


def butler_imps(
    scores: Sequence[Number], rule: DatumRule = "course", round_to: int | None = None
) -> list[int]:
    """NS IMPs of each result against the datum (EW gets the negative)."""
    datum = butler_datum(scores, rule, round_to)
    if all_whole(scores):
        return imps_against(scores, datum.numerator, datum.denominator)
    return [imps(Fraction(str(s)) - datum if isinstance(s, float) else s - datum) for s in scores]


@dataclass(frozen=True, slots=True)
class LineImps:
    ns: Fraction | None
    ew: Fraction | None


# Marks shared by every line that scores them (LineImps is frozen): a board of whole scores,
# the common case, then builds no Fraction and no LineImps per line.
_BUTLER_LINES: dict[int, LineImps] = {
    v: LineImps(Fraction(v), Fraction(-v)) for v in range(-24, 25)
}


@lru_cache(maxsize=1 << 16)
def _cross_line(total: int, comparisons: int) -> LineImps:
    value = Fraction(total, comparisons)
    return LineImps(value, -value)


HalfRule = Literal["away", "even"]


def round_mark(value: Fraction, places: int | None, half: HalfRule = "away") -> Fraction:
    """``value`` rounded to ``places`` decimals (None: exact), a half away from zero
    (``"away"``) or to the even digit (``"even"``, as some scorers' arithmetic does)."""
    if places is None:
        return value
    q = Decimal(value.numerator) / Decimal(value.denominator)
    mode = ROUND_HALF_EVEN if half == "even" else ROUND_HALF_UP
    return Fraction(q.quantize(Decimal(1).scaleb(-places), rounding=mode))


def cross_scale(form: CrossForm, results: int, field: int | None) -> int:
    """What an average over the comparisons is multiplied by to give the written mark."""
    if form == "average":
        return 1
    if form == "sum":
        return max(results - 1, 1)
    if form == "factored":
        return max((field or results) - 1, 1)
    raise ScoringError("cross", form, "must be 'average', 'sum' or 'factored'")


def _whole_scores_board(
    scores: list[int], method: ImpForm, rule: DatumRule, round_to: int | None
) -> tuple[LineImps, ...] | None:
    """The marks of a board of real results only, or None to take the general path."""
    if method == BUTLER_FORM:
        datum = butler_datum(scores, rule, round_to)
        return tuple(
            _BUTLER_LINES[v] for v in imps_against(scores, datum.numerator, datum.denominator)
        )
    if method == CROSS_FORM:
        comparisons = max(len(scores) - 1, 1)
        return tuple(_cross_line(total, comparisons) for total in cross_imp_sums(scores))
    return None


def _artificial_imps(value: object, table: dict[Role, Fraction]) -> Fraction:
    if isinstance(value, Role):
        return table[value]
    raise ScoringError("entry", value, "IMP-scored artificial scores must be given as Roles")


def score_imp_pairs_board(
    entries: Sequence[object],
    method: ImpForm = BUTLER_FORM,
    *,
    rule: DatumRule = "course",
    round_to: int | None = None,
    artificial: dict[Role, Fraction] | None = None,
    cross: CrossForm = "average",
    field: int | None = None,
    places: int | None = None,
    half: HalfRule = "away",
) -> tuple[LineImps, ...]:
    """Butler or cross-IMP marks for each line of a board, adjusted lines included.

    Only real results make the datum / comparison field. A split line's NS is
    IMPed on its NS score and EW on its EW score against that field; a weighted
    line combines its outcomes' IMPs by weight; an artificial line gets the
    AEB ±2/0 (``Artificial(Role..., Role...)``), or the IMPs the director awarded
    (``ArtificialImps``) as given; a not-played line gets nothing.

    Cross-IMP marks are the average over the comparisons unless ``cross`` says the scorer
    writes their sum (``"sum"``) or the sum factored up to a board of ``field`` results
    (``"factored"``); ``places`` rounds each mark (a half away from zero, or to even with
    ``half="even"``) before it is added up, as scorers that total the marks they print do.
    """
    if method == CROSS_FORM and (cross != "average" or places is not None):
        items = [e if isinstance(e, ArtificialImps) else as_entry(e) for e in entries]
        n = sum(1 for e in items if isinstance(e, RealResult))
        scale = cross_scale(cross, n, field)
        averages = score_imp_pairs_board(items, CROSS_FORM, artificial=artificial)

        def scaled(m: LineImps) -> LineImps:
            if m.ns is None or m.ew is None:  # not played: no mark to scale
                return m
            return LineImps(
                round_mark(m.ns * scale, places, half), round_mark(m.ew * scale, places, half)
            )

        return tuple(  # an award (artificial) is IMPs as given, not an average to scale
            m if isinstance(e, Artificial | ArtificialImps | NotPlayed) else scaled(m)
            for e, m in zip(items, averages, strict=True)
        )
    if entries and all_whole(entries):
        marks = _whole_scores_board(list(entries), method, rule, round_to)
        if marks is not None:
            return marks
    table = artificial or AEB_ARTIFICIAL_IMPS
    items = [e if isinstance(e, ArtificialImps) else as_entry(e) for e in entries]
    compared = [
        e.ns_score if isinstance(e, RealResult) else e
        for e in items
        if isinstance(e, int | RealResult)
    ]
    if method == BUTLER_FORM:
        datum = butler_datum(compared, rule, round_to) if compared else None
        cache: dict[int, Fraction] = {}

        def against(score: int, member: bool = False) -> Fraction:
            if datum is None:
                raise ScoringError("entries", entries, "no real result to compute a datum from")
            if score not in cache:
                cache[score] = Fraction(
                    imps_against((score,), datum.numerator, datum.denominator)[0]
                )
            return cache[score]
    elif method == CROSS_FORM:
        # Σ imps(s − o) over the whole field; a real result's own comparison adds imps(0) = 0,
        # so leaving it out (member) only changes the number of comparisons divided by.
        field_sums = dict(zip(compared, cross_imp_sums(compared), strict=True))

        def against(score: int, member: bool = False) -> Fraction:
            comparisons = len(compared) - 1 if member else len(compared)
            if comparisons <= 0:
                return Fraction(0)
            total = field_sums.get(score)
            if total is None:
                total = cross_imp_sums([score, *compared])[0]
            return Fraction(total, comparisons)
    else:
        raise ScoringError("method", method, f"must be {BUTLER_FORM!r} or {CROSS_FORM!r}")

    out: list[LineImps] = []
    for e in items:
        if isinstance(e, int | RealResult):
            v = against(e if isinstance(e, int) else e.ns_score, member=True)
            out.append(LineImps(v, -v))
        elif isinstance(e, Split):
            out.append(LineImps(against(e.ns_score), -against(e.ew_score)))
        elif isinstance(e, Weighted):
            v = sum((w * against(s) for w, s in e.outcomes), Fraction(0))
            out.append(LineImps(v, -v))
        elif isinstance(e, Artificial):
            out.append(LineImps(_artificial_imps(e.ns, table), _artificial_imps(e.ew, table)))
        elif isinstance(e, ArtificialImps):
            out.append(LineImps(Fraction(e.ns), Fraction(e.ew)))
        elif isinstance(e, NotPlayed):
            out.append(LineImps(None, None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PairMatch:
    """A pair's match: its IMPs over the round's boards and the VPs they convert to."""

    pair: Hashable
    round: int
    opponent: Hashable | None
    imps: Fraction
    boards: int  # boards with a score (played or adjusted); 0 for a sit-out
    vps: Fraction


def match_victory_points(
    board_imps: Iterable[tuple[Hashable, int, Hashable | None, Fraction | None]],
    scale: str = "wbf20",
) -> list[PairMatch]:
    """Each pair's matches from its board marks ``(pair, round, opponent, imps)``.

    A pair's own IMP sum is looked up on the scale for the match's number of boards, since
    Butler and cross-IMP marks are not zero-sum (as with asymmetric adjusted scores in
    teams, each side looks up its own margin, C03 l.826). A board without a score (imps
    None) is not part of the match (AEB note to 86B3: "el partido consistirá en el número de
    estuches jugados"). A match with no scored board, a sit-out, is given the pair's average
    VPs over its other matches, as the course scores a sit-out with the pair's own average.
    """
    # (pair, round) → [opponent, IMPs, boards scored]
    grouped: dict[tuple[Hashable, int], list[Any]] = defaultdict(lambda: [None, Fraction(0), 0])
    for pair, rnd, opponent, value in board_imps:
        match = grouped[(pair, rnd)]
        if match[0] is None:
            match[0] = opponent
        if value is not None:
            match[1] += Fraction(value)
            match[2] += 1
    out: dict[tuple[Hashable, int], PairMatch] = {}
    for (pair, rnd), (opponent, total, boards) in grouped.items():
        if boards:
            vps = team_vps(total, boards, scale)
            out[(pair, rnd)] = PairMatch(pair, rnd, opponent, total, boards, vps)
    for (pair, rnd), (opponent, _total, boards) in grouped.items():
        if not boards:
            played = [m.vps for m in out.values() if m.pair == pair and m.boards]
            average = sum(played, Fraction(0)) / len(played) if played else Fraction(0)
            out[(pair, rnd)] = PairMatch(pair, rnd, opponent, Fraction(0), 0, average)
    return [out[k] for k in sorted(out, key=lambda k: (str(k[0]), k[1]))]

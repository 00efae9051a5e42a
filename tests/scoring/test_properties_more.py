"""More property tests of the pure cores: Butler datum and IMPs, Law 12 adjusted scores on
matchpoints, the VP scales (WBF 20 and the course's 25), individuals and knockout brackets.

Each property is stated against the rule it checks (C03 = the 2003 AEB directors' course,
scoring-spec sections in brackets); the figures are recomputed here by a different path than
the core's, never read back from it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.movements import knockout
from tournaments.movements.teams import seeding_order
from tournaments.scoring import (
    Artificial,
    BoardResult,
    IndividualBoard,
    IndividualLine,
    Role,
    ScoringError,
    Split,
    TravellerLine,
    Weighted,
    butler_datum,
    butler_imps,
    imps,
    knockout_board,
    score_board,
    score_imp_pairs_board,
    score_individual_imps,
    score_individual_session,
    score_session,
    team_vps,
    victory_points,
)
from tournaments.scoring.vp import COURSE25, COURSE25_BOARDS

PROFILE = settings()  # the suite's profile (tests/conftest.py: "ci" or "nightly")

scores = st.integers(min_value=-76, max_value=298).map(lambda v: v * 10)
fields = st.lists(scores, min_size=1, max_size=14)
rules = st.sampled_from(["course", "mean"])
roundings = st.sampled_from([None, 10])


def _sign(x) -> int:
    return (x > 0) - (x < 0)


# --- Butler (C03 l.203-209; spec §6.6) -----------------------------------------------------


@PROFILE
@given(fields)
def test_butler_datum_is_the_mean_without_one_top_and_one_bottom(board):
    """The course's par drops one best NS and one best EW score (ties: only one of each)."""
    n = len(board)
    course = butler_datum(board, "course")
    if n >= 3:
        assert course == Fraction(sum(board) - max(board) - min(board), n - 2)
    else:
        assert course == Fraction(sum(board), n)  # nothing to drop
    assert butler_datum(board, "mean") == Fraction(sum(board), n)
    assert min(board) <= course <= max(board)


@PROFILE
@given(fields, rules)
def test_butler_datum_rounded_to_ten_is_nearest_with_halves_away_from_zero(board, rule):
    exact = butler_datum(board, rule)
    rounded = butler_datum(board, rule, round_to=10)
    assert rounded % 10 == 0 and abs(rounded - exact) <= 5
    if abs(rounded - exact) == 5:  # a half step goes away from zero
        assert abs(rounded) > abs(exact)


@PROFILE
@given(fields, rules, roundings)
def test_swapping_ns_and_ew_mirrors_every_butler_imp(board, rule, round_to):
    """Negating every score (the board seen from EW) negates the datum and every IMP; the
    half-away-from-zero rounding keeps this exact."""
    mirrored = butler_imps([-s for s in board], rule, round_to)
    assert mirrored == [-v for v in butler_imps(board, rule, round_to)]
    assert butler_datum([-s for s in board], rule, round_to) == -butler_datum(board, rule, round_to)


@PROFILE
@given(fields, rules)
def test_each_butler_imp_has_the_sign_of_the_score_against_the_datum(board, rule):
    datum = butler_datum(board, rule)
    for s, v in zip(board, butler_imps(board, rule), strict=True):
        assert v == imps(s - datum)
        assert _sign(v) in (0, _sign(s - datum))
    if rule == "mean":  # deviations from the mean sum to 0: nobody beats or loses to everyone
        assert min(butler_imps(board, rule)) <= 0 <= max(butler_imps(board, rule))


@PROFILE
@given(fields, rules)
def test_a_board_s_butler_imps_sum_to_zero_over_its_ns_and_ew_pairs(board, rule):
    """Each line's EW pair gets the NS pair's IMPs negated, so a board sums to zero over
    all pairs; the NS pairs alone need not (Butler is not zero-sum between tables)."""
    marks = score_imp_pairs_board(board, "butler", rule=rule)
    assert all(m.ns == -m.ew for m in marks)
    assert sum(m.ns + m.ew for m in marks) == 0
    assert [m.ns for m in marks] == butler_imps(board, rule)


@PROFILE
@given(fields, rules, st.integers(min_value=-200, max_value=200))
def test_a_constant_offset_leaves_unrounded_butler_imps_unchanged(board, rule, offset):
    shifted = [s + offset for s in board]
    assert butler_datum(shifted, rule) == butler_datum(board, rule) + offset
    assert butler_imps(shifted, rule) == butler_imps(board, rule)


@PROFILE
@given(fields, rules, st.integers(min_value=-30, max_value=30).map(lambda v: v * 10))
def test_an_offset_of_whole_tens_shifts_the_rounded_datum_by_the_same_unless_a_half_crosses_zero(
    board, rule, offset
):
    """Rounding to 10 with halves away from zero is symmetric but not translation invariant:
    a datum exactly halfway (…5) whose sign the offset changes moves by offset ± 10. In
    every other case the rounded datum moves by the offset and the IMPs are unchanged."""
    exact = butler_datum(board, rule)
    before = butler_datum(board, rule, round_to=10)
    after = butler_datum([s + offset for s in board], rule, round_to=10)
    half = exact.denominator == 1 and exact % 10 == 5
    if half and _sign(exact) != _sign(exact + offset):
        assert abs(after - before - offset) == 10
    else:
        assert after - before == offset
        assert butler_imps([s + offset for s in board], rule, 10) == butler_imps(board, rule, 10)


roles = st.sampled_from(list(Role))


@PROFILE
@given(
    st.lists(scores, min_size=1, max_size=10),
    st.lists(st.tuples(roles, roles), max_size=3),
    st.data(),
)
def test_butler_adjusted_lines_stay_out_of_the_datum(board, artificial, data):
    """Artificial lines get the AEB ±2/0 IMPs (L17 78D note) and leave the real lines as
    they were; a weighted line gets the weighted mean of its outcomes' IMPs (12C1c)."""
    outcomes = data.draw(st.lists(scores, min_size=1, max_size=3))
    weights = [Fraction(1, len(outcomes))] * len(outcomes)
    weighted = Weighted(tuple(zip(weights, outcomes, strict=True)))
    entries = [*board, *(Artificial(a, b) for a, b in artificial), weighted]
    marks = score_imp_pairs_board(entries, "butler")
    assert [m.ns for m in marks[: len(board)]] == butler_imps(board)
    aeb = {Role.NON_OFFENDER: 2, Role.PARTLY_AT_FAULT: 0, Role.OFFENDER: -2}
    for (a, b), m in zip(artificial, marks[len(board) : -1], strict=True):
        assert (m.ns, m.ew) == (aeb[a], aeb[b])
    datum = butler_datum(board)
    expected = sum((w * imps(s - datum) for w, s in weighted.outcomes), Fraction(0))
    assert marks[-1].ns == expected == -marks[-1].ew


# --- Adjusted scores on matchpoints (Law 12; C03 l.588, l.696; spec §4.4-4.5) ---------------

percent = st.integers(min_value=0, max_value=100).map(Fraction)


@PROFILE
@given(
    fields,
    st.lists(st.tuples(percent, percent), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=3),
)
def test_an_artificial_score_is_its_share_of_the_top_whatever_the_other_results(
    board, artificial, missing
):
    """A p % artificial score is p/100 × top (C03 l.588); the percentages need not sum to
    100; the real results are Neuberg-factored so their NS marks still average top/2."""
    entries = [*board, *(Artificial(a, b) for a, b in artificial)]
    scored = score_board(entries, len(entries) + missing)
    top = scored.top
    for (a, b), line in zip(artificial, scored.lines[len(board) :], strict=True):
        assert (line.ns, line.ew) == (a * top / 100, b * top / 100)
    real = scored.lines[: len(board)]
    assert sum(line.ns for line in real) == Fraction(len(board) * top, 2)
    assert all(line.ns + line.ew == top for line in real)


@PROFILE
@given(fields, scores, st.integers(min_value=0, max_value=3))
def test_an_assigned_score_is_scored_like_the_same_real_result(board, assigned, missing):
    """An assigned score (one outcome, or a split giving both sides the same score) is worth
    what that result would score at the table (C03 l.696: inserted as one more result)."""
    expected = len(board) + 1 + missing
    as_real = score_board([*board, assigned], expected).lines[-1]
    for entry in (Weighted(((Fraction(1), assigned),)), Split(assigned, assigned)):
        line = score_board([*board, entry], expected, split_rule="insert").lines[-1]
        assert (line.ns, line.ew) == (as_real.ns, as_real.ew)
        if assigned not in board:  # the course's rule differs only for a score in the table
            line = score_board([*board, entry], expected).lines[-1]
            assert (line.ns, line.ew) == (as_real.ns, as_real.ew)


@PROFILE
@given(
    fields,
    st.lists(st.tuples(st.integers(min_value=1, max_value=9), scores), min_size=1, max_size=4),
    st.sampled_from(["course", "insert"]),
)
def test_a_weighted_score_is_the_weighted_mean_of_its_outcomes_marks(board, parts, rule):
    total = sum(w for w, _ in parts)
    weighted = Weighted(tuple((Fraction(w, total), s) for w, s in parts))
    line = score_board([*board, weighted], split_rule=rule).lines[-1]
    each = [
        score_board([*board, Weighted(((Fraction(1), s),))], split_rule=rule).lines[-1].ns
        for _, s in parts
    ]
    assert line.ns == sum(
        (Fraction(w, total) * v for (w, _), v in zip(parts, each, strict=True)), Fraction(0)
    )
    assert line.ns + line.ew == 2 * len(board)  # top for len(board) + 1 results


@PROFILE
@given(
    fields,
    st.lists(st.tuples(st.integers(min_value=1, max_value=9), scores), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=3),
)
def test_without_artificial_or_split_scores_each_line_s_marks_sum_to_the_top(board, parts, missing):
    total = sum(w for w, _ in parts)
    entries = [*board, Weighted(tuple((Fraction(w, total), s) for w, s in parts)), None]
    scored = score_board(entries, len(entries) + missing)
    for line in scored.lines[:-1]:
        assert line.ns + line.ew == scored.top
    assert (scored.lines[-1].ns, scored.lines[-1].ew) == (None, None)  # not played


def _pairs_session(results: list[list[int]], adjusted: object, edition: int = 2017):
    """Four pairs over several boards, 1 v 2 and 3 v 4; pair 1's last board adjusted."""
    boards = [
        BoardResult(i + 1, (TravellerLine(1, 2, a), TravellerLine(3, 4, b)))
        for i, (a, b) in enumerate(results)
    ]
    boards.append(
        BoardResult(len(results) + 1, (TravellerLine(1, 2, adjusted), TravellerLine(3, 4, 0)))
    )
    return score_session(boards, expected=2, edition=edition)


@PROFILE
@given(
    st.lists(st.tuples(scores, scores), min_size=1, max_size=6),
    roles,
    st.sampled_from([2003, 2017]),
)
def test_a_role_adjustment_follows_the_pair_s_own_percentage_law_12c2c(results, role, edition):
    """Average-plus is at least 60 % or the pair's own percentage on its other boards; an
    average-minus at most 40 % or its own, lower, one from 2007 on (flat 40 % in 2003)."""
    scored = _pairs_session(
        [list(r) for r in results], Artificial(role, Role.PARTLY_AT_FAULT), edition
    )
    top = scored.top
    own = sum(Fraction(2 if a > b else 1 if a == b else 0) for a, b in results)
    own_pct = own * 100 / (top * len(results))
    mark = next(m.mark for m in scored.marks if m.pair == 1 and m.board == len(results) + 1)
    expected = {
        Role.NON_OFFENDER: max(Fraction(60), own_pct),
        Role.PARTLY_AT_FAULT: Fraction(50),
        Role.OFFENDER: min(Fraction(40), own_pct) if edition == 2017 else Fraction(40),
    }
    assert mark == expected[role] * top / 100
    ew = next(m.mark for m in scored.marks if m.pair == 2 and m.board == len(results) + 1)
    assert ew == top / 2


# --- Victory points (WBF 20; C03 l.144-161 25-VP table; spec §6.3) -------------------------

margins = st.fractions(min_value=-130, max_value=130, max_denominator=4)
board_counts = st.integers(min_value=1, max_value=64)


@PROFILE
@given(margins, board_counts)
def test_wbf20_team_vps_are_symmetric_bounded_and_monotone(margin, boards):
    mine, theirs = team_vps(margin, boards), team_vps(-margin, boards)
    assert mine + theirs == 20 and 0 <= mine <= 20
    assert team_vps(margin + Fraction(1, 4), boards) >= mine
    assert (mine > 10) <= (margin > 0) and (mine < 10) <= (margin < 0)
    assert team_vps(0, boards) == 10


def test_the_course25_columns_cover_every_margin_once_from_zero():
    """Bands are contiguous (after the spec's 28-board erratum), rows descend 15-15 … 25-0."""
    for boards in COURSE25_BOARDS:
        bands = COURSE25[boards]
        assert bands[0][0] == 0 and bands[-1][1] == -1
        for (_, high, *_), (low, *_) in zip(bands, bands[1:], strict=False):
            assert low == high + 1
        assert [(w, loser) for *_, w, loser in bands] == [
            (15 + min(i, 10), 15 - i) for i in range(16)
        ]


@PROFILE
@given(st.integers(min_value=-140, max_value=140), st.sampled_from(COURSE25_BOARDS))
def test_course25_is_monotone_bounded_and_symmetric_up_to_the_cap(margin, boards):
    w, loser = victory_points(margin, boards, "course25")
    assert 15 <= w <= 25 and 0 <= loser <= 15
    assert w + loser == 30 if w < 25 else w + loser <= 30  # 25-4 … 25-0 sum below 30
    mine, theirs = team_vps(margin, boards, "course25"), team_vps(-margin, boards, "course25")
    assert mine + theirs == w + loser
    assert team_vps(margin + 1, boards, "course25") >= mine
    if margin == 0:
        assert (mine, theirs) == (15, 15)


@PROFILE
@given(
    st.fractions(min_value=-130, max_value=130, max_denominator=10).filter(
        lambda m: m.denominator != 1
    ),
    st.sampled_from(COURSE25_BOARDS),
)
def test_course25_reads_a_fractional_margin_at_the_nearest_whole_halves_in_the_side_s_favour(
    margin, boards
):
    """The table is for whole margins; a fractional one (weighted, cross-IMP, knockout
    halves) reads as the nearest whole margin, a half going in the side's favour (C03 Art. 12:
    "se favorecerá al bando inocente"). Opposite margins that are not halves then give the
    same VPs a whole zero-sum match would."""
    whole = math.floor(margin + Fraction(1, 2))
    assert team_vps(margin, boards, "course25") == team_vps(whole, boards, "course25")
    if margin.denominator != 2:
        w, loser = victory_points(whole, boards, "course25")
        assert (
            team_vps(margin, boards, "course25") + team_vps(-margin, boards, "course25")
            == w + loser
        )


def test_course25_has_no_column_for_other_board_counts():
    with pytest.raises(ScoringError):
        team_vps(3, 18, "course25")


@PROFILE
@given(scores, scores)
def test_a_knockout_board_is_antisymmetric_and_plain_imps_without_adjustments(room1, room2):
    assert knockout_board(room1, room2) == imps(room1 - room2)
    assert knockout_board(room2, room1) == -knockout_board(room1, room2)


# --- Individuals (C03 l.315-347; L17 12C3) -------------------------------------------------


@st.composite
def individual_boards(draw):
    """Eight players; on each board two tables with the seats drawn at random."""
    boards = []
    for number in range(1, draw(st.integers(min_value=1, max_value=5)) + 1):
        seats = draw(st.permutations(range(1, 9)))
        lines = (IndividualLine(*seats[:4], draw(scores)), IndividualLine(*seats[4:], draw(scores)))
        boards.append(IndividualBoard(number, lines))
    return boards


@PROFILE
@given(individual_boards())
def test_each_player_gets_their_side_s_mark_and_each_board_sums_to_twice_the_top(boards):
    scored = score_individual_session(boards, expected=2)
    marks = {(m.board, m.pair): m.mark for m in scored.marks}
    for b in boards:
        lines = score_board([line.entry for line in b.lines], 2).lines
        for line, m in zip(b.lines, lines, strict=True):
            assert marks[(b.board, line.north)] == marks[(b.board, line.south)] == m.ns
            assert marks[(b.board, line.east)] == marks[(b.board, line.west)] == m.ew
        assert sum(v for (n, _), v in marks.items() if n == b.board) == 2 * 2 * scored.top
    assert sum(t.points for t in scored.totals.values()) == 2 * 2 * scored.top * len(boards)


@PROFILE
@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=6))
def test_an_individual_with_fixed_partners_scores_as_the_pairs_session(results):
    pairs = score_session(
        [
            BoardResult(i + 1, (TravellerLine("ns1", "ew1", a), TravellerLine("ns2", "ew2", b)))
            for i, (a, b) in enumerate(results)
        ],
        expected=2,
    )
    players = score_individual_session(
        [
            IndividualBoard(
                i + 1,
                (
                    IndividualLine("n1", "s1", "e1", "w1", a),
                    IndividualLine("n2", "s2", "e2", "w2", b),
                ),
            )
            for i, (a, b) in enumerate(results)
        ],
        expected=2,
    )
    for pair, (p, q) in {
        "ns1": ("n1", "s1"),
        "ew1": ("e1", "w1"),
        "ns2": ("n2", "s2"),
        "ew2": ("e2", "w2"),
    }.items():
        assert players.totals[p].points == players.totals[q].points == pairs.totals[pair].points
        assert players.totals[p].percentage == pairs.totals[pair].percentage


@PROFILE
@given(individual_boards(), st.sampled_from(["butler", "cross"]))
def test_individual_imps_go_to_both_partners_and_sum_to_zero(boards, method):
    scored = score_individual_imps(boards, method)
    for b in boards:
        imps_of = {m.player: m.imps for m in scored.marks if m.board == b.board}
        for line in b.lines:
            assert (
                imps_of[line.north]
                == imps_of[line.south]
                == -imps_of[line.east]
                == -imps_of[line.west]
            )
    assert sum(scored.totals.values()) == 0
    assert set(scored.boards.values()) == {len(boards)}


# --- Knockout brackets (C03 l.173-177) -----------------------------------------------------


@PROFILE
@given(st.integers(min_value=2, max_value=64))
def test_knockout_bracket_seats_everyone_once_with_byes_for_the_top_seeds(teams):
    bracket = knockout(teams)
    size = bracket.size
    assert size == 1 << math.ceil(math.log2(teams)) and size // 2 < teams <= size
    first = bracket.stages[0]
    entrants = [x for m in first for x in (m.a, m.b) if x is not None]
    assert sorted(entrants) == list(range(1, teams + 1))
    byes = [m for m in first if m.is_bye]
    assert len(byes) == size - teams
    assert sorted(m.a if m.a is not None else m.b for m in byes) == list(range(1, len(byes) + 1))
    assert not any(m.a is None and m.b is None for m in first)
    assert all(m.a + m.b == size + 1 for m in first if not m.is_bye)  # 1 v n, 2 v n-1 …
    assert sorted(seeding_order(size)) == list(range(1, size + 1))


@PROFILE
@given(st.integers(min_value=2, max_value=64))
def test_knockout_stages_halve_and_the_winner_plays_ceil_log2_rounds(teams):
    bracket = knockout(teams)
    stages = bracket.stages
    assert len(stages) == math.ceil(math.log2(teams))
    for earlier, later in zip(stages, stages[1:], strict=False):
        assert len(later) * 2 == len(earlier)
        for m in later:  # match k of a stage is fed by matches 2k-1 and 2k of the one before
            for feeder, side in (
                (earlier[2 * m.number - 2], m.a),
                (earlier[2 * m.number - 1], m.b),
            ):
                if feeder.is_bye:
                    assert side == (feeder.a if feeder.a is not None else feeder.b)
                else:
                    assert side == f"W{feeder.stage}-{feeder.number}"
    assert len(stages[-1]) == 1
    assert sum(not m.is_bye for stage in stages for m in stage) == teams - 1  # one loser each
    # seeds 1 and 2 can only meet in the final: they start in different halves
    half = len(stages[0]) // 2
    seat = {x: i for i, m in enumerate(stages[0]) for x in (m.a, m.b) if x is not None}
    assert (seat[1] < half) != (seat[2] < half) or teams == 2


@PROFILE
@given(
    st.lists(
        st.text(alphabet="ABCDEFGH", min_size=1, max_size=3), min_size=2, max_size=20, unique=True
    )
)
def test_knockout_takes_named_teams_in_seed_order(names):
    by_number = knockout(len(names))
    named = knockout(names)
    for stage_n, stage_t in zip(by_number.stages[0:1], named.stages[0:1], strict=True):
        for m, t in zip(stage_n, stage_t, strict=True):
            assert t.a == (names[m.a - 1] if m.a is not None else None)
            assert t.b == (names[m.b - 1] if m.b is not None else None)


@PROFILE
@given(st.integers(min_value=0, max_value=1))
def test_knockout_needs_two_teams(teams):
    from tournaments.movements import MovementError

    with pytest.raises(MovementError):
        knockout(teams)


def test_course25_opposite_fractional_margins_share_the_row_s_thirty_vps():
    """A zero-sum 12.7-IMP margin over 12 boards: 12.7 reads as 13 (19 VPs) and -12.7 as
    -13 (11 VPs). Truncating negative margins towards zero read -12.7 as -12 (12 VPs) and
    gave the match 31 VPs."""
    assert team_vps(Fraction(127, 10), 12, "course25") == 19
    assert team_vps(Fraction(-127, 10), 12, "course25") == 11
    assert team_vps(Fraction(-23, 2), 12, "course25") == team_vps(-11, 12, "course25")


# --- The fast paths equal the definitions (issue 20: Butler and cross-IMPs at ≥ 500k/s) -----

wide_scores = st.integers(min_value=-790, max_value=790).map(lambda v: v * 10) | st.integers(
    min_value=-9000, max_value=9000
)


@PROFILE
@given(
    st.lists(wide_scores, min_size=1, max_size=70),
    rules,
    roundings,
    st.lists(st.tuples(wide_scores, wide_scores), max_size=2),
)
def test_imp_pairs_marks_equal_the_definitions_on_any_field(board, rule, round_to, splits):
    """Every real line is IMPed against the datum (Butler) or against each other result
    averaged over the comparisons (cross), a split line each side on its own score; computed
    here with Fractions, one comparison at a time, and whatever the field's size or spread
    (the core switches between a lookup table and bisection)."""
    entries = [*board, *(Split(ns, ew) for ns, ew in splits)]
    datum = butler_datum(board, rule, round_to)
    butler = score_imp_pairs_board(entries, "butler", rule=rule, round_to=round_to)
    for s, mark in zip(board, butler, strict=False):
        assert mark.ns == imps(Fraction(s) - datum) == -mark.ew
    for (ns, ew), mark in zip(splits, butler[len(board) :], strict=True):
        assert (mark.ns, mark.ew) == (imps(ns - datum), -imps(ew - datum))
    assert butler_imps(board, rule, round_to) == [m.ns for m in butler[: len(board)]]

    def cross(score, others):
        return (
            Fraction(sum(imps(score - o) for o in others), len(others)) if others else Fraction(0)
        )

    marks = score_imp_pairs_board(entries, "cross")
    for i, (s, mark) in enumerate(zip(board, marks, strict=False)):
        assert mark.ns == cross(s, board[:i] + board[i + 1 :]) == -mark.ew
    for (ns, ew), mark in zip(splits, marks[len(board) :], strict=True):
        assert (mark.ns, mark.ew) == (cross(ns, board), -cross(ew, board))


@given(
    st.lists(st.sampled_from([-600, -100, 0, 110, 140, 420, 450, 620]), min_size=2, max_size=9),
    st.integers(min_value=0, max_value=4),
)
def test_every_factoring_keeps_the_top_and_the_order(scores, missing):
    """A board short of ``missing`` results: each factoring gives NS + EW = top, keeps the
    results' order, and agrees with the plain marks when nothing is missing; "average" gives
    each missing result one point, half a comparison (S + (N − n))."""
    from tournaments.scoring import score_board

    expected = len(scores) + missing
    top = 2 * (expected - 1)
    marks = {
        f: [m.ns for m in score_board(scores, expected, factoring=f).lines]
        for f in ("neuberg", "ratio", "average")
    }
    plain = [m.ns for m in score_board(scores).lines]
    assert marks["average"] == [m + missing for m in plain]
    for f, ns in marks.items():
        assert all(0 <= m <= top for m in ns), f
        for a, b, ma, mb in zip(scores, scores[1:], ns, ns[1:], strict=False):
            assert (a < b) == (ma < mb) and (a == b) == (ma == mb)
    if missing == 0:
        assert marks["neuberg"] == marks["ratio"] == marks["average"]


@given(
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=2, max_value=24),
)
def test_a_pair_is_ranked_on_the_boards_it_has(played, extra, top):
    """Whatever the boards the movement gives others, a pair's percentage is its points over
    the top times its own boards (C03's relay rule)."""
    from tournaments.scoring.session import finish_session

    marks = [
        (b, "p", "NS", "o", Fraction(top * (b % 3), 2), "result", False) for b in range(played)
    ]
    marks += [(b, "q", "NS", "o", Fraction(top, 2), "result", False) for b in range(played + extra)]
    score = finish_session(marks, top=top, boards_per_pair=played + extra)
    p = score.totals["p"]
    assert p.percentage == p.points * 100 / (top * played) and p.boards == played
    assert score.totals["q"].percentage == 50

"""Session totals, adjusted-score rules depending on the session, and ranking."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.scoring import (
    Artificial,
    BoardResult,
    NotPlayed,
    Penalty,
    Role,
    ScoringError,
    Split,
    Standing,
    TravellerLine,
    Unplayed,
    artificial_percentage,
    combine_sessions,
    display_round,
    rank,
    relay_correction,
    score_session,
    unplayed_board_percentage,
    unplayed_session_percentage,
)


def test_course_percentage_example() -> None:
    """C03 l.748-768: 12 rounds × 2 boards, top 22, max 528; 398.4/528 = 75.4545…%, shown 75.45."""
    top, boards = 12 * 2 - 2, 12 * 2
    assert (top, top * boards) == (22, 528)
    pct = Fraction("398.4") * 100 / 528
    assert float(pct) == pytest.approx(75.45454545)
    assert str(display_round(pct)) == "75.45"


def test_relay_formula_derived_example() -> None:
    """C03 l.590 formula; spec §4.6 derived example: 302, 22 assigned, 11 rounds → +3.4545, 305.4545."""
    corr = relay_correction(302, 22, 11)
    assert corr == Fraction(280, 11) - 22
    assert float(302 + corr) == pytest.approx(305.4545, abs=1e-4)
    assert (302 + corr) * 100 / 528 == pytest.approx(57.85, abs=0.005)


def _session_with_relay() -> list[BoardResult]:
    """Three boards, expected 3 results each; pair "R" sits out board 3."""
    return [
        BoardResult(
            1,
            (
                TravellerLine("R", "x", 420),
                TravellerLine("a", "y", 400),
                TravellerLine("b", "z", 100),
            ),
        ),
        BoardResult(
            2,
            (
                TravellerLine("R", "x", 100),
                TravellerLine("a", "y", 400),
                TravellerLine("b", "z", 420),
            ),
        ),
        BoardResult(
            3,
            (
                TravellerLine("R", None, NotPlayed(Unplayed.RELAY)),
                TravellerLine("a", "y", 400),
                TravellerLine("b", "z", 100),
            ),
        ),
    ]


def test_relay_scored_at_own_average_matches_course_formula() -> None:
    """C03 l.669: the relay pair gets its average on the rest of the session (= RELE formula)."""
    session = score_session(_session_with_relay(), expected=3)
    r = session.totals["R"]
    assert session.top == 4 and r.maximum == 12 and r.boards == 3
    played = Fraction(4) + Fraction(0)  # 420 top on board 1, 100 bottom on board 2
    assert r.points == played + played / 2
    # The course formula with 0 provisionally assigned for the relay round (1 board per round):
    assert r.points == played + relay_correction(played, 0, 2)
    # The other pairs' board 3 is Neuberg-factored (2 real results of 3): 400 → 3/2·3−1.
    assert [m.mark for m in session.marks if m.board == 3 and m.pair == "a"] == [Fraction(7, 2)]


def test_totals_accumulate_each_side_and_penalties() -> None:
    """C03 l.584 EW = max − NS fails with split scores; each side is accumulated directly."""
    boards = [
        BoardResult(
            1,
            (
                TravellerLine(1, 2, Split(420, 100)),
                TravellerLine(3, 4, 400),
                TravellerLine(5, 6, 200),
            ),
        )
    ]
    session = score_session(boards, expected=3, penalties=[Penalty(3, Fraction(1, 10))])
    t = session.totals
    assert t[1].points == 4 and t[2].points == 4  # each side got its best outcome
    # 400 among 2 real results of N=3: Neuberg 3/2·(2+1) − 1 = 3.5, less 10% of top 4.
    assert t[3].points == Fraction(7, 2) - Fraction(4, 10)
    assert t[1].percentage == 100 and t[1].tops == 1


def test_law_12c2c_2017_uses_own_session_percentage() -> None:
    """L17 l.588-592 (12C2c): innocent above 60% and offender below 40% keep their own %."""
    assert artificial_percentage(Role.NON_OFFENDER, 70) == 70
    assert artificial_percentage(Role.NON_OFFENDER, 55) == 60
    assert artificial_percentage(Role.OFFENDER, 30) == 30
    assert artificial_percentage(Role.OFFENDER, 45) == 40
    assert artificial_percentage(Role.PARTLY_AT_FAULT, 80) == 50


def test_course_2003_offender_is_flat() -> None:
    """C03 l.963: offender ≤40% "sin que tenga influencia el resto de las manos" (differs from 2017)."""
    assert artificial_percentage(Role.OFFENDER, 30, edition=2003) == 40
    assert artificial_percentage(Role.NON_OFFENDER, 70, edition=2003) == 70  # C03 l.963, l.1984


def test_session_resolves_roles_against_other_boards() -> None:
    boards = [
        BoardResult(1, (TravellerLine("A", "B", 420), TravellerLine("C", "D", 100))),
        BoardResult(2, (TravellerLine("A", "B", 300), TravellerLine("C", "D", 50))),
        BoardResult(
            3,
            (
                TravellerLine("A", "B", Artificial(Role.NON_OFFENDER, Role.OFFENDER)),
                TravellerLine("C", "D", 10),
            ),
        ),
    ]
    s = score_session(boards, expected=2)
    mark = {(m.board, m.pair): m.mark for m in s.marks}
    assert mark[(3, "A")] == 2  # A scored 100% elsewhere → 100% of top 2
    assert mark[(3, "B")] == 0  # B scored 0% elsewhere → 0% (2017), not 40%
    s03 = score_session(boards, expected=2, edition=2003)
    assert {(m.board, m.pair): m.mark for m in s03.marks}[(3, "B")] == Fraction(8, 10)


def test_aeb_two_average_plus_per_session() -> None:
    """L17 l.597-600 (AEB note to 12C2d): at most two medias máximas for unplayed boards.

    The third gets 50% — the note does not say what; this is our interpretation.
    """
    lines = [
        BoardResult(
            b,
            (
                TravellerLine(
                    "A", "B", Artificial(Role.NON_OFFENDER, Role.OFFENDER, unplayed=True)
                ),
                TravellerLine("C", "D", 0),
            ),
        )
        for b in (1, 2, 3)
    ]
    s = score_session(lines, expected=2)
    assert [m.mark for m in s.marks if m.pair == "A"] == [Fraction(12, 10), Fraction(12, 10), 1]


def test_aeb_unplayed_board_norms() -> None:
    """L17 l.3133-3142: justified → session average (≤20%); player's fault ≤40%; organisation ≥60%."""
    assert unplayed_board_percentage(Unplayed.JUSTIFIED, 57, 1, 24) == 57
    assert unplayed_board_percentage(Unplayed.JUSTIFIED, 57, 6, 24) == 50  # >20%: interpretation
    assert unplayed_board_percentage(Unplayed.PLAYER_FAULT, 57) == 40
    assert unplayed_board_percentage(Unplayed.PLAYER_FAULT, 35) == 35
    assert unplayed_board_percentage(Unplayed.ORGANISATION, 57) == 60
    assert unplayed_board_percentage(Unplayed.ORGANISATION, 65) == 65


def test_aeb_unplayed_session_norm() -> None:
    """L17 l.3146-3149: lowest of own average, average with a 50%, and 53%; last session → worst."""
    assert unplayed_session_percentage([60, 58]) == 53
    assert unplayed_session_percentage([52, 50]) == Fraction(152, 3)  # (52+50+50)/3 < 51
    assert unplayed_session_percentage([45, 47]) == 46
    assert unplayed_session_percentage([60, 48], last=True) == 48


def test_combine_sessions_weights_by_boards_and_fills_unplayed() -> None:
    def one(board: int, lines: tuple[TravellerLine, ...]) -> object:
        return score_session([BoardResult(board, lines)], expected=2)

    s1 = one(1, (TravellerLine("A", "B", 420), TravellerLine("C", "D", 100)))
    s2 = one(2, (TravellerLine("C", "D", 100), TravellerLine("E", "F", 50)))
    s3 = one(3, (TravellerLine("A", "B", 420), TravellerLine("C", "D", 100)))
    ev = combine_sessions([s1, s2, s3])  # type: ignore[list-item]
    # A missed session 2 (not the last): min(mean 100, (100+100+50)/3, 53) = 53.
    assert ev["A"].percentage == (100 + 53 + 100) / Fraction(3)
    assert ev["A"].session_percentages == (100, None, 100)
    assert ev["C"].points == 0 + 2 + 0
    # F missed sessions 1 (own average 100 → 53) and 3, the last (worst session: 100).
    assert ev["F"].points == Fraction(53 * 2, 100) + 2 + 2
    assert combine_sessions([s1, s2], fill_unplayed=False)["A"].maximum == 2  # type: ignore[list-item]


def test_rank_tie_breaks_follow_configured_order() -> None:
    """C03 l.770-776: lower digits, head-to-head, tops, fewer federation points, alphabetical."""
    a = Standing("A", Fraction("55.554"), tops=3, federation_points=100, name="Zeta")
    b = Standing("B", Fraction("55.551"), tops=5, federation_points=50, name="Alfa")
    c = Standing("C", Fraction("60"), name="Gamma")
    ranked = rank([a, b, c])
    assert [(r.place, r.standing.pair, r.decided_by) for r in ranked] == [
        (1, "C", None),
        (2, "A", "exact"),
        (3, "B", "exact"),
    ]
    by_tops = rank([a, b, c], tie_breaks=("tops",))
    assert [r.standing.pair for r in by_tops] == ["C", "B", "A"]
    by_name = rank([a, b], tie_breaks=("name",))
    assert [r.standing.pair for r in by_name] == ["B", "A"]
    h2h = {("A", "B"): 10, ("B", "A"): 6}
    by_h2h = rank([a, b], tie_breaks=("head_to_head", "exact"), head_to_head=h2h)
    assert [r.standing.pair for r in by_h2h] == ["A", "B"]
    assert by_h2h[0].decided_by == "head_to_head"
    still = rank([a, b], tie_breaks=())
    assert [r.place for r in still] == [1, 1] and all(r.tied for r in still)
    with pytest.raises(ScoringError, match="tie_breaks"):
        rank([a], tie_breaks=("coin",))


def test_federation_points_fewer_is_better() -> None:
    a = Standing("A", 50, federation_points=100)
    b = Standing("B", 50, federation_points=20)
    assert [r.standing.pair for r in rank([a, b], tie_breaks=("federation_points",))] == ["B", "A"]


def test_a_pair_with_fewer_boards_is_ranked_on_the_boards_it_played():
    """The issue's figures: 97 marks on 18 boards with a top of 10 is 53.89 %, not 97/210.
    C03's relay rule credits a missed round with the pair's own average (l.590, l.661), so
    the pair's percentage is points / (boards played × top)."""
    from tournaments.scoring.session import finish_session as finish

    provisional = [(b, "short", "NS", "x", Fraction(97, 18), "result", False) for b in range(18)]
    provisional += [(b, "full", "NS", "x", Fraction(5), "result", False) for b in range(21)]
    score = finish(provisional, top=10, boards_per_pair=21)
    short = score.totals["short"]
    assert (short.points, short.boards, short.maximum) == (97, 18, 180)
    assert display_round(short.percentage) == Fraction(5389, 100)
    assert score.totals["full"].percentage == 50


@pytest.mark.parametrize(
    "factoring, expected",
    [("neuberg", [Fraction(49, 5), Fraction(1, 5)]), ("ratio", [Fraction(10), Fraction(0)])],
)
def test_a_board_short_of_results_is_factored_by_neuberg_or_by_ratio(factoring, expected):
    """5 of 6 results: Neuberg gives (6/5)(mp + 1) − 1, the plain ratio mp × 10/8."""
    from tournaments.scoring import score_board

    scored = score_board([420, 400, 200, 100, -100], expected=6, factoring=factoring)
    assert [scored.lines[0].ns, scored.lines[-1].ns] == expected
    assert all(m.ns + m.ew == 10 for m in scored.lines)

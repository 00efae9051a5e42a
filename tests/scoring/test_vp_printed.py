"""Match VPs as scorers print them: the WBF's two decimals, one decimal, the loser's
complement (``scoring.vp.match_vps``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.scoring import ScoringError, match_vps, wbf20_table


def test_two_decimals_each_team_from_its_own_margin_is_the_wbf_scale():
    # 6 boards, margin 6: the WBF table gives 12.75 / 7.25
    assert wbf20_table(6)[6] == 1275
    assert match_vps(6, -6, 6) == (Fraction("12.75"), Fraction("7.25"))


def test_one_decimal_rounds_each_team_half_up_on_its_own():
    assert match_vps(6, -6, 6, places=1) == (Fraction("12.8"), Fraction("7.3"))
    assert match_vps(-6, 6, 6, places=1) == (Fraction("7.3"), Fraction("12.8"))


def test_the_complement_gives_the_loser_twenty_minus_the_winner():
    assert match_vps(6, -6, 6, places=1, loser="complement") == (Fraction("12.8"), Fraction("7.2"))
    assert match_vps(-6, 6, 6, places=1, loser="complement") == (Fraction("7.2"), Fraction("12.8"))
    # adjusted boards: margins that do not cancel; the larger margin is the winner's
    home, away = match_vps(5, -2, 6, loser="complement")
    assert home + away == 20 and home == match_vps(5, -5, 6)[0]
    assert match_vps(0, 0, 6, places=1, loser="complement") == (10, 10)


def test_the_whole_vp_and_25_vp_scales_are_not_rounded_again():
    assert match_vps(6, -6, 6, "wbf20-discrete", places=1) == (13, 7)
    assert match_vps(10, -10, 8, "course25", places=1) == match_vps(10, -10, 8, "course25")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"loser": "half"},
        {"places": 3},
        {"places": True},
        {"loser": "complement", "scale": "course25"},
    ],
)
def test_unknown_rules_are_refused(kwargs):
    scale = kwargs.pop("scale", "wbf20")
    with pytest.raises(ScoringError):
        match_vps(6, -6, 8, scale, **kwargs)

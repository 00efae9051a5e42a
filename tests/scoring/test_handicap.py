"""Handicap events: scratch + handicap / 2, and back; a pair's handicap from its players."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring.handicap import handicapped, pair_handicap, scratch

PERCENT = st.fractions(min_value=0, max_value=100, max_denominator=1000)
HANDICAP = st.one_of(st.none(), st.fractions(min_value=-20, max_value=20, max_denominator=100))


def test_half_the_handicap_is_added():
    assert handicapped(Fraction("55.20"), Fraction(6)) == Fraction("58.20")
    assert handicapped(Fraction("55.20"), Fraction(-3)) == Fraction("53.70")
    assert handicapped(Fraction("55.20"), None) == Fraction("55.20")


def test_a_pair_sums_its_players_handicaps():
    assert pair_handicap([Fraction(2), Fraction("1.5")]) == Fraction("3.5")
    assert pair_handicap([None, Fraction(4)]) == 4
    assert pair_handicap([None, None]) is None


@given(PERCENT, HANDICAP)
def test_scratch_undoes_the_handicap(percentage, handicap):
    assert scratch(handicapped(percentage, handicap), handicap) == percentage


@given(st.lists(st.tuples(PERCENT, HANDICAP), min_size=2, max_size=8))
def test_equal_handicaps_keep_the_scratch_order(pairs):
    """Where every pair has the same handicap, the handicapped order is the scratch order."""
    same = pairs[0][1]
    ordered = sorted(p for p, _h in pairs)
    assert sorted(handicapped(p, same) for p, _h in pairs) == [
        handicapped(p, same) for p in ordered
    ]

"""The analysis' rules over generated boards, without a database: the place among the tables
against a count made here by sorting (ties, sit-outs, adjusted lines, lines not played, an
individual's two marks per side), and the best double-dummy contract against endplay's own
scoring of every contract a side makes on shuffled deals."""

import random
from decimal import Decimal

from endplay.dds import calc_dd_table
from endplay.types import Contract, Deal, Denom, Penalty, Player, Vul
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.exports.deals import random_deal
from tournaments.services.results.analysis import (
    Mark,
    Played,
    best_makeable,
    rank_on_board,
    usual_result,
    versus_par,
)

# A table of a board: its NS percentage (EW's is 100 minus it) and its kind.
tables = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=8).map(lambda n: Decimal(n * 25) / 2),
        st.sampled_from(["result", "result", "result", "adjusted", "unplayed"]),
    ),
    min_size=1,
    max_size=9,
)


def marks_of(lines, sitouts: int, individual: bool) -> list[Mark]:
    out = []
    for index, (ns, kind) in enumerate(lines, start=1):
        for direction, value in (("NS", ns), ("EW", 100 - ns)):
            for _player in range(2 if individual else 1):
                out.append(Mark(index, direction, value, kind))
    for _n in range(sitouts):  # a sit-out's mark: no table, an average
        out += [Mark(None, "NS", Decimal(60), "adjusted"), Mark(None, "EW", Decimal(60), "result")]
    return out


@given(tables, st.integers(0, 2), st.booleans(), st.data())
def test_the_place_among_the_tables_is_the_place_in_the_sorted_field(
    lines, sitouts, individual, data
):
    marks = marks_of(lines, sitouts, individual)
    random.Random(data.draw(st.integers(0, 10**6))).shuffle(marks)
    own = data.draw(st.integers(1, len(lines)))
    direction = data.draw(st.sampled_from(["NS", "EW"]))
    found = rank_on_board(marks, own, direction)
    ns, kind = lines[own - 1]
    if kind == "unplayed":
        assert found is None
        return
    # Counted here: the tables played or adjusted, best first; the line's place runs from
    # the first to the last table holding its value.
    field = sorted(
        (n if direction == "NS" else 100 - n for n, k in lines if k != "unplayed"), reverse=True
    )
    value = ns if direction == "NS" else 100 - ns
    first = field.index(value) + 1
    last = len(field) - field[::-1].index(value)
    assert (found.place, found.last, found.of) == (first, last, len(field))
    assert found.tied == (field.count(value) > 1)


@given(tables)
def test_every_table_of_a_board_has_a_place_and_the_places_fit_together(lines):
    marks = marks_of(lines, 0, False)
    ranked = [i for i, (_n, kind) in enumerate(lines, start=1) if kind != "unplayed"]
    if not ranked:
        return
    for direction in ("NS", "EW"):
        places = [rank_on_board(marks, i, direction) for i in ranked]
        assert all(p.of == len(ranked) for p in places)
        # Ties share a range as wide as the tables in it; the first places fill from 1.
        assert min(p.place for p in places) == 1
        for p in places:
            assert sum(1 for q in places if q.place == p.place) == p.last - p.place + 1
    # The two lines of one table stand opposite: NS's first is EW's last.
    best = max(ranked, key=lambda i: lines[i - 1][0])
    assert rank_on_board(marks, best, "NS").place == 1
    assert rank_on_board(marks, best, "EW").last == len(ranked)


@given(st.lists(st.sampled_from([-200, -50, 0, 420, 450, 620]), min_size=1, max_size=8))
def test_the_usual_result_is_a_most_frequent_score(scores):
    played = [Played(i, "4S", "N", 10, s) for i, s in enumerate(scores)]
    usual = usual_result(played)
    assert usual.of == len(scores)
    assert usual.count == scores.count(usual.ns_score) == max(map(scores.count, scores))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["", "NS", "EW", "All"]))
def test_the_best_contract_is_endplays_best_score(seed, vulnerability):
    deal = random_deal(random.Random(seed))
    table = calc_dd_table(Deal(deal))
    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades}
    denoms["NT"] = Denom.nt
    seats = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    tricks = {s: {k: int(table[d, p]) for k, d in denoms.items()} for s, p in seats.items()}
    vul = {"": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vulnerability]
    for side in ("NS", "EW"):
        scores = [
            Contract(
                level=level,
                denom=denoms[strain],
                declarer=seats[seat],
                penalty=Penalty.passed,
                result=tricks[seat][strain] - level - 6,
            ).score(vul)
            for seat in side
            for strain in denoms
            for level in range(1, 8)
            if tricks[seat][strain] >= level + 6
        ]
        found = best_makeable(tricks, side, vulnerability)
        if not scores:
            assert found is None
            continue
        assert found.score == max(scores)
        assert found.declarer in side
        assert found.tricks == tricks[found.declarer][found.strain] >= found.level + 6
        # the highest level it makes, as makeable contracts are read
        assert found.level == found.tricks - 6
        assert found.result == "="


@given(st.integers(-7600, 7600), st.integers(-7600, 7600), st.sampled_from(["NS", "EW"]))
def test_the_difference_from_par_is_the_sides_score_less_the_sides_par(own, par, direction):
    found = versus_par(own, {"score": par}, direction)
    side = par if direction == "NS" else -par
    assert (found.par, found.side, found.difference) == (par, side, own - side)
    assert (found.line, found.points) == ("EW" if par < 0 else "NS", abs(par))
    assert (found.imps > 0) == (own - side >= 20) and (found.imps < 0) == (own - side <= -20)
    assert versus_par(None, {"score": par}, direction) is None
    assert versus_par(own, None, direction) is None

"""Exhaustive property checks over every supported size, plus validate() catching broken cards."""

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.movements import (
    Movement,
    MovementError,
    butler,
    howell,
    individual,
    knockout,
    mitchell,
    mixed_seats,
    patton,
    round_robin,
    serpentine,
    swiss_pairings,
    validate,
)


@pytest.mark.parametrize("tables", range(3, 31))
def test_mitchell_every_variant_is_sound(tables):
    variants = [{"even": "skip"}, {"pairs": 2 * tables - 1}, {"sections": 2}]
    if tables % 2 == 0:
        variants += [{"even": "twin"}, {"even": "plain"}, {"even": "twin", "pairs": 2 * tables - 1}]
    for kw in variants:
        mv = mitchell(tables, None, 2, **kw)
        assert validate(mv) == [], (tables, kw)
        # independent re-check of P2/P3 straight from the table entries
        seen = Counter()
        for _, tr in mv.iter_tables():
            seen[(tr.section, tr.ns, tr.ew)] += 1
        assert max(seen.values()) == 1
    for rounds in range(1, mitchell(tables).round_count):
        assert validate(mitchell(tables, rounds, 3)) == []


@pytest.mark.parametrize("tables", [5, 7, 9, 11, 12, 14, 16, 20, 25, 30])
def test_one_winner_mitchell_compares_everyone(tables):
    mv = mitchell(tables, arrow_switch="auto")
    assert mv.design.one_winner and not mv.design.fixed_lines
    assert validate(mv) == []


@pytest.mark.parametrize("pairs", range(4, 31))
def test_howell_complete_and_shortened(pairs):
    mv = howell(pairs=pairs, boards_per_round=2)
    assert validate(mv) == []
    even = pairs + pairs % 2
    assert mv.round_count == even - 1
    # H2: each unordered pair of real pairs meets exactly once
    met = Counter(frozenset((tr.ns, tr.ew)) for _, tr in mv.iter_tables())
    assert set(met.values()) == {1}
    assert len(met) == pairs * (pairs - 1) // 2
    if pairs % 2 == 0 and pairs > 6:
        # H3/H4: each pair plays each set once; sets at tables of a round are distinct
        for c in mv.contestants():
            sets = [ln.boards for ln in mv.pair_card(c)]
            assert len(set(sets)) == even - 1
        for rnd in mv.rounds:
            assert len({tr.board_set for tr in rnd.tables}) == len(rnd.tables)
        # H6: NS/EW balance
        ns = Counter(tr.ns for _, tr in mv.iter_tables())
        ew = Counter(tr.ew for _, tr in mv.iter_tables())
        assert all(abs(ns[c] - ew[c]) <= 1 for c in mv.contestants())
    for rounds in (1, even // 2, even - 2):
        if rounds >= 1:
            assert validate(howell(pairs=pairs, rounds=rounds)) == []


def test_butler_is_a_complete_howell():
    mv = butler(pairs=12, boards_per_round=3)
    assert mv.kind == "butler" and mv.design.every_set_once and validate(mv) == []


@pytest.mark.parametrize("players", [8, 12, 16])
def test_individual_partners_once_opponents_twice(players):
    mv = individual(players)
    assert validate(mv) == []
    partners = Counter()
    opponents = Counter()
    for _, tr in mv.iter_tables():
        n, s, e, w = tr.players
        partners.update([frozenset((n, s)), frozenset((e, w))])
        opponents.update(frozenset((a, b)) for a in (n, s) for b in (e, w))
    everyone = [frozenset(p) for p in combinations(range(1, players + 1), 2)]
    assert all(partners[p] == 1 for p in everyone)
    assert all(opponents[p] == 2 for p in everyone)


@pytest.mark.parametrize("teams", range(3, 25))
@pytest.mark.parametrize("method", ["roman", "inverse"])
def test_round_robin_properties(teams, method):
    sched = round_robin(teams, method)
    met = Counter()
    home = Counter()
    for rnd in sched.rounds:
        playing = [t for m in rnd.matches for t in (m.home, m.away)]
        if rnd.bye is not None:
            playing.append(rnd.bye)
        assert sorted(playing) == list(range(1, teams + 1))
        for m in rnd.matches:
            met[frozenset((m.home, m.away))] += 1
            home[m.home] += 1
    assert len(met) == teams * (teams - 1) // 2 and set(met.values()) == {1}
    if method == "inverse":  # M4: each team home about half its matches
        matches = teams - 1
        assert all(abs(home[t] - matches / 2) <= 1 for t in range(1, teams + 1))
    double = round_robin(teams, method, legs=2)
    firsts = {(m.home, m.away) for r in double.rounds[: len(sched.rounds)] for m in r.matches}
    seconds = {(m.away, m.home) for r in double.rounds[len(sched.rounds) :] for m in r.matches}
    assert firsts == seconds


@pytest.mark.parametrize("teams", [3, 4, 7, 8, 11])
def test_patton_movement_is_sound(teams):
    assert validate(patton(teams, 4)) == []


def _fresh_matching_exists(teams, met):
    """Independent exhaustive check: can these teams be paired with no repeat?"""
    memo = {}

    def ok(rest):
        if not rest:
            return True
        if rest in memo:
            return memo[rest]
        first, *others = sorted(rest)
        result = any(frozenset((first, o)) not in met and ok(rest - {first, o}) for o in others)
        memo[rest] = result
        return result

    return ok(frozenset(teams))


@settings(max_examples=30, deadline=None)
@given(teams=st.integers(8, 40), seed=st.integers(0, 10**6))
def test_swiss_no_rematch_while_avoidable(teams, seed):
    rng = random.Random(seed)
    standing = list(range(1, teams + 1))
    played: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(min(teams - 1, 12)):
        p = swiss_pairings(standing, [tuple(x) for x in played], byes)
        seated = [t for pair in p.pairs for t in pair] + ([p.bye] if p.bye is not None else [])
        assert sorted(seated) == list(range(1, teams + 1))
        actual = sum(1 for pair in p.pairs if frozenset(pair) in played)
        assert actual == p.rematches
        if p.rematches:
            others = [t for t in standing if t != p.bye]
            assert not _fresh_matching_exists(others, played)
        if p.bye is not None:
            assert p.bye not in byes  # nobody has a second bye while others have none
            byes.append(p.bye)
        played.update(frozenset(pair) for pair in p.pairs)
        rng.shuffle(standing)


def test_danish_pairs_in_order_allowing_rematches():
    p = swiss_pairings([4, 1, 3, 2], played=[(4, 1)], method="danish")
    assert p.pairs == ((4, 1), (3, 2)) and p.rematches == 1
    p = swiss_pairings([4, 1, 3, 2], played=[(4, 1)])
    assert p.pairs == ((4, 3), (1, 2)) and p.rematches == 0


def test_swiss_rematch_when_unavoidable():
    p = swiss_pairings([1, 2], played=[(1, 2)])
    assert p.pairs == ((1, 2),) and p.rematches == 1


@pytest.mark.parametrize("teams", range(2, 41))
def test_knockout_halves_each_stage(teams):
    br = knockout(teams)
    assert len(br.stages[0]) == br.size // 2
    byes = [m for m in br.stages[0] if m.is_bye]
    assert len(byes) == br.size - teams
    for i, stage in enumerate(br.stages[1:], start=1):
        assert len(stage) == len(br.stages[i - 1]) // 2
    entrants = [x for m in br.stages[0] for x in (m.a, m.b) if x is not None]
    assert sorted(entrants) == list(range(1, teams + 1))
    # top seeds get the byes
    assert sorted(m.a for m in byes) == list(range(1, len(byes) + 1))


@pytest.mark.parametrize("pairs", range(7, 61))
def test_serpentine_properties(pairs):
    s = serpentine(list(range(1, pairs + 1)))
    seated = [x for seat in s.seats for x in (seat.ns, seat.ew) if x is not None]
    assert sorted(seated) == list(range(1, pairs + 1))  # S1
    for seat in s.seats:  # S4 no adjacent ranks at a table
        if seat.ns and seat.ew:
            assert abs(seat.ns - seat.ew) > 1
    lines = {}
    for seat in s.seats:
        lines[seat.ns] = "NS"
        lines[seat.ew] = "EW"
    pattern = ["NS", "EW", "EW", "NS"]
    assert all(lines[r] == pattern[(r - 1) % 4] for r in seated)  # S3


def test_mixed_pairs_men_south_and_east():
    mv = mitchell(5)
    for seat in mixed_seats(mv):
        assert seat["south"][1] == "man" and seat["east"][1] == "man"
        assert seat["south"][0] == seat["north"][0]


@pytest.mark.parametrize(
    "factory",
    [
        lambda: mitchell(7),
        lambda: mitchell(8, even="twin"),
        lambda: howell(5),
        lambda: individual(16),
        lambda: mitchell(6, sections=2),
        lambda: patton(5),
    ],
)
def test_to_dict_round_trip(factory):
    mv = factory()
    data = json.loads(json.dumps(mv.to_dict()))
    again = Movement.from_dict(data)
    assert again.to_dict() == mv.to_dict()
    assert validate(again) == []
    assert again.at(1, 1) == mv.at(1, 1)


# ------------------------------------------------------------------ validate can fail
def _broken(mv, mutate):
    data = mv.to_dict()
    mutate(data)
    return validate(Movement.from_dict(data))


def test_validate_reports_repeated_board():
    def mutate(d):
        d["rounds"][1]["tables"][0]["boards"] = d["rounds"][0]["tables"][0]["boards"]

    problems = _broken(mitchell(7), mutate)
    assert any("P2" in p for p in problems)


def test_validate_reports_repeated_opponent():
    def mutate(d):
        d["rounds"][1]["tables"][0]["ew"], d["rounds"][1]["tables"][1]["ew"] = (
            d["rounds"][0]["tables"][0]["ew"],
            d["rounds"][1]["tables"][0]["ew"],
        )

    problems = _broken(mitchell(7), mutate)
    assert any("meet 2 times" in p for p in problems)


def test_validate_reports_pair_seated_twice_and_missing():
    def mutate(d):
        d["rounds"][0]["tables"][1]["ew"] = d["rounds"][0]["tables"][0]["ew"]

    problems = _broken(mitchell(5), mutate)
    assert any("seated 2 times" in p for p in problems)
    assert any("neither play nor sit out" in p for p in problems)


def test_validate_reports_undeclared_shared_board():
    def mutate(d):
        for t in d["rounds"][0]["tables"]:
            t.pop("shares_with", None)

    problems = _broken(mitchell(8, even="twin"), mutate)
    assert any("P4" in p for p in problems)


def test_validate_reports_uneven_play_counts():
    def mutate(d):
        d["rounds"].pop()

    data = howell(4).to_dict()
    mutate(data)
    problems = validate(Movement.from_dict(data))
    assert any("P5" in p for p in problems) and any("meet 0 times" in p for p in problems)


def test_validate_reports_broken_balance_and_partners():
    def flip(d):
        for t in d["rounds"][0]["tables"]:
            t["ns"], t["ew"] = t["ew"], t["ns"]

    assert any("changes line" in p for p in _broken(mitchell(5), flip))

    def repartner(d):
        t = d["rounds"][1]["tables"][0]
        t["north"], t["south"], t["east"], t["west"] = 1, 2, 3, 4
        t2 = d["rounds"][1]["tables"][1]
        t2["north"], t2["south"], t2["east"], t2["west"] = 5, 6, 7, 8

    problems = _broken(individual(8), repartner)
    assert problems


# ------------------------------------------------------------------ clear errors
@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: howell(tables=5, rounds=10), "at most 9 rounds"),
        (lambda: mitchell(2), "use howell(tables=2)"),
        (lambda: mitchell(7, boards_per_round=0), "at least 1"),
        (lambda: mitchell(8, rounds=8), "even='twin' allows up to 8"),
        (lambda: mitchell(8, even="twin", boards_per_round=1), "at least 2 boards"),
        (lambda: howell(pairs=40), "use mitchell(tables=20)"),
        (lambda: individual(10), "(8, 12, 16)"),
        (lambda: mitchell(7, pairs=20), "use tables=10"),
        (lambda: mitchell(3, arrow_switch="auto"), "howell(pairs=6)"),
    ],
)
def test_invalid_requests_raise_clear_errors(call, words):
    with pytest.raises(MovementError, match=None) as exc:
        call()
    assert words in str(exc.value)
    assert isinstance(exc.value, ValueError)

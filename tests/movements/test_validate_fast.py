"""validate() answers from a fast whole-movement pass when a movement is sound; these tests prove
that pass never accepts a movement the detailed checks (the original validator) would reject,
by comparing the two on thousands of randomly broken movements of every kind."""

import copy
import random

import pytest

from tournaments.movements import (
    Movement,
    howell,
    individual,
    mitchell,
    patton,
    triplicate,
    validate,
)
from tournaments.movements.howell import (
    HILL_CLIMB_RESULTS,
    _hill_climb_strong_starter,
    howell_base,
)
from tournaments.movements.problems import report
from tournaments.movements.soundness import is_sound

BASES = [
    lambda: mitchell(5),
    lambda: mitchell(6),
    lambda: mitchell(7, pairs=13),
    lambda: mitchell(6, even="twin"),
    lambda: mitchell(8, even="twin", pairs=15),
    lambda: mitchell(5, sections=2),
    lambda: mitchell(7, arrow_switch="auto"),
    lambda: mitchell(5, rounds=3, boards_per_round=3),
    lambda: howell(3),
    lambda: howell(4),
    lambda: howell(pairs=9),
    lambda: howell(5, rounds=4),
    lambda: individual(8),
    lambda: triplicate(),
    lambda: patton(5),
    lambda: patton(4),
]

DESIGN_CHANGES = [
    {"all_meet": True},
    {"all_meet": False},
    {"fixed_lines": True},
    {"fixed_lines": False},
    {"ns_ew_balance": 0},
    {"ns_ew_balance": 1},
    {"every_set_once": True},
    {"uniform_plays": False},
    {"uniform_plays": True},
    {"max_meetings": 2},
    {"max_meetings": 0},
    {"split_lines": True},
    {"one_winner": True},
    {"all_partner": True},
    {"partners_once": True},
]


def _contestants(data):
    found = []
    for rd in data["rounds"]:
        for t in rd["tables"]:
            found += [t[k] for k in ("ns", "ew", "north", "south", "east", "west") if k in t]
        found += rd.get("sitout", [])
    return found or [1]


def _mutate(data, rng):
    """One random change of the kind a typo in a hand-made card (or a bug) would make."""
    rounds = data["rounds"]
    if not rounds:
        return
    rd = rng.choice(rounds)
    t = rng.choice(rd["tables"]) if rd["tables"] else None
    who = _contestants(data)
    kind = rng.randrange(22)
    if t is None:
        rounds.pop()
    elif kind == 0:  # somebody else at a seat
        seat = rng.choice([k for k in ("ns", "ew", "north", "east") if k in t])
        t[seat] = rng.choice(who)
    elif kind == 1:  # another table's boards
        t["boards"] = list(rng.choice(rng.choice(rounds)["tables"])["boards"])
    elif kind == 2:  # a board more or less, a board twice, no boards
        t["boards"] = rng.choice(
            [
                t["boards"] + [rng.randrange(1, 40)],
                t["boards"][1:],
                t["boards"] * 2,
                [],
                [b + 1 for b in t["boards"]],
            ]
        )
    elif kind == 3:
        rd["tables"].remove(t)
    elif kind == 4:
        rd["tables"].append(copy.deepcopy(t))
    elif kind == 5:
        t["table"] = rng.choice([t["table"] + 1, 0, data["tables"] + 1, 1])
    elif kind == 6:
        t.pop("shares_with", None)
    elif kind == 7:
        t["shares_with"] = [rng.randrange(1, data["tables"] + 1)]
    elif kind == 8:
        rd["relay"] = sorted(set(rd.get("relay", []) + [rng.choice(t["boards"] or [1])]))
    elif kind == 9:
        rd["sitout"] = rd.get("sitout", []) + [rng.choice(who)]
    elif kind == 10:
        rd["sitout"] = []
    elif kind == 11:
        t["copy"] = t.get("copy", 0) + rng.choice([1, -1])
    elif kind == 12:
        t["section"] = rng.choice(["", "A", "B", "Z"])
    elif kind == 13:
        design = data.setdefault("design", {})
        design.update(rng.choice(DESIGN_CHANGES))
    elif kind == 14:
        design = data.setdefault("design", {})
        groups = [list(g) for g in design.get("apart", [])]
        pick = rng.sample(sorted(set(who), key=str), k=min(len(set(who)), rng.randrange(2, 4)))
        if groups and rng.random() < 0.5:
            rng.choice(groups).extend(pick)
        else:
            groups.append(pick)
        design["apart"] = groups
    elif kind == 15:
        rounds.remove(rd)
    elif kind == 16:
        rd["round"] = rd.get("round", 1) + rng.choice([1, 5])
    elif kind == 17:
        data["sitout"] = rng.choice(who)
    elif kind == 18 and "ns" in t:
        t["ns"], t["ew"] = t["ew"], t["ns"]
    elif kind == 19:
        t["board_set"] = rng.choice([None, 1, 2, 99])
        if t["board_set"] is None:
            del t["board_set"]
    elif kind == 20:  # two tables swap their boards
        other = rng.choice(rd["tables"])
        t["boards"], other["boards"] = other["boards"], t["boards"]
    elif kind == 21:  # a pair swaps with a pair at another table of the round
        other = rng.choice(rd["tables"])
        if "ew" in t and "ew" in other:
            t["ew"], other["ew"] = other["ew"], t["ew"]


def _load(data):
    try:
        return Movement.from_dict(data)
    except Exception:
        return None


@pytest.mark.parametrize("base", range(len(BASES)))
def test_fast_pass_agrees_with_detailed_checks_on_broken_movements(base):
    rng = random.Random(base)
    original = BASES[base]().to_dict()
    accepted = rejected = 0
    for _ in range(300):
        data = copy.deepcopy(original)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            _mutate(data, rng)
        mv = _load(data)
        if mv is None:
            continue
        try:
            expected = report(mv)
        except Exception as exc:  # the detailed checks cannot cope: validate() may not either
            with pytest.raises(type(exc)):
                validate(mv)
            continue
        assert validate(mv) == expected, data
        accepted += not expected
        rejected += bool(expected)
    assert rejected > 100  # the mutations do break movements


@pytest.mark.parametrize(
    "factory",
    [
        *[lambda t=t: mitchell(t) for t in (3, 4, 9, 20, 31)],
        *[lambda t=t: mitchell(t, pairs=2 * t - 1) for t in (3, 6, 17)],
        *[lambda t=t: mitchell(t, even="twin") for t in (4, 10, 24)],
        lambda: mitchell(6, sections=3),
        lambda: mitchell(9, arrow_switch="auto"),
        *[lambda t=t: howell(t) for t in range(2, 16)],
        *[lambda t=t: howell(pairs=2 * t - 1) for t in range(3, 16)],
        lambda: triplicate(),
        lambda: patton(8),
        lambda: patton(7),
    ],
)
def test_fast_pass_accepts_every_sound_pairs_movement(factory):
    mv = factory()
    assert report(mv) == []
    assert is_sound(mv)  # else validate() falls back to the slow checks and the benchmark suffers


def test_fast_pass_leaves_individual_movements_to_the_detailed_checks():
    mv = individual(16)
    assert not is_sound(mv) and validate(mv) == [] == report(mv)


def test_validate_reports_each_problem_once_and_caps_the_list():
    data = mitchell(7).to_dict()
    for rd in data["rounds"]:
        rd["tables"][0]["boards"] = [1, 2]
    problems = validate(Movement.from_dict(data))
    assert problems == report(Movement.from_dict(data))
    assert len(problems) == 13 and problems[-1].startswith("... and ")


@pytest.mark.parametrize("n", sorted(HILL_CLIMB_RESULTS))
def test_recorded_hill_climb_results_match_a_fresh_climb(n):
    assert _hill_climb_strong_starter(n) == HILL_CLIMB_RESULTS[n] == howell_base(n)


def test_lookups_are_built_on_first_use_and_stay_consistent():
    mv = mitchell(5, pairs=9)
    assert mv._index is None and mv._contestants is None
    assert mv.at(1, 1).ns == "1NS" and mv.seat_of("1NS", 2).table == 1
    assert mv.seat_of("5EW", 1) is None  # sits out: pair 5NS does not exist
    assert mv.contestants()[:3] == ["1EW", "1NS", "2EW"]
    again = Movement.from_dict(mv.to_dict())
    assert again == mv and again.guide_cards() == mv.guide_cards()

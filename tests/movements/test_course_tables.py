"""The course's literal tables (seeds/curso-arbitros-2003.txt, line numbers cited) reproduced."""

from tests.support_course_tables import course_16_rows
from tournaments.movements import (
    howell,
    individual,
    inverse_square,
    mitchell,
    pool_assignment,
    pool_opponents,
    position_table_16,
    roman_square,
    round_robin,
    serpentine,
    triplicate,
    validate,
)


def test_roman_square_six_teams_lines_242_245():
    expected = [
        [(3, 4), (2, 5), (1, 6)],
        [(4, 5), (3, 1), (2, 6)],
        [(5, 1), (4, 2), (3, 6)],
        [(1, 2), (5, 3), (4, 6)],
        [(2, 3), (1, 4), (5, 6)],
    ]
    assert roman_square(6) == expected
    assert round_robin(6, "roman").pairs_by_round() == expected


def test_inverse_square_eight_teams_lines_278_285():
    expected = [
        [(1, 7), (2, 6), (3, 5), (4, 8)],
        [(5, 4), (6, 3), (7, 2), (8, 1)],
        [(2, 1), (3, 7), (4, 6), (5, 8)],
        [(6, 5), (7, 4), (1, 3), (8, 2)],
        [(3, 2), (4, 1), (5, 7), (6, 8)],
        [(7, 6), (1, 5), (2, 4), (8, 3)],
        [(4, 3), (5, 2), (6, 1), (7, 8)],
    ]
    assert inverse_square(8) == expected
    assert round_robin(8, method="inverse").pairs_by_round() == expected


def test_inverse_square_step_a_lines_263_270():
    first_slots = [[m[0] for m in row[:-1]] + [row[-1]] for row in inverse_square(8)]
    assert [row[:3] for row in first_slots] == [
        [1, 2, 3],
        [5, 6, 7],
        [2, 3, 4],
        [6, 7, 1],
        [3, 4, 5],
        [7, 1, 2],
        [4, 5, 6],
    ]
    assert [row[3] for row in first_slots] == [
        (4, 8),
        (8, 1),
        (5, 8),
        (8, 2),
        (6, 8),
        (8, 3),
        (7, 8),
    ]


def test_triplicate_lines_167_180():
    mv = triplicate()
    got = [[(t.ns, t.ew) for t in r.tables] for r in mv.rounds]
    assert got == [
        [(1, 6), (5, 2), (3, 4)],
        [(1, 5), (4, 6), (3, 2)],
        [(1, 4), (5, 3), (6, 2)],
        [(1, 3), (4, 2), (6, 5)],
    ]
    assert mv.design.apart == ((1, 2), (3, 6), (4, 5))
    assert validate(mv) == []


def test_individual_sixteen_lines_325_341():
    expected = course_16_rows()  # seeds l.327-341, N S E O for Mesa 1..4
    assert position_table_16() == expected
    mv = individual(16)
    assert [[t.players for t in r.tables] for r in mv.rounds] == expected
    assert validate(mv) == []


def test_individual_sixteen_boards_lines_343_347():
    mv = individual(16)
    # round a of each position: T1 {1,2}, T2 {3,4}, T3/T4 share {5,6}; then the boards descend
    assert [t.boards for t in mv.rounds[0].tables] == [(1, 2), (3, 4), (5, 6), (5, 6)]
    assert [t.boards for t in mv.rounds[1].tables] == [(3, 4), (5, 6), (1, 2), (1, 2)]
    assert [t.boards for t in mv.rounds[2].tables] == [(5, 6), (1, 2), (3, 4), (3, 4)]
    assert [t.boards for t in mv.rounds[3].tables] == [(7, 8), (9, 10), (11, 12), (11, 12)]
    assert len(mv.boards()) == 30
    counts = {b: 0 for b in mv.boards()}
    for _, tr in mv.iter_tables():
        for b in tr.boards:
            counts[b] += 1
    assert set(counts.values()) == {4}  # N = 4, "el Top en este caso sera 6" = 2*4-2


def test_two_pool_sessions_lines_355_376():
    source = [
        ["NS - Azul", "EO - Azul", "NS - Roja", "EO - Roja"],
        ["NS - Azul", "NS - Roja", "EO - Roja", "EO - Azul"],
        ["NS - Azul", "EO - Roja", "EO - Azul", "NS - Roja"],
    ]
    for session, lines in enumerate(source, start=1):
        got = pool_assignment(2, session)
        for group, text in enumerate(lines, start=1):
            line, pool = (x.strip() for x in text.split("-"))
            assert got[group] == ("EW" if line == "EO" else "NS", pool)
    met = {p for s in (1, 2, 3) for p in pool_opponents(2, s)}
    assert met == {(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)}


def test_three_pool_sessions_lines_380_425():
    source = [
        "NS-A EO-A NS-B EO-B NS-C EO-C",
        "EO-A EO-B EO-C NS-A NS-C NS-B",
        "NS-A NS-C EO-C NS-B EO-B EO-A",
        "EO-A NS-C NS-B EO-C NS-A EO-B",
        "NS-A NS-B EO-A EO-C EO-B NS-C",
    ]
    for session, lines in enumerate(source, start=1):
        got = pool_assignment(3, session)
        for group, cell in enumerate(lines.split(), start=1):
            line, pool = cell.split("-")
            assert got[group] == ("EW" if line == "EO" else "NS", pool)
    assert pool_opponents(3, 2) == [(1, 4), (2, 6), (3, 5)]  # spec 11.2 opponents
    met = [p for s in range(1, 6) for p in pool_opponents(3, s)]
    assert len(met) == len(set(met)) == 15  # every group meets every other exactly once


def _seating(n_pairs: int, variant: str = "b") -> str:
    s = serpentine(list(range(1, n_pairs + 1)), variant)  # type: ignore[arg-type]
    return " ".join(f"T{x.table}:{x.ns or 'bye'}v{x.ew or 'bye'}" for x in s.seats)


def test_serpentine_matches_spec_reconstruction_lines_435_467():
    # First-round seatings derived in the spec (section 12.2) from the right-aligned table.
    assert _seating(18) == (
        "T1:1v14 T2:12v3 T3:5v18 T4:16v7 T5:9v2 T6:4v11 T7:13v6 T8:8v15 T9:17v10"
    )
    assert _seating(19) == (
        "T1:1v14 T2:12v3 T3:5v18 T4:16v7 T5:9v2 T6:byev11 T7:13v6 T8:4v15 T9:17v10 T10:8v19"
    )
    assert _seating(21) == (
        "T1:1v14 T2:12v3 T3:5v18 T4:16v7 T5:9vbye T6:20v11 T7:13v2 "
        "T8:4v15 T9:17v6 T10:8v19 T11:21v10"
    )
    assert _seating(24, "a") == (
        "T1:1v18 T2:16v3 T3:5v22 T4:20v7 T5:9v2 T6:24v11 T7:13v6 "
        "T8:4v15 T9:17v10 T10:8v19 T11:21v14 T12:12v23"
    )
    assert _seating(24, "b") == (
        "T1:1v18 T2:12v3 T3:5v22 T4:16v7 T5:9v2 T6:20v11 T7:13v6 "
        "T8:24v15 T9:17v10 T10:4v19 T11:21v14 T12:8v23"
    )
    assert _seating(32) == (
        "T1:1v22 T2:16v3 T3:5v26 T4:20v7 T5:9v30 T6:24v11 T7:13v2 "
        "T8:28v15 T9:17v6 T10:32v19 T11:21v10 T12:4v23 T13:25v14 "
        "T14:8v27 T15:29v18 T16:12v31"
    )


def test_mitchell_formulas_lines_85_89():
    mv = mitchell(tables=7, rounds=7, boards_per_round=3)
    # EW at table t in round r = ((t-1-(r-1)) mod T)+1; set = ((t-1+(r-1)) mod T)+1
    for r in range(1, 8):
        for t in range(1, 8):
            tr = mv.at(r, t)
            assert tr.ns == f"{t}NS"
            assert tr.ew == f"{(t - 1 - (r - 1)) % 7 + 1}EW"
            s = (t - 1 + (r - 1)) % 7 + 1
            assert tr.board_set == s and tr.boards == (3 * s - 2, 3 * s - 1, 3 * s)


def test_twin_table_schedule_lines_91_95():
    mv = mitchell(tables=8, rounds=8, boards_per_round=2, even="twin")

    def row(r):
        return [(mv.at(r, t).ew, mv.at(r, t).board_set) for t in range(1, 9)]

    assert row(1) == [
        (f"{t}EW", s) for t, s in zip(range(1, 9), [1, 2, 3, 4, 6, 7, 8, 1], strict=True)
    ]
    assert mv.rounds[0].relay == (9, 10)  # set 5 on the stand between tables 4 and 5
    assert [s for _, s in row(2)] == [2, 3, 4, 5, 7, 8, 1, 2]
    assert [s for _, s in row(7)] == [7, 8, 1, 2, 4, 5, 6, 7]
    assert mv.at(1, 1).shares_with == (8,) and mv.at(1, 8).shares_with == (1,)
    assert validate(mv) == []


def test_skip_after_half_line_89():
    mv = mitchell(tables=8, rounds=7, boards_per_round=3)
    assert mv.at(4, 1).ew == "6EW"  # rounds 1-4: up one table each round
    assert mv.at(5, 1).ew == "4EW"  # round 5: up two tables once
    assert validate(mv) == []


def test_half_table_relay_lines_748_752():
    mv = mitchell(tables=16, rounds=12, boards_per_round=2, pairs=31)
    card = mv.pair_card("16EW")
    assert card[0].sitout  # "ha empezado en la RELE"
    assert sum(len(line.boards) for line in card) == 22  # plays 22 of 24 boards
    assert validate(mv) == []


def test_howell_complete_has_pairs_minus_one_rounds_line_116():
    mv = howell(tables=5, boards_per_round=2)
    assert mv.round_count == 9 and len(mv.contestants()) == 10

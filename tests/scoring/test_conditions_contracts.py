"""Law 2 board conditions and Law 77 contract scores, from the law texts."""

from __future__ import annotations

import pytest

from tournaments.scoring import (
    Contract,
    ScoringError,
    board_conditions,
    contract_score,
    is_congruent,
    ns_score,
    parse_contract,
)

# L17 laws-es-2017-aeb.txt l.265-275 (Law 2): dealer and vulnerability lists, period 16.
LAW2_DEALER = {"N": (1, 5, 9, 13), "E": (2, 6, 10, 14), "S": (3, 7, 11, 15), "W": (4, 8, 12, 16)}
LAW2_VUL = {None: (1, 8, 11, 14), "NS": (2, 5, 12, 15), "EW": (3, 6, 9, 16), "All": (4, 7, 10, 13)}


@pytest.mark.parametrize("board", [*range(1, 19), 32, 33, 36, 100])
def test_law2_table_repeats_every_16(board: int) -> None:
    """L17 l.275: "La misma secuencia se repite para los estuches 17-32, y ... cada grupo de 16"."""
    k = (board - 1) % 16 + 1
    dealer = next(d for d, boards in LAW2_DEALER.items() if k in boards)
    vul = next(v for v, boards in LAW2_VUL.items() if k in boards)
    assert board_conditions(board) == (dealer, vul)


def test_board_17_is_north_none() -> None:
    """C03 curso-arbitros-2003.txt l.734: "el estuche 17 tiene que tener como dador a Norte y nadie vulnerable"."""
    assert board_conditions(17) == ("N", None)


def test_marked_board_overrides() -> None:
    """L17 Law 2: conditions marked on a board apply for the whole session."""
    assert board_conditions(17, override=("S", None)) == ("S", None)
    with pytest.raises(ScoringError, match="dealer"):
        board_conditions(1, override=("X", None))  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "4"])
def test_bad_board_number(bad: object) -> None:
    with pytest.raises(ScoringError, match="board="):
        board_conditions(bad)  # type: ignore[arg-type]


# Hand-computed cases against the L17 Law 77 table (laws-es-2017-aeb.txt l.2994-3077).
@pytest.mark.parametrize(
    ("contract", "tricks", "vul", "expected"),
    [
        ("1NT", 7, False, 90),
        ("2S", 8, False, 110),  # AEB norm l.3194: "2♠, iguales, 110"
        ("3NT", 9, False, 400),
        ("3NT", 10, True, 630),
        ("4S", 10, True, 620),
        ("4H", 11, False, 450),
        ("5D", 11, True, 600),
        ("2SX", 8, False, 470),  # doubled partscore becomes game: 120 trick score
        ("2HX", 9, True, 870),
        ("1NTX", 7, False, 180),  # 80: still a partscore
        ("1NTXX", 7, False, 560),  # 160: game
        ("1CXX", 7, False, 230),  # 80: partscore
        ("2CXX", 8, True, 760),
        ("3DX", 9, False, 470),
        ("2DX", 8, False, 180),
        ("1HX", 8, True, 360),  # 60 + 50 + 50 + 200 overtrick
        ("6S", 12, False, 980),
        ("6NT", 12, True, 1440),
        ("7NT", 13, False, 1520),
        ("7NTXX", 13, True, 2980),  # global maximum
        ("7SXX", 0, True, -7600),  # global minimum
        ("7CXX", 0, False, -7000),
        ("7DX", 0, False, -3500),
        ("7HX", 0, True, -3800),
        ("4SX", 9, True, -200),
        ("4SX", 9, False, -100),
        ("3NTX", 5, False, -800),  # 4 down NV doubled: 100+200+200+300
        ("3NTX", 4, False, -1100),
        ("3NTXX", 5, False, -1600),
        ("3NTX", 5, True, -1100),
        ("3NTXX", 5, True, -2200),
        ("4H", 8, True, -200),
        ("4H", 8, False, -100),
        ("PASS", 0, True, 0),
    ],
)
def test_contract_score_hand_computed(contract: str, tricks: int, vul: bool, expected: int) -> None:
    assert contract_score(contract, tricks=tricks, vulnerable=vul) == expected


def test_undertrick_cumulative_table_from_spec() -> None:
    """scoring-spec §2.3 cumulative table (derived from L17 l.3055-3074), down 1-7 and 13."""
    rows = {
        1: (50, 100, 200, 100, 200, 400),
        2: (100, 300, 600, 200, 500, 1000),
        3: (150, 500, 1000, 300, 800, 1600),
        4: (200, 800, 1600, 400, 1100, 2200),
        5: (250, 1100, 2200, 500, 1400, 2800),
        6: (300, 1400, 2800, 600, 1700, 3400),
        7: (350, 1700, 3400, 700, 2000, 4000),
        13: (650, 3500, 7000, 1300, 3800, 7600),
    }
    for down, cells in rows.items():
        got = tuple(
            -contract_score(Contract(7, "S", dbl), 13 - down, vul)
            for vul in (False, True)
            for dbl in (0, 1, 2)
        )
        assert got == cells, down


def test_parse_notation_case_insensitive() -> None:
    assert parse_contract("4S") == Contract(4, "S")
    assert parse_contract("3ntx") == Contract(3, "NT", 1)
    assert parse_contract("6HXX") == Contract(6, "H", 2)
    assert parse_contract(" 4 ♠ x ") == Contract(4, "S", 1)
    assert parse_contract("3ST") == Contract(3, "NT")  # Spanish "sin triunfo"
    assert parse_contract("pass") is None
    assert parse_contract("Paso") is None
    assert str(Contract(3, "NT", 2)) == "3NTXX"


@pytest.mark.parametrize("bad", ["8S", "0H", "4Z", "4SXXX", "", "S4", "44S"])
def test_parse_rejects_invalid(bad: str) -> None:
    with pytest.raises(ScoringError) as info:
        parse_contract(bad)
    assert f"contract={bad!r}" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("tricks", [14, -1, 3.0])
def test_bad_tricks(tricks: object) -> None:
    with pytest.raises(ScoringError, match=f"tricks={tricks!r}"):
        contract_score("4S", tricks, False)  # type: ignore[arg-type]


def test_passed_out_is_zero_not_average() -> None:
    """C03 l.594: "El paso es 0 para ambas líneas"; L17 l.3076."""
    assert contract_score(None, 0, True) == 0
    assert ns_score("PASS", None, 0, "All") == 0


def test_ns_score_sign_and_vulnerability() -> None:
    # board 2: NS vulnerable; EW declarer is not vulnerable
    assert ns_score("4S", "N", 10, board_conditions(2)[1]) == 620
    assert ns_score("4S", "E", 10, board_conditions(2)[1]) == -420
    assert ns_score("4S", "W", 9, "All") == 100


def test_incongruent_entry_aeb_example() -> None:
    """L17 l.3189: "(4♠, dobladas, una multa, 50)" is incongruent — 4♠X−1 is 100 NV / 200 V."""
    assert not is_congruent("4SX", "N", 9, None, -50)
    assert not is_congruent("4SX", "N", 9, "All", -50)
    assert is_congruent("4SX", "N", 9, None, -100)
    # L17 l.3194: "(2♠, iguales, 110)" is congruent.
    assert is_congruent("2S", "S", 8, None, 110)

"""Hand records from a dealing machine: Duplimate's .dup file, all or nothing, clear errors.

The files are written here by a small writer following the record layout Duplimate
publishes (156 bytes a board: North, East and South as two-digit card numbers, the machine's
text of the four hands with the DOS suit symbols, then random/backwards flags and the lowest
board, copies and highest board), never copied from a real file.
"""

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tournaments.exports.deals import random_deal
from tournaments.imports.dealer_dup import DealerFileError, read_dup
from tournaments.models import Board
from tournaments.scoring.deals import hands

pytestmark = pytest.mark.django_db

SUITS, RANKS = "SHDC", "AKQJT98765432"


def code(suit: str, rank: str) -> str:
    return f"{SUITS.index(suit) * 13 + RANKS.index(rank) + 1:02d}"


def record(deal: str, lowest: int, highest: int, rng: random.Random) -> bytes:
    seats = hands(deal)
    bri = ""
    for seat in "NES":
        cards = [code(s, r) for s, holding in zip(SUITS, seats[seat], strict=True) for r in holding]
        rng.shuffle(cards)  # the machine's order is not sorted
        bri += "".join(cards)
    dge = "".join(
        "\x06"
        + seats[seat][0]
        + "\x03"
        + seats[seat][1]
        + "\x04"
        + seats[seat][2]
        + "\x05"
        + seats[seat][3]
        for seat in "NESW"
    )  # DOS ♠ ♥ ♦ ♣, 17 a hand
    tail = f"YN{lowest:<3}{1:<2}{highest:<3}"
    text = bri + dge + tail
    assert len(text) == 156
    return text.encode("ascii")


def dup_file(deals: list[str], lowest: int = 1, breaks: bool = False) -> bytes:
    rng = random.Random(3)
    highest = lowest + len(deals) - 1
    sep = b"\r\n" if breaks else b""
    return sep.join(record(d, lowest, highest, rng) for d in deals)


def test_a_dup_file_becomes_the_same_deals():
    rng = random.Random(11)
    deals = [random_deal(rng) for _ in range(4)]
    assert read_dup(dup_file(deals, lowest=5, breaks=True), set(range(1, 20))) == [
        (5 + i, d) for i, d in enumerate(deals)
    ]


@pytest.mark.parametrize(
    "mangle, words",
    [
        (lambda raw: raw[:-3], "156"),  # cut short
        (lambda raw: raw[:2] + raw[4:6] + raw[4:], "twice"),  # a card given twice
        (lambda raw: b"99" + raw[2:], "01"),  # no such card
        (lambda raw: b"xx" + raw[2:], "card numbers"),
        # a card of North and one of East swapped in the card numbers only: the machine's hands
        # (DGE) disagree
        (lambda raw: raw[26:28] + raw[2:26] + raw[:2] + raw[28:], "DGE"),
    ],
)
def test_a_bad_dup_file_is_refused_whole_saying_which_board(mangle, words):
    rng = random.Random(12)
    raw = mangle(dup_file([random_deal(rng) for _ in range(3)]))
    with translation.override("en"), pytest.raises(DealerFileError) as caught:
        read_dup(raw, set(range(1, 10)))
    assert any(words in p for p in caught.value.problems), caught.value.problems


def test_a_blank_machine_part_is_left_aside_and_the_card_numbers_make_the_deal():
    rng = random.Random(14)
    deals = [random_deal(rng) for _ in range(2)]
    raw = dup_file(deals)
    blank = b"".join(
        raw[i : i + 78] + b" " * 68 + raw[i + 146 : i + 156] for i in range(0, len(raw), 156)
    )
    assert (
        read_dup(blank, set(range(1, 5)))
        == read_dup(raw, set(range(1, 5)))
        == [(1 + i, d) for i, d in enumerate(deals)]
    )


def test_a_file_laid_out_as_big_deal_writes_it_reads_the_same_deals():
    """Big Deal (an open-source dealer) writes its .dup records back to back: the card
    numbers, the DOS-symbol hands (68 spaces for board 1 in its "blind" form), then
    ``YN1  0 `` and the number of boards as two digits and a space (copies 0)."""
    rng = random.Random(15)
    deals = [random_deal(rng) for _ in range(12)]
    raw = dup_file(deals)
    records = [raw[i : i + 156] for i in range(0, len(raw), 156)]
    trailer = b"YN1  0 " + f"{len(deals) % 100:02d} ".encode()
    assert len(trailer) == 10
    big_deal = b"".join(
        (r[:78] + (b" " * 68 if n == 0 else r[78:146]) + trailer) for n, r in enumerate(records)
    )
    assert read_dup(big_deal, set(range(1, 13))) == [(1 + i, d) for i, d in enumerate(deals)]


def test_the_boards_page_imports_a_dup_file_all_or_nothing(director_client, mitchell_session):
    section = mitchell_session
    numbers = sorted(
        Board.objects.filter(session=section.session, pool=section.pool).values_list(
            "number", flat=True
        )
    )
    rng = random.Random(13)
    deals = [random_deal(rng) for _ in numbers]
    too_many = dup_file(deals + [random_deal(rng)])  # one board more than the section plays
    response = director_client.post(
        reverse("director:pbn_import", args=[section.pk]),
        {"file": SimpleUploadedFile("juego.dup", too_many)},
    )
    assert response.status_code == 400
    assert any(str(numbers[-1] + 1) in p for p in response.context["problems"])
    assert not Board.objects.filter(session=section.session).exclude(deal="").exists()
    response = director_client.post(
        reverse("director:pbn_import", args=[section.pk]),
        {"file": SimpleUploadedFile("juego.dup", dup_file(deals))},
    )
    assert response.status_code == 302
    stored = dict(
        Board.objects.filter(session=section.session, pool=section.pool).values_list(
            "number", "deal"
        )
    )
    assert stored == dict(zip(numbers, deals, strict=True))

"""Hand records from any PBN file: results files with a game per table, auctions and play the
reader does not need, comments, directives, ``#`` copies, BOM and CRLF (``pbn_writer``)."""

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.imports.pbn_writer import results_file
from tournaments.exports.deals import random_deal
from tournaments.models import Board
from tournaments.services.boards import deals as boards

ALL_BOARDS = set(range(1, 15))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(1, 14),
    tables=st.integers(1, 4),
    hashes=st.booleans(),
    bom=st.booleans(),
    crlf=st.booleans(),
    data=st.data(),
)
def test_a_results_file_gives_each_board_its_deal_once(
    seed, count, tables, hashes, bom, crlf, data
):
    rng = random.Random(seed)
    numbers = rng.sample(sorted(ALL_BOARDS), count)
    deals = {n: random_deal(rng) for n in numbers}
    passed = frozenset(data.draw(st.sets(st.sampled_from(numbers))))
    text = results_file(deals, tables=tables, passed=passed, hashes=hashes, bom=bom, crlf=crlf)
    read = boards.read_pbn(text, ALL_BOARDS)
    assert {d.number: d.deal for d in read} == {
        n: boards.normalise_deal(d) for n, d in deals.items()
    }
    assert len(read) == count


def test_two_different_deals_for_one_board_name_that_board_only():
    rng = random.Random(5)
    deals = {1: random_deal(rng), 2: random_deal(rng)}
    text = results_file(deals, tables=2)
    other = random_deal(rng)
    # the second table's game of board 2 carries another deal
    head, sep, tail = text.rpartition(f'[Deal "{deals[2]}"]')
    with pytest.raises(boards.PBNImportError) as caught:
        boards.read_pbn(head + f'[Deal "{other}"]' + tail, ALL_BOARDS)
    [problem] = caught.value.problems
    assert "2" in problem and "1" not in problem.replace("2", "")


@pytest.mark.django_db
def test_the_director_imports_a_results_file_as_the_hand_records(director_client, mitchell_session):
    rng = random.Random(9)
    deals = {n: random_deal(rng) for n in range(1, 15)}
    text = results_file(deals, tables=7, passed=frozenset({3}), hashes=True, crlf=True)
    upload = SimpleUploadedFile("resultados.pbn", text.encode(), content_type="text/plain")
    response = director_client.post(
        reverse("director:pbn_import", args=[mitchell_session.pk]), {"file": upload}
    )
    assert response.status_code == 302
    stored = dict(
        Board.objects.filter(session=mitchell_session.session).values_list("number", "deal")
    )
    assert stored == {n: boards.normalise_deal(d) for n, d in deals.items()}

"""The live console's missing results, one line a round (issue #35, finding 4: before play
started it listed all 36 missing lines one by one)."""

import pytest
from django.conf import settings
from django.urls import reverse

from tests.tournaments.table.test_table_corrections import saved
from tournaments.services.running.progress import Missing, missing_by_round

pytestmark = pytest.mark.django_db


def test_missing_lines_group_by_round_and_table():
    missing = [
        Missing("A", 2, 1, 3),
        Missing("A", 1, 2, 2),
        Missing("A", 1, 1, 1),
        Missing("A", 1, 1, 2),
        Missing("A", 1, 2, 1),
        Missing("A", 1, 4, 7),
        Missing("B", 1, 1, 1),
        Missing("B", 1, 2, 1),
    ]
    first, second = missing_by_round(missing)
    assert first.round == 1 and second.round == 2
    assert [(t.section, t.table, t.boards) for t in first.tables] == [
        ("A", 1, (1, 2)),
        ("A", 2, (1, 2)),
        ("A", 4, (7,)),
        ("B", 1, (1,)),
        ("B", 2, (1,)),
    ]
    assert first.table_ranges == "A1–A2, A4, B1–B2"
    assert first.count == 7 and first.each is None
    assert (second.table_ranges, second.count, second.each) == ("A1", 1, 1)


def _missing_section(html: str) -> str:
    return html.split('id="missing"')[1].split("</section>")[0]


def test_console_lists_one_line_a_round(director_client, mitchell_session):
    url = reverse("director:console", args=[mitchell_session.session.pk])
    part = _missing_section(director_client.get(url).content.decode())
    assert part.count('class="missing-round"') == 7  # 7 rounds, not 98 lines
    assert "Ronda 1: mesas A1–A7" in part and "2 estuches cada una" in part
    assert "board 1, round 1" not in part and "estuche 1, ronda 1" not in part
    first_line = reverse("director:line", args=[mitchell_session.pk, 1, 1, 1])
    assert f'href="{first_line}"' in part
    # a table that has played one board of its round keeps only the other
    saved(mitchell_session, table=1, round_=1, board=1)
    part = _missing_section(director_client.get(url).content.decode())
    round_one = part.split('data-round="1"')[1].split("</li>")[0]
    assert "13 estuches" in round_one and "cada una" not in round_one
    assert f'href="{first_line}"' not in round_one
    assert reverse("director:line", args=[mitchell_session.pk, 1, 1, 2]) in round_one


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Round 1: tables A1–A7"), ("pt", "Volta 1: mesas A1–A7")]
)
def test_console_round_lines_in_the_readers_language(
    director_client, mitchell_session, language, words
):
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("director:console", args=[mitchell_session.session.pk])
    assert words in _missing_section(director_client.get(url).content.decode())

"""Teams files whose VPs another scorer printed its own way: the WBF's continuous scale
rounded to 0.1 (each team on its own, or the loser given 20 minus the winner's). The file is
the demo's Swiss exported by us, its VPs rewritten here in each style (and the teams' totals
and places with them); the import recognises the style, records it and scores the same way,
so the verify report is empty. The club and its Swiss are built once for the module inside a
transaction (tests/module_rows.py), each test in a savepoint of it."""

import datetime
import random
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.utils import translation

from clubsite.models import Member
from tests.module_rows import module_rows
from tournaments import demo, documents
from tournaments.imports import usebio as usebio_import
from tournaments.models import TeamMatch, Tournament

pytestmark = pytest.mark.django_db
TENTH = Decimal("0.1")


@pytest.fixture(scope="module")
def _swiss_rows(django_db_setup, django_db_blocker):
    """The demo club and its Swiss, built once for the module (tests/module_rows.py)."""
    from clubsite.demo import build_club

    with module_rows(django_db_blocker):
        build_club()
        players = list(Member.objects.filter(status="active").order_by("licence_number"))
        # seed 2: six matches whose VPs end in .x5, printed differently by the two styles
        tournament = demo._swiss_teams(players, random.Random(2), datetime.date(2026, 10, 2))
        yield tournament.pk


@pytest.fixture
def swiss_text(_swiss_rows, db):
    return documents.export_text(Tournament.objects.get(pk=_swiss_rows), "usebio")


def _tenths(value: Decimal) -> Decimal:
    return value.quantize(TENTH, rounding=ROUND_HALF_UP)


def _printed(home: Decimal, away: Decimal, style: str) -> tuple[Decimal, Decimal]:
    """A match's VPs as the scorer of ``style`` prints them, from the WBF's two decimals."""
    if style == "own" or home == away:
        return _tenths(home), _tenths(away)
    if home > away:
        return _tenths(home), 20 - _tenths(home)
    return 20 - _tenths(away), _tenths(away)


def _field(block: str, tag: str) -> str:
    return re.search(f"<{tag}>([^<]*)</{tag}>", block).group(1)


def restyle(text: str, style: str) -> tuple[str, int]:
    """The file with its VPs in ``style``; also how many matches the style changes."""
    change: dict[str, Decimal] = {}
    halves = 0

    def match(found: re.Match) -> str:
        nonlocal halves
        block = found.group(0)
        if "<OPPOSING_TEAM>" not in block:
            return block
        home, away = (
            Decimal(_field(block, "TEAM_SCORE")),
            Decimal(_field(block, "OPPOSING_TEAM_SCORE")),
        )
        new_home, new_away = _printed(home, away, style)
        halves += (home * 100) % 10 == 5
        for team, old, new in (
            (_field(block, "TEAM"), home, new_home),
            (_field(block, "OPPOSING_TEAM"), away, new_away),
        ):
            change[team] = change.get(team, Decimal(0)) + new - old
        return block.replace(
            f"<TEAM_SCORE>{home}</TEAM_SCORE>", f"<TEAM_SCORE>{new_home}</TEAM_SCORE>"
        ).replace(
            f"<OPPOSING_TEAM_SCORE>{away}</OPPOSING_TEAM_SCORE>",
            f"<OPPOSING_TEAM_SCORE>{new_away}</OPPOSING_TEAM_SCORE>",
        )

    text = re.sub(r"<MATCH>.*?</MATCH>", match, text, flags=re.S)
    teams = {m.group(1): m for m in re.finditer(r'<TEAM TEAM_ID="(\d+)".*?</TEAM>', text, re.S)}
    totals = {
        t: Decimal(_field(m.group(0), "TOTAL_SCORE")) + change.get(t, 0) for t, m in teams.items()
    }

    def place(team: str) -> str:  # from the totals alone, a tie written as one place (3=)
        first = 1 + sum(v > totals[team] for v in totals.values())
        return f"{first}=" if list(totals.values()).count(totals[team]) > 1 else str(first)

    for team, m in teams.items():
        block = m.group(0)
        new = re.sub(
            r"<TOTAL_SCORE>[^<]*</TOTAL_SCORE>",
            f"<TOTAL_SCORE>{totals[team].normalize():f}</TOTAL_SCORE>",
            block,
            count=1,
        )
        new = re.sub(r"<PLACE>[^<]*</PLACE>", f"<PLACE>{place(team)}</PLACE>", new, count=1)
        text = text.replace(block, new)
    return text, halves


@pytest.mark.parametrize("style", ["own", "complement"])
def test_vps_printed_to_one_decimal_are_recognised_and_reproduced(swiss_text, style):
    text, halves = restyle(swiss_text, style)
    assert halves  # some match ends in .x5: the two styles print it differently
    record = usebio_import.import_file(text, file_name=f"swiss-{style}.xml")
    assert record.differences == []
    copy = record.tournament
    assert copy.conventions["vp_scale"] == "wbf20"
    assert copy.conventions["vp_places"] == 1 and copy.conventions["vp_loser"] == style
    file_vps = sorted(Decimal(v) for v in re.findall(r"<(?:OPPOSING_)?TEAM_SCORE>([^<]*)<", text))
    ours = sorted(
        v
        for m in TeamMatch.objects.filter(session__tournament=copy)
        for v in (m.home_vp, m.away_vp)
    )
    assert ours == file_vps
    assert all(v == _tenths(v) for v in ours)
    with translation.override("en"):
        report = usebio_import.report_text(record)
    assert "VPs rounded to 0.1" in report
    assert ("the loser's VPs 20 minus the winner's" in report) == (style == "complement")


def test_the_other_style_does_not_reproduce_the_file(swiss_text):
    """A file in one style read in the other: the ``.x5`` matches differ by 0.1 (the check
    above could not pass by recognising nothing)."""
    own, _n = restyle(swiss_text, "own")
    complement, _n = restyle(swiss_text, "complement")
    assert own != complement
    record = usebio_import.import_file(own, file_name="own.xml")
    assert record.tournament.conventions["vp_loser"] == "own"
    record = usebio_import.import_file(complement, file_name="complement.xml", replace=True)
    assert record.tournament.conventions["vp_loser"] == "complement"


def test_a_file_as_the_wbf_prints_it_keeps_two_decimals(swiss_text):
    record = usebio_import.import_file(swiss_text, file_name="swiss.xml")
    assert record.differences == []
    assert record.tournament.conventions["vp_places"] == 2
    assert record.tournament.conventions["vp_loser"] == "own"

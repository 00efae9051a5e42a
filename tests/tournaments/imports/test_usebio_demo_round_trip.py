"""USEBIO round trips of the demo's Mitchell and Howell: exported, imported back, verified
clean; and the export and import commands.

Apart from test_usebio_import.py, whose tests start from an empty club: these share the demo
club and its two events, built once for the module inside a transaction
(tests/module_rows.py), each test in a savepoint of it."""

import io

import pytest
from django.core.management import CommandError, call_command

from clubsite.models import Member
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_dealt_demo_events
from tests.tournaments.imports.test_usebio_import import section_ranking
from tournaments import documents
from tournaments.imports import usebio
from tournaments.models import (
    Board,
    BoardState,
    Result,
    ResultStatus,
    Tournament,
)
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.table import board_states

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _events_rows(django_db_setup, django_db_blocker):
    with module_rows(django_db_blocker):
        build_dealt_demo_events(3)
        yield


@pytest.fixture
def demo_events(_events_rows, db):
    """The demo's Tuesday Mitchell and Thursday Howell, their boards dealt."""
    return {t.name: t for t in Tournament.objects.all()}


@pytest.mark.parametrize("method", ["matchpoints", "cross_imps", "butler"])
def test_round_trip_of_the_demo_mitchell_shows_no_difference(demo_events, method):
    original = demo_events["Torneo de los martes"]
    if method != "matchpoints":
        Tournament.objects.filter(pk=original.pk).update(scoring_method=method)
        original.refresh_from_db()
        classify_tournament(original)
    members = Member.objects.count()
    record = usebio.import_file(documents.export_text(original, "usebio"), file_name="martes.xml")
    assert record.differences == []
    copy = record.tournament
    assert copy.pk != original.pk and copy.scoring_method == method
    assert record.summary["guests"] == 0 and Member.objects.count() == members
    assert section_ranking(copy) == section_ranking(original)
    deals = dict(Board.objects.filter(session__tournament=original).values_list("number", "deal"))
    assert (
        dict(Board.objects.filter(session__tournament=copy).values_list("number", "deal")) == deals
    )
    assert (
        Result.objects.filter(section__session__tournament=copy, status=ResultStatus.OK).count()
        == 150
    )


def test_round_trip_of_a_howell_with_a_sit_out_shows_no_difference(demo_events):
    """The demo Howell has seven pairs in an eight-pair movement: the file has no line for
    the pair sitting out, yet its figures count that table (Neuberg, the sit-out's average);
    the import rebuilds the sit-outs, so verify finds nothing and the rankings agree."""
    howell = demo_events["Howell del jueves"]
    record = usebio.import_file(documents.export_text(howell, "usebio"), file_name="jueves.xml")
    assert record.differences == []
    assert section_ranking(record.tournament) == section_ranking(howell)

    def lines(t):
        return sorted(
            Result.objects.filter(
                section__session__tournament=t, status="ok", adjustment__isnull=True
            ).values_list(
                "board__number",
                "round",
                "table",
                "contract",
                "declarer",
                "tricks",
                "ns_score",
                "ns__display_name",
            )
        )

    assert lines(record.tournament) == lines(howell)
    adjusted = Result.objects.get(
        section__session__tournament=record.tournament, adjustment__isnull=False
    )
    assert adjusted.adjustment == {"kind": "artificial", "ns": 60, "ew": 40}
    # imported rows have no trail: each is stored in the state its own fields give
    assert adjusted.board_state == BoardState.CORRECTED
    rows = list(Result.objects.filter(section__session__tournament=record.tournament))
    assert {r.pk: r.board_state for r in rows} == board_states.from_trails(rows)


def test_commands_export_and_import(demo_events, tmp_path):
    original = demo_events["Torneo de los martes"]
    path = tmp_path / "martes.xml"
    call_command(
        "export_results", original.slug, "--format", "usebio", "-o", str(path), stderr=io.StringIO()
    )
    assert path.read_text().startswith("<?xml")
    pbn_path = tmp_path / "martes.pbn"
    call_command(
        "export_results",
        str(original.pk),
        "--format",
        "pbn",
        "-o",
        str(pbn_path),
        stderr=io.StringIO(),
    )
    assert "[ScoreTable" in pbn_path.read_text()
    out = io.StringIO()
    call_command("import_usebio", str(path), stdout=out)
    assert "Verify" in out.getvalue() or "verif" in out.getvalue().lower()
    assert Tournament.objects.filter(name=original.name).count() == 2
    bad = tmp_path / "bad.xml"
    bad.write_text("<USEBIO>")
    with pytest.raises(CommandError):
        call_command("import_usebio", str(bad), stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command(
            "export_results", "no-such-event", "--format", "pbn", "-o", str(tmp_path / "x")
        )

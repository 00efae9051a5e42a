"""The teams export is written from a snapshot with the match totals the classification
stored.

Apart from test_snapshot.py, whose tests share the demo's pairs events built once for the
module: this one builds the demo's Swiss teams event, the only tournament it reads."""

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from tournaments import demo
from tournaments.exports import writers
from tournaments.models import TeamMatch, Tournament
from tournaments.services.results import snapshot_build


@pytest.mark.django_db
def test_the_teams_export_writes_the_match_totals_the_classification_stored(demo_club):
    demo.build_tournaments(only=("equipos-de-otono",))
    swiss = Tournament.objects.get()
    snapshot_build.bring_current(swiss)
    first = (
        TeamMatch.objects.filter(session__tournament=swiss)
        .exclude(away=None)
        .order_by("round", "number")
        .first()
    )
    TeamMatch.objects.filter(pk=first.pk).update(home_won=Decimal(99), boards_played=1)
    root = ET.fromstring(
        writers.write(snapshot_build.build_event_snapshot(swiss), "usebio").split("\n", 2)[2]
    )
    match = root.find("EVENT/SESSION/SECTION/MATCH")
    assert (match.findtext("ROUND_NUMBER"), match.findtext("TABLE_NUMBER")) == (
        str(first.round),
        str(first.number),
    )
    assert (match.findtext("TEAM_IMPS"), match.findtext("BOARDS_PLAYED")) == ("99", "1")

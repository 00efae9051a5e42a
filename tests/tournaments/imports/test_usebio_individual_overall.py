"""A two-session individual's USEBIO file: its overall ranking (the PLAYERs beside its
sessions) is read, checked against ours and kept as the one of record, as a pairs file's
overall PAIRs are (``usebio_record``)."""

import datetime
import random
from decimal import Decimal

import pytest

from clubsite.models import Member
from tournaments import demo, documents
from tournaments.imports import usebio
from tournaments.models import EventType, RankingScope, StoredRanking
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual as individual_setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_session_individual(demo_club, director):
    players = list(Member.objects.filter(status="active").order_by("licence_number"))[:16]
    tournament = setup.create_tournament(
        name="Individual a dos sesiones",
        date=datetime.date(2026, 10, 8),
        venue="Sala pequeña",
        event_type=EventType.INDIVIDUAL,
        sessions=2,
    )
    entries = [registration.register_entry(tournament, [m]) for m in players]
    rng = random.Random(11)
    for session in tournament.sessions.order_by("number"):
        section = setup.add_section(session)
        setup.seat_section(section, individual_setup.build_movement(16), entries)
        demo.deal_from_data(section)
        setup.start_session(session)
        demo.play_rounds(section, rng)
        setup.finish_session(session)
    publish.publish_final(tournament, user=director)
    return tournament


def _overall(tournament):
    return sorted(
        (r.names, r.points, r.percentage, r.place, r.tied)
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    )


def test_a_two_session_individual_file_keeps_its_overall_ranking_of_record(
    two_session_individual,
):
    text = documents.export_text(two_session_individual, "usebio")
    overall = text.rsplit("</SESSION>", 1)[1]
    assert overall.count("<PLAYER>") == 16 and "<PLAYER_NUMBER>" not in overall
    record = usebio.import_file(text, file_name="individual-dos.xml")
    assert record.differences == [], record.differences[:3]
    copy = record.tournament
    copy.refresh_from_db()  # the file's identifier, set after the import
    assert copy.event_type == EventType.INDIVIDUAL and copy.sessions.count() == 2
    first_session = copy.sessions.get(number=1)
    assert len(first_session.file_figures["event"]) == 16  # kept as of record
    assert _overall(copy) == _overall(two_session_individual)
    assert documents.export_text(copy, "usebio") == text

    first = overall.split("<PERCENTAGE>", 1)[1].split("</PERCENTAGE>", 1)[0]
    altered = (
        text.rsplit("</SESSION>", 1)[0]
        + "</SESSION>"
        + overall.replace(f"<PERCENTAGE>{first}</PERCENTAGE>", "<PERCENTAGE>77.77</PERCENTAGE>", 1)
    )
    again = usebio.import_file(altered, file_name="individual-dos-otra.xml", replace=True)
    assert [(d["what"], d["file"], d["ours"]) for d in again.differences] == [
        ("percentage", "77.77", str(Decimal(first).quantize(Decimal("0.01"))))
    ]
    assert (
        StoredRanking.objects.filter(
            tournament=again.tournament, scope=RankingScope.EVENT, percentage=Decimal("77.77")
        ).count()
        == 1
    )

"""A real worker classifies what the tables post, once each post asks it: the worker reads
committed rows, so this test builds its own, apart from test_live_rankings.py's shared ones."""

import datetime
import random
import time

import pytest

from tests.tournaments.classification.test_live_rankings import (
    core_percentages,
    stored_percentages,
)
from tournaments.demo import play_rounds
from tournaments.services.classification import classify as classification
from tournaments.services.setup import events as setup


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_classifies_what_the_tables_post(
    members, movements, pairs, celery_worker_process, settings
):
    settings.RANKING_REFRESH_SECONDS = 1
    tournament = setup.create_tournament(name="En directo", date=datetime.date(2026, 1, 13))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.mitchell(5, 5, 2), pairs(tournament, members, 10))
    setup.start_session(session)
    play_rounds(section, random.Random(14))  # each post asks the worker
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        session.refresh_from_db()
        if session.ranking_version and not classification.is_stale(session):
            break
        time.sleep(0.2)
    assert session.ranking_version >= 1 and not classification.is_stale(session)
    assert stored_percentages(section) == core_percentages(section)

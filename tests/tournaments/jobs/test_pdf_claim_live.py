"""A PDF's live run keeps its claim however long it takes (``tournaments.jobs``): the run
commits its claim as it works, so this test builds and commits its own rows, apart from
test_job_sweep.py's shared ones."""

import pytest

from tests.tournaments.jobs.test_job_sweep import make_broker, play_all
from tournaments import jobs


@pytest.fixture
def broker(monkeypatch, settings):
    return make_broker(monkeypatch, settings)


@pytest.fixture
def played(mitchell_session):
    return play_all(mitchell_session)


@pytest.mark.django_db(transaction=True)
def test_a_live_run_keeps_its_claim_however_long_the_pdf_takes(broker, played, settings):
    """A PDF that takes longer than ``JOB_STALL_SECONDS`` (a large field on a busy machine)
    is not taken over by a second delivery of its job while its run is alive: the run
    stamps its claim as it works, and only once it stops can another run take over."""
    import time

    settings.JOB_STALL_SECONDS = 1
    pdf, _ = jobs.request_pdf(played)
    assert jobs.take(pdf.pk, "run-1")
    with jobs.holding(pdf.pk, "run-1"):
        time.sleep(1.6)  # longer than the stall time
        assert not jobs.take(pdf.pk, "run-2")
    time.sleep(1.3)  # run-1 silent past the stall time (its worker killed)
    assert jobs.take(pdf.pk, "run-2")

"""The demo's tournaments with their boards dealt, as the PDF tests print them: built once
for each module that reads them (``demo_events``)."""

import random
import subprocess

import pytest

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments import jobs
from tournaments.exports.deals import random_deal
from tournaments.models import Board, Tournament


def build_dealt_events() -> None:
    """The demo club's Tuesday, Thursday and afternoon tournaments, every board dealt, with
    its double-dummy table and par."""
    build_demo_events("martes", "jueves", "tarde")
    rng = random.Random(5)
    for board in Board.objects.all():
        board.deal = random_deal(rng)
        board.double_dummy = {s: {"C": 7, "D": 6, "H": 9, "S": 10, "NT": 8} for s in "NESW"}
        board.par = {"score": 420, "contracts": ["4SN="]}
        board.save(update_fields=["deal", "double_dummy", "par"])


@pytest.fixture(scope="module")
def _events_rows(django_db_setup, django_db_blocker):
    with module_rows(django_db_blocker):
        build_dealt_events()
        yield


@pytest.fixture
def demo_events(_events_rows, db, settings, tmp_path):
    """The demo's Tuesday, Thursday and afternoon tournaments, their boards dealt."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return {t.name: t for t in Tournament.objects.all()}


@pytest.fixture
def request_pdf(django_capture_on_commit_callbacks):
    """``pdfs.request_pdf`` with its on-commit task run (eagerly), as after a real commit."""

    def run(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return jobs.request_pdf(*args, **kwargs)

    return run


def pdf_text(path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout

"""A real worker killed while it renders a results PDF: the task is redone, one file stored.

Apart from test_pdf.py, whose tests share rows built once for the module inside a
transaction: this test's worker process must read committed rows."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.tournaments.pdf.conftest import build_dealt_events
from tournaments import jobs
from tournaments.models import Tournament
from tournaments.models.uploads import PdfState, ResultsPdf


@pytest.fixture
def committed_events(transactional_db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    build_dealt_events()
    return {t.name: t for t in Tournament.objects.all()}


# A worker whose PDF rendering waits while the test's hold file exists: the test kills it
# there, mid-task, as a lost machine would; the next worker renders at once.
PDF_WORKER = textwrap.dedent("""
    import os, pathlib, time
    import django
    django.setup()
    import tournaments.jobs
    from clubsite.celery import app
    from tournaments.pdf import join as pdf_join

    render, hold = pdf_join.render, pathlib.Path(os.environ["PDF_HOLD"])

    def held_render(document, *args, **kwargs):
        while hold.exists():
            time.sleep(0.2)
        return render(document, *args, **kwargs)

    pdf_join.render = held_render  # the results PDF's parts, rendered and joined
    app.conf.broker_transport_options = {"visibility_timeout": 3, "unacked_restore_throttle": 1}
    app.worker_main(["worker", "--pool=solo", "--concurrency=1", "-l", "warning",
                     "--without-gossip", "--without-mingle", "--without-heartbeat",
                     "-n", os.environ["WORKER_NODE"]])
""")


def _wait(condition, seconds: float = 90) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.3)
    return False


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_pdf_is_redone_and_stores_one_file(
    celery_worker_process, committed_events, settings, tmp_path
):
    """acks_late: the PDF task of a worker SIGKILLed while rendering goes back to the queue,
    a restarted worker makes it, and the tournament has one PDF record with one file."""
    from django.db import connection

    db = connection.settings_dict
    hold = tmp_path / "hold"
    hold.touch()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "PDF_HOLD": str(hold),
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@"
        f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "WORKER_NODE": celery_worker_process.node,
    }  # answers the fixture's pings
    celery_worker_process.process.terminate()  # replaced by workers that can be held
    celery_worker_process.process.wait(timeout=30)
    celery_worker_process.purge()
    root = Path(__file__).resolve().parents[3]

    def start():
        return subprocess.Popen(
            [sys.executable, "-c", PDF_WORKER], cwd=root, env=env, start_new_session=True
        )

    tournament = committed_events["Howell del jueves"]
    first = start()
    second = None
    try:
        assert _wait(celery_worker_process.ping, 60), "no worker answered"
        pdf, created = jobs.request_pdf(tournament, language="es")
        assert created
        # Rendering: the HTML is made (40 %), the PDF is being drawn.
        assert _wait(
            lambda: ResultsPdf.objects.filter(
                pk=pdf.pk, state=PdfState.RUNNING, progress=40
            ).exists()
        ), "the PDF never started"
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        hold.unlink()
        pdf.refresh_from_db()
        assert pdf.state == PdfState.RUNNING and not pdf.file

        second = start()
        assert _wait(lambda: ResultsPdf.objects.filter(pk=pdf.pk, state=PdfState.DONE).exists()), (
            "the PDF was not redone"
        )
        pdf.refresh_from_db()
        assert ResultsPdf.objects.filter(tournament=tournament).count() == 1
        files = [p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()]
        assert files == [Path(pdf.file.path)]
        assert files[0].read_bytes().startswith(b"%PDF-") and pdf.pages > 0
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

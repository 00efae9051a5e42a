"""Publishing, the results PDF and the federation upload in a real browser (issue #8).

A finished Mitchell is built through the services (the tables' journey is another test).
The secretary opens its page from her uploads page, publishes the final results, which
queues the results PDF; she watches the job (the page polls) until its download link
appears, downloads the PDF, then configures the (fake) federation's endpoint, sends the
results, sees the first attempt fail, retries, and reads the attempts log.

Celery runs eagerly in tests, so the upload's jobs finish within the request; the PDF job is
held back and run by the test, as a worker would, so the page is seen polling it.
"""

import datetime
import subprocess

import pytest

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import login, screenshot
from tests.support_fake_federation import FakeFederation
from tournaments import jobs
from tournaments.models import TableCode, TournamentStatus
from tournaments.models.uploads import PdfState, ResultsPdf, Upload, UploadState
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.table import entry as entry_service

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def mitchell_dict(tables: int, rounds: int, per_round: int) -> dict:
    """An odd-table Mitchell (EW up one table, boards down one) in ``to_dict()`` shape."""
    out = []
    for r in range(1, rounds + 1):
        rows = []
        for t in range(1, tables + 1):
            first = ((t - 1 + (r - 1)) % tables) * per_round + 1
            rows.append(
                {
                    "table": t,
                    "ns": t,
                    "ew": (t - 1 - (r - 1)) % tables + 1,
                    "boards": list(range(first, first + per_round)),
                }
            )
        out.append({"round": r, "tables": rows})
    return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


def finished_tournament():
    """A 3-table Mitchell with every result entered by the tables, session finished."""
    members = list(
        Member.objects.filter(is_guest=False, status="active").order_by("licence_number")[:12]
    )
    tournament = setup.create_tournament(name="Miércoles noche", date=datetime.date(2025, 5, 7))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    pairs = [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(6)]
    setup.seat_section(section, mitchell_dict(3, 3, 2), pairs)
    setup.start_session(session)
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    contracts = (("4S", "N", 10), ("3NT", "E", 9), ("2H", "S", 9), ("4H", "W", 9))
    for slot in plan.slots(section.movement):
        for board in slot.boards:
            contract, declarer, tricks = contracts[(slot.round + slot.table + board) % 4]
            made = entry_service.submit_result(
                round=slot.round,
                board=board,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                table_code=codes[slot.table],
                idempotency_key=f"up-{slot.round}-{slot.table}-{board}",
            )
            entry_service.confirm_result(made.result, table_code=codes[slot.table])
    setup.finish_session(session)
    return tournament


@pytest.fixture
def fed():
    server = FakeFederation().start()
    yield server
    server.stop()


@pytest.mark.pdf_on_publish
def test_publish_pdf_and_upload_after_a_failure(live_server, new_page, fed, settings, monkeypatch):
    settings.UPLOAD_RETRY_BASE_SECONDS = 0
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True  # the fake's
    held = []  # the results PDF's job, waiting for "the worker" (this test)
    monkeypatch.setattr(jobs.results_published, "delay", lambda *args: held.append(args))
    build_club()
    tournament = finished_tournament()
    base = live_server.url

    # The secretary opens the tournament from her uploads page and publishes it.
    secretary = new_page("desktop")
    login(secretary, base, "secretaria", DEMO_PASSWORD)
    secretary.goto(f"{base}/club/uploads/")
    screenshot(secretary, "uploads-0-tournaments")
    secretary.click(f"#tournament-documents a.pdf-page[data-tournament='{tournament.slug}']")
    secretary.click("#publish-final")
    secretary.wait_for_selector("#correction-period")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINAL

    # Publishing queued the results PDF's job; its run records the PDF first (as the worker
    # does, here by hand), and the page shows it waiting and follows it.
    secretary.wait_for_selector("#pdfs #pdf-awaited progress")
    [(tournament_pk,)] = held
    assert tournament_pk == tournament.pk
    pdf, _created = jobs.request_pdf(tournament, queue=False)
    pdf_pk = pdf.pk
    secretary.wait_for_selector("#pdfs .pdf[data-state=queued] progress")
    screenshot(secretary, "uploads-1-published-pdf-queued")
    # The worker's run has taken the job (its task id holds the row) and is at 40 %.
    run = "worker-run-1"
    ResultsPdf.objects.filter(pk=pdf_pk).update(state=PdfState.RUNNING, progress=40, taken_by=run)
    secretary.wait_for_selector("#pdfs .pdf[data-state=running] progress[value='40']")
    screenshot(secretary, "uploads-2-pdf-running")
    assert jobs.generate_pdf.apply((pdf_pk,), task_id=run).result == PdfState.DONE
    link = secretary.wait_for_selector("#pdfs .pdf[data-state=done] a.download")
    assert secretary.locator("#pdfs progress").count() == 0
    screenshot(secretary, "uploads-3-pdf-done")
    with secretary.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename.endswith(".pdf")
    text = subprocess.run(
        ["pdftotext", str(download.path()), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Miércoles noche" in text

    # The public results page offers the same PDF.
    secretary.goto(f"{base}/results/{tournament.slug}/")
    assert secretary.locator("#results-pdf").count() == 1

    # An endpoint for the fake federation, no automatic retry.
    secretary.goto(f"{base}/club/uploads/endpoints/new/")
    secretary.fill("input[name=name]", "Federación (pruebas)")
    secretary.fill("input[name=url]", fed.url)
    secretary.fill("input[name=secret]", "s3cret")
    secretary.fill("input[name=timeout]", "2")
    secretary.fill("input[name=max_retries]", "0")
    secretary.click("main form button[type=submit]")
    secretary.wait_for_selector("#send-form")

    # The first attempt fails: the page says so, with the attempt in the log.
    fed.script = ["fail"]
    secretary.select_option("#id_tournament", str(tournament.pk))
    secretary.click("#send-form button[type=submit]")
    failed = secretary.locator("#uploads article.upload[data-state=failed]")
    failed.wait_for()
    assert failed.locator(".message.error").count() == 1
    assert failed.locator("table.attempts tbody tr").count() == 1
    screenshot(secretary, "uploads-4-failed")
    upload = Upload.objects.get(tournament=tournament)
    assert upload.state == UploadState.FAILED
    # The job ran within the request (no broker): the page says it failed, and why.
    said = secretary.locator("ul.messages .message.error")
    assert upload.file_name in said.inner_text() and upload.error in said.inner_text()

    # Retry: sent, with both attempts in the log and the federation filing it once.
    failed.locator("button.retry").click()
    sent = secretary.locator(f"#upload-{upload.upload_id}[data-state=sent]")
    sent.wait_for()
    rows = sent.locator("table.attempts tbody tr")
    assert rows.count() == 2
    statuses = rows.locator("td:nth-child(2)").all_inner_texts()
    assert statuses[0] != statuses[1] and any(s.strip().startswith("2") for s in statuses)
    assert upload.file_name in secretary.locator("ul.messages .message.success").inner_text()
    screenshot(secretary, "uploads-5-sent")
    upload.refresh_from_db()
    assert upload.state == UploadState.SENT and upload.attempts.count() == 2
    assert len(fed.requests) == 2 and len(fed.filed) == 1
    assert {r["headers"].get("Idempotency-Key") for r in fed.requests} == {str(upload.upload_id)}

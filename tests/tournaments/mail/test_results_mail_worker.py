"""Results by mail through a real worker: each mail sent once, in batches of the set size.

Apart from test_results_mail.py, whose tests share rows built once for the module inside a
transaction: this test's worker process must read committed rows."""

import pytest
from django.utils import translation

from tests.tournaments.conftest import build_demo_events
from tournaments.jobs import mail as job_mail
from tournaments.models import MailingKind, PlayerMail, Tournament
from tournaments.services.mail import results_mail

BASE = "https://club.example.org"


@pytest.fixture(autouse=True)
def english():
    """Read in English, as in test_results_mail.py; each mail is still in its member's
    language."""
    with translation.override("en"):
        yield


@pytest.fixture
def final(transactional_db):
    """The demo club's Tuesday Mitchell, published final, built (and committed) for this
    test."""
    build_demo_events("martes")
    return Tournament.objects.get(status="final")


@pytest.fixture
def small_batches(monkeypatch, settings):
    """Batches of five, for this process and the worker it starts (listed before it)."""
    monkeypatch.setenv("MAIL_BATCH_SIZE", "5")
    settings.MAIL_BATCH_SIZE = 5


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_each_mail_once_in_batches(final, small_batches, celery_worker_process):
    import time
    from pathlib import Path

    version = results_mail.preview(final, BASE).version
    mailing = results_mail.confirm(final, version=version, user=None, base_url=BASE)
    total = mailing.mails.count()
    deadline = time.monotonic() + 60
    while mailing.mails.filter(sent_at__isnull=True).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not mailing.mails.filter(sent_at__isnull=True).exists()
    files = list(Path(celery_worker_process.mail_dir).iterdir())  # one per SMTP connection
    assert len(files) == -(-total // 5)
    texts = "".join(f.read_text() for f in files)
    assert texts.count("\nSubject: ") == total
    # run again, with one new mail among them: only that one goes
    member = mailing.mails.first().member
    extra = PlayerMail.objects.create(
        kind=MailingKind.PROMOTED,
        tournament=final,
        member=member,
        email=member.email,
        language="es",
        subject="Una más",
        body="Texto",
    )
    job_mail.send_player_mails.delay([*mailing.mails.values_list("pk", flat=True), extra.pk])
    while time.monotonic() < deadline + 60 and not PlayerMail.objects.get(pk=extra.pk).sent_at:
        time.sleep(0.2)
    texts = "".join(f.read_text() for f in Path(celery_worker_process.mail_dir).iterdir())
    assert texts.count("\nSubject: ") == total + 1

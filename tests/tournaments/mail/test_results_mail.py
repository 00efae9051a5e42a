"""Results by mail: the preview, each mail once (retried, run twice), batches, the opt-out,
each member's language, the correction's diff, and the waiting-list notice.

The tests share the demo club's final Tuesday Mitchell, built once for the module inside a
transaction (tests/module_rows.py); the real worker's test is in test_results_mail_worker.py."""

import datetime

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone, translation

from clubsite.mail.records import deliver, take
from clubsite.models import Member
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments import documents
from tournaments.jobs import mail as job_mail
from tournaments.jobs import sweep as job_sweep
from tournaments.models import MailingKind, PlayerMail, Result, ResultsMailing, Tournament
from tournaments.services.errors import TournamentError
from tournaments.services.mail import results_mail
from tournaments.services.running import corrections

pytestmark = pytest.mark.django_db

BASE = "https://club.example.org"


@pytest.fixture(autouse=True)
def english():
    """Refusals are read in English here; each mail is still in its member's language."""
    with translation.override("en"):
        yield


@pytest.fixture(scope="module")
def _final_rows(django_db_setup, django_db_blocker):
    """The demo club and its Tuesday Mitchell, published final: built once for the module
    (tests/module_rows.py), in English as each test's own build was (``english``)."""
    with module_rows(django_db_blocker), translation.override("en"):
        build_demo_events("martes")
        yield


@pytest.fixture
def final(_final_rows, db):
    return Tournament.objects.get(status="final")


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def players(tournament):
    return list(Member.objects.filter(entry_seats__entry__tournament=tournament).distinct())


def send(tournament, run_on_commit, user=None):
    version = results_mail.preview(tournament, BASE).version
    return run_on_commit(
        results_mail.confirm, tournament, version=version, user=user, base_url=BASE
    )


def test_the_preview_shows_every_mail_and_who_is_left_out_and_sends_nothing(final):
    everyone = players(final)
    opted_out = next(m for m in everyone if m.email)
    opted_out.results_mail = False
    opted_out.save()
    shown = results_mail.preview(final, BASE)
    assert shown.kind == MailingKind.RESULTS and mail.outbox == []
    assert shown.version == documents.current_version(final)  # the PDF's version
    mailed = {d.member.pk for d in shown.drafts}
    left = {m.pk: why for m, why in shown.left_out}
    assert mailed | set(left) == {m.pk for m in everyone} and not mailed & set(left)
    assert opted_out.pk in left and opted_out.pk not in mailed
    assert all(not m.email for m in everyone if m.pk in left and m.pk != opted_out.pk)
    draft = shown.drafts[0]
    entry = draft.member.entry_seats.get(entry__tournament=final).entry_id
    assert f"{BASE}/results/{final.slug}/1/pair/{entry}/" in draft.body
    assert f"{BASE}/results/{final.slug}/pdf/" in draft.body
    with translation.override(draft.language):
        assert results_mail.mail_texts.line_text(draft.line) in draft.body


def test_each_member_gets_the_mail_in_their_language(final, run_on_commit):
    people = [m for m in players(final) if m.email][:3]
    for member, language in zip(people, ["pt", "en", ""], strict=True):
        member.language = language
        member.save()
    send(final, run_on_commit)
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert "resultados de" in subjects[people[0].email]  # pt: "resultados de …"
    assert "results of" in subjects[people[1].email]
    assert "resultados de" in subjects[people[2].email]  # the club's language (es)
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert bodies[people[0].email].startswith("Caro(a)")
    assert bodies[people[1].email].startswith("Dear")
    assert bodies[people[2].email].startswith("Estimado/a")
    assert PlayerMail.objects.get(member=people[0]).language == "pt"


def test_every_mail_goes_once_even_when_the_task_runs_again(final, run_on_commit):
    mailing = send(final, run_on_commit)
    count = mailing.mails.count()
    assert count > 5 and len(mail.outbox) == count
    assert mailing.mails.filter(sent_at__isnull=True).count() == 0
    ids = list(mailing.mails.values_list("pk", flat=True))
    job_mail.send_player_mails.delay(ids)  # a redelivery, a second worker
    job_mail.send_player_mails.apply((ids,), retries=1)  # a retry
    assert len(mail.outbox) == count
    with pytest.raises(TournamentError, match="already mailed"):
        send(final, run_on_commit)
    assert ResultsMailing.objects.count() == 1 and len(mail.outbox) == count


def test_a_row_held_by_a_live_run_is_left_to_it(final, run_on_commit, settings):
    mailing = send(final, run_on_commit)
    row = mailing.mails.first()
    PlayerMail.objects.filter(pk=row.pk).update(sent_at=None, taken_at=timezone.now())
    assert take(PlayerMail, row.pk) is False  # another run has it: not mailed twice
    done = deliver(PlayerMail, [row.pk])
    assert done.skipped == [row.pk] and not done.sent
    stale = timezone.now() - datetime.timedelta(seconds=settings.JOB_STALL_SECONDS + 1)
    PlayerMail.objects.filter(pk=row.pk).update(taken_at=stale)  # its run died
    assert deliver(PlayerMail, [row.pk]).sent == [row.pk]


def test_mails_go_in_batches(final, run_on_commit, settings, monkeypatch):
    settings.MAIL_BATCH_SIZE = 4
    batches = []
    real = job_mail.deliver

    def counting(model, ids, **kwargs):
        batches.append(len(ids))
        return real(model, ids, **kwargs)

    monkeypatch.setattr(job_mail, "deliver", counting)
    mailing = send(final, run_on_commit)
    total = mailing.mails.count()
    assert max(batches) == 4 and sum(batches) == total and len(batches) == -(-total // 4)
    assert len(mail.outbox) == total


def test_a_refused_mail_is_retried_then_given_up_with_its_error(
    final, run_on_commit, settings, monkeypatch
):
    settings.MAIL_ATTEMPTS = 3
    refusals = {"left": 1}
    real = EmailBackend.send_messages

    def flaky(self, messages):
        if refusals["left"]:
            refusals["left"] -= 1
            raise OSError("421 try again later")
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    mailing = send(final, run_on_commit)
    first = mailing.mails.order_by("pk").first()
    assert first.sent_at is not None and first.attempts == 2 and first.error == ""
    assert len(mail.outbox) == mailing.mails.count()

    def refuse(self, messages):
        raise OSError("550 mailbox unavailable")

    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    ids = list(mailing.mails.values_list("pk", flat=True)[:1])
    PlayerMail.objects.filter(pk__in=ids).update(sent_at=None, taken_at=None, attempts=0)
    job_mail.send_player_mails.delay(ids)
    row = PlayerMail.objects.get(pk=ids[0])
    assert row.sent_at is None and row.attempts == 3 and "550" in row.error


def test_a_correction_mail_says_what_changed_to_those_whose_line_changed(final, run_on_commit):
    first = send(final, run_on_commit)
    assert results_mail.preview(final, BASE).drafts == []  # the same results: nothing new
    result = Result.objects.filter(section__session__tournament=final).order_by("pk").first()
    run_on_commit(
        corrections.correct_result,
        result,
        user=None,
        contract="7NT",
        declarer="N",
        tricks=13,
        reason="Error de anotación",
        override=True,
    )
    shown = results_mail.preview(final, BASE)
    assert shown.kind == MailingKind.CORRECTION and shown.drafts
    assert [c["board"] for c in shown.changes] == [result.board.number]
    changed = {str(d.member.pk) for d in shown.drafts}
    for key, line in shown.lines.items():
        if key in changed:
            assert first.lines[key] != line
    draft = next(d for d in shown.drafts if d.language == "es")
    with translation.override("es"):  # the club's language
        old, new = (results_mail.mail_texts.line_text(x) for x in (draft.old, draft.line))
    assert f"{old} → {new}" in draft.body
    assert f"tablero {result.board.number}" in draft.body and "7SA" in draft.body
    before = len(mail.outbox)
    second = send(final, run_on_commit)
    assert second.kind == MailingKind.CORRECTION
    assert len(mail.outbox) - before == len(shown.drafts)


def test_the_preview_refuses_unpublished_results_and_confirm_a_stale_version(final, run_on_commit):
    with pytest.raises(TournamentError, match="changed after this preview"):
        run_on_commit(results_mail.confirm, final, version="stale", user=None, base_url=BASE)
    final.status = "provisional"
    final.save(update_fields=["status"])
    with pytest.raises(TournamentError):
        results_mail.preview(final, BASE)
    assert mail.outbox == [] and not PlayerMail.objects.exists()


def test_the_sweep_sends_mails_whose_message_was_lost(final, settings):
    mailing = send(final, lambda call, *a, **k: call(*a, **k))  # on-commit never ran
    assert mail.outbox == []
    later = timezone.now() + datetime.timedelta(seconds=settings.JOB_STALL_SECONDS + 1)
    swept = job_sweep.sweep(later)
    assert sorted(swept.mails) == sorted(mailing.mails.values_list("pk", flat=True))
    assert len(mail.outbox) == mailing.mails.count()
    assert job_sweep.sweep(later).mails == []


def test_teams_and_individuals_get_the_results_page_instead_of_a_pair_scorecard(final):
    Tournament.objects.filter(pk=final.pk).update(event_type="teams")
    final.refresh_from_db()
    draft = results_mail.preview(final, BASE).drafts[0]
    assert "/pair/" not in draft.body
    assert f"{BASE}/results/{final.slug}/\n" in draft.body
    assert f"{BASE}/results/{final.slug}/pdf/" in draft.body

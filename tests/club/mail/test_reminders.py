"""Arrears reminders: a preview of every mail, only the ticked ones sent, a record kept, and
no second mail about the same debt unless asked."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from clubsite.mail import reminders
from clubsite.members.services import record_payment
from clubsite.models import ArrearsReminder, FeeKind, Member, PaymentMethod, Season
from clubsite.tasks import send_arrears_reminders

pytestmark = pytest.mark.django_db


def debtors(season, language="es"):
    return [d for d in reminders.drafts(season, language) if d.can_mail]


def test_preview_shows_every_mail_and_sends_nothing(demo_club, secretary_client):
    season = Season.current()
    response = secretary_client.get(reverse("clubsite:arrears_preview"))
    assert response.status_code == 200
    drafts = response.context["drafts"]
    assert drafts and mail.outbox == [] and not ArrearsReminder.objects.exists()
    html = response.content.decode()
    for d in drafts:
        assert f'data-member="{d.member.pk}"' in html
        if d.can_mail:
            assert d.member.email in html and "pendiente" in d.body
    no_email = [d for d in drafts if not d.can_mail]
    assert all(f'value="{d.member.pk}"' not in html for d in no_email)
    assert season.pk  # the current season's arrears


def test_only_the_ticked_members_are_mailed_and_recorded(
    demo_club, secretary_client, secretary, django_capture_on_commit_callbacks
):
    season = Season.current()
    first, second, *_rest = debtors(season)
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary_client.post(
            reverse("clubsite:arrears_remind"), {"member": [first.member.pk]}
        )
    assert response["Location"] == reverse("clubsite:arrears_sent")
    assert [m.to for m in mail.outbox] == [[first.member.email]]
    row = ArrearsReminder.objects.get()
    assert (row.member, row.email, row.balance, row.requested_by) == (
        first.member,
        first.member.email,
        first.arrear.balance,
        secretary,
    )
    assert row.sent_at is not None and row.subject == mail.outbox[0].subject
    page = secretary_client.get(reverse("clubsite:arrears_sent")).content.decode()
    assert first.member.email in page and 'data-state="sent"' in page
    assert second.member.email not in page


def test_nothing_ticked_sends_nothing(demo_club, secretary_client):
    response = secretary_client.post(reverse("clubsite:arrears_remind"), {})
    assert response["Location"] == reverse("clubsite:arrears_preview")
    assert mail.outbox == [] and not ArrearsReminder.objects.exists()
    junk = secretary_client.post(reverse("clubsite:arrears_remind"), {"member": ["x", "-1"]})
    assert junk.status_code == 302 and mail.outbox == []


def test_the_same_debt_is_not_mailed_twice_unless_asked(demo_club, secretary):
    season = Season.current()
    target = debtors(season)[0].member
    rows = reminders.queue(season, members=[target.pk], user=secretary, language="es")
    send_arrears_reminders([r.pk for r in rows])
    assert len(mail.outbox) == 1
    # ticked again by mistake: left out, the preview says when it was sent
    assert reminders.queue(season, members=[target.pk], user=secretary, language="es") == []
    draft = next(d for d in reminders.drafts(season, "es") if d.member == target)
    assert draft.already_sent and draft.last.sent_at is not None
    # the job run twice (a retry) mails nothing twice
    assert send_arrears_reminders([r.pk for r in rows]) == 0
    assert len(mail.outbox) == 1
    # asked explicitly: sent again
    again = reminders.queue(
        season, members=[target.pk], again=[target.pk], user=secretary, language="es"
    )
    send_arrears_reminders([r.pk for r in again])
    assert len(mail.outbox) == 2
    # a part payment changes the debt: a reminder about the new balance is a new one
    record_payment(
        member=target,
        season=season,
        kind=FeeKind.MEMBERSHIP,
        amount=draft.arrear.balance / 2,
        method=PaymentMethod.CASH,
        paid_on=datetime.date.today(),
        recorded_by=secretary,
    )
    fresh = reminders.queue(season, members=[target.pk], user=secretary, language="es")
    assert len(fresh) == 1 and fresh[0].balance == draft.arrear.balance / 2


@pytest.mark.parametrize(
    "language,word", [("es", "pendiente"), ("pt", "pendentes"), ("en", "pending")]
)
def test_the_mail_is_in_the_secretarys_language(
    demo_club, secretary_client, language, word, django_capture_on_commit_callbacks
):
    secretary_client.cookies["django_language"] = language
    # the request switches this thread's language: put the club's back afterwards
    with translation.override("es"), django_capture_on_commit_callbacks(execute=True):
        secretary_client.post(
            reverse("clubsite:arrears_remind"), {"member": [debtors(Season.current())[0].member.pk]}
        )
    assert word in mail.outbox[0].body


def test_members_without_email_or_debt_are_never_mailed(demo_club, secretary):
    season = Season.current()
    everyone = list(Member.objects.values_list("pk", flat=True))
    rows = reminders.queue(season, members=everyone, user=secretary, language="es")
    assert {r.member_id for r in rows} == {d.member.pk for d in debtors(season)}

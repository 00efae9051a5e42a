"""Background jobs of the club app."""

from celery import shared_task
from django.core.mail import get_connection
from django.core.mail.message import EmailMessage
from django.utils import timezone

from .models import ArrearsReminder


@shared_task(acks_late=True)
def send_arrears_reminders(reminder_ids: list[int]) -> int:
    """Mail the reminders the secretary confirmed (``clubsite.reminders.queue``).

    Runs in a worker because an SMTP server can be slow or down. Each row is mailed once:
    a row already marked as mailed is skipped, so a retried job sends nothing twice; a
    failure is written on the row. Returns how many mails went out.
    """
    sent = 0
    with get_connection() as connection:
        for row in ArrearsReminder.objects.filter(pk__in=reminder_ids, sent_at__isnull=True):
            message = EmailMessage(row.subject, row.body, None, [row.email],
                                   connection=connection)
            try:
                message.send()
            except Exception as exc:  # the SMTP server's refusal, kept for the secretary
                row.error = str(exc)[:300]
                row.save(update_fields=["error"])
                continue
            row.sent_at, row.error = timezone.now(), ""
            row.save(update_fields=["sent_at", "error"])
            sent += 1
    return sent

"""Background jobs of the club app."""

from celery import shared_task

from clubsite.mail.records import deliver

from .models import ArrearsReminder


@shared_task(acks_late=True)
def send_arrears_reminders(reminder_ids: list[int]) -> int:
    """Mail the reminders the secretary confirmed (``clubsite.mail.reminders.queue``).

    Runs in a worker because an SMTP server can be slow or down. Each row is mailed once
    (``mail_records.deliver``): a retried or repeated job sends nothing twice; a failure is
    written on the row. Returns how many mails went out.
    """
    return len(deliver(ArrearsReminder, reminder_ids).sent)

"""Recorded mails: each row is one mail, written before a worker sends it, sent once.

Shared by every mail the site sends on someone's behalf (arrears reminders, results mails,
waiting-list notices). A row carries the address, subject and text as composed when it was
asked for, and ``taken_at`` / ``sent_at`` / ``error``. A run first *takes* a row in the
database (an update that only one run can win), then mails it and marks it sent; so a task
retried, delivered twice or run by two workers at once mails each row once. A row whose run
died while holding it (taken ``JOB_STALL_SECONDS`` ago and still not sent) may be taken
again: at worst that one mail goes out twice, never a whole batch.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import get_connection
from django.core.mail.message import EmailMessage
from django.db.models import F, Q
from django.utils import timezone


@dataclass
class Delivered:
    """What one run did with the rows it was given (their ids)."""

    sent: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)  # the server refused: worth a retry
    skipped: list[int] = field(default_factory=list)  # already sent, or held by another run


def one_line(subject: str) -> str:
    """The subject with any line break (a club's or tournament's name posted with "\r\n
    Bcc: …" in it) turned into a space: Django would refuse the header, and the mail would
    never go; as one line it goes to its one recipient, and the words stay readable."""
    return " ".join(subject.split())


def _stale(now: datetime.datetime) -> datetime.datetime:
    return now - datetime.timedelta(seconds=settings.JOB_STALL_SECONDS)


def take(model, pk: int) -> bool:
    """Take row ``pk`` for this run; False when it is sent or another live run holds it."""
    now = timezone.now()
    return bool(
        model.objects.filter(pk=pk, sent_at__isnull=True)
        .filter(Q(taken_at__isnull=True) | Q(taken_at__lt=_stale(now)))
        .update(taken_at=now)
    )


def deliver(model, ids, *, connection=None) -> Delivered:
    """Mail the rows ``ids`` of ``model`` not mailed yet, over one connection, each once.

    A refusal is written on its row (``error``, and ``attempts`` counted when the model
    keeps them) and the row is let go, so a retry may take it again.
    """
    done = Delivered()
    counts = any(f.name == "attempts" for f in model._meta.get_fields())
    with connection or get_connection() as conn:
        for row in model.objects.filter(pk__in=list(ids)).order_by("pk"):
            if not take(model, row.pk):
                done.skipped.append(row.pk)
                continue
            message = EmailMessage(
                one_line(row.subject), row.body, None, [row.email], connection=conn
            )
            bump = {"attempts": F("attempts") + 1} if counts else {}
            try:
                message.send()
            except Exception as exc:  # the SMTP server's refusal, kept on the row
                model.objects.filter(pk=row.pk).update(error=str(exc)[:300], taken_at=None, **bump)
                done.failed.append(row.pk)
                continue
            model.objects.filter(pk=row.pk).update(sent_at=timezone.now(), error="", **bump)
            done.sent.append(row.pk)
    return done

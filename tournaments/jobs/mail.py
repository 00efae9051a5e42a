"""Mails to players (results, corrections, waiting-list notices): sent in batches, retried.

The rows (``PlayerMail``) are written by the services before anything is queued; this task
only mails them, through ``clubsite.mail.records.deliver``, which takes each row in the
database first, so a task retried, delivered twice or run by two workers mails each row
once. A list longer than ``MAIL_BATCH_SIZE`` is split: this run mails the first batch over
one SMTP connection and queues the rest as a task of its own. Rows the server refused are
retried with the uploads' exponential back-off (``jobs.backoff``), at most ``MAIL_ATTEMPTS``
times in all; each refusal is written on its row, which the director's page shows. Rows
whose message was lost (the broker was down, the worker was killed) are sent again by the
worker's sweep (``jobs.sweep``).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from clubsite.mail.records import deliver

from .. import queueing
from ..models import PlayerMail
from . import backoff


def batch_size() -> int:
    return max(1, int(settings.MAIL_BATCH_SIZE))


def attempts() -> int:
    return max(1, int(settings.MAIL_ATTEMPTS))


@shared_task(
    bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None, ignore_result=True
)
def send_player_mails(self, ids: list[int]) -> int:
    """Mail the rows ``ids`` (the first batch now, the rest queued); returns how many went."""
    ids = [int(pk) for pk in ids]
    batch, rest = ids[: batch_size()], ids[batch_size() :]
    if rest:
        queueing.send(send_player_mails, rest)
    done = deliver(PlayerMail, batch)
    if not done.failed:
        return len(done.sent)
    again = list(
        PlayerMail.objects.filter(pk__in=done.failed, attempts__lt=attempts()).values_list(
            "pk", flat=True
        )
    )
    if not again:
        return len(done.sent)  # given up: the rows keep their error for the director
    if self.request.is_eager:  # no broker: the retry runs now, in this process
        return (
            len(done.sent)
            + send_player_mails.apply((again,), retries=self.request.retries + 1).result
        )
    raise self.retry(args=(again,), countdown=backoff(self.request.retries))

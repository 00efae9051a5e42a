"""Background jobs of the tournaments app.

Double-dummy analysis takes DDS a fraction of a second per deal, seconds for a session, so it
runs in a worker; so does the live re-classification of a session while its results arrive,
which would otherwise take the CPU of the web workers that answer the tables and the
readers. Without a broker Celery runs them eagerly (see ``clubsite.celery``).
"""

from celery import shared_task

from tournaments.services.boards.deals import analyse_boards

from .models import Board


@shared_task(acks_late=True)
def analyse_session_boards(session_id: int, replace: bool = False) -> int:
    """Store the double-dummy table and par of every dealt board of the session.

    Boards already analysed are skipped unless ``replace``; returns how many were analysed,
    so a retry after a lost worker redoes only what is missing.
    """
    boards = Board.objects.filter(session_id=session_id).exclude(deal="")
    if not replace:
        boards = boards.filter(double_dummy__isnull=True)
    return analyse_boards(boards.order_by("pool", "number"))


@shared_task(acks_late=True, ignore_result=True)
def classify_session_task(session_id: int, window_end: float | None = None) -> int | None:
    """Re-classify a session whose results changed (queued by ``request_classification``).

    Idempotent: it classifies from whatever is stored when it runs, so running twice, or
    after a redelivery, only costs time; it is skipped when a classification that started
    after ``window_end`` already covers every change it stands for.
    """
    from tournaments.services.classification.reclassification import quiet_wait, run_requested

    wait = quiet_wait(session_id, window_end)
    if wait:  # results are still coming in: look again once they may have paused
        try:
            classify_session_task.apply_async((session_id, window_end), countdown=wait)
            return None
        except Exception:  # the broker went away: classify now rather than never
            pass
    return run_requested(session_id, window_end)


# Export, upload, PDF and mail jobs live in their own package; Celery discovers tasks.py, and
# ``TournamentsConfig.ready`` imports it, so every task is registered under its name, which
# is how ``tournaments.queueing`` finds the ones services ask for.
from . import jobs  # noqa: E402, F401
from .jobs import mail as job_mail  # noqa: E402, F401

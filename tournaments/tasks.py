"""Background jobs of the tournaments app.

Double-dummy analysis takes DDS a fraction of a second per deal, seconds for a session, so it
runs in a worker; without a broker Celery runs it eagerly (see ``clubsite.celery``).
"""

from celery import shared_task

from .models import Board
from .services.boards import analyse_boards


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


# Export, upload and PDF jobs live in their own module; Celery discovers tasks.py.
from . import jobs  # noqa: E402, F401

"""The published results' PDF follows the results: made on publication, re-made after a
correction (debounced), through ``tournaments.queueing`` (the PDF jobs sit above services).

Below the classification, which asks for a refresh whenever it stores a new ranking of
published results, and below publication, which asks for the PDF of what it published.
"""

from django.conf import settings
from django.db import transaction

from tournaments import queueing
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.classification.windows import QUEUED, once_per_window, tasks_run_inline

PUBLISHED = (TournamentStatus.PROVISIONAL, TournamentStatus.FINAL)


def queue_results_pdf(tournament: Tournament) -> None:
    """Render the results PDF of the version just published, in a worker, after commit."""
    if not getattr(settings, "RESULTS_PDF_ON_PUBLISH", False):
        return
    transaction.on_commit(lambda: queueing.results_pdf(tournament.pk))


def results_corrected(tournament_id: int) -> bool:
    """Published results changed (a director's correction): re-make their PDF; True if a
    refresh was queued by this call.

    Debounced like ``reclassification.request_classification``: the first change of a
    ``RESULTS_PDF_REFRESH_SECONDS`` window queues ``jobs.refresh_results_pdf`` for the end
    of the window and the others find the window's cache key, so ten corrections in a row
    give one PDF, of the version after the last one. Without a broker a countdown means
    nothing (the task runs at once), so there every change re-makes it. Call once the
    change is committed; a failure to queue is logged and never fails the correction (the
    PDF page still offers to make it).
    """
    if not getattr(settings, "RESULTS_PDF_ON_PUBLISH", False):
        return False
    if not Tournament.objects.filter(pk=tournament_id, status__in=PUBLISHED).exists():
        return False
    interval = (
        0 if tasks_run_inline() else max(0, getattr(settings, "RESULTS_PDF_REFRESH_SECONDS", 0))
    )

    def queue(countdown: int | None) -> None:
        queueing.refresh_results_pdf(tournament_id, countdown)

    return (
        once_per_window(
            queue,
            name="results-pdf-refresh",
            key=f"clubsite:pdf-refresh-pending:{tournament_id}",
            seconds=interval,
            what=f"the results PDF refresh of tournament {tournament_id}",
        )
        == QUEUED
    )

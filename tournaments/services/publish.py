"""Publication: provisional results while playing, final results, and the Law 79C window.

Final publication starts the correction period (``Tournament.correction_minutes``, 30 by
default). Inside it the director corrects freely; after it every change needs an explicit
override, which the audit trail records.
"""

import datetime
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, SessionStatus, Tournament, TournamentStatus
from .errors import CorrectionPeriodOver, TournamentError
from .results import PUBLISHED
from .windows import QUEUED, once_per_window

logger = logging.getLogger(__name__)


def correction_period_over(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    ends = tournament.correction_period_ends
    return ends is not None and (now or timezone.now()) > ends


def correction_allowed(tournament: Tournament, override: bool) -> bool:
    """Raise unless a change to results is allowed now; True when it needs (and has) the
    override, so the caller logs it as such."""
    if not correction_period_over(tournament):
        return False
    if not override:
        raise CorrectionPeriodOver(
            _("The correction period ended at %(time)s; confirm the override to change results.")
            % {"time": timezone.localtime(tournament.correction_period_ends).strftime("%H:%M")})
    return True


def _queue_results_pdf(tournament: Tournament) -> None:
    """Render the results PDF of the version just published, in a worker, after commit."""
    if not getattr(settings, "RESULTS_PDF_ON_PUBLISH", False):
        return
    from ..job_send import send_on_commit
    from ..jobs import results_published

    # A broker that is down leaves no PDF asked for: the worker's sweep asks once it is back.
    send_on_commit(results_published, tournament.pk)


def results_corrected(tournament_id: int) -> bool:
    """Published results changed (a director's correction): re-make their PDF; True if a
    refresh was queued by this call.

    Debounced like ``classification.request_classification``: the first change of a
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
    from ..jobs import refresh_results_pdf

    eager = bool(refresh_results_pdf.app.conf.task_always_eager)
    interval = 0 if eager else max(0, getattr(settings, "RESULTS_PDF_REFRESH_SECONDS", 0))
    return once_per_window(refresh_results_pdf, (tournament_id,),
                           key=f"clubsite:pdf-refresh-pending:{tournament_id}",
                           seconds=interval,
                           what=f"the results PDF refresh of tournament {tournament_id}"
                           ) == QUEUED


def publish_provisional(tournament: Tournament, *, user) -> Tournament:
    """Show the current rankings as provisional (during or right after play)."""
    from .classification import classify_tournament

    if tournament.status == TournamentStatus.FINAL:
        raise TournamentError(_("The results are already final."))
    classify_tournament(tournament)
    with transaction.atomic():
        tournament.status = TournamentStatus.PROVISIONAL
        tournament.provisional_at = timezone.now()
        tournament.save(update_fields=["status", "provisional_at"])
        AuditEntry.objects.create(tournament=tournament, action=AuditAction.PUBLISHED, user=user,
                                  after={"status": tournament.status})
        _queue_results_pdf(tournament)
    return tournament


def publish_final(tournament: Tournament, *, user, at: datetime.datetime | None = None,
                  override: bool = False) -> Tournament:
    """Publish the official results; the correction period starts now (or at ``at``).

    Publishing again after the period has ended (to restart it) needs the override.
    """
    from .classification import classify_tournament

    if tournament.sessions.exclude(status=SessionStatus.FINISHED).exists():
        raise TournamentError(_("Finish every session before publishing final results."))
    overridden = correction_allowed(tournament, override)
    classify_tournament(tournament)
    with transaction.atomic():
        tournament.status = TournamentStatus.FINAL
        tournament.published_at = at or timezone.now()
        tournament.save(update_fields=["status", "published_at"])
        AuditEntry.objects.create(
            tournament=tournament, action=AuditAction.PUBLISHED, user=user,
            after={"status": tournament.status,
                   "correction_period_ends": tournament.correction_period_ends.isoformat()},
            override=overridden,
        )
        _queue_results_pdf(tournament)
    return tournament

"""Publication: provisional results while playing, final results, and the Law 79C window.

Final publication starts the correction period (``Tournament.correction_minutes``, 30 by
default). Inside it the director corrects freely; after it every change needs an explicit
override, which the audit trail records.
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, SessionStatus, Tournament, TournamentStatus
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.errors import CorrectionPeriodOver, TournamentError
from tournaments.services.results.results_pdf import queue_results_pdf


def correction_period_over(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    return tournament.correction_period_over(now)


def correction_allowed(tournament: Tournament, override: bool) -> bool:
    """Raise unless a change to results is allowed now; True when it needs (and has) the
    override, so the caller logs it as such."""
    if not correction_period_over(tournament):
        return False
    if not override:
        raise CorrectionPeriodOver(
            _("The correction period ended at %(time)s; confirm the override to change results.")
            % {
                "time": date_format(
                    timezone.localtime(tournament.correction_period_ends), "DATETIME_FORMAT"
                )
            }
        )
    return True


def publish_provisional(tournament: Tournament, *, user) -> Tournament:
    """Show the current rankings as provisional (during or right after play)."""
    if tournament.status == TournamentStatus.FINAL:
        raise TournamentError(_("The results are already final."))
    classify_tournament(tournament, pdf_follows=False)  # the publication's PDF follows
    with transaction.atomic():
        tournament.status = TournamentStatus.PROVISIONAL
        tournament.provisional_at = timezone.now()
        tournament.save(update_fields=["status", "provisional_at"])
        AuditEntry.objects.create(
            tournament=tournament,
            action=AuditAction.PUBLISHED,
            user=user,
            after={"status": tournament.status},
        )
        queue_results_pdf(tournament)
    return tournament


def publish_final(
    tournament: Tournament, *, user, at: datetime.datetime | None = None, override: bool = False
) -> Tournament:
    """Publish the official results; the correction period starts now (or at ``at``).

    Publishing again after the period has ended (to restart it) needs the override.
    """
    if tournament.sessions.exclude(status=SessionStatus.FINISHED).exists():
        raise TournamentError(_("Finish every session before publishing final results."))
    overridden = correction_allowed(tournament, override)
    classify_tournament(tournament, pdf_follows=False)  # the publication's PDF follows
    with transaction.atomic():
        tournament.status = TournamentStatus.FINAL
        tournament.published_at = at or timezone.now()
        tournament.save(update_fields=["status", "published_at"])
        AuditEntry.objects.create(
            tournament=tournament,
            action=AuditAction.PUBLISHED,
            user=user,
            after={
                "status": tournament.status,
                "correction_period_ends": tournament.correction_period_ends.isoformat(),
            },
            override=overridden,
        )
        queue_results_pdf(tournament)
    return tournament

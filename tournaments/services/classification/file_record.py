"""An imported event's result of record: the figures its file published, not our re-score.

A club that brings its history checks our pages against what it published. The importer
keeps each session's figures as the file gives them (``Session.file_figures``: each
entry's total, percentage and place, each mark on each board); while the tournament keeps
them (``Tournament.keeps_file_results``), every classification stores those figures in
place of ours (``file_figures.overlay``), so the ranking, travellers, scorecards, PDF and
exports show the club's published result. Our re-score stays the verification beside it (the import report).

The file's figures hold only for the results it came with: once a result of the session is
changed here (a correction), the session is scored with our rules, and the event page says
so. A director may also re-score the whole event with the club's rules (``rescore``), an
audited decision that can be undone (``restore``).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, PointsAwarding, Result, Session, Tournament
from tournaments.models.points import results_version
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.classification.file_figures import all_hold


def keep(tournament: Tournament, sessions: dict[int, dict]) -> None:
    """Store the file's figures (session number → {"entries", "marks"}) as the event's
    result of record, and classify with them (the importer calls it inside its transaction). Master points the file awarded were kept for
    the file's results (``imports.usebio_save``): they stay current with them."""
    with transaction.atomic():
        before = results_version(tournament)
        for session in tournament.sessions.all():
            figures = sessions.get(session.number)
            if not figures:
                continue
            newest = (
                Result.objects.filter(section__session=session)
                .order_by("-modified_at")
                .values_list("modified_at", flat=True)
                .first()
            )
            session.file_figures = {**figures, "through": newest.isoformat() if newest else ""}
            session.save(update_fields=["file_figures"])
        Tournament.objects.filter(pk=tournament.pk).update(keeps_file_results=True)
        tournament.keeps_file_results = True
        # Inside the import's transaction nobody has seen the rankings our re-score stored:
        # the file's take their version, so an export of the event says what the file said.
        Session.objects.filter(tournament=tournament, ranking_version__gt=0).update(
            ranking_version=F("ranking_version") - 1
        )
        classify_tournament(tournament)
        PointsAwarding.objects.filter(tournament=tournament, version=before).update(
            version=results_version(tournament)
        )


def status(tournament: Tournament) -> str:
    """``"file"`` (every session shows the file's figures), ``"changed"`` (a session was
    corrected since, and shows ours), ``"ours"`` (re-scored by a director) or ``""`` (not an
    event with a file of record)."""
    sessions = [s for s in tournament.sessions.all() if (s.file_figures or {}).get("entries")]
    if not sessions:
        return ""
    if not tournament.keeps_file_results:
        return "ours"
    return "file" if all_hold(tournament, sessions) else "changed"


def _switch(tournament: Tournament, keep_file: bool, user, reason: str) -> None:
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(keeps_file_results=keep_file)
        tournament.keeps_file_results = keep_file
        AuditEntry.objects.create(
            tournament=tournament,
            action=AuditAction.RESCORED,
            user=user,
            before={"results": "ours" if keep_file else "file"},
            after={"results": "file" if keep_file else "ours"},
            reason=reason,
        )
        classify_tournament(tournament)


def rescore(tournament: Tournament, user, reason: str = "") -> None:
    """The director's decision: show our scoring with the club's rules, not the file's."""
    _switch(
        tournament,
        False,
        user,
        reason or _("Re-scored with the club's rules instead of the imported file's."),
    )


def restore(tournament: Tournament, user, reason: str = "") -> None:
    """Undo ``rescore``: the file's figures are the result of record again."""
    _switch(
        tournament,
        True,
        user,
        reason or _("The imported file's results are the result of record again."),
    )


def note(tournament: Tournament) -> dict | None:
    """What an imported event's pages say of its figures: whose they are (``status``) and
    how many of the file's figures our re-score does not reproduce (``differences``)."""
    if not tournament.import_hash:
        return None
    shown = status(tournament)
    if not shown:
        return None
    from tournaments.models.uploads import ImportState, ResultImport

    record = (
        ResultImport.objects.filter(tournament=tournament, state=ImportState.DONE)
        .order_by("-pk")
        .only("differences", "summary")
        .first()
    )
    return {
        "status": shown,
        "differences": len(record.differences) if record else 0,
        "program": (record.summary or {}).get("program", "") if record else "",
    }

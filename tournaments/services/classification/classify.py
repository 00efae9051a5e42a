"""The entry point every classification goes through: store a new ranking, then what follows.

``classify_session`` stores the session's classification (``store``: load, score, rank,
write under a new version, one at a time per session) and, once that is committed, lets
the rest follow the new ranking by calling it directly: published results get their PDF
re-made (``results_pdf.results_corrected``, debounced) and a final tournament its master
points awarded again (``master_points.results_changed``). Master points bring the rankings
current through ``store`` itself, so this module may call them without a circle.

When it runs (after posts, corrections, or a stale page) is ``reclassification``'s business.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Session, Tournament
from tournaments.services.classification.store import is_stale, store_session
from tournaments.services.results import master_points
from tournaments.services.results.results_pdf import results_corrected


def classify_session(session: Session, *, pdf_follows: bool = True) -> int:
    """Re-classify ``session`` from its results (``store.store_session``); returns the new
    ranking version. ``session`` is updated in place with the new version and stamp.

    Once committed, a new ranking of published results has their PDF re-made (once per
    window however many classifications) and a final tournament's master points follow
    (``master_points.results_changed``). ``pdf_follows=False``: the caller asks for the
    results PDF itself (publication), so the new ranking does not.
    """
    version = store_session(session)
    tournament_id = session.tournament_id
    if pdf_follows:
        transaction.on_commit(lambda: results_corrected(tournament_id))
    transaction.on_commit(lambda: master_points.results_changed(tournament_id))
    return version


def ensure_current(session: Session) -> bool:
    """Re-classify now when a result changed since the stored rankings; True if it did.

    For what must be exact when it is made (PDFs, exports, published documents). Pages
    read while results arrive use ``follow_live``, which leaves the work to the worker.
    """
    if not is_stale(session):
        return False
    classify_session(session)
    return True


def classify_tournament(tournament: Tournament, *, pdf_follows: bool = True) -> None:
    for session in tournament.sessions.all():
        if session.sections.exists():
            classify_session(session, pdf_follows=pdf_follows)

"""What services ask of the background layer above them, without importing it.

Services sit under ``tasks.py`` and ``jobs.py`` (which call services), so they never import
them: they send one of these signals, and the receivers in ``tournaments.tasks``, connected
in ``TournamentsConfig.ready()``, queue the Celery task. The services keep every decision
(whether, when, once per which window); a receiver only queues.

- ``classification_wanted(session_id, window_end, countdown)``: classify the session in the
  worker, ``countdown`` seconds from now (``reclassification.request_classification``);
- ``results_published(tournament_id)``: render the results PDF of the version just
  published (``results_pdf.queue_results_pdf``);
- ``results_pdf_refresh_wanted(tournament_id, countdown)``: re-make the published results'
  PDF after a correction (``results_pdf.results_corrected``);
- ``results_reclassified(tournament_id)``: a session of the tournament was classified again
  (sent after commit; ``master_points`` re-awards a tournament already awarded). Unlike the
  others it may have no receiver: it is sent with ``send``, not ``send_to_worker``.
"""

from django.dispatch import Signal

classification_wanted = Signal()
results_published = Signal()
results_pdf_refresh_wanted = Signal()
results_reclassified = Signal()


def send_to_worker(signal: Signal, **kwargs) -> None:
    """Send ``signal``; raises what the receiver raises (a broker down), and when nothing
    receives it, so a lost wiring is an error and never silently drops the work."""
    if not signal.send(sender=None, **kwargs):
        raise RuntimeError("no receiver is connected to this signal (TournamentsConfig.ready)")

# ``player_mails_ready(ids)``: mail the recorded ``PlayerMail`` rows ``ids`` (results mails
# the director confirmed, waiting-list notices); see ``results_mail`` and ``waiting_mail``.
player_mails_ready = Signal()

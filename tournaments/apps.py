from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Services ask for background work by signal (``services.signals``); the tasks that
        do it sit above them and receive it here."""
        from . import tasks
        from .services import master_points, signals

        signals.classification_wanted.connect(tasks.queue_classification,
                                              dispatch_uid="queue_classification")
        signals.results_published.connect(tasks.queue_results_pdf,
                                          dispatch_uid="queue_results_pdf")
        signals.results_pdf_refresh_wanted.connect(tasks.queue_results_pdf_refresh,
                                                   dispatch_uid="queue_results_pdf_refresh")
        signals.results_reclassified.connect(master_points.on_results_reclassified,
                                             dispatch_uid="master_points_follow")
        signals.player_mails_ready.connect(tasks.queue_player_mails,
                                           dispatch_uid="queue_player_mails")

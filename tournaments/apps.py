from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Register the tasks: ``tournaments.queueing``, which services call to ask for
        background work, finds them by name on the Celery app."""
        from . import tasks  # noqa: F401

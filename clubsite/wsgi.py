"""WSGI entry point, served by gunicorn in production: ``gunicorn clubsite.wsgi``."""

import logging
import os

from django.core.wsgi import get_wsgi_application

from clubsite.ops.warmup import warm_and_freeze

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
application = get_wsgi_application()


def _load_task_clients() -> None:
    """Load the broker's transport and the cache's client now, in each web process.

    The first result a table posts queues a re-classification; importing these modules
    under that request took a fifth of a second of CPU and held up the process's other
    threads. The broker is connected on first use; the cache's lookup connects it.
    """
    from django.conf import settings

    if not settings.CELERY_BROKER_URL:
        return
    from django.core.cache import cache

    from .celery import app

    try:
        app.connection_for_write().transport  # noqa: B018 - imports the transport module
        cache.has_key("clubsite:loaded")
    except Exception:  # a broker or cache that is down is reported where it is used
        logging.getLogger(__name__).warning("could not load the task clients", exc_info=True)


_load_task_clients()
warm_and_freeze()

"""The clubsite project and its club app (members, licences, seasons, fees, roles)."""

from .celery import app as celery_app

__all__ = ("celery_app",)

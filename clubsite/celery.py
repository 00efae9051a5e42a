"""Celery application: tasks.py modules of every installed app are discovered.

Without CELERY_BROKER_URL the settings make tasks run eagerly in-process, so a fresh
machine needs no broker; production and CI point it at Redis and run a worker:
``celery -A clubsite worker -B -l info`` (``-B``: the embedded beat runs
``tournaments.jobs.sweep``, which re-sends jobs a broker outage or a killed worker lost).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

app = Celery("clubsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

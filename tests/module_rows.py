"""Rows that every test of a module reads, built once for the module instead of once a test.

Building the demo club and its tournaments through the services takes seconds; a module
whose twenty tests each built it spent minutes of every run doing the same work.
``module_rows`` builds them inside a transaction that stays open while the module's tests
run, each in a savepoint of it (pytest-django's ``db``), and rolls it back after the last
one: every test starts from exactly what was built, whatever the tests before it wrote.

A transactional test (a live worker or server must see committed rows) cannot run inside
that transaction: it asks for rows built by itself, as before, and never for the module's.
pytest-django runs the transactional tests after all the others, when the module's
transaction is closed. The module's fixture must be among the test's arguments (directly
or through its fixtures), so that pytest opens it before the test's own transaction.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import transaction
from django.test.utils import override_settings
from django.utils import translation

from clubsite.celery import app as celery_app

# What the suite's autouse fixtures set for each test (tests/conftest.py), set for the build.
AS_IN_A_TEST = {
    "RESULTS_PDF_ON_PUBLISH": False,
    "PDF_PART_CACHE_DIR": "",
    "RANKING_REFRESH_SECONDS": 0,
    "CACHES": {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "clubsite-tests",
        }
    },
}


@contextmanager
def module_rows(django_db_blocker):
    """Open the module's transaction, with the settings the tests run with; the build goes
    inside the ``with``, and the rows stay until the module's fixture ends."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        with django_db_blocker.unblock(), override_settings(**AS_IN_A_TEST), transaction.atomic():
            translation.deactivate()  # the site's default language, as each test starts
            yield
            transaction.set_rollback(True)
    finally:
        celery_app.conf.task_always_eager = eager

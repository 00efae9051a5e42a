"""Fixtures for the laws tests: the parsed editions (pure) and an imported database (Django)."""

from __future__ import annotations

import pytest

from laws.importer import parse_all


@pytest.fixture(scope="session")
def editions():
    return {e.code: e for e in parse_all()}


@pytest.fixture(scope="session")
def _parsed_for_db():
    return parse_all()


@pytest.fixture(scope="session")
def _session_import(django_db_setup, django_db_blocker, _parsed_for_db):
    """Import once per session, committed outside the per-test transactions."""
    from laws.services import store

    with django_db_blocker.unblock():
        store(_parsed_for_db)


@pytest.fixture
def laws_db(_session_import, db, _parsed_for_db):
    """The imported Laws. If a transactional test (live_server) flushed the tables since the
    session import, import again inside this test's transaction (rolled back after it)."""
    from laws.models import Edition
    from laws.services import store

    if Edition.objects.count() != len(_parsed_for_db):
        store(_parsed_for_db)
    return {e.code: e for e in Edition.objects.all()}

"""Start Django for a benchmark on a throw-away database (never the site's own).

SQLite in a temporary folder by default; set BENCH_DATABASE_URL to a PostgreSQL database
that may be wiped (e.g. postgres://postgres@127.0.0.1:5432/clubsite_bench).
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup(*, flush: bool = True) -> str:
    """Django on the bench's database, migrated; ``flush``: emptied first (PostgreSQL)."""
    sys.path.insert(0, str(ROOT))
    scratch = tempfile.mkdtemp(prefix="clubsite-bench-")
    os.environ["CLUBSITE_VAR_DIR"] = scratch
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{scratch}/b.db")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    if os.environ.get("BENCH_DATABASE_URL") and flush:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
    work_as_default_club()
    from django.db import connection

    return connection.vendor


_SCOPE = None


def work_as_default_club() -> None:
    """From here on this thread works as the installation's default club, as a one-club site
    and ``make run`` do: club-owned rows are made and read in its scope (a query outside any
    club's scope raises). A bench of several clubs opens each club's scope inside this one."""
    global _SCOPE
    if _SCOPE is None:
        from clubsite.tenancy import club_scope, default_club_id

        _SCOPE = club_scope(default_club_id())
        _SCOPE.__enter__()

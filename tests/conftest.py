"""Fixtures shared by the whole suite: users in each role, the demo club, Celery modes."""

import os

import pytest
from celery._state import _set_task_join_will_block
from django.contrib.auth.models import User
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from clubsite.accounts.permissions import Role, grant
from clubsite.celery import app as celery_app
from tests.signed_in import sign_in_verified

# Property tests: the same examples on every run of `make test` and CI ("ci": derandomized,
# so a red CI is reproducible and never a lucky draw), and a long random search for a nightly
# or a hunt by hand: HYPOTHESIS_PROFILE=nightly make test PYTEST_ARGS="tests/scoring".
hypothesis_settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True, max_examples=150
)
hypothesis_settings.register_profile("nightly", deadline=None, max_examples=3000)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Passwords hashed cheaply in tests: the production hasher (PBKDF2, a million rounds, a
    fifth of a second of CPU) would be paid for every user a fixture makes and every sign-in
    (hundreds of seconds a run). Only under pytest: ``tests.faults.scenarios`` imports this
    module in a process whose users sign in to a gunicorn with the production settings."""
    from django.test.utils import override_settings

    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()
    _static_files_read_once()


def _static_files_read_once():
    """Each test client builds its own middleware, and WhiteNoise's reads every static file
    of the finders then (headers, compressed twins): 32 ms a client, a minute or more of a
    run spent reading the same 200 files. Here each file is read once a process; the
    running site builds its middleware once anyway."""
    from whitenoise.base import WhiteNoise

    original = WhiteNoise.get_static_file
    read: dict = {}

    def get_static_file(self, path, url, stat_cache=None):
        key = (path, url, self.max_age, self.allow_all_origins, self.charset)
        if key not in read:
            read[key] = original(self, path, url, stat_cache=stat_cache)
        return read[key]

    WhiteNoise.get_static_file = get_static_file


@pytest.fixture(autouse=True, scope="session")
def _club_scope():
    """The tests (and the fixtures of every scope) work as the installation's default club,
    as a one-club site's requests and jobs do; a test of several clubs opens the scope of
    each club it means (``clubsite.tenancy.club_scope``)."""
    from django.conf import settings

    from clubsite.tenancy import club_scope

    with club_scope(settings.DEFAULT_CLUB_ID):
        yield


@pytest.fixture(autouse=True)
def _no_pdf_on_publish(settings, request):
    """Publishing renders a PDF in production; tests that are not about PDFs skip that work."""
    settings.RESULTS_PDF_ON_PUBLISH = request.node.get_closest_marker("pdf_on_publish") is not None


@pytest.fixture(autouse=True)
def _no_kept_pdf_parts(settings):
    """Each PDF is laid out whole unless a test keeps parts in a folder of its own
    (``tests/tournaments/pdf/test_pdf_part_cache.py``): a part kept by another test would hide
    a rendering change."""
    settings.PDF_PART_CACHE_DIR = ""


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request the test client made in
    another (LocaleMiddleware activates it) left it active for the process's next tests."""
    translation.deactivate()


@pytest.fixture(autouse=True)
def _rankings_follow_every_result(settings):
    """Pages re-classify after every change in tests (production waits a few seconds)."""
    settings.RANKING_REFRESH_SECONDS = 0


@pytest.fixture(autouse=True)
def _empty_local_cache(settings):
    """Each test starts with an empty in-process cache, never a shared one (CACHE_URL)."""
    from django.core.cache import cache

    from tournaments.services.table import round_done

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "clubsite-tests",
        }
    }
    cache.clear()
    round_done.forget()  # what this process knew of the rounds of another test's sections


@pytest.fixture(autouse=True)
def _no_shared_rows_under_a_committing_test(request):
    """A transactional test must not run inside a module's shared rows (``module_rows``):
    its flush would empty them and a worker it starts could not read them."""
    marker = request.node.get_closest_marker("django_db")
    if marker and marker.kwargs.get("transaction"):
        from django.db import connection

        assert not connection.in_atomic_block, (
            "a transactional test in a module with shared rows (tests/module_rows.py): "
            "move it to a module of its own"
        )


@pytest.fixture(autouse=True)
def _celery_mode(request):
    """Tasks run eagerly unless a test is marked ``worker`` (then a real worker runs them).

    Each test starts outside any task: Celery's "inside a task" flag is one per process, set
    and restored by each eager task, so two threads' eager tasks overlapping (the live
    server's and the test's) could leave it set, and a later test's ``result.get()`` on this
    process was refused as if called inside a task."""
    _set_task_join_will_block(False)
    eager = request.node.get_closest_marker("worker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = previous


def make_user(username: str, *roles: str, password: str = "pass-1234-word") -> User:
    user = User.objects.create_user(username=username, password=password)
    grant(user, *roles)
    return user


@pytest.fixture
def secretary(db):
    return make_user("sec", Role.SECRETARY)


@pytest.fixture
def director(db):
    return make_user("dir", Role.DIRECTOR)


@pytest.fixture
def player(db):
    return make_user("pla", Role.PLAYER)


@pytest.fixture
def secretary_client(client, secretary):
    return sign_in_verified(client, secretary)


@pytest.fixture
def director_client(client, director):
    return sign_in_verified(client, director)


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def demo_club(db):
    from clubsite.demo import build_club

    build_club()


class WorkerProcess:
    """A live Celery worker of this test process: its own queue, so the workers of two xdist
    processes (each on its own test database) never take each other's tasks."""

    def __init__(self, process, mail_dir, queue):
        self.process = process
        self.mail_dir = mail_dir
        self.queue = queue
        self.node = worker_node(queue)

    def ping(self) -> bool:
        return bool(celery_app.control.ping(destination=[self.node], timeout=1.0))

    def purge(self) -> None:
        purge_queue(self.queue)


def purge_queue(queue: str) -> None:
    """Empty one queue (``control.purge`` would empty every process's queue)."""
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(queue)


def worker_node(queue: str) -> str:
    """The node name the tests' workers take (``-n``), for pings aimed at them only."""
    import socket

    return f"{queue}@{socket.gethostname()}"


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path, monkeypatch):
    """A real ``celery worker`` process on the configured broker, using the test database.

    Only where a broker is configured and the database is shared between processes
    (PostgreSQL): `.ci/run` provides both. Tasks of this test process go to a queue of its
    own (``CELERY_TASK_DEFAULT_QUEUE`` for the worker and for workers a test starts itself).
    """
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    from django.conf import settings
    from django.db import connection

    if not settings.CELERY_BROKER_URL or not settings.CELERY_RESULT_BACKEND:
        pytest.skip("needs CELERY_BROKER_URL and CELERY_RESULT_BACKEND (run by .ci/run)")
    if connection.vendor != "postgresql":
        pytest.skip("a worker process needs a shared database (PostgreSQL)")
    db = connection.settings_dict
    url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    queue = f"clubsite-tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    monkeypatch.setenv("CELERY_TASK_DEFAULT_QUEUE", queue)
    previous_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "EMAIL_BACKEND": "tests.support_mail_backend.EmailBackend",  # a file each connection
            "EMAIL_FILE_PATH": str(mail_dir),
        }
        purge_queue(queue)
        root = Path(__file__).resolve().parents[1]
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clubsite",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "-l",
                "warning",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                worker_node(queue),
            ],
            cwd=root,
            env=env,
        )
        worker = WorkerProcess(process, mail_dir, queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if worker.ping():
                break
            if process.poll() is not None:
                pytest.fail("the celery worker exited at start")
        else:
            process.kill()
            pytest.fail("the celery worker did not answer a ping within 60 s")
        yield worker
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    finally:
        celery_app.conf.task_default_queue = previous_queue


# --- a pass that must run every test of some kinds ------------------------------------------
# `.ci/run` sets CLUBSITE_REQUIRE_MARKERS=worker,postgres on its PostgreSQL pass: a test of
# those kinds skipped there (no broker, no worker, wrong database) fails the run instead of
# letting it pass without having proved anything.
_skipped_required: list[str] = []


def _required_markers() -> set[str]:
    return {
        m.strip() for m in os.environ.get("CLUBSITE_REQUIRE_MARKERS", "").split(",") if m.strip()
    }


def pytest_runtest_logreport(report):
    required = _required_markers()
    # An expected failure is reported as skipped too; it ran, so it is not a skip here.
    if report.skipped and not hasattr(report, "wasxfail") and required & set(report.keywords):
        _skipped_required.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if _skipped_required and not hasattr(session.config, "workerinput"):
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    if _skipped_required:
        terminalreporter.section("required tests skipped", red=True)
        for nodeid in sorted(set(_skipped_required)):
            terminalreporter.write_line(
                f"SKIPPED but required ({', '.join(sorted(_required_markers()))}): {nodeid}"
            )


# --- a pass that only needs the tests that touch the database -------------------------------
# `.ci/run`'s SQLite pass proves the embedded set-up (SQLite, tasks run eagerly): a test that
# never touches the database computes the same on SQLite as it did in the PostgreSQL pass, so
# `--database-tests-only` leaves it out there instead of running it twice.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (django_db or a database "
        "fixture); the rest are deselected",
    )


def uses_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    keep = [item for item in items if uses_database(item)]
    dropped = [item for item in items if not uses_database(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep

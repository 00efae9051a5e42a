"""Live load: 40 table devices post results while 50 readers watch the live ranking.

Issue #6 asks, with gunicorn and PostgreSQL: p99 of a result post < 100 ms, p99 of the
ranking page < 150 ms, zero lost or duplicated results, a ranking page whose SQL query count
does not grow with the field, and a full re-classification of a 60-table session < 1 s.

    python bench/bench_live_load.py     # PostgreSQL at postgres@127.0.0.1:5432 (trust), Redis
    BENCH_SERVERS=2 GUNICORN_WORKERS=2 python bench/bench_live_load.py   # two of each, see below

It creates a throw-away database of its own, ``clubsite_load_<pid>`` (``BENCH_DB_NAME``
chooses another; ``BENCH_PG`` overrides the server URL), drops it at the end, migrates it, builds through the services a one-section 40-table Mitchell
(80 pairs, 13 rounds × 2 boards, 1,040 board lines), starts it and publishes provisional
results so the public section ranking shows the running session, then launches, as in
production, gunicorn (``GUNICORN_WORKERS`` × ``GUNICORN_THREADS``, 4 × 4 by default, as ``make run``) on a
free port and one Celery worker, with Redis (``BENCH_REDIS``, db 11 by default, whose queue
is purged) as broker and shared cache: the posts queue the re-classifications and the worker
runs them (``RANKING_REFRESH_SECONDS``, 5 s by default). 40 device threads sign in as the
QR card does (GET /table/<token>/, then its button's POST), take the CSRF token from the page as
table.js does, and post every board of their table to the JSON endpoint with a fresh
idempotency key; about 10 % are posted again with the same key (a lost answer) and 5 % with
a new key but the same result (a second device at the table): both must be answered
"duplicate". 50 reader threads open the section ranking (before the clock starts, like the
sign-ins: a warm server is measured) and reload it meanwhile. The pace is compressed: a
device posts every ``DEVICE_PAUSE`` seconds (a real table posts one board every ~7 minutes)
and a reader reloads every ``READER_PAUSE`` seconds; both can be changed with environment
variables of the same name. Half the readers revalidate with If-None-Match, as a browser does
a page sent with an ETag and "no-cache" (mostly 304s), half reload plainly (real renders);
``CONDITIONAL=1``: all revalidate, ``CONDITIONAL=0``: none. The reads answered 200 and 304 are
reported apart. The load generator runs on the same machine as the server and shares its
cores; the report says how much CPU gunicorn, the worker and the load generator used, and how
busy the whole machine was (other work included).

The baseline. This machine is shared and noisy: the same code gave p99s three times apart
within an hour, so an absolute figure judges the neighbours, not the code. Once the ranking
has caught up, the same device threads (same connections, cookies, CSRF header) post the same
bodies at the same pace to an empty view on the same gunicorn, and the readers reload it at
the same pace for as long as the real phase lasted. The empty view (``bench/live_urls.py``,
served with ``DJANGO_SETTINGS_MODULE=live_settings``: the product's settings, this one URL
added) returns an empty 200 through the whole middleware stack. The performance issue's
goals are ratios to it: p99 real / p99 empty ≤ 1.5× for posts and for the reads of each
kind, and gunicorn's CPU (its process tree) per request ≤ 4 ms in the real phase.

When the devices are done, how long the ranking took to include the last result, and how
many classifications the worker ran. Then, in process: results stored against the board
lines expected, the SQL query count of the section ranking for a 3-table and the 40-table
section (Django's test client; rendered, then with its tables from the cache), and the
time of ``classify_session`` on bench_classification's 60-table session. Exit status 1 when a
target (the absolute ones or the ratios) is missed; the last line says which.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # gunicorn and celery of this Python's environment
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
# A throw-away database of this run's own (BENCH_DB_NAME to choose it), dropped at the end:
# two runs at once (or another developer's) never drop each other's database.
DB_NAME = os.environ.get("BENCH_DB_NAME", f"clubsite_load_{os.getpid()}")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/11")
WORKERS = int(os.environ.get("GUNICORN_WORKERS", "4"))
THREADS = int(os.environ.get("GUNICORN_THREADS", "4"))
# BENCH_SERVERS=2: two gunicorns on two ports and two Celery workers share PostgreSQL and
# Redis, and every client sends each request to the next server in turn (a table signs in on
# one and posts on the other): nothing may live in one process (sessions, CSRF, caches, locks).
SERVERS = int(os.environ.get("BENCH_SERVERS", "1"))
TABLES = 40
ROUNDS = 13
BOARDS_PER_ROUND = 2
READERS = 50
DEVICE_PAUSE = float(os.environ.get("DEVICE_PAUSE", "1.0"))
READER_PAUSE = float(os.environ.get("READER_PAUSE", "1.0"))
# CONDITIONAL=1: every reader revalidates (If-None-Match); 0: none; by default half of them.
CONDITIONAL = os.environ.get("CONDITIONAL", "half")
SAME_KEY_SHARE = 0.10
NEW_KEY_SHARE = 0.05
POST_P99_MS, READ_P99_MS, CLASSIFY_S, CAUGHT_UP_S = 100.0, 100.0, 1.0, 0.5
RATIO_GOAL, CPU_MS_GOAL = 1.5, 4.0  # p99 real / p99 empty view; gunicorn CPU per request
LOAD_BEFORE = ""

os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
os.environ["CLUBSITE_VAR_DIR"] = tempfile.mkdtemp(prefix="clubsite-load-")
os.environ["CELERY_BROKER_URL"] = os.environ["CACHE_URL"] = REDIS
os.environ.pop("CELERY_RESULT_BACKEND", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "clubsite.settings"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


# --- the database and the tournament ----------------------------------------------------------


def _psql(*statements: str) -> None:
    host = urllib.parse.urlparse(SERVER)
    args = [
        "psql",
        "-h",
        host.hostname or "127.0.0.1",
        "-p",
        str(host.port or 5432),
        "-U",
        host.username or "postgres",
        "-d",
        "postgres",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
    ]
    for sql in statements:
        subprocess.run(args + ["-c", sql], check=True)


def fresh_database() -> None:
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", DB_NAME):
        raise SystemExit(f"BENCH_DB_NAME {DB_NAME!r}: lower-case letters, digits and _ only")
    _psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)", f"CREATE DATABASE {DB_NAME}")


def drop_database() -> None:
    from django.db import connections

    connections.close_all()
    _psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def seat(name: str, tables: int, rounds: int, first_licence: int):
    """A started, provisionally published one-section Mitchell built through the services."""
    from clubsite.models import Member
    from tournaments.movements import mitchell
    from tournaments.services.entries import registration
    from tournaments.services.results import publish
    from tournaments.services.setup import events as setup

    tournament = setup.create_tournament(
        name=name, date=datetime.date(2026, 11, 22), public_results=True
    )
    session = tournament.sessions.get()
    players = Member.objects.bulk_create(
        Member(first_name=f"P{i}", last_name=f"Load {i:04d}", licence_number=f"L-{i:05d}")
        for i in range(first_licence, first_licence + tables * 4)
    )
    entries = [
        registration.register_entry(tournament, players[i : i + 2])
        for i in range(0, len(players), 2)
    ]
    section = setup.add_section(session, "A")
    setup.seat_section(section, mitchell(tables, rounds, BOARDS_PER_ROUND).to_dict(), entries)
    setup.start_session(session)
    publish.publish_provisional(tournament, user=None)
    return tournament, section


def random_result(rng: random.Random) -> dict:
    """What the buttons post: a contract, its declarer and the tricks against it, a lead."""
    if rng.random() < 0.04:
        return {"level": "PASS"}
    level = rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6])
    made = rng.choice(["=", "=", "=", "+1", "+1", "-1", "-1", "-2"])
    if level == 7 and made.startswith("+"):
        made = "="
    return {
        "level": str(level),
        "strain": rng.choice(["C", "D", "H", "S", "NT"]),
        "double": rng.choice(["", "", "", "", "X"]),
        "declarer": rng.choice("NESW"),
        "made": made,
        "lead_suit": rng.choice("SHDC"),
        "lead_rank": rng.choice("AKQJT98765432"),
    }


# --- the HTTP clients -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """Keep-alive connections with one cookie jar, as a tablet's browser keeps them; with
    several servers (``ports``) each request goes to the next one in turn, as behind a load
    balancer that keeps no affinity."""

    def __init__(self, ports: list[int]):
        self.ports = ports
        self.turn = 0
        self.cookies: dict[str, str] = {}
        self.etag: str | None = None
        self.conns = {
            port: http.client.HTTPConnection("127.0.0.1", port, timeout=60) for port in ports
        }

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict | None = None
    ) -> tuple[int, bytes, float]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        port = self.ports[self.turn % len(self.ports)]
        self.turn += 1
        for attempt in range(2):
            start = time.perf_counter()
            try:
                self.conns[port].request(method, path, body=body, headers=headers)
                response = self.conns[port].getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conns[port].close()  # the server closed a kept-alive connection: reopen
                self.conns[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                if attempt:
                    raise
        elapsed = (time.perf_counter() - start) * 1000
        if response.status == 200:
            self.etag = response.headers.get("ETag")
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, data, elapsed


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.posts: list[float] = []
        self.reads: list[float] = []
        self.reads_200: list[float] = []  # real renders of the page
        self.reads_304: list[float] = []  # revalidations answered "not modified"
        self.errors: list[str] = []
        self.outcomes: list[tuple[str, str]] = []  # (kind of post, answer)
        self.ready: list[int] = []  # one per client that signed in / opened the page
        self.done: list = []  # the clients (table code, reader seed) done with this phase

    def add(self, attr: str, value) -> None:
        with self.lock:
            getattr(self, attr).append(value)


class Phase:
    """One timed run of every client: the real pages, then the empty view (the baseline)."""

    def __init__(self, name: str, post_path: str, read_path: str | None):
        self.name = name
        self.post_path = post_path
        self.read_path = read_path  # None: the section ranking
        self.stats = Stats()
        self.start = threading.Event()
        self.stop = threading.Event()  # the readers' end: the devices are done


def run_client(target, ident, *args) -> None:
    """Run a device or a reader (``target``); however it ends, an exception included, it
    counts as done in every phase (the last argument), so that no phase waits for it."""
    phases = args[-1]
    try:
        target(*args)
    finally:
        for phase in phases:
            with phase.stats.lock:
                if ident not in phase.stats.done:
                    phase.stats.done.append(ident)


def device(
    ports: list[int],
    code: str,
    plays: list[tuple[int, int]],
    seed: int,
    phases: list[Phase],
) -> None:
    """``code`` is the table's link token. The same posts, bodies and pace in each phase."""
    rng = random.Random(seed)
    browser = Browser(ports)
    first = phases[0].stats
    status, page, _ = browser.request("GET", f"/table/{code}/")
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if csrf is not None:
        status, _, _ = browser.request(
            "POST",
            "/table/",
            urllib.parse.urlencode({"token": code, "csrfmiddlewaretoken": csrf.group(1).decode()}),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
    status, page, _ = browser.request("GET", "/table/play/")
    token = re.search(rb'"X-CSRFToken": "([^"]+)"', page)
    if status != 200 or token is None or "sessionid" not in browser.cookies:
        first.add("errors", f"table {code[:6]}…: sign-in failed ({status})")
        first.add("ready", 1)
        return
    headers = {
        "Accept": "application/json",
        "X-CSRFToken": token.group(1).decode(),
        "Content-Type": "application/x-www-form-urlencoded",
    }
    # Every board's posts, decided before the clock starts, so that each phase sends the same.
    sends = []
    for round_number, board in plays:
        body = {
            "round": round_number,
            "board": board,
            "idempotency_key": os.urandom(12).hex(),
            **random_result(rng),
        }
        group = [(body, "first")]
        if rng.random() < SAME_KEY_SHARE:
            group.append((body, "same key"))
        if rng.random() < NEW_KEY_SHARE:
            group.append((body | {"idempotency_key": os.urandom(12).hex()}, "new key"))
        sends.append(group)
    first.add("ready", 1)

    def post(phase: Phase, body: dict, kind: str) -> None:
        status, data, ms = browser.request(
            "POST", phase.post_path, urllib.parse.urlencode(body), headers
        )
        phase.stats.add("posts", ms)
        try:
            outcome = json.loads(data).get("outcome", f"http {status}")
        except ValueError:
            outcome = f"http {status}"
        phase.stats.add("outcomes", (kind, outcome))
        if status not in (200, 201):
            phase.stats.add("errors", f"table {code} {kind} post: {status} {data[:200]!r}")

    for phase in phases:
        phase.start.wait()
        time.sleep(rng.random() * DEVICE_PAUSE)  # the tables do not all finish at once
        for group in sends:
            for body, kind in group:
                post(phase, body, kind)
            time.sleep(DEVICE_PAUSE * (0.5 + rng.random()))
        phase.stats.add("done", code)


def reader(ports: list[int], path: str, seed: int, revalidate: bool, phases: list[Phase]) -> None:
    """``revalidate``: reloads with If-None-Match, as a browser revalidates a page sent with
    an ETag and "no-cache" (mostly answered 304); otherwise plain reloads (real renders)."""
    rng = random.Random(seed)
    browser = Browser(ports)
    first = phases[0].stats
    status, _, _ = browser.request("GET", path)  # opened before the clock starts, as the
    if status != 200:  # devices sign in: a warm server is measured
        first.add("errors", f"reader: first load {status}")
    first.add("ready", 1)
    for phase in phases:
        phase.start.wait()
        target = phase.read_path or path
        if target != path:
            browser.etag = None  # the ranking's ETag is not the empty view's
        time.sleep(rng.random() * READER_PAUSE)
        while not phase.stop.is_set():
            headers = {"If-None-Match": browser.etag} if revalidate and browser.etag else None
            status, data, ms = browser.request("GET", target, headers=headers)
            phase.stats.add("reads", ms)
            if status == 304:
                phase.stats.add("reads_304", ms)
            elif status == 200:
                phase.stats.add("reads_200", ms)
            else:
                phase.stats.add("errors", f"reader: {status}")
            time.sleep(READER_PAUSE * (0.5 + rng.random()))
        phase.stats.add("done", seed)


def percentiles(values: list[float]) -> str:
    if not values:
        return "n=0"
    return (
        f"n={len(values)}  p50 {pct(values, 50):.1f}  p95 {pct(values, 95):.1f}  p99 "
        f"{pct(values, 99):.1f}  max {max(values):.1f} ms"
    )


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def p99(values: list[float]) -> float:
    return pct(values, 99) if values else float("nan")


def start_gunicorn(port: int) -> subprocess.Popen:
    # The product's settings with bench/live_urls.py's empty view added (the baseline); the
    # Celery workers keep clubsite.settings.
    env = os.environ | {
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "live_settings",
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "bench"), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    process = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "clubsite.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(WORKERS),
            "--threads",
            str(THREADS),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def start_workers(count: int) -> list[subprocess.Popen]:
    """``count`` Celery worker processes, as ``make worker`` runs one, on the bench's broker."""
    import redis

    from clubsite.celery import app

    app.control.purge()
    # The bench's Redis db is its own: a run's keys (a round classified at once is marked for
    # the session's length, under its section's id) would answer for the next run's section,
    # which a new database numbers the same.
    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    processes = [
        subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "clubsite",
                "worker",
                "--pool=solo",
                "-n",
                f"bench{number}@%h",
                "-l",
                "warning",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=os.environ | {"DEBUG": "0"},
        )
        for number in range(1, count + 1)
    ]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if len(app.control.ping(timeout=1.0) or []) >= count:
            return processes
        if any(process.poll() is not None for process in processes):
            break
    for process in processes:
        process.kill()
    raise RuntimeError("the celery workers did not start")


def stop_process(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU time of each of these processes so far (Linux ``/proc``)."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used in between by the processes alive at both ends."""
    return sum(after[pid] - before[pid] for pid in before if pid in after)


def family(pid: int) -> list[int]:
    """``pid`` and its children (gunicorn's workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return [pid, *map(int, children)]


def machine_busy() -> dict[int, float]:
    """CPU seconds the whole machine has spent busy (every process, ours or not)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return {}
    return {0: (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")}


def run_phase(
    phase: Phase,
    web: list[int],
    worker_pids: list[int],
    devices: int,
    readers: int,
    at_least: float = 0.0,
) -> None:
    """Start ``phase``, end it when the devices are done and ``at_least`` seconds have
    passed (the readers' duration); its duration and CPU seconds (gunicorn, Celery, this
    process, the whole machine) on the phase object."""

    def sample() -> list[dict[int, float]]:
        return [
            cpu_seconds(web),
            cpu_seconds(worker_pids),
            {0: sum(os.times()[:2])},
            machine_busy(),
        ]

    before = sample()
    began = time.perf_counter()
    phase.start.set()
    while len(phase.stats.done) < devices or time.perf_counter() - began < at_least:
        time.sleep(0.05)
    phase.stop.set()
    deadline = time.monotonic() + 30
    while len(phase.stats.done) < devices + readers and time.monotonic() < deadline:
        time.sleep(0.05)  # the readers' last requests
    phase.elapsed = time.perf_counter() - began
    phase.cpu = [cpu_used(b, a) for b, a in zip(before, sample(), strict=True)]
    phase.load = " ".join(f"{x:.1f}" for x in os.getloadavg())


def cpu_per_request(phase: Phase) -> float:
    """gunicorn's CPU milliseconds per request served in ``phase`` (posts and reads)."""
    served = len(phase.stats.posts) + len(phase.stats.reads)
    return phase.cpu[0] * 1000 / served if served else float("nan")


def report(phase: Phase) -> None:
    stats, elapsed, cpu = phase.stats, phase.elapsed, phase.cpu
    reads = len(stats.reads) or 1
    print(
        f"-- {phase.name} phase: {elapsed:.1f} s, load average at its end {phase.load}"
        + (" (posts and reads to /bench-empty/)" if phase.read_path else "")
    )
    print(f"result posts : {percentiles(stats.posts)}  ({len(stats.posts) / elapsed:.1f}/s)")
    print(f"reads, all   : {percentiles(stats.reads)}  ({len(stats.reads) / elapsed:.1f}/s)")
    print(f"  200 ({len(stats.reads_200) / reads:4.0%}): {percentiles(stats.reads_200)}")
    print(f"  304 ({len(stats.reads_304) / reads:4.0%}): {percentiles(stats.reads_304)}")
    print(
        f"CPU seconds: gunicorn {cpu[0]:.1f} ({cpu_per_request(phase):.2f} ms a request), "
        f"Celery {cpu[1]:.1f}, load generator {cpu[2]:.1f}; the whole machine was busy "
        f"{cpu[3]:.0f} of {elapsed * (os.cpu_count() or 1):.0f} core-seconds (PostgreSQL, "
        f"Redis, others)"
    )


def wait_until_ranked(section, timeout: float = 60.0) -> float | None:
    """Seconds until the stored ranking includes every result (None: it never did)."""
    from tournaments.models import Session
    from tournaments.services.classification import classify as classification

    began = time.perf_counter()
    while time.perf_counter() - began < timeout:
        session = Session.objects.get(pk=section.session_id)
        if not classification.is_stale(session):
            return time.perf_counter() - began
        time.sleep(0.05)
    return None


# --- the checks in process ------------------------------------------------------------------


def check_results(section, stats: Stats) -> list[str]:
    from django.db.models import Count

    from tournaments.models import Result, ResultStatus
    from tournaments.services.setup import plan

    expected = {
        (s.round, s.table, b + section.board_offset)
        for s in plan.slots(section.movement)
        for b in s.boards
    }
    rows = Result.objects.filter(section=section)
    ok = set(rows.filter(status=ResultStatus.OK).values_list("round", "table", "board__number"))
    doubled = (
        rows.filter(status=ResultStatus.OK)
        .values("round", "board", "ns", "ew")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    others = rows.exclude(status=ResultStatus.OK).count()
    dup_posts = [o for kind, o in stats.outcomes if kind != "first"]
    firsts = [o for kind, o in stats.outcomes if kind == "first"]
    print(
        f"board lines expected {len(expected)}, stored OK {len(ok)}, missing "
        f"{len(expected - ok)}, lines with two OK results {doubled}, other rows {others}"
    )
    print(
        f"first posts {len(firsts)} (created {firsts.count('created')}); re-posts "
        f"{len(dup_posts)}: same key {sum(1 for k, _ in stats.outcomes if k == 'same key')}, "
        f"new key {sum(1 for k, _ in stats.outcomes if k == 'new key')}, answered duplicate "
        f"{dup_posts.count('duplicate')}"
    )
    failures = []
    if ok != expected:
        failures.append(f"lost results: {len(expected - ok)}")
    if doubled or others:
        failures.append(f"duplicated results: {doubled} lines doubled, {others} extra rows")
    if firsts.count("created") != len(expected):
        failures.append("not every first post was answered 'created'")
    if dup_posts.count("duplicate") != len(dup_posts):
        failures.append("a re-post was not answered 'duplicate'")
    return failures


def query_count(client, url: str) -> tuple[int, int]:
    """Queries of the page rendered (a new stored version) and with its tables cached."""
    from django.core.cache import cache
    from django.db import connection, reset_queries

    assert client.get(url).status_code == 200  # warm: a stale ranking is redone here
    cache.clear()  # the bench process's own in-memory cache (see main)
    counts = []
    connection.force_debug_cursor = True
    try:
        for _read in range(2):
            reset_queries()
            assert client.get(url).status_code == 200
            counts.append(len(connection.queries_log))
    finally:
        connection.force_debug_cursor = False
    return counts[0], counts[1]


def fill(section) -> None:
    """Every line of a small section, through the entry service as the director types it."""
    from django.contrib.auth.models import User

    from tournaments.services.setup import plan
    from tournaments.services.table import entry

    director = User.objects.create_user("load-director")
    rng = random.Random(3)
    for slot in plan.slots(section.movement):
        for b in slot.boards:
            entry.submit_result(
                round=slot.round,
                board=b + section.board_offset,
                contract=f"{rng.randint(1, 4)}NT",
                declarer="N",
                tricks=rng.randint(6, 10),
                idempotency_key=os.urandom(8).hex(),
                user=director,
                section=section,
                table=slot.table,
            )


def classification_time() -> float:
    from bench_classification import build

    from tournaments.services.classification import classify as classification
    from tournaments.services.classification import incremental

    session = build()
    times = []
    for _ in range(5):
        incremental.forget()  # a full run each time (bench_incremental times the other kind)
        start = time.perf_counter()
        classification.classify_session(session)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --- main -----------------------------------------------------------------------------------


def main() -> int:
    fresh_database()
    try:
        return run()
    finally:
        drop_database()


def run() -> int:
    global LOAD_BEFORE
    LOAD_BEFORE = " ".join(f"{x:.1f}" for x in os.getloadavg())
    import django

    django.setup()
    from django_setup import work_as_default_club

    work_as_default_club()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    from tournaments.models import TableCode
    from tournaments.services.setup import plan

    tournament, section = seat("Live load", TABLES, ROUNDS, 0)
    codes = dict(
        TableCode.objects.filter(section=section, active=True).values_list("table", "token")
    )
    plays: dict[int, list[tuple[int, int]]] = {t: [] for t in codes}
    for slot in plan.slots(section.movement):
        plays[slot.table] += [(slot.round, b + section.board_offset) for b in slot.boards]
    ranking = f"/results/{tournament.slug}/1/section/A/"

    from tournaments.models import Session

    ports = [free_port() for _ in range(SERVERS)]
    workers = start_workers(SERVERS)
    servers = [start_gunicorn(port) for port in ports]
    real = Phase("real", "/table/result/", None)
    empty = Phase("empty view", "/bench-empty/", "/bench-empty/")
    phases = [real, empty]
    stats = real.stats
    revalidating = {"0": 0, "1": READERS}.get(CONDITIONAL, READERS // 2)
    versions = [Session.objects.get(pk=section.session_id).ranking_version]
    try:
        devices = [
            threading.Thread(
                target=run_client, args=(device, codes[t], ports, codes[t], plays[t], t, phases)
            )
            for t in sorted(codes)
        ]
        readers = [
            threading.Thread(
                target=run_client,
                args=(reader, 1000 + i, ports, ranking, 1000 + i, i < revalidating, phases),
                daemon=True,
            )
            for i in range(READERS)
        ]
        for thread in devices + readers:
            thread.start()
        deadline = time.monotonic() + 120
        while len(stats.ready) < len(devices) + len(readers) and time.monotonic() < deadline:
            time.sleep(0.1)  # every device signed in, every reader opened the page
        worker_pids = [worker.pid for worker in workers]
        web = [pid for server in servers for pid in family(server.pid)]
        run_phase(real, web, worker_pids, len(devices), len(readers))
        lag = wait_until_ranked(section)
        versions.append(Session.objects.get(pk=section.session_id).ranking_version)
        # The empty view answers sooner, so its devices finish sooner: its readers go on for
        # as long as the real phase's did.
        run_phase(empty, web, worker_pids, len(devices), len(readers), real.elapsed)
        versions.append(Session.objects.get(pk=section.session_id).ranking_version)
        for thread in devices:
            thread.join()
    finally:
        for process in servers + workers:
            stop_process(process)

    from django.conf import settings

    print(
        f"{SERVERS} × gunicorn {WORKERS} workers × {THREADS} threads"
        + (f" on {SERVERS} ports, requests in turn to each" if SERVERS > 1 else "")
        + f" + {SERVERS} Celery worker{'s' if SERVERS > 1 else ''} (solo), PostgreSQL "
        f"{DB_NAME}, Redis broker and cache; {os.cpu_count()} cores shared with the load "
        f"generator; load average before the run {LOAD_BEFORE}"
    )
    print(
        f"field: 1 section × {TABLES} tables ({TABLES * 2} pairs), {ROUNDS} rounds × "
        f"{BOARDS_PER_ROUND} boards; {TABLES} devices (a post every ~{DEVICE_PAUSE:g} s), "
        f"{READERS} readers (a reload every ~{READER_PAUSE:g} s; {revalidating} revalidate "
        f"with If-None-Match, {READERS - revalidating} reload plainly)"
    )
    for phase in phases:
        report(phase)
    elapsed = real.elapsed
    print(
        f"classifications by the worker: {versions[1] - versions[0]} in {elapsed:.0f} s "
        f"(RANKING_REFRESH_SECONDS={settings.RANKING_REFRESH_SECONDS}, RANKING_QUIET_SECONDS="
        f"{getattr(settings, 'RANKING_QUIET_SECONDS', '-')}); the ranking included "
        f"the last result "
        + (f"{lag:.2f} s after the devices finished" if lag is not None else "NOT within 60 s")
        + f"; {versions[2] - versions[1]} more during the empty-view phase"
    )
    failures = []
    for phase in phases:
        if phase.stats.errors:
            failures.append(
                f"{len(phase.stats.errors)} HTTP errors ({phase.name} phase), first: "
                f"{phase.stats.errors[0]}"
            )
    failures += check_results(section, stats)
    if lag is None:
        failures.append("the ranking never caught up with the last results")
    elif lag >= CAUGHT_UP_S:
        failures.append(
            f"the ranking caught up {lag:.1f} s after the last result (≥ {CAUGHT_UP_S:g} s)"
        )
    if p99(stats.posts) >= POST_P99_MS:
        failures.append(f"post p99 {p99(stats.posts):.1f} ms ≥ {POST_P99_MS:g} ms")
    if p99(stats.reads) >= READ_P99_MS:
        failures.append(f"read p99 {p99(stats.reads):.1f} ms ≥ {READ_P99_MS:g} ms")

    # The goals against the baseline: the same clients, the same pace, the same server.
    ratios = [
        ("posts", stats.posts, empty.stats.posts),
        ("reads answered 200", stats.reads_200, empty.stats.reads),
        ("reads answered 304", stats.reads_304, empty.stats.reads),
    ]
    shown = []
    for name, values, baseline in ratios:
        if not values or not baseline:
            continue
        ratio = p99(values) / p99(baseline)
        shown.append(f"{name} {ratio:.2f}×")
        if ratio > RATIO_GOAL:
            failures.append(f"{name}: p99 {ratio:.2f}× the empty view's (goal ≤ {RATIO_GOAL:g}×)")
    print(f"p99 real / p99 empty view: {', '.join(shown)} (goal ≤ {RATIO_GOAL:g}×)")
    per_request = cpu_per_request(real)
    print(
        f"gunicorn CPU per request: real {per_request:.2f} ms (goal ≤ {CPU_MS_GOAL:g} ms), "
        f"empty view {cpu_per_request(empty):.2f} ms"
    )
    if per_request > CPU_MS_GOAL:
        failures.append(
            f"gunicorn CPU per request {per_request:.2f} ms > {CPU_MS_GOAL:g} ms (real phase)"
        )

    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections
    from django.test import Client
    from django.test.utils import override_settings

    from clubsite.celery import app

    # The rest runs here, as the embedded site does: tasks in-process, a private cache.
    app.conf.task_always_eager = True
    override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    ).enable()

    request_started.disconnect(close_old_connections)  # one connection: its queries are seen
    request_finished.disconnect(close_old_connections)
    small, small_section = seat("Small", 3, 3, 10_000)
    fill(small_section)
    client = Client()
    counts = (
        query_count(client, f"/results/{small.slug}/1/section/A/"),
        query_count(client, ranking),
    )
    print(
        f"ranking page SQL queries (rendered, tables cached): 3 tables {counts[0]}, "
        f"{TABLES} tables {counts[1]}"
    )
    if counts[0] != counts[1]:
        failures.append(f"ranking page query count grows with the field: {counts}")

    seconds = classification_time()
    print(
        f"classify_session, 60 tables (4 × 15-table Mitchell, 1,800 results): median "
        f"{seconds:.3f} s over 5 runs"
    )
    if seconds >= CLASSIFY_S:
        failures.append(f"classification {seconds:.3f} s ≥ {CLASSIFY_S:g} s")

    shutil.rmtree(os.environ["CLUBSITE_VAR_DIR"], ignore_errors=True)
    print(f"load average after the run {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("targets:", "all met" if not failures else "MISSED — " + "; ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

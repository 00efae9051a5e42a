"""The live site for fault injection, on servers of its own that may be stopped and killed.

A private PostgreSQL cluster (``initdb`` in a temporary folder, run as the ``postgres`` user,
on a free loopback port) and a private ``redis-server`` (broker, results and cache), so
stopping them never touches the PostgreSQL and Redis other work shares; gunicorn and a
Celery worker with its embedded beat (``-B``, as ``make worker``) in process groups of their
own, so a SIGKILL takes the whole worker; simulated tablets that post through HTTP as the
table app does (idempotency key per result, a queue retried in order until answered); a
loopback proxy that can drop the server's answer after the server committed. Every address
is 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_BINS = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


def free_port(start: int) -> int:
    """The first port from ``start`` nobody listens on (loopback)."""
    for port in range(start, start + 200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port from {start}")


def wait_for(check, seconds: float, step: float = 0.1) -> float | None:
    """Seconds until ``check()`` is true, or None after ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if check():
                return time.monotonic() - start
        except Exception:  # a server still starting
            pass
        time.sleep(step)
    return None


def available() -> str:
    """Why this machine cannot run the stack ("" when it can)."""
    if not PG_BINS:
        return "no PostgreSQL server binaries under /usr/lib/postgresql"
    if not shutil.which("redis-server"):
        return "no redis-server"
    if os.geteuid() != 0 or not shutil.which("runuser"):
        return "initdb must run as the postgres user (needs root and runuser)"
    return ""


class PrivateRedis:
    def __init__(self, folder: Path, port: int):
        self.folder, self.port, self.process = folder, port, None
        folder.mkdir(parents=True, exist_ok=True)

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            start_new_session=True,
        )
        if wait_for(self.ping, 20) is None:
            raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


class PrivatePostgres:
    """A throw-away cluster owned by ``postgres``: fsync off, it holds test data only."""

    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.bin = PG_BINS[-1]
        self.data = folder / "data"

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["runuser", "-u", "postgres", "--", *args],
            check=check,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        shutil.chown(self.folder, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C.UTF-8",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "postgres.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-m",
            mode,
            "-w",
            "-t",
            "60",
            "stop",
            check=False,
        )

    def create_database(self, name: str) -> None:
        self._run(
            str(self.bin / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            name,
        )


class Service:
    """gunicorn or the Celery worker: a process group of its own, killed as a whole."""

    def __init__(self, args: list[str], env: dict, log: Path):
        self.args, self.env, self.log = args, env, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                self.args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group (the worker, its pool and its embedded beat)."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None


def gunicorn(env: dict, port: int, log: Path) -> Service:
    return Service(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "clubsite.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ],
        env,
        log,
    )


# The worker exactly as ``make worker`` starts it (a test compares the two): its prefork
# pool, gossip, mingle and heartbeat are what a broker outage has to get through.
WORKER_ARGS = ("-A", "clubsite", "worker", "-B", "-l", "info")


def worker(env: dict, log: Path) -> Service:
    """As ``make worker``: one worker with its embedded beat (``-B``)."""
    return Service([str(Path(sys.executable).parent / "celery"), *WORKER_ARGS], env, log)


def listening(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True


# --- HTTP clients ---------------------------------------------------------------------------


class Browser:
    """Cookies and one connection, as a tablet's browser keeps them; ``fresh`` opens a new
    connection per request (through the dropping proxy)."""

    def __init__(self, port: int, fresh: bool = False, timeout: float = 20):
        self.port, self.fresh, self.timeout = port, fresh, timeout
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes, dict]:
        """(status, body, headers); raises OSError / HTTPException when the answer is lost."""
        headers = dict(headers or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.fresh:
            headers["Connection"] = "close"
        for attempt in range(2):
            reused = self.conn is not None and not self.fresh
            if self.conn is None or self.fresh:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                self.conn = None
                if not reused or attempt:  # as a browser: a kept-alive connection the
                    raise  # server had closed is reopened once
            except Exception:
                self.conn.close()
                self.conn = None
                raise
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if self.fresh:
            self.conn.close()
        return response.status, data, dict(response.headers)

    def csrf_from(self, page: bytes) -> str:
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        return found.group(1).decode() if found else self.cookies.get("csrftoken", "")


@dataclass
class Post:
    """One result as the table app queues it: its key never changes across retries."""

    round: int
    board: int
    body: dict
    key: str

    def form(self) -> dict:
        return {"round": self.round, "board": self.board, "idempotency_key": self.key, **self.body}


@dataclass
class Tally:
    attempts: int = 0
    lost_answers: int = 0  # no answer (connection refused, reset, dropped after commit)
    server_errors: int = 0  # 5xx
    outcomes: dict = field(default_factory=dict)  # "created"/"duplicate"/... → count
    refused: list = field(default_factory=list)  # 4xx other than a replay's answer
    longest_wait: float = 0.0  # seconds from a result's first try to its acceptance
    unsent: int = 0  # still queued when the time ran out


class Tablet:
    """A table's device: signs in with its card's link, then sends its queue in order,
    each post retried with the same key until answered (as the table app's outbox)."""

    def __init__(self, port: int, token: str, fresh: bool = False):
        self.browser = Browser(port, fresh=fresh)
        self.token = token
        self.headers: dict[str, str] = {}
        self.tally = Tally()
        self.sent: list[Post] = []

    def sign_in(self, seconds: float = 30) -> None:
        def attempt() -> bool:
            status, page, _ = self.browser.request("GET", f"/table/{self.token}/")
            status, _, _ = self.browser.request(
                "POST",
                "/table/",
                {"token": self.token, "csrfmiddlewaretoken": self.browser.csrf_from(page)},
                {"Referer": "http://127.0.0.1/"},
            )
            status, page, _ = self.browser.request("GET", "/table/play/")
            token = re.search(rb'"X-CSRFToken": "([^"]+)"', page)
            if status != 200 or token is None:
                return False
            self.headers = {"Accept": "application/json", "X-CSRFToken": token.group(1).decode()}
            return True

        if wait_for(attempt, seconds, step=0.3) is None:
            raise RuntimeError(f"table {self.token[:6]}… could not sign in")

    def send(self, post: Post, deadline: float, pause: float = 0.25) -> dict | None:
        """Send until answered (or ``deadline``); the answer's JSON."""
        first = time.monotonic()
        while time.monotonic() < deadline:
            self.tally.attempts += 1
            try:
                status, data, _ = self.browser.request(
                    "POST", "/table/result/", post.form(), self.headers
                )
            except (OSError, http.client.HTTPException):
                self.tally.lost_answers += 1
                time.sleep(pause)
                continue
            if status >= 500:
                self.tally.server_errors += 1
                time.sleep(pause)
                continue
            try:
                answer = json.loads(data)
            except ValueError:
                answer = {"outcome": f"http {status}"}
            outcome = answer.get("outcome", f"http {status}")
            self.tally.outcomes[outcome] = self.tally.outcomes.get(outcome, 0) + 1
            if status >= 400:
                self.tally.refused.append((post.round, post.board, status, outcome))
            self.tally.longest_wait = max(self.tally.longest_wait, time.monotonic() - first)
            return answer
        self.tally.unsent += 1
        return None

    def play(self, posts: list[Post], deadline: float, gap: float = 0.0) -> None:
        for post in posts:
            self.send(post, deadline)
            self.sent.append(post)
            if gap:
                time.sleep(gap)


def play_all(
    tablets: list[Tablet], plans: list[list[Post]], seconds: float, gap: float = 0.0
) -> None:
    """Every tablet sends its plan at once (a thread each), within ``seconds``."""
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=t.play, args=(p, deadline, gap), daemon=True)
        for t, p in zip(tablets, plans, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)


class DroppingProxy:
    """127.0.0.1 → gunicorn, one connection per request; while ``drop_every`` is n, every
    n-th result post reaches the server and is answered there, but the device gets no answer
    (the network dropped between the server's commit and the device's receipt)."""

    def __init__(self, target_port: int):
        self.target = target_port
        self.drop_every = 0
        self.count = 0
        self.dropped = 0
        self.lock = threading.Lock()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.server.settimeout(0.5)
        self.port = self.server.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        self.server.close()

    def _serve(self) -> None:
        while self.running:
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: socket.socket) -> None:
        client.settimeout(30)
        with client, socket.create_connection(("127.0.0.1", self.target), timeout=60) as up:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = client.recv(65536)
                if not chunk:
                    return
                request += chunk
            head, _, body = request.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            need = int(length.group(1)) if length else 0
            while len(body) < need:
                chunk = client.recv(65536)
                if not chunk:
                    return
                body += chunk
            up.sendall(head + b"\r\n\r\n" + body)
            answer = b""
            while True:  # Connection: close: the server closes after its answer
                chunk = up.recv(65536)
                if not chunk:
                    break
                answer += chunk
            drop = False
            if head.startswith(b"POST /table/result/") and self.drop_every:
                with self.lock:
                    self.count += 1
                    drop = self.count % self.drop_every == 0
                    self.dropped += drop
            if drop:
                client.shutdown(socket.SHUT_RDWR)  # committed there, never heard here
                return
            client.sendall(answer)

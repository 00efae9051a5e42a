"""A fake federation for upload tests: an HTTP server on 127.0.0.1 that fails, times out,
holds a request, drips its answer, refuses or succeeds on command, and records what it received.

Like a careful real service it files a request once per ``Idempotency-Key``: a repeated key
gets the original answer and files nothing new, so tests can count what was *filed*.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeFederation:
    def __init__(self) -> None:
        self.script: list[str] = []  # modes for the next requests; then "ok"
        self.requests: list[dict] = []  # every request, as received
        self.filed: dict[str, dict] = {}  # Idempotency-Key → first request
        self.answers: dict[str, tuple[int, bytes]] = {}
        self.slow_seconds = 3.0
        self.drip_bytes, self.drip_seconds = 20, 0.4  # "drip": an answer a byte at a time
        self.arrived = threading.Event()  # a "hold" request has arrived
        self.release = threading.Event()  # let held requests answer
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/upload"

    def start(self) -> FakeFederation:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def next_mode(self) -> str:
        with self.lock:
            return self.script.pop(0) if self.script else "ok"

    def _handler(self):
        fed = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def _answer(self, status: int, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (timeout, killed worker)

            def _drip(self) -> None:
                try:
                    self.send_response(201)
                    self.send_header("Content-Length", str(fed.drip_bytes))
                    self.end_headers()
                    for _byte in range(fed.drip_bytes):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(fed.drip_seconds)
                except OSError:
                    pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                key = self.headers.get("Idempotency-Key", "")
                request = {
                    "headers": dict(self.headers),
                    "body": body,
                    "key": key,
                    "path": self.path,
                }
                with fed.lock:
                    fed.requests.append(request)
                    answer = fed.answers.get(key)
                if answer is not None:
                    return self._answer(*answer)
                mode = fed.next_mode()
                if mode == "fail":
                    return self._answer(500, b'{"error": "internal error"}')
                if mode == "refuse":
                    return self._answer(422, b'{"error": "unknown club"}')
                if mode == "drip":
                    return self._drip()
                with fed.lock:
                    fed.filed.setdefault(key, request)
                    receipt = {"receipt": f"R-{len(fed.filed):04d}", "upload_id": key}
                    fed.answers[key] = (201, json.dumps(receipt).encode())
                if mode == "slow":
                    time.sleep(fed.slow_seconds)
                if mode == "hold":
                    fed.arrived.set()
                    fed.release.wait(120)
                return self._answer(*fed.answers[key])

        return Handler

"""The processes a results PDF's parts are laid out in side by side (``PartPool``): this one
and forked children on pipes, forked once every part's HTML is written.

The children are billiard's processes, Celery's own fork of ``multiprocessing``: a Celery
prefork worker's processes are daemonic, and the standard library refuses a daemonic
process children ("daemonic processes are not allowed to have children"), so the worker's
PDF job rendered in one process; billiard lets them fork.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from contextlib import suppress

from django.conf import settings

from . import part_cache as pdf_part_cache
from . import render as pdf_render
from .render import frozen_heap, memory_peak_mib, stylesheet

log = logging.getLogger(__name__)


def part_seconds() -> float:
    """How long a part may take in its process before the document gives up on the pool."""
    return float(settings.PDF_PART_SECONDS)


def processes() -> int:
    """How many processes lay out parts side by side here, this one included (1: only
    this one)."""
    wanted = int(getattr(settings, "PDF_RENDER_PROCESSES", 0) or (os.cpu_count() or 1))
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, wanted)


#: What a tag (an element opens and closes with one each) costs WeasyPrint against a
#: character of text, in ``layout_cost``.
TAG_CHARACTERS = 32


def layout_cost(html: str) -> int:
    """About how long WeasyPrint takes to lay out ``html``, to hand out the longest parts
    first: a part's characters, and ``TAG_CHARACTERS`` for each tag. The text alone
    put a 60-table ranking (27,000 characters but 720 table cells: 1.1-1.2 CPU-s) after the
    scorecards (54,000 characters in fixed-width lines: 0.55-0.85 CPU-s), so it was laid
    out last, alone, while the other process waited 0.3-1.1 s; fitted on those parts, the
    travellers and the hand records (0.0135 ms a character, 0.44 ms a tag)."""
    return len(html) + TAG_CHARACTERS * html.count("<")


class PartFailed(Exception):
    """A part's own error in a render process (its text): the process itself is well."""


def _serve(conn, others=()) -> None:
    """A render process: lays out each part it is sent, until it is sent None or the pipe
    closes. A part that fails is answered with the error's text: the parent lays it out
    again itself, where the error is raised as it is.

    ``others``: the parent's ends of this child's pipe and of the pipes of the children
    forked before it, which the fork copied here; closed, or this child or an earlier one
    would never see its pipe close.

    Signals are the system's defaults here: a fork of a gunicorn or Celery process inherits
    their handlers (gunicorn's only notes a SIGTERM), and this process must die when told."""
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP,
                   signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(number, signal.SIG_DFL)
    with suppress(ValueError):
        signal.set_wakeup_fd(-1)
    for other in others:
        other.close()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer = (True, pdf_render.render_part(*job))
        except Exception as exc:  # noqa: BLE001 - told to the parent, which retries
            answer = (False, repr(exc))
        conn.send(answer)


class _Child:
    """One forked render process and its end of the pipe (billiard's ``Process``: unlike the
    standard library's, it may be started from a Celery prefork worker's daemonic process).
    Only its feeder thread writes to the pipe."""

    def __init__(self, others: tuple = ()):
        import billiard

        context = billiard.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, (self.conn, *others)),
                                       daemon=True)
        self.process.start()
        theirs.close()

    def render(self, html: str, css: str) -> dict:
        """Part ``html`` laid out there; ``PartFailed`` for the part's own error; any other
        error if the process died or still has the part after ``PDF_PART_SECONDS``."""
        self.conn.send((html, css))
        if not self.conn.poll(part_seconds()):
            raise TimeoutError(f"no part back after {part_seconds():.0f} s")
        ok, answer = self.conn.recv()  # EOFError: the process died
        if not ok:
            raise PartFailed(answer)
        return answer

    def finish(self) -> None:
        """Tell it to leave (its feeder, when there is nothing more to hand it)."""
        with suppress(OSError):
            self.conn.send(None)

    def kill(self) -> None:
        """Stop it now, whatever it is doing (a stuck part, a document given up)."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=2)
        if self.process.is_alive():
            self.hard_stop()
            self.process.join(timeout=2)

    def hard_stop(self) -> None:
        """SIGKILL (billiard's ``Process`` has no ``kill``)."""
        with suppress(ProcessLookupError, TypeError):
            os.kill(self.process.pid, signal.SIGKILL)

    def end(self) -> None:
        """Wait a moment for it to leave, then stop it; close the pipe."""
        self.process.join(timeout=1)
        self.kill()
        self.conn.close()


class PartPool:
    """Parts laid out by ``workers`` processes side by side: this one and ``workers - 1``
    forked children, each child holding one part at a time.

    Parts are submitted as their HTML is written (``submit``); the children fork when the
    document asks for them back (``results``), every part written. A child shares this
    process's pages until either writes to one, and writing the parts walks the whole
    event's results (each touch writes a reference count): forked at the first part, a
    child kept its own copy of them (60 tables: 6 MiB more in all, for the ~50 ms the last
    parts' HTML takes). Then this process lays out parts, the longest first
    (``layout_cost``), while each child takes the next part as soon as it hands one back
    (a thread per child does the handing). This process renders too, rather than waiting on two children: a child's
    memory is the pages it copies from this one (the objects the layout touches) and its
    own WeasyPrint caches, 20-40 MiB each, and this process holds both already.

    The children are plain forked processes on a pipe, not a pool: billiard's pool took
    0.8 s to stop (its supervisor thread sleeps that long), with the children and their
    memory alive until then, after the last part. A child that dies or keeps a part past
    ``PDF_PART_SECONDS`` is stopped, and its part is laid out in this process (a part that
    fails in a child is too, where its error is raised): a lost or stuck child must not hold
    the worker's job for good.

    A part rendered before is read back from ``pdf.part_cache``. Use it as a context
    manager: leaving it stops the children."""

    def __init__(self, workers: int):
        self.workers, self.css = workers, None
        self.names: list[str] = []
        self.htmls: list[str] = []
        self.done: dict[int, dict] = {}
        self.pending: deque[int] = deque()  # submitted, not yet taken by a process
        self.here: deque[int] = deque()  # given back by a child: for this process only
        self.out: dict[_Child, tuple[int, float]] = {}  # child → its part, since when
        self.all_in = False  # every part submitted: a child with nothing to do may leave
        self.closing = False  # the document is done or given up
        self.changed = threading.Condition()
        self.children: list[_Child] = []
        self.feeders: list[threading.Thread] = []

    def submit(self, html: str, css: str = "") -> int:
        """Add ``html``, to be laid out with the style sheet ``css`` (the same for every part);
        its number in ``results``. A part laid out before is read back here."""
        if self.css is None:
            self.css = css
            if css:
                stylesheet(css)  # before the fork: every child inherits it parsed
        i = len(self.htmls)
        self.htmls.append(html)
        self.names.append(pdf_part_cache.key(html, self.css))
        kept = pdf_part_cache.read(self.names[i])
        if kept is not None:
            self.done[i] = kept | {"pid": os.getpid(), "peak_mib": memory_peak_mib(),
                                   "kept": True}
            return i
        with self.changed:
            self.pending.append(i)
            self.changed.notify_all()
        return i

    def _start(self) -> None:
        """Fork the children, then start their feeders (no thread of ours runs at a fork)."""
        try:
            for _n in range(self.workers - 1):
                self.children.append(_Child(tuple(c.conn for c in self.children)))
        except OSError as exc:  # no fork (out of processes, of memory): fewer children
            log.warning("PDF render process not started (%r)", exc)
        for child in self.children:
            feeder = threading.Thread(target=self._feed, args=(child,), daemon=True)
            feeder.start()
            self.feeders.append(feeder)

    def _feed(self, child: _Child) -> None:
        """Hand ``child`` the next waiting part each time it is free, until none is left."""
        try:
            while True:
                with self.changed:
                    self.changed.wait_for(lambda: self.pending or self.all_in)
                    if self.closing or not self.pending:
                        return
                    i = self.pending.popleft()
                    self.out[child] = (i, time.monotonic())
                try:
                    part = child.render(self.htmls[i], self.css or "")
                except PartFailed as exc:
                    self._give_here(i, exc)
                    continue
                except Exception as exc:  # EOFError, OSError: died; TimeoutError: stuck
                    self._give_here(i, exc)
                    child.kill()
                    return
                with self.changed:
                    self.done[i] = part
                    self.out.pop(child, None)
                    self.changed.notify_all()
        finally:
            child.finish()
            with self.changed:
                self.out.pop(child, None)
                self.changed.notify_all()

    def _give_here(self, i: int, exc: Exception) -> None:
        with self.changed:
            self.out = {c: v for c, v in self.out.items() if v[0] != i}
            if self.closing:
                return
            self.here.append(i)
            self.changed.notify_all()
        log.warning("PDF part %d not rendered in its process (%r): laid out here", i, exc)

    def results(self) -> list[dict]:
        """Every submitted part's ``render_part`` answer, in the order submitted: the parts
        no child has taken are laid out here, longest first, then the children's awaited.
        The heap is frozen meanwhile: each part's collection (``_give_back``) then walks
        only what the part made, not Django's objects (~60 ms a part), and the children fork
        from a frozen heap."""
        with frozen_heap():
            try:
                self._lay_out(fork=len(self.pending) > 1 and self.workers > 1)
            finally:
                self.close()  # the children stopped before the heap is unfrozen
        for i, name in enumerate(self.names):
            if not self.done[i].get("kept"):
                pdf_part_cache.write(name, self.done[i])
        return [self.done[i] for i in range(len(self.htmls))]

    def _lay_out(self, fork: bool) -> None:
        """Every part laid out: here, and by children forked now if ``fork``."""
        with self.changed:
            self.all_in = True
            self.pending = deque(sorted(self.pending, key=lambda i: -layout_cost(self.htmls[i])))
        if fork:
            self._start()
        while True:
            with self.changed:
                if self.here or self.pending:
                    i = (self.here or self.pending).popleft()
                elif any(feeder.is_alive() for feeder in self.feeders):
                    self.changed.wait(timeout=1)
                    self._watch()
                    continue
                else:
                    break
            self.done[i] = pdf_render.render_part(self.htmls[i], self.css or "")

    def _watch(self) -> None:
        """Stop a child whose part is out well past ``PDF_PART_SECONDS`` (one that stopped
        reading its pipe: its feeder's own wait never began). Under ``changed``."""
        late = time.monotonic() - part_seconds() - 5
        for child, (_i, since) in self.out.items():
            if since < late:
                child.hard_stop()

    def close(self) -> None:
        """Stop the children: at once when every part is in; in the middle of their parts
        when a part fails here."""
        try:
            with self.changed:
                self.all_in = self.closing = True
                self.pending.clear()
                self.here.clear()
                busy = list(self.out)
                self.changed.notify_all()
            for child in busy:
                child.process.terminate()
            for feeder in self.feeders:
                feeder.join(timeout=10)
            for child in self.children:
                child.end()
        finally:
            self.children, self.feeders = [], []

    def __enter__(self) -> PartPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def render_all(htmls: list[str], workers: int, css: str = "") -> list[dict]:
    """``render_part`` of each HTML, in order (``PartPool``, which hands out the longest
    first, so the last to finish is a short one)."""
    with PartPool(workers if len(htmls) > 1 else 1) as pool:
        for html in htmls:
            pool.submit(html, css)
        return pool.results()


def render_one(html: str, css: str = "") -> dict:
    """One part (the title page), through the same cache."""
    return render_all([html], 1, css)[0]

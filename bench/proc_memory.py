"""What a process tree holds in memory, read from Linux's ``/proc``, for the benchmarks that
render PDFs (``bench_pdf_growth``, ``bench_pdf_worker``: a Celery worker's processes).

RSS counts a page once in every process that maps it, so forked processes that share most of
their pages add up to far more than the machine gives them; PSS divides each shared page
among the processes that map it, so the PSS of a tree summed is what it costs the machine.
"""

from __future__ import annotations

import threading
from pathlib import Path


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (every thread's children: billiard's processes are
    not the standard library's, so ``multiprocessing`` does not list them)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += map(int, (task / "children").read_text().split())
        except OSError:
            pass
    return out


def sizes(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of process ``pid`` in MiB, from ``smaps_rollup``; zeros once it is gone."""
    rss = pss = 0.0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    except OSError:
        pass
    return rss, pss


def own_peak() -> float:
    """This process's high-water mark of resident memory (``VmHWM``), in MiB; 0 where
    unknown. (``ru_maxrss`` is not used: Linux carries a forking parent's peak into the
    child at exec.)"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class TreeSampler(threading.Thread):
    """The peaks, over time, of the summed RSS and PSS of ``pid``'s tree, and the most
    processes seen in it at once. Reading ``smaps_rollup`` costs ~1.2 ms a process: sample
    in a run that is not also timed."""

    def __init__(self, pid: int, every: float = 0.01):
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.rss = self.pss = 0.0
        self.most = 0
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            pids = tree(self.pid)
            self.most = max(self.most, len(pids))
            found = [sizes(pid) for pid in pids]
            self.rss = max(self.rss, sum(r for r, _p in found))
            self.pss = max(self.pss, sum(p for _r, p in found))
            self.stop.wait(self.every)

    def finish(self) -> None:
        """Stop sampling (if it started) and wait for the last sample."""
        self.stop.set()
        if self.is_alive():
            self.join()

"""The fault scenarios run the worker exactly as ``make worker`` does: an outage survived
by a differently started worker (a solo pool, no gossip) proves nothing of the real one."""

import re
from pathlib import Path

from tests.faults import stack

ROOT = Path(__file__).resolve().parents[2]


def test_the_scenarios_worker_is_make_worker():
    recipe = re.search(r"^worker:.*\n\t(.+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert recipe.split() == ["$(VENV)/bin/celery", *stack.WORKER_ARGS]

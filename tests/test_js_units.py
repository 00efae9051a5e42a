"""The JavaScript unit tests (``node --test tests/js/``) run with the Python suite, so CI runs
them: the table device's offline queue against fake-indexeddb (package.json's devDependency,
installed by ``npm ci``)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_node_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (CI has it)")
    if not (ROOT / "node_modules" / "fake-indexeddb").exists():
        npm = shutil.which("npm")
        assert npm, "node without npm: cannot install the JS test dependencies"
        subprocess.run([npm, "ci", "--silent", "--no-audit", "--no-fund"], cwd=ROOT, check=True,
                       timeout=300)
    run = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]

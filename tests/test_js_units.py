"""The JavaScript unit tests (``node --test tests/js/``) run with the Python suite, so CI runs
them: the table device's offline queue against fake-indexeddb, and its page modules in jsdom
(package.json's devDependencies, installed by ``npm ci``)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_node_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (CI has it)")
    if not all((ROOT / "node_modules" / name).exists() for name in ("fake-indexeddb", "jsdom")):
        npm = shutil.which("npm")
        assert npm, "node without npm: cannot install the JS test dependencies"
        subprocess.run(
            [npm, "ci", "--silent", "--no-audit", "--no-fund"], cwd=ROOT, check=True, timeout=300
        )
    run = subprocess.run(
        [node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_the_table_device_is_small_modules_each_with_its_tests():
    """One job a file, none over 250 lines, each with a node test (table.js, which only starts
    the others and wires the page, is driven by the browser journeys)."""
    from tournaments.templatetags.table_mode import TABLE_SCRIPTS

    tested_in = {"offline_send": "offline_queue", "table_lock": "table_board"}
    for path in TABLE_SCRIPTS:
        source = ROOT / "tournaments" / "static" / path
        lines = len(source.read_text(encoding="utf-8").splitlines())
        assert lines <= 250, f"{path}: {lines} lines"
        name = source.stem
        if name != "table":
            test_file = ROOT / "tests" / "js" / f"{tested_in.get(name, name)}.test.js"
            assert test_file.exists(), f"{path} has no tests/js/ test"

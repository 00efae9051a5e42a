"""Spanish and Portuguese are complete: every message of every catalogue is translated."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(
    p for p in ROOT.glob("**/locale/*/LC_MESSAGES/django.po")
    if ".venv" not in p.parts and p.parts[-3] in ("es", "pt")
)


def _entries(*flags: str, po: Path) -> list[str]:
    out = subprocess.run(["msgattrib", *flags, "--no-wrap", str(po)], capture_output=True,
                         text=True, check=True).stdout
    return [line for line in out.splitlines() if line.startswith("msgid ") and line != 'msgid ""']


def test_catalogues_exist_for_both_languages_in_every_app():
    names = {str(p.relative_to(ROOT)) for p in CATALOGUES}
    assert {"locale/es/LC_MESSAGES/django.po", "locale/pt/LC_MESSAGES/django.po",
            "laws/locale/es/LC_MESSAGES/django.po", "laws/locale/pt/LC_MESSAGES/django.po"} <= names


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_untranslated_or_fuzzy(po):
    assert _entries("--untranslated", po=po) == []
    assert _entries("--only-fuzzy", po=po) == []

"""Spanish and Portuguese are complete: every message of every catalogue is translated."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CATALOGUES = sorted(
    p
    for p in ROOT.glob("**/locale/*/LC_MESSAGES/django.po")
    if ".venv" not in p.parts and p.parts[-3] in ("es", "pt")
)


def _entries(*flags: str, po: Path) -> list[str]:
    out = subprocess.run(
        ["msgattrib", *flags, "--no-wrap", str(po)], capture_output=True, text=True, check=True
    ).stdout
    return [line for line in out.splitlines() if line.startswith("msgid ") and line != 'msgid ""']


def test_catalogues_exist_for_both_languages_in_every_app():
    names = {str(p.relative_to(ROOT)) for p in CATALOGUES}
    assert {
        "locale/es/LC_MESSAGES/django.po",
        "locale/pt/LC_MESSAGES/django.po",
        "laws/locale/es/LC_MESSAGES/django.po",
        "laws/locale/pt/LC_MESSAGES/django.po",
    } <= names


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_untranslated_or_fuzzy(po):
    assert _entries("--untranslated", po=po) == []
    assert _entries("--only-fuzzy", po=po) == []


def _pairs(po_text: str) -> set[tuple[str, str]]:
    """(context, msgid) of every entry of a PO text written with --no-wrap."""
    pairs, context = set(), ""
    for line in po_text.splitlines():
        if line.startswith("msgctxt "):
            context = line[len('msgctxt "') : -1]
        elif line.startswith("msgid ") and line != 'msgid ""':
            pairs.add((context, line[len('msgid "') : -1]))
            context = ""
    return pairs


def _extracted(source: Path) -> set[tuple[str, str]]:
    """What makemessages would take from ``source`` (its xgettext keywords for Python)."""
    out = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--no-wrap",
            "--output=-",
            "--keyword=gettext_noop",
            "--keyword=gettext_lazy",
            "--keyword=pgettext_lazy:1c,2",
            str(source),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return _pairs(out)


def test_the_date_words_of_our_catalogues_have_a_source():
    """Our lowercase weekday and month words (Django's msgids) are named by a source file, so
    makemessages keeps them instead of marking them obsolete; every one is in the three
    catalogues, and in Spanish and Portuguese they are written lowercase."""
    import django.utils.dates

    ours = _extracted(ROOT / "clubsite/web/date_words.py")
    djangos = _extracted(Path(django.utils.dates.__file__))
    months_3 = {
        ("", m)
        for m in (
            "jan",
            "feb",
            "mar",
            "apr",
            "may",
            "jun",
            "jul",
            "aug",
            "sep",
            "oct",
            "nov",
            "dec",
        )
    }
    assert len(ours) == 50 and ours == djangos - months_3
    for language in ("es", "pt", "en"):
        po = ROOT / f"locale/{language}/LC_MESSAGES/django.po"
        text = subprocess.run(
            ["msgattrib", "--no-wrap", str(po)], capture_output=True, text=True, check=True
        ).stdout
        assert ours <= _pairs(text), language
    for language in ("es", "pt"):
        import gettext

        with open(ROOT / f"locale/{language}/LC_MESSAGES/django.mo", "rb") as mo:
            catalogue = gettext.GNUTranslations(mo)
        for context, msgid in ours:
            word = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
            assert word != msgid and word == word.lower(), (language, context, msgid, word)

"""English bridge words → the words the Spanish and Portuguese editions use.

The club has no English edition of the Laws, yet players and visiting directors type
"revoke" or "claim". The small list in ``data/synonyms-en.json`` maps such terms (and
a few phrases, longest matched first) to the edition language's own words before the
full-text search runs; a word the list does not know is searched as typed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

SOURCE = Path(__file__).parent / "data" / "synonyms-en.json"


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in text if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def terms() -> dict[str, dict[str, str]]:
    """The shipped list: English term (lower case) → {language: words in that language}."""
    return json.loads(SOURCE.read_text(encoding="utf-8"))["terms"]


@lru_cache(maxsize=4)
def _pattern(language: str) -> re.Pattern[str] | None:
    known = sorted(
        (t for t, by_lang in terms().items() if language in by_lang), key=len, reverse=True
    )
    if not known:
        return None
    alternatives = "|".join(r"\s+".join(map(re.escape, t.split())) for t in known)
    return re.compile(rf"(?<!\w)({alternatives})(?!\w)")


def translate(query: str, language: str) -> str:
    """``query`` with every known English term replaced by the ``language`` words for it."""
    pattern = _pattern(language)
    if pattern is None:
        return query
    folded = _fold(query)
    if len(folded) != len(query):  # folding changed the length: match on the folded text only
        query = folded
    out, pos = [], 0
    for m in pattern.finditer(folded):
        out.append(query[pos : m.start()])
        out.append(terms()[" ".join(m.group(1).split())][language])
        pos = m.end()
    out.append(query[pos:])
    return "".join(out)

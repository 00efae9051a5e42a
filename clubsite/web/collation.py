"""Names sorted as a reader of the page's language expects, on both databases and in memory.

A plain ``ORDER BY last_name`` compares code points (SQLite, PostgreSQL with the "C"
collation): "Ángel" lands after "José" and "Álvarez" after every name in Z. Here:

* ``Collated("last_name")`` orders by the language's collation: on PostgreSQL the ICU one
  (``es-x-icu``, ``pt-x-icu``, ``en-x-icu``, which every ICU-enabled server ships), on SQLite
  a collation of the same name registered on each new connection (``register_sqlite``),
  which compares accent-folded, case-folded text and then the text itself as tiebreak.
* ``collation_key(text)`` is the same key for lists sorted in Python (rankings' rows).

Spanish keeps "ñ" as its own letter after "n"; accents and case are secondary everywhere.
"""

from __future__ import annotations

import unicodedata

from django.db.models import Func
from django.utils.translation import get_language

COLLATIONS = {"es": "es-x-icu", "pt": "pt-x-icu", "en": "en-x-icu"}
DEFAULT = "es"
# sorts after every "n…" and before "o" once "ñ" is folded (Spanish alphabet)
_ENYE = "n\U0010ffff"


def language_code(language: str | None = None) -> str:
    code = (language or get_language() or DEFAULT).split("-")[0].lower()
    return code if code in COLLATIONS else DEFAULT


def collation_name(language: str | None = None) -> str:
    return COLLATIONS[language_code(language)]


def _fold(text: str, language: str) -> str:
    text = text.casefold()
    if language == "es":
        text = text.replace("n\u0303", "ñ").replace("ñ", _ENYE)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def collation_key(text: str | None, language: str | None = None) -> tuple[str, str]:
    """The sort key of ``text``: accent- and case-folded first, the text itself to break ties."""
    text = text or ""
    return _fold(text, language_code(language)), text


def _comparer(language: str):
    def compare(a: str, b: str) -> int:
        ka, kb = collation_key(a, language), collation_key(b, language)
        return (ka > kb) - (ka < kb)

    return compare


def register_sqlite(sender, connection, **kwargs) -> None:
    """``connection_created`` handler: the collations ``Collated`` names, on SQLite."""
    if connection.vendor != "sqlite":
        return
    for language, name in COLLATIONS.items():
        connection.connection.create_collation(name, _comparer(language))


class Collated(Func):
    """``expression COLLATE "<language>-x-icu"``, the language read when the SQL is made.

    Usable in ``order_by()`` and ``Meta.ordering`` (``Collated("last_name").desc()``).
    """

    template = "%(expressions)s COLLATE %(collation)s"
    arity = 1

    def as_sql(self, compiler, connection, **extra_context):
        extra_context.setdefault("collation", connection.ops.quote_name(collation_name()))
        return super().as_sql(compiler, connection, **extra_context)

    def __repr__(self):
        return f"Collated({self.source_expressions[0]!r})"


def collated(*fields: str) -> list:
    """``order_by(*collated("last_name", "first_name"))``: each field by the collation."""
    return [Collated(f) for f in fields]

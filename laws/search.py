"""Full-text search over law text: PostgreSQL FTS on PostgreSQL, FTS5 on SQLite.

Both backends see the same thing: lower-cased, accent-free words stemmed with the
Snowball stemmer of the edition's language (PostgreSQL: the ``es_unaccent`` /
``pt_unaccent`` configurations = unaccent + spanish/portuguese_stem; SQLite: the
same Snowball stemmers applied in Python before FTS5 indexing). Ranking is the
backend's (ts_rank_cd / bm25); snippets and highlighting are computed in Python
so that both backends show the same result.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer
from django.db import connection
from django.utils.html import escape

from . import synonyms
from .models import Edition, Node

CONFIG = {"es": "es_unaccent", "pt": "pt_unaccent"}
STEMMER_LANG = {"es": "spanish", "pt": "portuguese"}
WORD = re.compile(r"\w+", re.UNICODE)
FTS_TABLE = "laws_node_fts"
LIMIT = 30  # hits per page
DEFAULT_EDITION = {"es": "es-2017", "pt": "pt-1997", "en": "es-2017"}


def unaccent(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def _stemmer(language: str):
    return snowballstemmer.stemmer(STEMMER_LANG.get(language, "spanish"))


@lru_cache(maxsize=100_000)
def stem(word: str, language: str) -> str:
    """Stem of one word (lower-cased, accents removed); cached: law text reuses its words."""
    return _stemmer(language).stemWord(unaccent(word.lower()))


def stems(text: str, language: str) -> list[str]:
    return [stem(w, language) for w in WORD.findall(text)]


@dataclass
class Hit:
    node: Node
    rank: float
    snippet: str  # safe HTML with <mark>


# -- indexing ----------------------------------------------------------------
def index(edition: Edition) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(
                "UPDATE laws_node SET search_vector = to_tsvector(%s::regconfig, search_text) "
                "WHERE edition_id = %s",
                [CONFIG.get(edition.language, "es_unaccent"), edition.pk],
            )
    elif connection.vendor == "sqlite":
        rows = [
            (pk, " ".join(stems(text, edition.language)))
            for pk, text in edition.nodes.values_list("pk", "search_text")
        ]
        with connection.cursor() as cur:
            cur.executemany(f"INSERT INTO {FTS_TABLE}(rowid, stems) VALUES (%s, %s)", rows)


def unindex(edition: Edition) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cur:
            cur.execute(
                f"DELETE FROM {FTS_TABLE} WHERE rowid IN "
                "(SELECT id FROM laws_node WHERE edition_id = %s)",
                [edition.pk],
            )


# -- querying ----------------------------------------------------------------
MAX_QUERY = 200


def clean_query(text: str) -> str:
    """What a visitor typed, as a search can use it: printable characters only (PostgreSQL
    refuses NUL, and no law holds a control character) and at most ``MAX_QUERY`` of them."""
    return "".join(c for c in text if c.isprintable())[:MAX_QUERY].strip()


def default_edition_code(language: str) -> str:
    """The edition searched when the visitor picked none: the UI language's own (pt →
    pt-1997, es → es-2017). English has no edition: es-2017, the current Laws, which the
    English synonym list reaches."""
    return DEFAULT_EDITION.get((language or "es")[:2], DEFAULT_EDITION["es"])


def search(query: str, edition: Edition, limit: int = LIMIT, offset: int = 0) -> list[Hit]:
    """Ranked hits ``offset``..``offset + limit`` for ``query`` (all words must match) within
    one edition; English bridge terms are first put into the edition's language."""
    query = synonyms.translate(query, edition.language)
    words = stems(query, edition.language)
    if not words:
        return []
    if connection.vendor == "postgresql":
        ranked = _search_postgres(query, edition, limit, offset)
    else:
        ranked = _search_sqlite(words, edition, limit, offset)
    nodes = Node.objects.select_related("law", "edition").in_bulk([pk for pk, _ in ranked])
    return [
        Hit(nodes[pk], rank, snippet(nodes[pk].search_text, words, edition.language))
        for pk, rank in ranked
        if pk in nodes
    ]


def count(query: str, edition: Edition) -> int:
    """How many hits ``search`` finds for ``query`` in all (for the pages)."""
    query = synonyms.translate(query, edition.language)
    words = stems(query, edition.language)
    if not words:
        return 0
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute(
                "SELECT count(*) FROM laws_node, plainto_tsquery(%s::regconfig, %s) q "
                "WHERE edition_id = %s AND search_vector @@ q",
                [CONFIG.get(edition.language, "es_unaccent"), query, edition.pk],
            )
        else:
            cur.execute(
                f"SELECT count(*) FROM {FTS_TABLE} f JOIN laws_node n ON n.id = f.rowid "
                f"WHERE {FTS_TABLE} MATCH %s AND n.edition_id = %s",
                [_fts_match(words), edition.pk],
            )
        return cur.fetchone()[0]


class Results:
    """All hits of one search as a lazy sequence, so that Django's ``Paginator`` can count
    them and fetch only the page shown."""

    def __init__(self, query: str, edition: Edition):
        self.query, self.edition = query, edition

    def count(self) -> int:
        return count(self.query, self.edition)

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, item: slice) -> list[Hit]:
        start, stop = item.start or 0, item.stop
        return search(self.query, self.edition, limit=stop - start, offset=start)


def _search_postgres(
    query: str, edition: Edition, limit: int, offset: int = 0
) -> list[tuple[int, float]]:
    config = CONFIG.get(edition.language, "es_unaccent")
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id, ts_rank_cd(search_vector, q) AS rank "
            "FROM laws_node, plainto_tsquery(%s::regconfig, %s) q "
            "WHERE edition_id = %s AND search_vector @@ q "
            "ORDER BY rank DESC, id LIMIT %s OFFSET %s",
            [config, query, edition.pk, limit, offset],
        )
        return [(pk, float(rank)) for pk, rank in cur.fetchall()]


def _fts_match(words: list[str]) -> str:
    return " AND ".join('"' + w.replace('"', "") + '"' for w in words)


def _search_sqlite(
    words: list[str], edition: Edition, limit: int, offset: int = 0
) -> list[tuple[int, float]]:
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT f.rowid, -bm25({FTS_TABLE}) AS rank FROM {FTS_TABLE} f "
            "JOIN laws_node n ON n.id = f.rowid "
            f"WHERE {FTS_TABLE} MATCH %s AND n.edition_id = %s "
            "ORDER BY rank DESC, f.rowid LIMIT %s OFFSET %s",
            [_fts_match(words), edition.pk, limit, offset],
        )
        return [(pk, float(rank)) for pk, rank in cur.fetchall()]


def snippet(text: str, words: list[str], language: str, width: int = 220) -> str:
    """An escaped excerpt around the first match, with every matching word in <mark>."""
    wanted = set(words)
    spans = [
        (m.start(), m.end()) for m in WORD.finditer(text) if stem(m.group(0), language) in wanted
    ]
    if not spans:
        return escape(text[:width])
    start = max(0, spans[0][0] - width // 3)
    if start:
        start = text.rfind(" ", 0, start) + 1
    end = min(len(text), start + width)
    out, pos = [], start
    for a, b in spans:
        if a < start or b > end:
            continue
        out.append(escape(text[pos:a]))
        out.append(f"<mark>{escape(text[a:b])}</mark>")
        pos = b
    out.append(escape(text[pos:end]))
    prefix = "… " if start else ""
    suffix = " …" if end < len(text) else ""
    return prefix + "".join(out).replace("\n", " ") + suffix

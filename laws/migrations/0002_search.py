"""Full-text search structures, per database vendor.

PostgreSQL: the unaccent extension, text search configurations ``es_unaccent`` and
``pt_unaccent`` (unaccent, then the Spanish/Portuguese Snowball stemmer), and a
``search_vector`` column with a GIN index on laws_node. SQLite: an FTS5 table
``laws_node_fts`` (rowid = laws_node.id) holding pre-stemmed text.
"""

from django.db import migrations

PG_FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    """
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'es_unaccent') THEN
        CREATE TEXT SEARCH CONFIGURATION es_unaccent (COPY = spanish);
        ALTER TEXT SEARCH CONFIGURATION es_unaccent
          ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'pt_unaccent') THEN
        CREATE TEXT SEARCH CONFIGURATION pt_unaccent (COPY = portuguese);
        ALTER TEXT SEARCH CONFIGURATION pt_unaccent
          ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;
      END IF;
    END
    $$
    """,
    "ALTER TABLE laws_node ADD COLUMN IF NOT EXISTS search_vector tsvector",
    "CREATE INDEX IF NOT EXISTS laws_node_search_gin ON laws_node USING GIN (search_vector)",
]
PG_BACKWARD = [
    "DROP INDEX IF EXISTS laws_node_search_gin",
    "ALTER TABLE laws_node DROP COLUMN IF EXISTS search_vector",
]
SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS laws_node_fts USING fts5("
    "stems, tokenize='unicode61 remove_diacritics 2')",
]
SQLITE_BACKWARD = ["DROP TABLE IF EXISTS laws_node_fts"]


def run(statements_by_vendor):
    def apply(apps, schema_editor):
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [("laws", "0001_initial")]

    operations = [
        migrations.RunPython(
            run({"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}),
            run({"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        ),
    ]

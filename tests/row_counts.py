"""Rows in many tables, counted in one statement: the security tests compare them before and
after each request, and a query a table made their checks the longest part of the run."""

from django.db import connection


def row_counts(models) -> dict[str, int]:
    """Each model's label → the rows of its table (every club's: no manager's filter)."""
    models = list(models)
    quote = connection.ops.quote_name
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in models)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
    return {m._meta.label: n for m, n in zip(models, row, strict=True)}


def table_rows(models) -> tuple:
    """Each model's rows as stored (every club's), in the order of their keys: what the
    ORM would read, without building a Python value of each field (on PostgreSQL, each
    table's rows come as one text, every column in its exact text form)."""
    models = list(models)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT "
                + ", ".join(
                    f"(SELECT string_agg(t::text, E'\\n' ORDER BY t.{quote(m._meta.pk.column)}) "
                    f"FROM {quote(m._meta.db_table)} t)"
                    for m in models
                )
            )
            return tuple(zip((m._meta.label for m in models), cursor.fetchone(), strict=True))
        rows = []
        for m in models:
            cursor.execute(
                f"SELECT * FROM {quote(m._meta.db_table)} ORDER BY {quote(m._meta.pk.column)}"
            )
            rows.append((m._meta.label, tuple(cursor.fetchall())))
        return tuple(rows)

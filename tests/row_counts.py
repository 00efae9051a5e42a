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

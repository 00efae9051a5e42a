"""Inserting and reading many plain rows at once.

``bulk_create`` builds a model instance and compiles every value of every row through the
ORM; for the 3,600 board marks of a 60-table session that cost more than scoring the
session. Rows whose values are already what the columns hold go through one prepared
statement instead, or on PostgreSQL through COPY, which takes them in one stream.
"""

import time
from collections.abc import Iterable, Sequence

from django.core.exceptions import EmptyResultSet
from django.db import connection


def insert_rows(model, fields: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Insert ``rows`` (tuples in the order of ``fields``; a foreign key takes its id)."""
    rows = list(rows)
    if not rows:
        return 0
    opts = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(opts.get_field(name).column) for name in fields)
    table = quote(opts.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = f"COPY {table} ({columns}) FROM STDIN"
            start = time.monotonic()
            with cursor.cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
            if connection.queries_logged:  # counted as the statement it is (Django does not see it)
                connection.queries_log.append(
                    {"sql": f"{sql} -- {len(rows)} rows", "time": f"{time.monotonic() - start:.3f}"}
                )
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
    return len(rows)


def read_rows(queryset) -> list[tuple]:
    """The rows of a ``values_list`` queryset of plain columns (numbers, text, dates; no
    JSON), read in one fetch on PostgreSQL, whose driver already gives each column's Python
    type, without the ORM's work per row (a season's 15,600 results: a third of the time);
    through the ORM elsewhere (SQLite needs its converters)."""
    if connection.vendor != "postgresql":
        return list(queryset)
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # a filter that matches nothing (``pk__in=[]``): no query at all
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()

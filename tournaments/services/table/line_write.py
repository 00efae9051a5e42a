"""The database side of writing one board line (``entry``): its lock, and the one round trip
that tells a table's first post of a line from the others.

Forty tables post at once in a Mitchell, and every table of a round plays the same boards:
what a post waits for, and how many times it goes to the database, is its latency.
"""

from __future__ import annotations

import zlib

from django.db import connection, transaction

from tournaments.models import Result, ResultStatus


def lock_line(line) -> None:
    """Hold, until the transaction ends, the lock of one board line (section, round, table,
    board: one line, since a pair sits at one table a round) on PostgreSQL.

    The board's row was locked before: in a Mitchell every table of a round plays the same
    boards, so forty tables' posts waited for each other. Posts of the same line (a resend,
    the second device at the table, the director at the console) still wait here; a key
    reused on another line is caught by the unique constraints. The single-key form of
    advisory locks does not share its key space with the two-key form (``CLASSIFY_LOCK``);
    two lines whose keys collide only wait for each other. SQLite writes one at a time.
    """
    if connection.vendor != "postgresql":
        return
    spot = zlib.crc32(f"{line.round}:{line.table}:{line.board.pk}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [(line.section.pk << 32) | spot])


def probe(found, line) -> tuple[bool, int]:
    """Whether ``found`` (the rows of the post's key and of its line) has any row, and how many
    results of the line's round are stored: one query.

    The count tells ``round_done`` whether this post may complete its round, without a query
    of its own at every post.
    """
    sql, params = found.order_by().values("pk")[:1].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT EXISTS({sql}), (SELECT COUNT(*) FROM {Result._meta.db_table}"
            " WHERE section_id = %s AND round = %s AND status = %s)",
            [*params, line.section.pk, line.round, ResultStatus.OK.value],
        )
        taken, stored = cursor.fetchone()
    return bool(taken), int(stored)


def insert(create):
    """Run ``create`` (one INSERT) so that a unique constraint it breaks can be retried: on
    its own outside a transaction, in a savepoint inside one."""
    if connection.in_atomic_block:
        with transaction.atomic():
            return create()
    return create()

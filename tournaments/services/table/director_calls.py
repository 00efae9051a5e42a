"""The table's "Call the director", and the director's answer.

A table raises a call from its device; the live console lists the open calls with the table
and the time, and the director's "answered" clears it there and on the table's devices. A
table has one open call at a time: a second tap, or another device of the same table, finds
the call already made (the database's constraint settles a race).
"""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import DirectorCall, Session, TableCode
from tournaments.services.errors import NotAllowed


def open_call(table_code: TableCode) -> DirectorCall | None:
    return (
        DirectorCall.objects.filter(
            section_id=table_code.section_id, table=table_code.table, answered_at=None
        )
        .order_by()
        .first()
    )


def call_director(table_code: TableCode) -> DirectorCall:
    """The table's call: the open one if there is one, else a new one."""
    if not table_code.active or not table_code.section.session.is_running:
        raise NotAllowed(_("This session is not being played."))
    for _attempt in range(3):
        found = open_call(table_code)
        if found is not None:
            return found
        try:
            with transaction.atomic():
                return DirectorCall.objects.create(
                    session_id=table_code.section.session_id,
                    section_id=table_code.section_id,
                    table=table_code.table,
                    table_code=table_code,
                )
        except IntegrityError:
            continue  # another device of the table called at the same moment: take its call
    return open_call(table_code)


def answer(call: DirectorCall, *, user) -> DirectorCall:
    """The director is at the table: the call leaves the console and the table's screen."""
    updated = DirectorCall.objects.filter(pk=call.pk, answered_at=None).update(
        answered_at=timezone.now(), answered_by=user
    )
    if updated:
        call.refresh_from_db()
    return call


def open_calls(session: Session) -> list[DirectorCall]:
    """The session's calls not answered yet, the oldest first."""
    return list(
        DirectorCall.objects.filter(session=session, answered_at=None)
        .select_related("section")
        .order_by("called_at", "id")
    )

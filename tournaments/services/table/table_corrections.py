"""Correct at the table: the players fix a saved result, or the opponents reject it.

After a result is saved its table may still *correct* it (the pair that typed it, before
the opponents confirm), and the opponents may *reject* it with a reason instead of
confirming. A rejection is a dispute: it waits on the director's console with the
conflicts, and the director settles it either by correcting the line (the usual
correction, ``entry.correct_result`` or an adjusted score) or by keeping the result as
entered (``keep_disputed``). Once the director has touched a line the table can change
nothing more on it.

A board's state (entered, confirmed, disputed, corrected by the director) follows from the
result and its audit trail, which records every table correction and dispute with the device
that made it. It is stored on the result (``Result.board_state``) so pages read it without
the trail; each writer here settles it with its own write (``board_states.settle``). The states
are named here too (``ENTERED``...): the table's views read them from this module.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditAction, AuditEntry, BoardState, Result, ResultStatus, TableCode
from tournaments.services.classification import reclassification
from tournaments.services.errors import InvalidResult, NotAllowed
from tournaments.services.results.publish import correction_allowed
from tournaments.services.table import board_states
from tournaments.services.table.board_states import (  # noqa: F401
    CONFIRMED,
    CORRECTED,
    DIRECTOR_ACTIONS,
    DISPUTED,
    ENTERED,
)
from tournaments.services.table.entry import save_result
from tournaments.services.table.result_checks import scored

STATE_LABELS = dict(BoardState.choices)
MAX_REASON = 500


def states(results) -> dict[int, str]:
    """Each result's state, as stored (no query): ``entered``, ``confirmed``, ``disputed``
    (the opponents rejected it and the director has not ruled) or ``corrected`` (the
    director changed it or awarded an adjusted score)."""
    return {r.pk: r.board_state for r in results if r is not None}


def state_of(result: Result) -> str:
    return Result.objects.values_list("board_state", flat=True).get(pk=result.pk)


def dispute_reason(result: Result) -> str:
    """What the opponents said when they rejected ``result`` (the latest rejection)."""
    row = (
        AuditEntry.objects.filter(result=result, action=AuditAction.DISPUTED)
        .order_by("-at", "-id")
        .first()
    )
    return row.reason if row else ""


# --- what the table may do -----------------------------------------------------------------


def own_line(result: Result, table_code: TableCode) -> None:
    """Refuse (``NotAllowed``) unless ``result`` is a line of this device's own table in a
    session being played."""
    if (
        table_code is None
        or not table_code.active
        or table_code.section_id != result.section_id
        or table_code.table != result.table
    ):
        raise NotAllowed(_("This device can only change results of its own table."))
    if not result.section.session.is_running:
        raise NotAllowed(_("This session is not being played."))


def _touched_by_director(history) -> bool:
    return any(by_director and action in DIRECTOR_ACTIONS for action, by_director in history)


def may_correct(result: Result, state: str, history) -> bool:
    """The table may correct a result it entered itself until the opponents confirm it, they
    reject it, or the director touches it."""
    return (
        result.status == ResultStatus.OK
        and result.entered_by_table_id is not None
        and state == ENTERED
        and not result.is_adjusted
        and not _touched_by_director(history)
    )


def may_dispute(result: Result, state: str, history) -> bool:
    """The opponents may reject a result instead of confirming it (where the club does not
    ask them to confirm: until the director touches it)."""
    if result.status != ResultStatus.OK or state in (DISPUTED, CORRECTED):
        return False
    if _touched_by_director(history):
        return False
    asks_confirmation = result.section.session.tournament.opponent_confirmation
    return state == ENTERED or not asks_confirmation


def table_choices(result: Result | None) -> dict:
    """What the table's board screen offers for ``result``: its state and label, whether it
    may be corrected or rejected, and the opponents' reason when disputed."""
    if result is None:
        return {"state": "", "label": "", "can_correct": False, "can_dispute": False, "reason": ""}
    history = board_states.trails([result.pk])[result.pk]
    state = board_states.worked_out(result, history)
    return {
        "state": state,
        "label": STATE_LABELS[state],
        "can_correct": may_correct(result, state, history),
        "can_dispute": may_dispute(result, state, history),
        "reason": dispute_reason(result) if state == DISPUTED else "",
    }


def may_confirm(result: Result) -> bool:
    """The opponents' tap is refused on a disputed result (the director decides)."""
    return state_of(result) != DISPUTED


def correct_at_table(
    result: Result,
    *,
    table_code: TableCode,
    contract: str,
    declarer: str = "",
    tricks: int | None = None,
    lead: str = "",
) -> Result:
    """The table fixes its own saved result before the opponents confirm it.

    Sending the same correction again (a device resending its queue) changes nothing and
    is not refused, even once the opponents have confirmed what it says.
    """
    own_line(result, table_code)
    with transaction.atomic():
        row = (
            Result.objects.select_for_update(no_key=True)
            .select_related("board", "section__session__tournament")
            .get(pk=result.pk)
        )
        data = scored(row.board, contract, declarer, tricks, lead)
        if (
            row.status == ResultStatus.OK
            and all(getattr(row, f) == v for f, v in data.items())
            and not row.is_adjusted
        ):
            return row
        history = board_states.trails([row.pk])[row.pk]
        if not may_correct(row, board_states.worked_out(row, history), history):
            raise NotAllowed(
                _("This result can no longer be corrected at the table: ask the director.")
            )
        before = row.snapshot()
        for field, value in data.items():
            setattr(row, field, value)
        save_result(
            row,
            [*data, "modified_at"],
            AuditAction.TABLE_EDIT,
            table_code=table_code,
            before=before,
            trail=history,
        )
        reclassification.result_posted(row.section.session_id)
    return row


def dispute_at_table(result: Result, *, table_code: TableCode, reason: str) -> Result:
    """The opponents reject the result with ``reason``: it goes to the director's console.
    Rejecting again with the same reason (a resent queue) changes nothing."""
    own_line(result, table_code)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidResult(_("Say what is wrong with the result."), "reason")
    if len(reason) > MAX_REASON:
        raise InvalidResult(_("Say it in at most %(n)s characters.") % {"n": MAX_REASON}, "reason")
    with transaction.atomic():
        row = (
            Result.objects.select_for_update(no_key=True)
            .select_related("section__session__tournament")
            .get(pk=result.pk)
        )
        history = board_states.trails([row.pk])[row.pk]
        state = board_states.worked_out(row, history)
        if state == DISPUTED and dispute_reason(row) == reason:
            return row
        if not may_dispute(row, state, history):
            raise NotAllowed(
                _("This result can no longer be rejected at the table: ask the director.")
            )
        # not modified_at: the result is unchanged
        save_result(
            row,
            [],
            AuditAction.DISPUTED,
            table_code=table_code,
            before=row.snapshot(),
            reason=reason,
            trail=history,
        )
    return row


# --- the director ---------------------------------------------------------------------------


def open_disputes(session) -> list[Result]:
    """The results of ``session`` the opponents rejected and the director has not ruled on."""
    disputed = set(
        AuditEntry.objects.filter(session=session, action=AuditAction.DISPUTED).values_list(
            "result_id", flat=True
        )
    )
    rows = list(
        Result.objects.filter(pk__in=disputed, status=ResultStatus.OK)
        .select_related("board", "section")
        .order_by("section__letter", "round", "table", "board__number")
    )
    found = states(rows)
    return [r for r in rows if found[r.pk] == DISPUTED]


def keep_disputed(result: Result, *, user, reason: str, override: bool = False) -> Result:
    """The director rules that the result stands as entered: it counts as confirmed."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidResult(_("Say why: a change to a result needs a reason."), "reason")
    if state_of(result) != DISPUTED:
        raise InvalidResult(_("This result is not disputed."))
    overridden = correction_allowed(result.section.session.tournament, override)
    with transaction.atomic():
        row = (
            Result.objects.select_for_update(no_key=True)
            .select_related("section__session")
            .get(pk=result.pk)
        )
        before = row.snapshot()
        row.confirmed = True
        save_result(
            row,
            ["confirmed", "modified_at"],
            AuditAction.RESOLVED,
            user=user,
            before=before,
            reason=reason,
            override=overridden,
        )
    return row

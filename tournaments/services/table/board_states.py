"""A result's board state (entered, confirmed, disputed, corrected by the director), kept on
the row (``Result.board_state``) so the console's grid and the table's pages read it without
the audit trail.

The state follows from the result (adjusted? confirmed?) and its trail: the opponents'
rejection opens a dispute that the director's next action closes; a director's correction or
adjusted score makes the result the director's own. Every writer of a result saves it with
``entry.save_result``, which calls ``settle`` with the row as changed (in memory) and the trail
line it then writes, and saves ``board_state`` with the writer's own write: the state and the
trail cannot disagree, there is no second write, and no read of the trail while the stored
state already says there is no open dispute and no director's change in it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import AuditAction, AuditEntry, BoardState, Result

ENTERED, CONFIRMED, DISPUTED, CORRECTED = (
    BoardState.ENTERED.value,
    BoardState.CONFIRMED.value,
    BoardState.DISPUTED.value,
    BoardState.CORRECTED.value,
)
# The director's actions on a line: each closes a dispute (and the table may change nothing).
DIRECTOR_ACTIONS = (
    AuditAction.CORRECTED,
    AuditAction.ADJUSTED,
    AuditAction.RESOLVED,
    AuditAction.CONFIRMED,
    AuditAction.ENTERED,
    AuditAction.DELETED,
)
# What makes the result the director's own (shown as "corrected by the director").
DIRECTOR_CHANGES = (AuditAction.CORRECTED, AuditAction.ADJUSTED)
# A trail entry as the state reads it: (action, made by the director).
Step = tuple[str, bool]


def trails(pks: Iterable[int]) -> dict[int, list[Step]]:
    """Each result's trail, oldest first, as (action, by the director): one query."""
    out: dict[int, list[Step]] = {pk: [] for pk in pks}
    rows = (
        AuditEntry.objects.filter(
            result_id__in=list(out),
            action__in=[*DIRECTOR_ACTIONS, AuditAction.DISPUTED, AuditAction.TABLE_EDIT],
        )
        .order_by("at", "id")
        .values_list("result_id", "action", "user_id", "table_code_id")
    )
    for pk, action, user_id, table_code_id in rows:
        out[pk].append((action, user_id is not None and table_code_id is None))
    return out


def worked_out(row: Result, trail: list[Step]) -> str:
    """The state of ``row`` (as in memory) with this ``trail``: the rule itself, no query."""
    last_dispute = max(
        (i for i, (action, _d) in enumerate(trail) if action == AuditAction.DISPUTED), default=None
    )
    if last_dispute is not None and not any(
        by_director and action in DIRECTOR_ACTIONS
        for action, by_director in trail[last_dispute + 1 :]
    ):
        return DISPUTED
    if any(by_director and action in DIRECTOR_CHANGES for action, by_director in trail):
        return CORRECTED
    return row.fresh_state()


def from_trails(rows: Iterable[Result]) -> dict[int, str]:
    """Each row's state worked out again from its whole trail (one query): what the stored
    state must equal."""
    rows = list(rows)
    found = trails(r.pk for r in rows)
    return {r.pk: worked_out(r, found[r.pk]) for r in rows}


def settle(row: Result, adding: Step | None = None, trail: list[Step] | None = None) -> bool:
    """Set ``row.board_state`` for the row as the writer changed it (in memory, not saved yet)
    and the trail entry ``adding`` (action, by the director) it is about to write; whether the
    state changed (the caller saves ``board_state`` with its own write).

    A new row has no trail. A stored ``entered`` or ``confirmed`` says the trail holds no open
    dispute and no director's change, so only ``adding`` counts; otherwise the trail is read
    (one query), unless the writer read it already under its lock and passes it (``trail``).
    """
    step = [adding] if adding is not None else []
    if row.pk is None or row.board_state in (ENTERED, CONFIRMED):
        state = worked_out(row, step)
    else:
        state = worked_out(row, (trail if trail is not None else trails([row.pk])[row.pk]) + step)
    changed = state != row.board_state
    row.board_state = state
    return changed

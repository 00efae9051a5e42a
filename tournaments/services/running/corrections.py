"""The director's changes to results: a correction, an adjusted score, a conflict settled, a
result removed, a procedural penalty.

Each leaves an ``AuditEntry`` (who, when, before, after, why, the law); after the Law 79C
correction period an explicit override is required and recorded. The session is classified
again once the change is committed (``reclassification.changed_by_director``).
"""

from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    AuditAction,
    AuditEntry,
    Entry,
    Penalty,
    Result,
    ResultStatus,
    Section,
)
from tournaments.services.classification import reclassification
from tournaments.services.errors import InvalidResult
from tournaments.services.results.publish import correction_allowed
from tournaments.services.running.adjustments import core_entry
from tournaments.services.table import line_write, revisions
from tournaments.services.table.entry import resolve_line, retrying, save_result
from tournaments.services.table.result_checks import legal_score, scored


def _require_reason(reason: str) -> str:
    if not (reason or "").strip():
        raise InvalidResult(_("Say why: a change to a result needs a reason."), "reason")
    return reason.strip()


@revisions.keeping_refused
def correct_result(
    result: Result,
    *,
    user,
    contract: str,
    declarer: str = "",
    tricks: int | None = None,
    lead: str = "",
    ns_score: int | None = None,
    reason: str,
    law: str = "",
    override: bool = False,
    revision: str | None = None,
) -> Result:
    """The director replaces a played result (a wrong entry, a Law 79 correction); based on
    another ``revision`` than the stored one it is refused and kept as a conflict."""
    reason = _require_reason(reason)
    tournament = result.section.session.tournament
    overridden = correction_allowed(tournament, override)
    with transaction.atomic():
        # The result row only (of=self): locking its board and session too deadlocked with
        # a concurrent correction's commit checking its audit entry's foreign keys.
        row = (
            Result.objects.select_for_update(of=("self",), no_key=True)
            .select_related("board", "section__session")
            .get(pk=result.pk)
        )
        before = row.snapshot()
        data = scored(row.board, contract, declarer, tricks, lead)
        if ns_score is not None:
            data["ns_score"] = legal_score(ns_score)
        revisions.check(row, revision, proposed=data | {"reason": reason, "law": law}, user=user)
        for field, value in data.items():
            setattr(row, field, value)
        row.adjustment, row.law, row.reason = None, law, reason
        save_result(
            row,
            None,
            AuditAction.CORRECTED,
            user=user,
            before=before,
            reason=reason,
            law=law,
            override=overridden,
        )
        reclassification.changed_by_director(row.section.session_id)
    return row


def adjust_score(
    *,
    user,
    section: Section,
    round: int,
    table: int,
    board: int,
    adjustment: dict,
    reason: str,
    law: str = "",
    ns_score: int | None = None,
    override: bool = False,
    revision: str | None = None,
) -> Result:
    """Award an adjusted score on a line (with or without a result already there).

    ``adjustment`` is one of the shapes in ``services.adjustments``; a fouled board keeps
    the real result (``ns_score`` or the stored one).
    """
    reason = _require_reason(reason)
    tournament = section.session.tournament
    imp = not tournament.is_matchpoints
    overridden = correction_allowed(tournament, override)
    line = resolve_line(section, round, table, board)
    if ns_score is not None:
        ns_score = legal_score(ns_score)
    if adjustment.get("kind") == "split":
        for side in ("ns_score", "ew_score"):
            legal_score(adjustment.get(side), "split_ns" if side == "ns_score" else "split_ew")

    def write() -> Result:
        with transaction.atomic():
            line_write.lock_line(line)
            row = Result.objects.filter(
                section=section,
                round=round,
                board=line.board,
                ns=line.ns,
                ew=line.ew,
                status=ResultStatus.OK,
            ).first()
            revisions.check(row, revision)
            before = row.snapshot() if row else None
            fouled = adjustment.get("kind") == "fouled"
            score = ns_score if ns_score is not None else (row.ns_score if row else None)
            core_entry(score if fouled else None, adjustment, imp_scoring=imp)
            if row is None:
                row = Result(
                    section=section,
                    board=line.board,
                    round=round,
                    table=table,
                    ns=line.ns,
                    ew=line.ew,
                    south=line.south,
                    west=line.west,
                    entered_by=user,
                    confirmed=True,
                )
            if fouled:
                row.ns_score = score
            # Otherwise what was played stays on the row for the record; the adjustment is
            # what scores.
            row.adjustment, row.reason, row.law = adjustment, reason, law
            save_result(
                row,
                None,
                AuditAction.ADJUSTED,
                user=user,
                before=before,
                reason=reason,
                law=law,
                override=overridden,
            )
            reclassification.changed_by_director(section.session_id)
            return row

    return retrying(write)


def resolve_conflict(
    conflict: Result, *, user, keep_new: bool, reason: str, override: bool = False
) -> Result:
    """The director decides between a stored result and a conflicting one; returns the kept row."""
    reason = _require_reason(reason)
    if conflict.status != ResultStatus.CONFLICT:
        raise InvalidResult(_("This result is not in conflict."))
    overridden = correction_allowed(conflict.section.session.tournament, override)
    with transaction.atomic():
        new = Result.objects.select_for_update(no_key=True).get(pk=conflict.pk)
        old = (
            Result.objects.select_for_update(no_key=True).get(pk=new.conflicts_with_id)
            if new.conflicts_with_id
            else None
        )
        before = old.snapshot() if old else None
        if keep_new:
            if old is not None:
                old.status = ResultStatus.SUPERSEDED
                save_result(old, ["status", "modified_at"])
            new.status, new.confirmed = ResultStatus.OK, True
            kept, fields = new, ["status", "confirmed", "modified_at"]
        else:
            new.status = ResultStatus.REJECTED
            save_result(new, ["status", "modified_at"])
            kept, fields = old, []  # unchanged but for its state: the ruling closes a dispute
        save_result(
            kept,
            fields,
            AuditAction.RESOLVED,
            user=user,
            before=before,
            reason=reason,
            override=overridden,
        )
        reclassification.changed_by_director(conflict.section.session_id)
    return kept


def remove_result(
    result: Result, *, user, reason: str, override: bool = False, revision: str | None = None
) -> None:
    """Take a line off the traveller (entered for the wrong pairs, say); it stays in the trail."""
    reason = _require_reason(reason)
    overridden = correction_allowed(result.section.session.tournament, override)
    with transaction.atomic():
        row = Result.objects.select_for_update(no_key=True).get(pk=result.pk)
        revisions.check(row if row.status == ResultStatus.OK else None, revision)
        before = row.snapshot()
        row.status = ResultStatus.REJECTED
        save_result(
            row,
            ["status", "modified_at"],
            AuditAction.DELETED,
            user=user,
            before=before,
            reason=reason,
            override=overridden,
        )
        reclassification.changed_by_director(result.section.session_id)


def add_penalty(
    *,
    user,
    entry: Entry,
    session,
    fraction_of_top,
    reason: str,
    law: str = "",
    board: int | None = None,
    override: bool = False,
) -> Penalty:
    """A procedural penalty of ``fraction_of_top`` (e.g. 0.25) of a top off the session total."""
    reason = _require_reason(reason)
    fraction = Decimal(str(fraction_of_top))
    if fraction <= 0 or fraction > 10:
        raise InvalidResult(_("A penalty is a positive fraction of a top."), "fraction_of_top")
    overridden = correction_allowed(session.tournament, override)
    with transaction.atomic():
        penalty = Penalty.objects.create(
            session=session,
            entry=entry,
            fraction_of_top=fraction,
            board_number=board,
            law=law,
            reason=reason,
            given_by=user,
        )
        AuditEntry.objects.create(
            tournament_id=session.tournament_id,
            session=session,
            action=AuditAction.PENALTY,
            user=user,
            after={"entry": entry.pk, "fraction_of_top": str(fraction), "board": board},
            reason=reason,
            law=law,
            override=overridden,
        )
        reclassification.changed_by_director(session.pk)
    return penalty

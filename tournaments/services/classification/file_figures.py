"""How a classification puts an imported session's published figures in place of ours.

``file_record`` keeps the figures and decides whose results an imported event shows; here,
below the classification, is only the swap: each pool's marks and totals become the file's,
and each section's places come back as the file wrote them.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

from tournaments.models import Session
from tournaments.services.classification.session_data import latest_change


def _fraction(text: str | None) -> Fraction | None:
    return None if text in (None, "") else Fraction(Decimal(str(text)))


def figures_hold(session: Session, stamp) -> bool:
    """Whether the file's figures are this session's result of record: the tournament keeps
    them, the session has them, and no result changed since they were imported."""
    figures = session.file_figures or {}
    if not figures.get("entries") or not session.tournament.keeps_file_results:
        return False
    through = figures.get("through")
    return stamp is None or not through or stamp.isoformat() <= through


def overlay(data, pools) -> dict[int, dict] | None:
    """Put the file's marks and totals in place of ours in ``pools`` (in place); returns each
    entry's place as the file gives it (entry → {"place", "tied"}, or {"handicap_place",
    "handicap_tied"} when the file ranked with handicaps), or None when the session is
    scored with our rules."""
    session = data.session
    if not figures_hold(session, data.stamp):
        return None
    figures = session.file_figures
    entries = {int(k): v for k, v in figures["entries"].items()}
    marks = {
        tuple(int(x) for x in k.split(":")): _fraction(v)
        for k, v in figures.get("marks", {}).items()
        if v not in (None, "")
    }
    for pool in pools:
        if figures.get("display_top"):  # marks as the file showed them, on its display top
            pool.top = int(figures["display_top"])
        pool.marks = [
            (section, board, entry, direction, opp, marks.get((board, entry), mark), kind)
            for section, board, entry, direction, opp, mark, kind in pool.marks
        ]
        if pool.totals is not None:
            for entry, total in list(pool.totals.items()):
                row = entries.get(entry)
                if row is None:
                    continue
                points = _fraction(row.get("total"))
                percentage = _fraction(row.get("percentage"))
                pool.totals[entry] = dataclasses.replace(
                    total,
                    points=total.points if points is None else points,
                    percentage=total.percentage if percentage is None else percentage,
                )
        if pool.imp_totals is not None:
            for entry in list(pool.imp_totals):
                points = _fraction((entries.get(entry) or {}).get("total"))
                if points is not None:
                    pool.imp_totals[entry] = points
    # a file ranked with handicaps gives its places to the handicap ranking
    prefix = "handicap_" if figures.get("places_by") == "handicap" else ""
    return {
        entry: {f"{prefix}place": row["place"], f"{prefix}tied": bool(row.get("tied"))}
        for entry, row in entries.items()
        if row.get("place")
    }


def all_hold(tournament, sessions) -> bool:
    """Whether the file's figures hold for every one of ``sessions``: none corrected since."""
    for session in sessions:
        session.tournament = tournament
        if not figures_hold(session, latest_change(session)):
            return False
    return True


def event_overlay(tournament, sessions) -> dict[str, dict] | None:
    """An imported event's overall ranking as its file gives it (entry → its figures), while
    every session's figures hold; None when the overall ranking is ours."""
    if not sessions or not tournament.keeps_file_results:
        return None
    overall = (sessions[0].file_figures or {}).get("event")
    return overall if overall and all_hold(tournament, sessions) else None


def as_published(row, figures: dict | None) -> None:
    """A stored ranking row with the file's total, percentage and place, where it gives
    them."""
    if not figures:
        return
    if figures.get("total"):
        row.points = Decimal(figures["total"])
    if figures.get("percentage"):
        row.percentage = Decimal(figures["percentage"])
    if figures.get("place"):
        row.place, row.tied, row.decided_by = figures["place"], bool(figures.get("tied")), ""

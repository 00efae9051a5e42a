"""Adjusted scores as stored (plain JSON) and as the scoring core wants them.

Stored shapes, one per kind the director can award:

- ``{"kind": "artificial", "ns": 60, "ew": 40}``; a side may be ``"A+"``, ``"A"`` or ``"A-"``
  (Law 12C2: at least 60 %, 50 %, at most 40 %, resolved from the pair's session); an
  imported IMP-scored file's award adds ``"ns_imps"``/``"ew_imps"`` (e.g. ``"3"``, ``"-3"``),
  which Butler and cross-IMPs then score as given;
- ``{"kind": "split", "ns_score": 420, "ew_score": 450}`` (Law 12C1e);
- ``{"kind": "weighted", "outcomes": [[30, 420], [70, -50]]}`` (percent, Law 12C1c);
- ``{"kind": "not_played", "reason": "player_fault"}`` (relay, justified, player_fault,
  organisation: the AEB norms);
- ``{"kind": "fouled", "group": "1"}`` on a real result: scored only against its group (Law 87).

JSON keeps the database readable by any tool; ``core_entry`` validates by building the core's
own objects, so a shape the core would refuse is refused when the director saves it.
"""

from fractions import Fraction

from django.utils.translation import gettext as _

from tournaments.scoring import (
    Artificial,
    ArtificialImps,
    NotPlayed,
    Real,
    Role,
    ScoringError,
    Split,
    Unplayed,
    Weighted,
)
from tournaments.services.errors import InvalidResult

ROLES = {"A+": Role.NON_OFFENDER, "A": Role.PARTLY_AT_FAULT, "A-": Role.OFFENDER}
KINDS = ("artificial", "split", "weighted", "not_played", "fouled")
# Butler and cross-IMPs score artificial adjustments as ±2/0 IMPs by role (AEB norm).
PERCENT_ROLES = {
    Fraction(60): Role.NON_OFFENDER,
    Fraction(50): Role.PARTLY_AT_FAULT,
    Fraction(40): Role.OFFENDER,
}


def _side(value, imp_scoring: bool):
    if isinstance(value, str):
        key = value.strip().upper().replace("−", "-")
        if key in ROLES:
            return ROLES[key]
        try:
            value = Fraction(key)
        except (ValueError, ZeroDivisionError) as exc:
            raise InvalidResult(
                _("An artificial score is a percentage or A+, A, A−."), "adjustment"
            ) from exc
    if isinstance(value, int | float | Fraction) and not isinstance(value, bool):
        pct = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        if imp_scoring:
            if pct not in PERCENT_ROLES:
                raise InvalidResult(
                    _("With IMP scoring an artificial score is A+, A or A− (±2 or 0 IMPs)."),
                    "adjustment",
                )
            return PERCENT_ROLES[pct]
        return pct
    raise InvalidResult(_("An artificial score is a percentage or A+, A, A−."), "adjustment")


def core_entry(ns_score: int | None, adjustment: dict | None, *, imp_scoring: bool = False):
    """The scoring core's entry for one traveller line (raises ``InvalidResult``)."""
    if not adjustment:
        if ns_score is None:
            return NotPlayed(Unplayed.JUSTIFIED)
        return Real(ns_score)
    kind = adjustment.get("kind")
    try:
        if kind == "artificial" and imp_scoring and "ns_imps" in adjustment:
            # an imported file's award in IMPs, kept as the director gave it
            return ArtificialImps(
                Fraction(str(adjustment["ns_imps"])), Fraction(str(adjustment["ew_imps"]))
            )
        if kind == "artificial":
            return Artificial(
                _side(adjustment.get("ns"), imp_scoring),
                _side(adjustment.get("ew"), imp_scoring),
                bool(adjustment.get("unplayed", False)),
            )
        if kind == "split":
            return Split(int(adjustment["ns_score"]), int(adjustment["ew_score"]))
        if kind == "weighted":
            outcomes = [(Fraction(str(w)), int(s)) for w, s in adjustment["outcomes"]]
            return Weighted.percent(*outcomes)
        if kind == "not_played":
            return NotPlayed(Unplayed(adjustment.get("reason", Unplayed.JUSTIFIED.value)))
        if kind == "fouled":
            if ns_score is None:
                raise InvalidResult(
                    _("A fouled board keeps its real result: enter it."), "adjustment"
                )
            return Real(ns_score, str(adjustment.get("group", "fouled")))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ScoringError):
            raise InvalidResult(
                _("The adjusted score is not valid: %(reason)s") % {"reason": exc.reason},
                "adjustment",
            ) from exc
        raise InvalidResult(
            _("The adjusted score is incomplete or malformed."), "adjustment"
        ) from exc
    raise InvalidResult(_("Unknown kind of adjusted score."), "adjustment")


def replaced(ns_score: int | None, adjustment: dict | None) -> dict | None:
    """The table's own score an adjusted score stands in for, to show struck through.

    ``{"side": "NS" or "EW", "points": 100}`` (the side that scored, as a traveller says it);
    ``None`` without an adjustment, without a table score, or for a fouled board, whose real
    result still scores (Law 87).
    """
    if not adjustment or adjustment.get("kind") == "fouled" or ns_score is None:
        return None
    return {"side": "EW" if ns_score < 0 else "NS", "points": abs(ns_score)}


def describe(adjustment: dict | None) -> str:
    """Short traveller text: "60/40", "A+/A−", "split 420/450", "not played", "fouled"."""
    if not adjustment:
        return ""
    kind = adjustment.get("kind")
    if kind == "artificial":
        return f"{adjustment.get('ns')}/{adjustment.get('ew')}".replace("-", "−")
    if kind == "split":
        return _("split %(ns)s/%(ew)s") % {
            "ns": adjustment.get("ns_score"),
            "ew": adjustment.get("ew_score"),
        }
    if kind == "weighted":
        return (
            _("weighted") + " " + " + ".join(f"{w}% {s}" for w, s in adjustment.get("outcomes", ()))
        )
    if kind == "not_played":
        return _("not played")
    if kind == "fouled":
        return _("fouled board")
    return kind or ""

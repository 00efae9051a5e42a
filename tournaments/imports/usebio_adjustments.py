"""A traveller line's ``ADJUSTMENT``, the extension our USEBIO export writes so an adjusted
score comes back as the director gave it: a split score, a weighted one, or a board not
played with its reason (``exports.usebio``). Pure: no database."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from ..scoring import is_legal_score
from .usebio_errors import UsebioError, shown

UNPLAYED_REASONS = ("justified", "player_fault", "organisation", "relay")


def parse_adjustment(text: str, score: int | None) -> dict | None:
    """A line's ``ADJUSTMENT`` (our export's extension, see ``exports.usebio``): a split,
    a weighted score or a not-played board's reason; None when the line has none."""
    words = (text or "").upper().split()
    if not words:
        return None
    problem = UsebioError(_("“%(value)s” is not an adjusted score.") % {"value": shown(text)})
    try:
        if words[0] == "SPLIT" and len(words) == 3:
            ns, ew = int(words[1]), int(words[2])
            if not (is_legal_score(ns) and is_legal_score(ew)):
                raise problem
            return {"kind": "split", "ns_score": ns, "ew_score": ew}
        if words[0] == "WEIGHTED" and len(words) >= 3:
            outcomes = []
            for item in words[1:]:
                weight, _colon, value = item.partition(":")
                number = Decimal(weight)
                if not number.is_finite() or number <= 0 or not is_legal_score(int(value)):
                    raise problem
                outcomes.append(
                    [
                        int(number) if number == number.to_integral_value() else str(number),
                        int(value),
                    ]
                )
            if sum(Decimal(str(w)) for w, _s in outcomes) != 100:
                raise problem
            return {"kind": "weighted", "outcomes": outcomes}
        if words[0] == "NP" and len(words) == 2 and words[1].lower() in UNPLAYED_REASONS:
            return {"kind": "not_played", "reason": words[1].lower()}
    except (ValueError, InvalidOperation) as exc:
        raise problem from exc
    raise problem

"""What makes a played result valid before it is stored: the contract and its score (Law 77),
the declarer and the tricks, the lead (none on a passed-out board; a card the opening leader
holds, when the deal is known), and a score the director types in.

Every writer of a result asks here: the table (``entry``), its correction
(``table_corrections``), the director's (``corrections``) and the imports.
"""

import re

from django.utils.translation import gettext as _

from tournaments.models import Board
from tournaments.scoring import ScoringError, is_legal_score, ns_score, parse_contract
from tournaments.scoring.deals import holds, opening_leader
from tournaments.services.errors import InvalidResult

_LEAD_RE = re.compile(r"^([SHDC])(A|K|Q|J|T|10|[2-9])$")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "P": "S", "C": "C", "E": "H", "O": "D"}


def normalise_lead(lead: str) -> str:
    """``"♠K"``, ``"sk"``, ``"H10"`` → ``"SK"``, ``"HT"``; empty stays empty."""
    text = (lead or "").strip().upper().replace(" ", "")
    if not text:
        return ""
    if text[0] in _SUITS:
        text = _SUITS[text[0]] + text[1:]
    match = _LEAD_RE.match(text)
    if match is None:
        raise InvalidResult(_("The lead is a suit and a card, like ♠K or H10."), "lead")
    rank = "T" if match.group(2) == "10" else match.group(2)
    return match.group(1) + rank


def scored(
    board: Board, contract: str, declarer: str, tricks: int | None, lead: str | None = None
) -> dict:
    """Validate a played result against Law 77 and compute its NS score; with ``lead``, the
    lead too (none on a passed-out board; a card the opening leader holds, deal known)."""
    try:
        parsed = parse_contract(contract or "")
    except ScoringError as exc:
        raise InvalidResult(
            _("The contract is not valid (level 1–7, a strain, X or XX, or pass)."), "contract"
        ) from exc
    card = normalise_lead(lead or "")
    if parsed is None:
        if card:
            raise InvalidResult(_("A passed-out board has no lead."), "lead")
        return {"contract": "PASS", "declarer": "", "tricks": None, "ns_score": 0, "lead": ""}
    if declarer not in ("N", "E", "S", "W"):
        raise InvalidResult(_("Say who declared: N, E, S or W."), "declarer")
    if tricks is None or isinstance(tricks, bool) or not 0 <= int(tricks) <= 13:
        raise InvalidResult(_("Tricks won by declarer must be between 0 and 13."), "tricks")
    if card and holds(board.deal, opening_leader(declarer), card) is False:
        raise InvalidResult(
            _("The lead is not in the hand on declarer's left: check the card, or who declared."),
            "lead",
        )
    score = ns_score(parsed, declarer, int(tricks), board.vulnerability_core)
    return {
        "contract": str(parsed),
        "declarer": declarer,
        "tricks": int(tricks),
        "ns_score": score,
        "lead": card,
    }


def legal_score(value, field: str = "ns_score") -> int:
    """A score typed by the director, refused unless some contract scores it (Law 77): a
    traveller's 4200 for 420, or a number too big to store, never reaches the rankings."""
    try:
        score = int(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidResult(_("A score is a whole number."), field) from exc
    if not is_legal_score(score):
        raise InvalidResult(
            _("%(score)s is not a score any contract can make (Law 77).")
            % {"score": score if abs(score) < 10**9 else "…"},
            field,
        )
    return score

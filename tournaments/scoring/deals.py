"""A deal in PBN notation (``N:S.H.D.C E… S… W…``), to hands by seat and back (pure).

The seats, suits and ranks in the order PBN writes them, for every module that reads or
writes a deal: the PBN import and the site's own dealing (``services.boards``), the files out
(``exports``) and in (``imports``). Whether a deal is complete (52 different cards, 13 a
hand) is ``services.boards.normalise_deal``'s to say, with reasons a director can read.
"""

from __future__ import annotations

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"


def hands(deal: str) -> dict[str, list[str]]:
    """``"N:AK.Q.J.T …"`` → ``{"N": ["AK", "Q", "J", "T"], …}`` (spades first); {} if empty.

    Raises ``ValueError`` on text that is not four hands of four suits after a seat."""
    deal = (deal or "").strip()
    if not deal:
        return {}
    first, _colon, rest = deal.partition(":")
    if first.upper() not in SEATS or len(rest.split()) != 4:
        raise ValueError(f"not a PBN deal: {deal!r}")
    start = SEATS.index(first.upper())
    out = {}
    for i, hand in enumerate(rest.split()):
        suits = hand.split(".")
        if len(suits) != 4:
            raise ValueError(f"not a PBN hand: {hand!r}")
        out[SEATS[(start + i) % 4]] = [s.upper().replace("10", "T") for s in suits]
    return out


def deal_text(by_seat: dict[str, list[str]]) -> str:
    """The inverse of ``hands``, always starting with North."""
    if not by_seat:
        return ""
    return "N:" + " ".join(".".join(by_seat[s]) for s in SEATS)


def opening_leader(declarer: str) -> str:
    """The seat on declarer's left, who makes the opening lead (Law 41A)."""
    return SEATS[(SEATS.index(declarer) + 1) % 4]


def holds(deal: str, seat: str, card: str) -> bool | None:
    """Whether ``seat`` holds ``card`` (``"HT"``: suit then rank) in ``deal``; None when the
    deal is not known (empty or unreadable), so nothing can be said."""
    try:
        by_seat = hands(deal)
    except ValueError:
        return None
    if seat not in by_seat or len(card) != 2 or card[0] not in SUITS:
        return None
    return card[1] in by_seat[seat][SUITS.index(card[0])]

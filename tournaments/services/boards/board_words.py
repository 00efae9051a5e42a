"""Contracts, leads, results and deals as pages and PDFs show them: "4♥X", "♠10", "+1", the four
hands, the double-dummy table and par. Pure (no queries): the stored codes in, display parts out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from tournaments.models import Board

# NT is a word (SA, ST): translated when shown, so a cached row serves every language.
SUITS = {
    "S": ("♠", "suit-s"),
    "H": ("♥", "suit-h"),
    "D": ("♦", "suit-d"),
    "C": ("♣", "suit-c"),
    "NT": (gettext_lazy("NT"), "suit-nt"),
}


SEATS = ("N", "E", "S", "W")


STRAINS = ("NT", "S", "H", "D", "C")


@dataclass(frozen=True)
class Call:
    """A contract or a card split for display: "4" + red "♥" + "X"."""

    text: str
    symbol: str = ""
    css: str = ""
    suffix: str = ""


def contract_call(contract: str) -> Call:
    if not contract:
        return Call("")
    if contract == "PASS":
        return Call("", suffix="PASS")
    level = contract[0]
    rest = contract[1:]
    strain = "NT" if rest.startswith("NT") else rest[:1]
    doubled = rest[len(strain) :]
    symbol, css = SUITS.get(strain, (strain, ""))
    return Call(level, symbol, css, doubled)


def lead_card(lead: str) -> Call:
    if not lead:
        return Call("")
    symbol, css = SUITS.get(lead[0], (lead[0], ""))
    rank = lead[1:].replace("T", "10")
    return Call("", symbol, css, rank)


def trick_result(contract: str, tricks: int | None) -> str:
    """ "=", "+1", "−2" against the contract; empty when passed out or not played."""
    if not contract or contract == "PASS" or tricks is None:
        return ""
    diff = tricks - (int(contract[0]) + 6)
    if diff == 0:
        return "="
    return f"+{diff}" if diff > 0 else f"−{-diff}"


def hand_record(board: Board) -> dict | None:
    """The four hands from the PBN deal, plus the double-dummy table and par when known.

    ``double_dummy`` is read as ``{"N": {"NT": 9, "S": 10, …}, "E": …}`` (declarer, strain,
    tricks) and ``par`` as ``{"score": 420, "contracts": ["4SN="]}`` (``services.boards``).
    """
    hands = parse_deal(board.deal)
    if hands is None:
        return None
    return {
        "hands": hands,
        "double_dummy": double_dummy_rows(board.double_dummy),
        "par": par_text(board.par),
        "dealer": board.dealer,
        "vulnerability": board.get_vulnerability_display(),
    }


def parse_deal(deal: str) -> dict | None:
    """``"N:AKQ.JT9.876.5432 …"`` → ``{"N": [("♠", "suit-s", "AKQ"), …], …}``."""
    if not deal or ":" not in deal:
        return None
    first, _, rest = deal.strip().partition(":")
    parts = rest.split()
    first = first.strip().upper()
    if first not in SEATS or len(parts) != 4:
        return None
    start = SEATS.index(first)
    hands = {}
    for i, text in enumerate(parts):
        suits = text.split(".")
        if len(suits) != 4:
            return None
        hands[SEATS[(start + i) % 4]] = [
            (SUITS[s][0], SUITS[s][1], (cards.replace("T", "10") or "—"))
            for s, cards in zip(("S", "H", "D", "C"), suits, strict=True)
        ]
    return hands


def double_dummy_rows(data) -> list[dict]:
    if not isinstance(data, Mapping):
        return []
    rows = []
    for seat in ("N", "S", "E", "W"):
        per = data.get(seat)
        if isinstance(per, Mapping):
            rows.append({"seat": seat, "tricks": [per.get(s, per.get(s.lower())) for s in STRAINS]})
    return rows


PAR_CONTRACT = re.compile(r"^\s*([1-7])\s*(NT|[CDHS])(X{0,2})\s*([NESW]*)\s*(.*)$")


def par_text(data) -> dict | None:
    """``{"score": 420, "contracts": [{"call": Call, "rest": "N="}]}`` from the stored par
    (``{"score", "contracts": ["4SN="]}``); unknown shapes are shown as text."""
    if not data:
        return None
    if not isinstance(data, Mapping):
        return {"score": None, "contracts": [], "text": str(data)}
    contracts = []
    for text in data.get("contracts", ()):
        m = PAR_CONTRACT.match(str(text))
        if m is None:
            contracts.append({"call": Call(str(text)), "rest": ""})
        else:
            contracts.append(
                {
                    "call": contract_call(m.group(1) + m.group(2) + m.group(3)),
                    "rest": f"{m.group(4)}{m.group(5)}",
                }
            )
    return {"score": data.get("score"), "contracts": contracts, "text": ""}


def strain_headers() -> list[tuple[str, str]]:
    return [SUITS[s] for s in STRAINS]

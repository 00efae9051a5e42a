"""Hand records from dealing machines: Duplimate's ``.dup`` file (besides PBN).

Clubs that deal with a Duplimate machine receive the boards' hands as a ``.dup`` file. Each
board is a record of 156 bytes (the layout Duplimate publishes for converting programs):

- bytes 1-78, the "BRI" part: North's, East's and South's 13 cards as two-digit numbers,
  ``01`` the ace of spades … ``13`` the two of spades, ``14``-``26`` hearts, ``27``-``39``
  diamonds, ``40``-``52`` clubs, in any order; West holds the 13 cards left;
- bytes 79-146, the "DGE" part: the same four hands, North, East, South, West, 17 bytes each:
  each suit's ranks (``AKQJT98765432``) after its symbol in the DOS character set, ``\x06``
  spades, ``\x03`` hearts, ``\x04`` diamonds, ``\x05`` clubs (as the open-source ``pbn``
  package's DGE and DUP readers take them). The BRI part is the deal; a DGE part in that
  form must hold the same hands, or the record is refused (a damaged file);
- bytes 147-156, how the set was dealt: random (Y/N), counted backwards (Y/N), the lowest
  board number (3 characters), copies of each board (2), the highest board number (3).

Checked against two open-source programs: the ``pbn`` package's reader (richardschneider/pbn,
``lib/dup-to-pbn.js``, ``lib/dge-to-pbn.js``) and Big Deal's writer (hansvanstaveren/BigDeal,
``output.c``), which writes the records back to back, the DGE part with the DOS suit symbols
or, for board 1 of a "blind" set, 68 spaces, and the trailer ``YN1  0 `` with the number of
boards as two digits (copies 0).

Records follow each other, possibly with line breaks between them. The board numbers run from
the lowest (or down from the highest when counted backwards). All or nothing: every problem of
the file is listed and nothing is stored unless every board is sound.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from tournaments.services.boards.deals import normalise_deal, takes_deal

from ..scoring.deals import RANKS, SUITS
from ..services.errors import TournamentError

RECORD = 156
DGE_SUITS = {6: "S", 3: "H", 4: "D", 5: "C"}  # the DOS character set's ♠ ♥ ♦ ♣
DGE = re.compile(rb"[AKQJT98765432\x03-\x06]{68}")


class DealerFileError(TournamentError):
    """The file was refused; ``problems`` lists every bad board (nothing was imported)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            _("Nothing was imported: %(count)s problem(s) in the file.") % {"count": len(problems)},
            "file",
        )
        self.problems = problems


def looks_like_dup(name: str, raw: bytes) -> bool:
    """A ``.dup`` file by its name, or by its first record (78 digits)."""
    return name.lower().endswith(".dup") or raw[:78].isdigit()


def _card(code: int) -> tuple[str, str]:
    return SUITS[(code - 1) // 13], RANKS[(code - 1) % 13]


def _records(raw: bytes) -> list[bytes]:
    body = raw.replace(b"\r", b"").replace(b"\n", b"")
    return [body[i : i + RECORD] for i in range(0, len(body), RECORD)]


def _number(field: bytes) -> int | None:
    text = field.decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def deal_of(record: bytes) -> str:
    """The deal of one record's BRI part as PBN (``N:…``); ``ValueError`` when it is not one."""
    digits = record[:78].decode("ascii", "replace")
    if not digits.isdigit():
        raise ValueError(_("the first 78 characters are not card numbers"))
    codes = [int(digits[i : i + 2]) for i in range(0, 78, 2)]
    if any(not 1 <= c <= 52 for c in codes):
        raise ValueError(_("a card number is not between 01 and 52"))
    if len(set(codes)) != 39:
        raise ValueError(_("a card is given twice"))
    west = [c for c in range(1, 53) if c not in codes]
    seats = [codes[0:13], codes[13:26], codes[26:39], west]
    hands = []
    for cards in seats:
        by_suit = {s: "" for s in SUITS}
        for suit, rank in sorted((_card(c) for c in cards), key=lambda x: RANKS.index(x[1])):
            by_suit[suit] += rank
        hands.append(".".join(by_suit[s] for s in SUITS))
    deal = normalise_deal("N:" + " ".join(hands))
    machine = dge_deal(record[78:146])
    if machine is not None and machine != deal:
        raise ValueError(
            _("the machine's hands (DGE part) are not the hands of the card numbers (BRI part)")
        )
    return deal


def dge_deal(part: bytes) -> str | None:
    """The DGE part's four hands as PBN, or None when the part is not in that form (a writer
    may leave it blank)."""
    if not DGE.fullmatch(part) or part[0] != 6:
        return None
    hands: list[dict[str, str]] = []
    suit = ""
    for byte in part:
        if byte == 6:
            hands.append({s: "" for s in SUITS})
        if byte in DGE_SUITS:
            suit = DGE_SUITS[byte]
        else:
            hands[-1][suit] += chr(byte)
    if len(hands) != 4:
        return None
    return "N:" + " ".join(
        ".".join("".join(sorted(h[s], key=RANKS.index)) for s in SUITS) for h in hands
    )


def read_dup(raw: bytes, numbers: set[int]) -> list[tuple[int, str]]:
    """Every board of a ``.dup`` file as (number, deal), checked against the boards in play
    (``numbers``). Raises ``DealerFileError`` listing every problem."""
    records = [r for r in _records(raw) if r.strip(b" \x00\x1a")]
    problems: list[str] = []
    if not records:
        raise DealerFileError([_("The file holds no deals.")])
    out: list[tuple[int, str]] = []
    seen: set[int] = set()
    first = records[0]
    backwards = len(first) == RECORD and first[147:148].upper() == b"Y"
    lowest = _number(first[148:151]) if len(first) == RECORD else None
    highest = _number(first[153:156]) if len(first) == RECORD else None
    for index, record in enumerate(records):
        label = _("Deal %(index)s of the file") % {"index": index + 1}
        if len(record) != RECORD:
            problems.append(
                _(
                    "%(label)s is %(size)s bytes long, not %(record)s: this is not "
                    "a complete Duplimate (.dup) file."
                )
                % {"label": label, "size": len(record), "record": RECORD}
            )
            continue
        if backwards and highest:
            number = highest - index
        else:
            number = (lowest or 1) + index
        label = _("Board %(number)s") % {"number": number}
        if not takes_deal(number, label, seen, numbers, problems):
            continue
        try:
            out.append((number, deal_of(record)))
        except ValueError as exc:
            problems.append(_("%(label)s: %(error)s.") % {"label": label, "error": exc})
    if problems:
        raise DealerFileError(problems)
    return out

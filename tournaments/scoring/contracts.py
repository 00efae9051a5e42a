"""Law 77: the duplicate score of a contract, and traveller contract notation.

Scores are for the declaring side (the Law 77 table is written that way);
``ns_score`` turns one into the NS-point-of-view number every other module
works with. Honours are not scored in duplicate (removed in 1987; the course's
mention of honours in total-points teams, C03 l.167, is obsolete).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .conditions import SEATS, Seat, Vulnerability, is_vulnerable
from .errors import ScoringError

Strain = Literal["C", "D", "H", "S", "NT"]
STRAINS: tuple[Strain, ...] = ("C", "D", "H", "S", "NT")

_STRAIN_ALIASES: dict[str, Strain] = {
    "C": "C",
    "♣": "C",
    "D": "D",
    "♦": "D",
    "H": "H",
    "♥": "H",
    "S": "S",
    "♠": "S",
    "NT": "NT",
    "N": "NT",
    "ST": "NT",
    "SA": "NT",
}
_PASS_WORDS = frozenset({"PASS", "P", "PASO", "AP", "ALLPASS"})
_CONTRACT_RE = re.compile(r"^([0-9]+)(NT|ST|SA|N|C|D|H|S|♣|♦|♥|♠)(X{0,2})$")


@dataclass(frozen=True, slots=True)
class Contract:
    """A bid contract; ``doubled`` is 0 (undoubled), 1 (X) or 2 (XX)."""

    level: int
    strain: Strain
    doubled: int = 0

    def __post_init__(self) -> None:
        if (
            isinstance(self.level, bool)
            or not isinstance(self.level, int)
            or not 1 <= self.level <= 7
        ):
            raise ScoringError("level", self.level, "contract level must be 1..7")
        if self.strain not in STRAINS:
            raise ScoringError("strain", self.strain, "strain must be one of C, D, H, S, NT")
        if self.doubled not in (0, 1, 2):
            raise ScoringError("doubled", self.doubled, "must be 0, 1 (X) or 2 (XX)")

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{'X' * self.doubled}"


def parse_contract(text: str) -> Contract | None:
    """Parse traveller notation (``4S``, ``3NTX``, ``6hxx``, ``PASS``); None means passed out."""
    if not isinstance(text, str):
        raise ScoringError("contract", text, "contract notation must be a string")
    compact = re.sub(r"[\s\-]", "", text).upper()
    if compact in _PASS_WORDS:
        return None
    match = _CONTRACT_RE.match(compact)
    if match is None:
        raise ScoringError(
            "contract", text, "expected level 1-7, strain C/D/H/S/NT, optional X/XX, or PASS"
        )
    level = int(match.group(1))
    if not 1 <= level <= 7:
        raise ScoringError("contract", text, "contract level must be 1..7")
    return Contract(level, _STRAIN_ALIASES[match.group(2)], len(match.group(3)))


def _check_tricks(tricks: int) -> None:
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ScoringError("tricks", tricks, "tricks won by declarer must be 0..13")


def _undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        base = 200 + 300 * (down - 1)
    else:
        base = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return base * doubled  # redoubled is exactly twice doubled


def contract_score(contract: str | Contract | None, tricks: int, vulnerable: bool) -> int:
    """Law 77 score for the declaring side (negative when the contract fails).

    ``contract`` is traveller notation, a ``Contract`` or None (passed out: 0).
    """
    parsed = parse_contract(contract) if isinstance(contract, str) else contract
    _check_tricks(tricks)
    if parsed is None:
        return 0
    if not isinstance(parsed, Contract):
        raise ScoringError("contract", contract, "must be notation text, a Contract or None")
    need = parsed.level + 6
    if tricks < need:
        return -_undertrick_penalty(need - tricks, parsed.doubled, vulnerable)

    multiplier: int = 2**parsed.doubled
    per_trick = 20 if parsed.strain in ("C", "D") else 30
    trick_score = per_trick * parsed.level + (10 if parsed.strain == "NT" else 0)
    trick_score *= multiplier
    score = trick_score
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if parsed.level == 6:
        score += 750 if vulnerable else 500
    elif parsed.level == 7:
        score += 1500 if vulnerable else 1000
    score += 50 * parsed.doubled  # the "insult": 50 doubled, 100 redoubled
    over = tricks - need
    if parsed.doubled == 0:
        score += over * per_trick
    else:
        score += over * (100 if not vulnerable else 200) * parsed.doubled
    return score


def ns_score(
    contract: str | Contract | None,
    declarer: Seat | None,
    tricks: int,
    vulnerability: Vulnerability,
) -> int:
    """The NS-point-of-view result of a traveller line (what matchpoints compare)."""
    parsed = parse_contract(contract) if isinstance(contract, str) else contract
    if parsed is None:
        _check_tricks(tricks)
        return 0
    if declarer not in SEATS:
        raise ScoringError("declarer", declarer, "declarer must be one of N, E, S, W")
    score = contract_score(parsed, tricks, is_vulnerable(vulnerability, declarer))
    return score if declarer in ("N", "S") else -score


def is_congruent(
    contract: str | Contract | None,
    declarer: Seat | None,
    tricks: int,
    vulnerability: Vulnerability,
    entered_ns_score: int,
) -> bool:
    """Whether an entered number matches the entered contract (AEB norm, L17 l.3189).

    On an incongruent entry with no agreement the numeric result prevails, so the
    caller scores ``entered_ns_score`` and flags the line for the director.
    """
    return ns_score(contract, declarer, tricks, vulnerability) == entered_ns_score


def _every_declarer_score() -> frozenset[int]:
    scores = {0}
    for level in range(1, 8):
        for strain in STRAINS:
            for doubled in (0, 1, 2):
                contract = Contract(level, strain, doubled)
                for tricks in range(14):
                    for vulnerable in (False, True):
                        scores.add(contract_score(contract, tricks, vulnerable))
    return frozenset(scores)


# Every score a played board can have under Law 77, from the NS point of view (a declarer's
# score, or its negative when EW declared): a traveller's number outside it is a typo.
LEGAL_NS_SCORES: frozenset[int] = frozenset(
    s for score in _every_declarer_score() for s in (score, -score)
)


def is_legal_score(score: object) -> bool:
    """Whether ``score`` is an NS score some contract, result and vulnerability produce."""
    return isinstance(score, int) and not isinstance(score, bool) and score in LEGAL_NS_SCORES

"""Deals on boards: imported from a PBN file, dealt by the site, analysed double dummy.

A deal is stored as PBN's Deal tag ("N:AKQ.… … … …"). An import is all or nothing: every
board of the file is checked first and the director gets one list of what is wrong, so a
half-imported set never reaches the tables. Double-dummy analysis is slow (DDS), so it runs
in a background task (``tournaments.tasks``); this module holds the work itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Board, Section
from tournaments.scoring.deals import RANKS, SEATS, SUITS
from tournaments.services.boards import pbn_tags
from tournaments.services.errors import TournamentError

STRAINS = ("C", "D", "H", "S", "NT")  # the order players read a double-dummy table in


class PBNImportError(TournamentError):
    """The file was refused; ``problems`` lists every bad board (nothing was imported)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            _("Nothing was imported: %(count)s problem(s) in the file.") % {"count": len(problems)},
            "file",
        )
        self.problems = problems


def normalise_deal(text: str) -> str:
    """Check a PBN Deal value (52 different cards, 13 a hand) and return it from North.

    Raises ``ValueError`` with a readable reason.
    """
    text = (text or "").strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in SEATS:
        raise ValueError(_("a deal starts with the first hand's seat, like N:"))
    first = SEATS.index(text[0].upper())
    hands = text[2:].split()
    if len(hands) != 4:
        raise ValueError(_("a deal has four hands"))
    seen: set[str] = set()
    by_seat: dict[str, str] = {}
    for offset, hand in enumerate(hands):
        seat = SEATS[(first + offset) % 4]
        suits = hand.upper().replace("10", "T").split(".")
        if len(suits) != 4:
            raise ValueError(
                _("%(seat)s's hand needs four suits separated by dots") % {"seat": seat}
            )
        count = 0
        for suit, cards in zip(SUITS, suits, strict=True):
            for rank in cards:
                if rank not in RANKS:
                    raise ValueError(
                        _("%(seat)s holds an unknown card %(card)s") % {"seat": seat, "card": rank}
                    )
                card = suit + rank
                if card in seen:
                    raise ValueError(_("%(card)s appears twice") % {"card": card})
                seen.add(card)
                count += 1
        if count != 13:
            raise ValueError(
                _("%(seat)s has %(count)s cards, not 13") % {"seat": seat, "count": count}
            )
        by_seat[seat] = ".".join("".join(sorted(s, key=RANKS.index)) for s in suits)
    return "N:" + " ".join(by_seat[s] for s in SEATS)


# --- PBN import -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportedDeal:
    number: int
    deal: str


def takes_deal(
    number: int, label: str, seen: set[int], numbers: set[int], problems: list[str]
) -> bool:
    """Whether a hand-record file's board ``number`` may take its deal: given once and played
    in the section (``numbers``); otherwise the problem is listed. Every dealer file's reader
    checks its boards here, so they refuse the same things in the same words."""
    if number in seen:
        problems.append(_("%(label)s appears twice in the file.") % {"label": label})
        return False
    seen.add(number)
    if number not in numbers:
        problems.append(_("%(label)s is not played in this section.") % {"label": label})
        return False
    return True


def read_pbn(text: str, numbers: set[int]) -> list[ImportedDeal]:
    """Every deal of a PBN file, checked against the boards in play (``numbers``).

    Only ``[Board]`` and ``[Deal]`` are read (``pbn_tags``): a results file's auctions, play
    and score tables never refuse a hand record. A results file writes one game per table,
    each repeating its board's deal: the same deal again is the same board; two different
    deals for one board are an error naming it. Raises ``PBNImportError`` listing every
    problem; returns nothing half-checked.
    """
    problems: list[str] = []
    out: list[ImportedDeal] = []
    seen: set[int] = set()
    dealt: dict[int, str] = {}
    for index, game in enumerate(pbn_tags.games(text), start=1):
        board_text, deal_text = game.get("Board", "").strip(), game.get("Deal", "").strip()
        if not deal_text:
            continue  # a game of the file that carries no hand (a header, an event's totals)
        label = (
            _("Board %(number)s") % {"number": board_text}
            if board_text
            else _("Deal %(index)s of the file") % {"index": index}
        )
        if not board_text.isdigit() or int(board_text) < 1:
            problems.append(_("%(label)s has no board number.") % {"label": label})
            continue
        number = int(board_text)
        try:
            deal = normalise_deal(deal_text)
        except ValueError as exc:
            problems.append(_("%(label)s: %(error)s.") % {"label": label, "error": exc})
            continue
        if number in dealt:
            if dealt[number] != deal:
                problems.append(
                    _("%(label)s appears twice in the file with two different deals.")
                    % {"label": label}
                )
            continue
        dealt[number] = deal
        if takes_deal(number, label, seen, numbers, problems):
            out.append(ImportedDeal(number, deal))
    if not out and not problems:
        problems.append(_("The file holds no deals."))
    if problems:
        raise PBNImportError(problems)
    return out


def import_pbn(section: Section, text: str) -> list[Board]:
    """Store the PBN file's deals on the section's boards (its pool), all or nothing."""
    return import_deals(section, lambda numbers: read_pbn(text, numbers))


@transaction.atomic
def import_deals(section: Section, read) -> list[Board]:
    """Store a hand-record file's deals on the section's boards (its pool), all or nothing;
    ``read(numbers)`` reads the file against the pool's board numbers (PBN, or a dealing
    machine's file: ``imports.dealer_dup``) and raises ``PBNImportError``."""
    boards = {
        b.number: b
        for b in Board.objects.select_for_update(no_key=True).filter(
            session_id=section.session_id, pool=section.pool
        )
    }
    deals = read(set(boards))
    changed = []
    for item in deals:
        board = boards[item.number]
        if board.deal != item.deal:
            board.deal, board.double_dummy, board.par = item.deal, None, None
            changed.append(board)
    Board.objects.bulk_update(changed, ["deal", "double_dummy", "par"])
    return [boards[item.number] for item in deals]


# --- dealing --------------------------------------------------------------------------------


def random_deal(rng: random.Random) -> str:
    """One deal, shuffled by endplay from a seed taken from ``rng`` (reproducible)."""
    from endplay.dealer import generate_deal

    return normalise_deal(generate_deal(seed=rng.randrange(2**32)).to_pbn())


@transaction.atomic
def deal_boards(section: Section, *, seed: int | None = None, replace: bool = False) -> list[Board]:
    """Deal the section's boards that have no deal yet (all of them with ``replace``)."""
    rng = random.Random(seed)
    boards = list(
        Board.objects.select_for_update(no_key=True)
        .filter(session_id=section.session_id, pool=section.pool)
        .order_by("number")
    )
    changed = []
    for board in boards:
        if board.deal and not replace:
            continue
        board.deal, board.double_dummy, board.par = random_deal(rng), None, None
        changed.append(board)
    Board.objects.bulk_update(changed, ["deal", "double_dummy", "par"])
    return changed


# --- double dummy ---------------------------------------------------------------------------


def analyse(deal: str, dealer: str, vulnerability: str) -> tuple[dict, dict]:
    """Double-dummy tricks ``{"N": {"C": 9, …, "NT": 8}, …}`` and par
    ``{"score": NS score, "contracts": ["4SN=", …]}`` for one deal."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Denom, Player, Vul

    table = calc_dd_table(Deal(deal))
    denoms = {
        "C": Denom.clubs,
        "D": Denom.diamonds,
        "H": Denom.hearts,
        "S": Denom.spades,
        "NT": Denom.nt,
    }
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    tricks = {
        seat: {strain: int(table[denoms[strain], player]) for strain in STRAINS}
        for seat, player in players.items()
    }
    vul = {"": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vulnerability or ""]
    result = par(table, vul, players[dealer])
    letters = {
        Denom.clubs: "C",
        Denom.diamonds: "D",
        Denom.hearts: "H",
        Denom.spades: "S",
        Denom.nt: "NT",
    }
    contracts = []
    for contract in result:
        penalty = {2: "X", 4: "XX"}.get(int(contract.penalty), "")
        outcome = int(contract.result)
        outcome_text = "=" if outcome == 0 else f"{outcome:+d}"
        contracts.append(
            f"{contract.level}{letters[contract.denom]}{penalty}"
            f"{SEATS[int(contract.declarer)]}{outcome_text}"
        )
    return tricks, {"score": int(result.score), "contracts": sorted(set(contracts))}


def analyse_boards(boards) -> int:
    """Analyse each board with a deal and store the table and par; returns how many."""
    done = 0
    for board in boards:
        if not board.deal:
            continue
        board.double_dummy, board.par = analyse(board.deal, board.dealer, board.vulnerability)
        board.save(update_fields=["double_dummy", "par"])
        done += 1
    return done

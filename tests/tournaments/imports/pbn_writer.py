"""PBN files as other programs write them, for the hand-record reader's tests.

``results_file`` writes a results file the way club scorers and online platforms do: one game
per table result, each repeating its board's deal (or ``#`` for "as the previous game"), with
an auction and a play section (a passed-out board's play section has no contract), a score
table, ``{}`` comments holding brackets, ``;`` comments, ``%`` directives, a byte-order mark
and CRLF line ends when asked. Deals come from the caller; nothing is copied from a real file.
"""

from __future__ import annotations

VULNERABLE = ("None", "NS", "EW", "All")


def _game(board: int, deal: str, table: int, *, passed: bool, repeat: bool) -> str:
    dealer = "NESW"[(board - 1) % 4]
    deal_value = "#" if repeat else deal
    lines = [
        '[Event "Torneo de los jueves"]',
        '[Site "Club"]',
        '[Date "2024.03.12"]',
        f'[Board "{board}"]',
        '[West "Oeste"]',
        '[North "Norte"]',
        '[East "Este"]',
        '[South "Sur"]',
        f'[Dealer "{dealer}"]',
        f'[Vulnerable "{VULNERABLE[(board - 1) % 4]}"]',
        f'[Deal "{deal_value}"]',
        '[Scoring "MP"]',
        f'[Round "{table}"]',
        f'[Table "{table}"]',
    ]
    if passed:
        lines += [
            '[Declarer ""]',
            '[Contract "Pass"]',
            '[Result ""]',
            f'[Auction "{dealer}"]',
            "Pass Pass Pass Pass",
            '[Play ""]',
            "{ no play: [the board was passed out] }",
            "*",
        ]
    else:
        lines += [
            '[Declarer "S"]',
            '[Contract "4S"]',
            '[Result "10"]',
            f'[Auction "{dealer}"]',
            "1S Pass 2S Pass",
            "4S Pass Pass Pass",
            '[Play "W"]',
            "H2 H3 HA H4",
            "*",
            '[Score "NS 420"]',
        ]
    lines += [
        '[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Score_NS\\5R"]',
        f"{table:>2} {table:>2} {table + 10:>2} {'0' if passed else '420':>5}",
    ]
    return "\n".join(lines)


def results_file(
    deals: dict[int, str],
    *,
    tables: int = 3,
    passed: frozenset = frozenset(),
    hashes: bool = False,
    bom: bool = False,
    crlf: bool = False,
) -> str:
    """A results file: ``tables`` games per board, each with the board's deal."""
    games = ["% PBN 2.1", "% EXPORT", "{ Hand records: see [Deal] of each game; ; is fine }"]
    for board, deal in sorted(deals.items()):
        for table in range(1, tables + 1):
            games.append(
                _game(board, deal, table, passed=board in passed, repeat=hashes and table > 1)
                + "\n; end of the table's game"
            )
    text = "\n\n".join(games) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    return ("\ufeff" if bom else "") + text

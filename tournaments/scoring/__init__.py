"""Pure-Python scoring core for duplicate bridge (no Django imports).

Faithful to the 2017 Laws with the AEB notes and to the 2003 AEB directors'
course; see ``docs`` in the modules for where the sources were interpreted.
Scores are NS-point-of-view integers; matchpoints are on the 2-per-comparison
scale and kept exact (``fractions.Fraction``) except in the float-returning
convenience functions ``matchpoints`` and ``cross_imps``.
"""

from .adjusted import (
    AVERAGE,
    AVERAGE_PLUS_EW,
    AVERAGE_PLUS_NS,
    Artificial,
    Entry,
    NotPlayed,
    Real,
    Role,
    Split,
    Unplayed,
    Weighted,
    artificial_percentage,
    as_entry,
    fouled_group_percentages,
    procedural_penalty,
    relay_correction,
    unplayed_board_percentage,
    unplayed_session_percentage,
)
from .board import BoardScore, LineMarks, score_board
from .butler import (
    LineImps,
    PairMatch,
    butler_datum,
    butler_imps,
    match_victory_points,
    score_imp_pairs_board,
)
from .conditions import board_conditions, is_vulnerable
from .contracts import (
    LEGAL_NS_SCORES,
    Contract,
    contract_score,
    is_congruent,
    is_legal_score,
    ns_score,
    parse_contract,
)
from .errors import ScoringError
from .imps import cross_imp_sums, cross_imps, cross_imps_exact, imps
from .individual import (
    IndividualBoard,
    IndividualImps,
    IndividualLine,
    PlayerImps,
    score_individual_imps,
    score_individual_session,
)
from .matchpoints import (
    base_matchpoints,
    matchpoints,
    matchpoints_exact,
    neuberg,
    top_for,
    value_against,
)
from .ranking import Ranked, Standing, display_round, rank
from .session import (
    BoardResult,
    EventTotal,
    PairBoard,
    PairTotal,
    Penalty,
    SessionScore,
    TravellerLine,
    combine_sessions,
    score_session,
)
from .teams import (
    ArtificialImps,
    MatchResult,
    TeamBoard,
    board_a_match,
    knockout_board,
    knockout_margin,
    match_imps,
    patton_points,
    team_board,
    total_points,
)
from .vp import match_vps, team_vps, victory_points, vp_for_margin, wbf20_table

__all__ = [
    "AVERAGE", "AVERAGE_PLUS_EW", "AVERAGE_PLUS_NS", "Artificial", "ArtificialImps",
    "BoardResult", "BoardScore", "Contract", "Entry", "EventTotal", "LEGAL_NS_SCORES", "LineImps",
    "LineMarks",
    "MatchResult", "NotPlayed", "PairBoard", "PairTotal", "Penalty", "Ranked", "Real", "Role",
    "ScoringError", "SessionScore", "Split", "Standing", "TeamBoard", "TravellerLine",
    "Unplayed", "Weighted", "artificial_percentage", "as_entry", "base_matchpoints",
    "board_a_match", "board_conditions", "butler_datum", "butler_imps", "combine_sessions",
    "contract_score", "cross_imp_sums", "cross_imps", "cross_imps_exact", "display_round",
    "fouled_group_percentages", "imps", "IndividualBoard", "IndividualImps", "PairMatch", "match_victory_points", "IndividualLine", "PlayerImps", "score_individual_imps", "is_congruent", "is_legal_score", "is_vulnerable", "knockout_board",
    "knockout_margin", "match_imps", "matchpoints", "matchpoints_exact", "neuberg",
    "ns_score", "parse_contract", "patton_points", "procedural_penalty", "rank",
    "relay_correction", "score_board", "score_imp_pairs_board", "score_individual_session", "score_session",
    "team_board", "top_for", "total_points", "unplayed_board_percentage",
    "match_vps", "team_vps", "unplayed_session_percentage", "value_against", "victory_points", "vp_for_margin",
    "wbf20_table",
]

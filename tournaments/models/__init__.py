"""Tournaments as stored: events, seating, boards, results, their audit trail and rankings.

Split by what each module holds; import from ``tournaments.models`` as usual.
"""

from . import uploads  # noqa: F401  (background jobs: uploads, imports, PDFs)
from .audit import AuditAction, AuditEntry
from .boards import Board, TableCode, Vulnerability
from .calls import DirectorCall
from .entries import Direction, Entry, EntryPlayer, EntryStatus, Seating
from .event import (
    EventType,
    ScoringMethod,
    Section,
    Session,
    SessionStatus,
    Tournament,
    TournamentStatus,
    VPScale,
)
from .lineups import TeamLineup
from .mailings import MailingKind, PlayerMail, ResultsMailing
from .money import (
    BalanceKind,
    BalanceMove,
    CashSheet,
    FeeCategory,
    TableFee,
    TableFeeMove,
    TableFeeRates,
    TableMethod,
)
from .points import PointsAward, PointsAwarding, PointsIssuer, PointsScale, PointsScaleRow
from .rankings import RankingScope, StoredMark, StoredMatch, StoredRanking
from .registrations import (
    PartnerRequest,
    Registration,
    RegistrationPlayer,
    RegistrationStatus,
)
from .results import BoardState, Penalty, Result, ResultStatus
from .room import RoomScreen
from .season_rule import SeasonRankingRule, SeasonRule
from .teams import (
    KnockoutSeeding,
    KnockoutTie,
    RoundRobinMethod,
    TeamEvent,
    TeamFormat,
    TeamMatch,
    TeamScoring,
    TieBreak,
    TieBreakOrder,
)

__all__ = [
    "BalanceKind",
    "BalanceMove",
    "CashSheet",
    "FeeCategory",
    "TableFee",
    "TableFeeMove",
    "TableFeeRates",
    "TableMethod",
    "AuditAction",
    "AuditEntry",
    "Board",
    "Direction",
    "DirectorCall",
    "Entry",
    "EntryPlayer",
    "EntryStatus",
    "BoardState",
    "EventType",
    "Penalty",
    "RankingScope",
    "Result",
    "ResultStatus",
    "RoomScreen",
    "ScoringMethod",
    "Seating",
    "SeasonRankingRule",
    "SeasonRule",
    "Section",
    "Session",
    "SessionStatus",
    "StoredMark",
    "StoredMatch",
    "StoredRanking",
    "TableCode",
    "Tournament",
    "TournamentStatus",
    "Vulnerability",
    "PartnerRequest",
    "PointsAward",
    "PointsAwarding",
    "PointsIssuer",
    "PointsScale",
    "PointsScaleRow",
    "Registration",
    "RegistrationPlayer",
    "RegistrationStatus",
    "KnockoutSeeding",
    "KnockoutTie",
    "RoundRobinMethod",
    "TeamEvent",
    "TeamFormat",
    "TeamLineup",
    "TeamMatch",
    "TeamScoring",
    "TieBreak",
    "TieBreakOrder",
    "VPScale",
    "MailingKind",
    "PlayerMail",
    "ResultsMailing",
]

"""Errors the tournament services raise; messages are translated for the person who caused them."""

from django.core.exceptions import PermissionDenied


class TournamentError(Exception):
    """A request the rules refuse (wrong state, bad data); ``field`` names the input at fault."""

    def __init__(self, message, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidResult(TournamentError):
    """A result the scoring rules refuse (contract, declarer, tricks or adjustment)."""


class NotAllowed(PermissionDenied):
    """A table device (or user) tried to write what is not theirs to write."""


class CorrectionPeriodOver(TournamentError):
    """The Law 79C correction period has ended and no override was given."""


class KeyReused(TournamentError):
    """A device sent a result under a key it already used for a *different* result: not a
    replay (that gets the stored row back), so nothing is written or overwritten (a 409)."""

"""The error every USEBIO reader raises for a file it cannot trust, and how a bad value is
quoted in its message."""

from __future__ import annotations

from ..services.errors import TournamentError


class UsebioError(TournamentError):
    """The file cannot be imported; nothing was written."""


def shown(value: str) -> str:
    """A value quoted in a message, cut short (a hostile file's megabyte of digits)."""
    return value if len(value) <= 40 else value[:40] + "…"

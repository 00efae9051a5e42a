"""The writer of an event's file: USEBIO or PBN, for pairs and individuals or for teams.

Each writer takes the event's snapshot (``services.snapshot``) only; this picks the one for
the format and the kind of event, and refuses a teams event USEBIO cannot carry.
"""

from __future__ import annotations

from tournaments.services.results.snapshot import EventSnapshot

from ..models import EventType
from . import pbn, pbn_teams, usebio, usebio_teams

FORMATS = ("usebio", "pbn")


def write(data: EventSnapshot, fmt: str = "usebio") -> str:
    """``data`` as USEBIO 1.2 (``fmt`` "usebio"; a teams event our USEBIO cannot carry is
    refused with a ``TournamentError``) or PBN 2.1 ("pbn") text."""
    teams = data.tournament.event_type == EventType.TEAMS
    if fmt == "pbn":
        return pbn_teams.render_teams(data) if teams else pbn.render(data)
    if fmt != "usebio":
        raise ValueError(f"unknown format {fmt!r}")
    usebio.check_expressible(data.tournament)
    return usebio_teams.render(data) if teams else usebio.render(data)

"""Bridge movements and seat assignments (issue #4), pure Python: generate, validate, describe.

Import from here; the submodules are an implementation detail::

    from tournaments.movements import mitchell, howell, individual, round_robin, validate
"""

from .advice import Suggestion, advise
from .cards import CardLine, TableCardLine
from .design import Design
from .howell import butler, howell
from .individual import individual, position_table_16
from .mitchell import max_mitchell_rounds, mitchell
from .model import Movement
from .rounds import Contestant, MovementError, Round, TableRound
from .sessions import (
    Seat,
    SessionSeating,
    mixed_seats,
    pool_assignment,
    pool_opponents,
    seat_next_session,
    serpentine,
)
from .teams import (
    Bracket,
    KnockoutMatch,
    Match,
    MatchRound,
    Pairing,
    Schedule,
    inverse_square,
    knockout,
    patton,
    roman_square,
    round_robin,
    swiss_pairings,
    triplicate,
)
from .validate import validate

__all__ = [
    "Bracket",
    "CardLine",
    "Contestant",
    "Design",
    "KnockoutMatch",
    "Match",
    "MatchRound",
    "Movement",
    "MovementError",
    "Pairing",
    "Round",
    "Schedule",
    "Seat",
    "SessionSeating",
    "Suggestion",
    "TableCardLine",
    "TableRound",
    "advise",
    "butler",
    "howell",
    "individual",
    "inverse_square",
    "knockout",
    "max_mitchell_rounds",
    "mitchell",
    "mixed_seats",
    "patton",
    "pool_assignment",
    "pool_opponents",
    "position_table_16",
    "roman_square",
    "round_robin",
    "seat_next_session",
    "serpentine",
    "swiss_pairings",
    "triplicate",
    "validate",
]

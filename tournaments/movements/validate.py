"""Independent checks of a movement against the universal properties (P1-P5) and its own claims.

The validator never trusts the generator: it recomputes everything from the table entries, so a
movement typed in by hand (``Movement.from_dict``) is checked exactly like a generated one.
Problems are returned as sentences a tournament director can act on; an empty list means sound.
"""

from __future__ import annotations

from .model import Movement
from .problems import report
from .soundness import is_sound


def validate(movement: Movement) -> list[str]:
    """Return human-readable problems; empty when the movement keeps every promise it makes.

    Two tiers: ``soundness.is_sound`` checks every property with whole-movement set and counter
    operations and answers True only when the detailed checks would find nothing (False at the
    least doubt).  Whenever it does not answer True, the detailed checks (``problems.report``)
    run and word the problems, so a broken movement gets exactly the sentences it always got.
    """
    try:
        if is_sound(movement):
            return []
    except (TypeError, ValueError):
        pass  # unusual data (unhashable or unorderable values): the detailed checks decide
    return report(movement)

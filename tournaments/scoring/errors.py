"""The one exception type the scoring core raises.

It subclasses ValueError so callers that already guard user input with
``except ValueError`` keep working; the Django layer catches it to show a
translated message next to the offending field (``field`` names it).
"""

from __future__ import annotations


class ScoringError(ValueError):
    """Invalid scoring input; ``field`` and ``value`` say which input was wrong."""

    def __init__(self, field: str, value: object, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"{field}={value!r}: {reason}")

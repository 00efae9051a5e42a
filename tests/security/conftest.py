"""The security tests reach every app: they borrow the tournament fixtures."""

from tests.tournaments.conftest import (  # noqa: F401 (fixtures used by name)
    members,
    mitchell_session,
    movements,
    pairs,
)

"""A page read writes nothing: every GET route of the permission matrix, requested by every
role it admits (the world of ``conftest.py``), may write only the caches reading is allowed to
bring up to date (a session's stored classification and its version, the login session, the
sign-in audit). A page that awarded points, charged fees or touched any other row while
someone read it fails here, naming the route, the role and the table."""

import re

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from tests.security.permission_expectations import DECISIONS, GET, REFUSALS, ROLES
from tests.security.route_args import url_of
from tests.sql_writes import writes

# What a GET may write: recomputed classifications (``classification.ensure_current`` and
# ``refresh``, which store what they compute) and the bookkeeping of who is signed in.
CACHES = {
    "tournaments_storedranking",
    "tournaments_storedmark",
    "tournaments_storedmatch",
    "django_session",
    "axes_accessattempt",
    "axes_accesslog",
    "axes_accessfailurelog",
}
# A session's row only for the version of that recomputation.
SESSION_CACHE = re.compile(
    r'^UPDATE "tournaments_session" SET ("(ranking_version|'
    r'classified_through)" = [^,]+?(, )?)+ WHERE',
    re.IGNORECASE,
)


def not_a_cache(query) -> list[str]:
    """``query``'s write when it is not a cache's ("UPDATE tournaments_tablefee"), else []."""
    found = writes([query])
    if not found or found[0][1] in CACHES or SESSION_CACHE.match(query["sql"]):
        return []
    return [" ".join(found[0])]


PAGES = sorted(name for name, decision in DECISIONS.items() if decision.method == GET)


@pytest.mark.django_db
@pytest.mark.engine_neutral  # the statements a read sends, whichever engine runs them
@pytest.mark.parametrize("name", PAGES)
def test_a_get_writes_nothing_but_caches(world, name):
    url = url_of(name, world)
    admitted = [role for role in ROLES if DECISIONS[name].outcomes[role] not in REFUSALS]
    problems = []
    for role in admitted:
        client = world.client(role)
        with (
            CaptureQueriesContext(connection) as queries,
            TestCase.captureOnCommitCallbacks(execute=True),
        ):  # what commit would run
            client.get(url)
        wrote = sorted({w for query in queries.captured_queries for w in not_a_cache(query)})
        if wrote:
            problems.append(f"GET {name} as {role} wrote: {', '.join(wrote)}")
    assert not problems, "\n".join(problems)

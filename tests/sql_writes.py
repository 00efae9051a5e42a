"""Which tables a block of SQL wrote, from the queries Django captured: the tests that hold
GET pages to reading use it (``CaptureQueriesContext``)."""

import re

_WRITE = re.compile(
    r'^\s*(INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE
)


def writes(queries) -> list[tuple[str, str]]:
    """(verb, table) of every INSERT, UPDATE and DELETE among ``queries`` (savepoints and
    reads aside), in order."""
    out = []
    for query in queries:
        match = _WRITE.match(query["sql"])
        if match:
            out.append((match.group(1).split()[0].upper(), match.group(2)))
    return out

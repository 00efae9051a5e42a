"""Whole numbers from a query string or a form, where anything else means "not given".

``?season=abc`` or ``?pair=<script>`` on a public page is a typo or a probe, not a server
error: the pages fall back to their default instead of letting ``int()`` or a primary-key
lookup raise (a ValueError inside the ORM, a NoReverseMatch in a template, a 500).
"""

MAX_ID = 2**31 - 1  # the largest primary key either database stores in an integer column


def int_param(
    query, name: str, default: int | None = None, *, low: int = 1, high: int = MAX_ID
) -> int | None:
    """``query[name]`` as an int between ``low`` and ``high``, else ``default``."""
    text = (query.get(name) or "").strip()
    if not text.isascii() or not text.lstrip("-").isdigit() or len(text) > 12:
        return default
    value = int(text)
    return value if low <= value <= high else default

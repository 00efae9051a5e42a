"""Conditional answers for the live rankings: an ETag per stored ranking, 304 when unchanged.

While a session is played, dozens of phones reload (or poll) its ranking every few seconds,
and the ranking changes only when the worker stores a new version. The page's ETag names
everything the page shows that can change: the stored version and its stamp, whether newer
results are on their way, the publication state and the Law 79C window, the language, the
query string (the sort), and who is looking (the menu by role, the CSRF secret the page's
forms carry, hashed). A browser that sends it back (``If-None-Match``; ``Cache-Control: no-cache``
makes every browser revalidate) gets a 304 with no body: two queries, no rendering. A page
with a message waiting to be shown is always sent in full, so the message is not lost.
"""

from __future__ import annotations

import hashlib

from django.contrib.messages import get_messages
from django.http import HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language

from tournaments.services.results import pages as results


def ranking_etag(request, session, scope: str, pending: bool) -> str | None:
    """The ETag of a session's ranking page as this visitor sees it now (None: no ETag)."""
    if len(get_messages(request)):
        return None
    tournament = session.tournament
    stamp = session.classified_through.timestamp() if session.classified_through else 0
    user = request.user.pk if request.user.is_authenticated else 0
    parts = (
        session.pk,
        scope,
        session.ranking_version,
        stamp,
        int(pending),
        tournament.status,
        int(results.correction_period(tournament)["running"]),
        get_language(),
        request.META.get("QUERY_STRING", ""),
        user,
        _csrf_secret(request),
    )
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=12)
    return quote_etag(digest.hexdigest())


def _csrf_secret(request) -> str:
    """The CSRF secret the page's forms are made from: the visitor's cookie, or the one this
    answer will set (a first visit), so the next request's ETag is the same."""
    get_token(request)
    return request.META.get("CSRF_COOKIE", "")


def not_modified(request, etag: str | None) -> HttpResponseNotModified | None:
    """A 304 when the visitor already holds the page named by ``etag``."""
    if etag is None:
        return None
    sent = parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
    if etag not in sent:  # "*" is not honoured: only a page once sent is answered 304
        return None
    return revalidate(HttpResponseNotModified(), etag)


def revalidate(response, etag: str | None):
    """Label ``response`` with ``etag`` and ask browsers to check it before each reuse."""
    if etag is not None:
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True)
    return response

"""Which club a request is for, from its host name; every request runs in that club's scope.

A club is reached by its own host name (``Club.host``), or by its short name as a
sub-domain of the installation's base domain (``CLUB_BASE_DOMAIN``: ``madrid.clubs.example``).
A host that names no club reaches the default club (``DEFAULT_CLUB_ID``), so a one-club
installation keeps its URLs; with no default it is not found.

The host's club id and the club's row are kept in the cache (an hour in a shared cache, a
minute in each process's memory: ``club_cache_seconds``; saving a club forgets both:
``Club.save``), so a request costs no query for them once the cache is warm. Where another
club's pages are, for a link to them: ``club_address``.
"""

from contextlib import suppress

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.http import FileResponse, Http404
from django.views.defaults import page_not_found

from clubsite.models import HOST_CACHE_KEY, Club, club_cache_seconds
from clubsite.tenancy import club_scope, default_club_id

NO_CLUB = 0  # cached for a host that reaches no club


def club_id_for_host(host: str) -> int | None:
    """The id of the club ``host`` reaches, or None. A cold cache costs one query, which
    also leaves the club's row in the cache for the page's header (``Club.for_pages``)."""
    host = host.lower()
    key = HOST_CACHE_KEY.format(host)
    with suppress(Exception):
        found = cache.get(key)
        if found is not None:
            return found or None
    club = _look_up(host)
    with suppress(Exception):
        cache.set(key, club.pk if club else NO_CLUB, club_cache_seconds())
    if club is None:
        return None
    club.keep_cached()
    return club.pk


def _look_up(host: str) -> Club | None:
    base = settings.CLUB_BASE_DOMAIN
    slug = host[: -len(base) - 1] if base and host.endswith("." + base) else None
    lookup = Q(host=host)
    if slug:
        lookup |= Q(slug=slug)
    default = default_club_id()
    if default is not None:
        lookup |= Q(pk=default)
    # the club whose short name the sub-domain is, then the one holding the host name, then
    # the default club (a host name under the base domain never outranks a short name)
    candidates = sorted(
        Club.objects.filter(lookup),
        key=lambda club: (not slug or club.slug != slug, club.host != host, club.pk == default),
    )
    return candidates[0] if candidates else None


class ClubMiddleware:
    """Runs each request in the scope of the club its host reaches (``request.club_id``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        club_id = club_id_for_host(request.get_host().rsplit(":", 1)[0])
        if club_id is None:
            return page_not_found(request, Http404())
        request.club_id = club_id
        with club_scope(club_id):
            response = self.get_response(request)
            if getattr(response, "streaming", False) and not isinstance(response, FileResponse):
                response.streaming_content = _in_scope(response.streaming_content, club_id)
            return response


def _in_scope(chunks, club_id):
    """A streamed body is read after the middleware returns: read it in the club's scope."""
    with club_scope(club_id):
        yield from chunks


def club_address(request, club: Club) -> str | None:
    """Where ``club``'s own pages are: its host or sub-domain (``SITE_URL``'s scheme, else
    this request's scheme and port); "" (this very site) for the club of this request's host;
    None for a club no address reaches (no host, no sub-domain)."""
    if club.host or (club.slug and settings.CLUB_BASE_DOMAIN):
        if settings.SITE_URL:
            return club.site_url
        host = club.host or f"{club.slug}.{settings.CLUB_BASE_DOMAIN}"
        port = request.get_port()
        suffix = "" if port in ("80", "443") else f":{port}"
        return f"{request.scheme}://{host}{suffix}"
    if club.pk == getattr(request, "club_id", None):
        return ""
    return None

"""Where a form may send the browser next: a ``next`` that came with the request is only
followed when it stays on this site (``url_has_allowed_host_and_scheme``), so a crafted link
cannot turn a director's click into a trip to someone else's page (an open redirect)."""

from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request, fallback: str, field: str = "next") -> str:
    """The request's ``next`` (POST, then GET) when it points into this site, else
    ``fallback``; https pages only go on to https addresses."""
    target = request.POST.get(field) or request.GET.get(field) or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback

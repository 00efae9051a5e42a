"""Sign-in throttling (django-axes): whose address a failure is counted against, and the
page a locked-out person sees.

Axes counts failed sign-ins per username *and* client address (``AXES_LOCKOUT_PARAMETERS``),
so guessing a member's password is stopped after ``AXES_FAILURE_LIMIT`` tries for
``AXES_COOLOFF_TIME``, while the member signing in from home, or the club's tablets from the
club's address with other usernames, are not locked out by someone else's guesses. Every
failure is a row in axes' ``AccessAttempt`` / ``AccessFailureLog`` (the admin shows them)
and a WARNING line in the log.
"""

import ipaddress

from django.conf import settings
from django.shortcuts import render


def client_ip(request) -> str | None:
    """The address a request came from.

    Directly served, that is the socket's peer (``REMOTE_ADDR``); a client-supplied
    ``X-Forwarded-For`` is then ignored, or anyone could pick the address their failures
    are counted against. Behind the site's own HTTPS proxy (``BEHIND_HTTPS_PROXY``), the
    peer is the proxy and the client is the entry the trusted proxies appended:
    ``TRUSTED_PROXY_COUNT`` places from the right of ``X-Forwarded-For`` (entries further
    left were sent by the client and prove nothing)."""
    peer = request.META.get("REMOTE_ADDR") or None
    if not getattr(settings, "BEHIND_HTTPS_PROXY", False):
        return peer
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if hop.strip()]
    count = max(1, getattr(settings, "TRUSTED_PROXY_COUNT", 1))
    if len(hops) < count:
        return peer
    try:
        return str(ipaddress.ip_address(hops[-count]))
    except ValueError:
        return peer


def locked_out(request, original_response=None, credentials=None):
    """Axes' answer to a locked-out sign-in: the login page's frame with a translated
    message, status 429 (Too Many Requests)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes},
                  status=429)

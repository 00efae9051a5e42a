"""Sign-in throttling (django-axes): whose address a failure is counted against, and the
page a locked-out person sees.

Axes counts failed sign-ins per username *and* client address (``AXES_LOCKOUT_PARAMETERS``),
so guessing a member's password is stopped after ``AXES_FAILURE_LIMIT`` tries for
``AXES_COOLOFF_TIME``, while the member signing in from home, or the club's tablets from the
club's address with other usernames, are not locked out by someone else's guesses. Every
failure is a row in axes' ``AccessAttempt`` / ``AccessFailureLog`` (the admin shows them)
and a WARNING line in the log.

Guesses spread over many addresses (password spraying, a botnet) are slowed per account as
well: after ``LOGIN_ACCOUNT_FAILURE_LIMIT`` wrong passwords for one username from anywhere
within ``AXES_COOLOFF_TIME``, that account takes no sign-in until the window ends, and the
form says when to try again (``SignInForm``). The limit is higher than axes' so one guesser
cannot lock a secretary out with a handful of tries; the count lives in the cache (Redis,
shared by the web processes, in production).
"""

import hashlib
import ipaddress
import math
import time

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.validators import MaxLengthValidator
from django.shortcuts import render
from django.utils.translation import ngettext


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
    hops = [
        hop.strip()
        for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if hop.strip()
    ]
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
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


# --- per account, from any address -----------------------------------------------------------

ACCOUNT_KEY = "signin-account"


def _account_key(username: str) -> str:
    digest = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:32]
    return f"{ACCOUNT_KEY}:{digest}"


def _window() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def account_wait(username: str) -> int:
    """Seconds before ``username`` takes a sign-in again; 0 when it may (or the cache is
    down: signing in goes on, throttled per address by axes)."""
    key = _account_key(username)
    try:
        stored = cache.get_many([key, f"{key}:until"])
    except Exception:  # noqa: BLE001
        return 0
    if stored.get(key, 0) < settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
        return 0
    return max(0, math.ceil(stored.get(f"{key}:until", 0) - time.time()))


def count_account_failure(sender, credentials=None, request=None, **kwargs) -> None:
    """``user_login_failed``: one more wrong password for the username, wherever from."""
    username = (credentials or {}).get("username")
    if not username:
        return
    try:
        count_in_window(_account_key(username), _window())
    except Exception:  # noqa: BLE001 - the cache being down must not stop signing in
        pass


def count_in_window(key: str, window: int) -> None:
    """One more failure under ``key`` in the cache; the window (``key:until``) starts at the
    first one. Raises what the cache raises. Shared with the table sign-in's throttle."""
    cache.add(f"{key}:until", time.time() + window, window)
    cache.add(key, 0, window)
    try:
        cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, window)


class SignInForm(AuthenticationForm):
    """The sign-in form, refusing an account that had too many wrong passwords lately
    before the password is even checked.

    A user name longer than any account's is refused as the form's error: Django's form
    only sets the field's ``max_length`` (no validator), so a long one reached axes, whose
    record of the failure holds 255 characters (PostgreSQL refused it: a 500)."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))

    def clean(self):
        wait = account_wait(self.cleaned_data.get("username") or "")
        if wait:
            minutes = max(1, math.ceil(wait / 60))
            raise forms.ValidationError(
                ngettext(
                    "This account has had too many wrong passwords lately. Try again in "
                    "%(minutes)d minute.",
                    "This account has had too many wrong passwords lately. Try again in "
                    "%(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
                code="account_throttled",
            )
        return super().clean()

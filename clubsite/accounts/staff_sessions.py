"""Staff accounts, held to more (OWASP ASVS level 2): a secretary's, director's, federation
officer's or admin's password is at least twelve characters, and their session ends after
a quiet spell, so a browser left open at the club's desk does not stay signed in. Players'
sessions, and the table devices' (anonymous, kept for the session they score), are left as
they are.
"""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, resolve_url
from django.utils.http import urlencode
from django.utils.translation import ngettext
from django_htmx.http import HttpResponseClientRedirect

from clubsite.accounts.permissions import Role, federations_of, has_role

LAST_SEEN = "staff_last_seen"
TOUCH_SECONDS = 60  # the session is written at most once a minute for this


def is_staff_account(user) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (
            user.is_staff
            or has_role(user, Role.SECRETARY, Role.DIRECTOR)
            # a federation's officer adds clubs and lets them leave, their data with them
            or bool(federations_of(user))
        )
    )


class StaffPasswordLengthValidator:
    """At least ``min_length`` characters for staff accounts (the others keep Django's
    minimum); checked wherever a password is set with its user known."""

    def __init__(self, min_length: int = 12):
        self.min_length = min_length

    def validate(self, password, user=None):
        if getattr(user, "pk", None) and is_staff_account(user) and len(password) < self.min_length:
            raise ValidationError(
                ngettext(
                    "A secretary's, director's or administrator's password must contain at "
                    "least %(min_length)d character.",
                    "A secretary's, director's or administrator's password must contain at "
                    "least %(min_length)d characters.",
                    self.min_length,
                ),
                code="password_too_short_for_staff",
                params={"min_length": self.min_length},
            )

    def get_help_text(self):
        return ngettext(
            "Secretaries, directors and administrators need at least %(min_length)d character.",
            "Secretaries, directors and administrators need at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


def stamp_sign_in(sender, request=None, user=None, **kwargs) -> None:
    """``user_logged_in``: signing in is activity (and spares the first page a write)."""
    if request is not None and hasattr(request, "session") and is_staff_account(user):
        request.session[LAST_SEEN] = time.time()


class StaffIdleTimeoutMiddleware:
    """Signs a staff account out after ``STAFF_IDLE_MINUTES`` without a request of its own
    (htmx polls of an open console do not count as activity); 0 turns it off."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        minutes = settings.STAFF_IDLE_MINUTES
        if minutes and is_staff_account(getattr(request, "user", None)):
            now = time.time()
            seen = request.session.get(LAST_SEEN)
            if seen is not None and now - seen > minutes * 60:
                return self._signed_out(request, minutes)
            polled = request.method == "GET" and request.headers.get("HX-Request") == "true"
            if not polled and (seen is None or now - seen > TOUCH_SECONDS):
                request.session[LAST_SEEN] = now
        return self.get_response(request)

    def _signed_out(self, request, minutes):
        logout(request)
        messages.info(
            request,
            ngettext(
                "You were signed out after %(minutes)d minute without activity. Sign in again.",
                "You were signed out after %(minutes)d minutes without activity. Sign in again.",
                minutes,
            )
            % {"minutes": minutes},
        )
        login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': request.get_full_path()})}"
        if request.headers.get("HX-Request") == "true":
            return HttpResponseClientRedirect(login)  # the whole page, not a fragment
        return redirect(login)

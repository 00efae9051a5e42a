"""A table device signing in (the table and its code, or the card's QR link), leaving its
table (table mode is left with the director's PIN), and calling the director from the table.

``services.table_signin`` decides and throttles; the pages a signed-in device then uses are
in ``table`` (a pairs table) and ``teams_table``.
"""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubsite.accounts.permissions import public
from clubsite.web.redirects import safe_next
from tournaments.models import TableCode
from tournaments.services.errors import NotAllowed
from tournaments.services.table import director_calls, table_signin
from tournaments.views.table.device import (
    LEFT_KEY,
    SESSION_KEY,
    signed_in_code,
    table_device_required,
)

# --- signing in and out ---------------------------------------------------------------------


def _current(request) -> TableCode | None:
    current = signed_in_code(request)
    if current is not None and not (current.active and current.section.session.is_running):
        return None
    return current


DEVICE_COOKIE = "table_device"
DEVICE_SALT = "tournaments.table_device"
DEVICE_COOKIE_DAYS = 400  # a season and then some: the phones come back every week


def _device(request) -> table_signin.Device:
    """The device this browser's signed cookie names (a new one without it)."""
    return table_signin.device_from_cookie(
        request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
    )


def _signed_in(request, table_code: TableCode):
    request.session.cycle_key()  # a new session id for the device now trusted with a table
    request.session[SESSION_KEY] = table_code.pk
    response = redirect("table:home")
    # The device now knows this table: wrong codes others type for it never lock it out.
    response.set_signed_cookie(
        DEVICE_COOKIE,
        table_signin.device_cookie(_device(request), table_code),
        salt=DEVICE_SALT,
        max_age=DEVICE_COOKIE_DAYS * 86400,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


@public
def index(request):
    """The sign-in page: the table (e.g. A3) and the short code on its card, sent by POST.

    The card's link page posts its token here too; ``services.table_signin`` decides and
    throttles, a refusal comes back as the form with the reason (403, or 429 when throttled).
    """
    error, table, code, status = None, "", "", 200
    if request.method == "POST":
        ip = table_signin.client_ip(request.META)
        device = _device(request)
        token = request.POST.get("token")
        try:
            if token is not None:
                table_code = table_signin.sign_in_with_token(token, ip=ip, device=device)
            else:
                table = request.POST.get("table", "").strip()[:12]
                code = request.POST.get("code", "").strip()[:12]
                table_code = table_signin.sign_in_with_code(table, code, ip=ip, device=device)
        except table_signin.TooManyAttempts as exc:
            error, status = str(exc), 429
        except NotAllowed as exc:
            error, status = str(exc), 403
        else:
            return _signed_in(request, table_code)
        if token is not None:
            return render(
                request, "tournaments/table/refused.html", {"message": error}, status=status
            )
    return render(
        request,
        "tournaments/table/index.html",
        {
            "error": error,
            "table": table,
            "code": code,
            "current": _current(request),
            "left": request.session.pop(LEFT_KEY, False),
        },
        status=status,
    )


@public
@require_GET
def enter(request, token):
    """The table card's QR code and link open this: it asks, and only the button (a POST
    with the token) signs the device in, so a link opened by a preview or a crawler does
    nothing."""
    table_code = table_signin.table_for_token(token)
    if table_code is None:
        return render(
            request,
            "tournaments/table/refused.html",
            {
                "message": _(
                    "This table link is not valid for a session being played. "
                    "Ask the director for the table's card."
                )
            },
            status=404,
        )
    return render(
        request,
        "tournaments/table/enter.html",
        {"target": table_code, "token": token, "current": _current(request)},
    )


@public
@require_POST
def leave(request):
    """Sign this device out of its table (the code keeps working on other devices). Table
    mode is left with the director: the session's PIN, or a director signed in here."""
    current = signed_in_code(request)
    if current is not None and not table_signin.leave_allowed(
        current, request.POST.get("pin", ""), request.user
    ):
        messages.error(request, _("Leaving the table takes the director: ask for the PIN."))
        return redirect("table:home")
    request.session.pop(SESSION_KEY, None)
    request.session[LEFT_KEY] = True  # the sign-in page forgets the pages kept offline
    messages.info(request, _("This device has left the table."))
    return redirect("table:index")


@table_device_required
def call(request):
    """The table's "Call the director" (POST), and its state for the table's screen (GET,
    asked again by htmx while a call is open, so it clears once the director answers)."""
    if request.method == "POST":
        director_calls.call_director(request.table_code)
        if not request.htmx:
            # not redirect(): a "next" that looks like a view's name would be reversed
            return HttpResponseRedirect(safe_next(request, reverse("table:home")))
    return render(
        request,
        "tournaments/table/_call.html",
        {"call": director_calls.open_call(request.table_code)},
    )

"""Two-factor sign-in (OWASP ASVS level 2): staff accounts prove a second factor after
their password before any page opens, and anyone who turned it on is asked for it too.

The factors are django-otp's: a TOTP authenticator app (the six digits that change every
30 seconds, RFC 6238) and ten single-use recovery codes for a lost phone. Both throttle
wrong codes themselves (1, 2, 4, 8… seconds between tries), and a TOTP code is taken once.
The password step stays Django's sign-in form, throttled per address and per account
(``clubsite.accounts.signin``); ``TwoFactorMiddleware`` then holds a signed-in but unverified
session to the two-factor pages. ``STAFF_TWO_FACTOR`` off (the demo of ``make run``)
stops asking staff who have not turned it on themselves.
"""

import base64
import io
import math

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_htmx.http import HttpResponseClientRedirect
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

from clubsite.accounts.staff_sessions import is_staff_account

RECOVERY_CODES = 10
FRESH_CODES = "two_factor_fresh_codes"  # session: recovery codes shown once, then dropped
PENDING_KEY = "two_factor_pending_key"  # session: the secret of the app being set up


def issuer(device=None) -> str:
    """The name an authenticator app shows beside the code: the club's."""
    from clubsite.models import Club

    return Club.current().name or "clubsite"


def staff_must(user) -> bool:
    """Whether ``user``'s role requires a second factor (unless ``STAFF_TWO_FACTOR`` is off)."""
    return bool(settings.STAFF_TWO_FACTOR and is_staff_account(user))


def has_authenticator(user) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def is_verified(request) -> bool:
    user = request.user
    return bool(getattr(user, "is_verified", None) and user.is_verified())


# --- setting up ------------------------------------------------------------------------------


def pending_authenticator(request) -> TOTPDevice:
    """The authenticator being set up, not stored: its new secret waits in the session until
    the person types its first code (reading the set-up page writes no row, and a confirmed
    app goes on working meanwhile)."""
    key = request.session.get(PENDING_KEY)
    if not key:
        key = request.session[PENDING_KEY] = random_hex(20)
    return TOTPDevice(user=request.user, key=key, name="TOTP", confirmed=False)


def secret_for_typing(device: TOTPDevice) -> str:
    """The secret in base32, in groups of four, for an app that cannot scan."""
    secret = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_svg(device: TOTPDevice) -> bytes:
    """The ``otpauth://`` address of ``device`` as an SVG QR code (drawn here, no request
    leaves the site)."""
    image = qrcode.make(
        device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2
    )
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def confirm_authenticator(request, code: str) -> list[str] | str:
    """The first code typed from the new app: on a match the device replaces any earlier
    authenticator, fresh recovery codes are made, and the session counts as verified.
    Returns the recovery codes, or the translated reason the code was not taken (wrong
    tries are stored, so that they slow down like any other)."""
    key = request.session.get(PENDING_KEY)
    if not key:
        return _("The set-up page was out of date. Scan the code shown now.")
    user = request.user
    device = TOTPDevice.objects.filter(user=user, confirmed=False, key=key).first()
    if device is None:  # one pending app an account: an abandoned set-up leaves no row
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        device = TOTPDevice.objects.create(user=user, key=key, confirmed=False, name="TOTP")
    allowed, why = device.verify_is_allowed()
    if not allowed:
        return wait_message(why.get("locked_until"))
    if not device.verify_token(normalise(code)):
        return _(
            "That code is not right. Check the phone's clock, and type the six digits "
            "the app shows now."
        )
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = new_recovery_codes(user)
    del request.session[PENDING_KEY]
    mark_verified(request, device)
    return codes


def new_recovery_codes(user) -> list[str]:
    """Ten new single-use codes; the earlier ones stop working."""
    device, _created = StaticDevice.objects.get_or_create(
        user=user, defaults={"name": "Recovery codes"}
    )
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _i in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=c) for c in codes])
    return codes


def remaining_recovery_codes(user) -> int:
    return StaticToken.objects.filter(device__user=user).count()


def sign_out_everywhere(user) -> int:
    """Ends every session of ``user`` (after a reset, an old session must not set up a new
    phone); returns how many. Reads each stored session: an administrator's command."""
    from importlib import import_module

    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    store = import_module(settings.SESSION_ENGINE).SessionStore
    ended = 0
    for row in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if row.get_decoded().get(SESSION_KEY) == str(user.pk):
            store(session_key=row.session_key).delete()
            ended += 1
    return ended


def turn_off(user) -> None:
    """Removes the authenticator and the recovery codes (the person's own choice, or the
    administrator's for a lost phone: ``manage.py reset_two_factor``)."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


# --- signing in -------------------------------------------------------------------------------


def normalise(code: str) -> str:
    return "".join((code or "").split()).lower()


def check_code(request, code: str, recovery: bool = False) -> str | None:
    """Verifies ``code`` against the person's authenticator (or their recovery codes).
    Returns None on success, else the translated reason."""
    user = request.user
    model = StaticDevice if recovery else TOTPDevice
    devices = list(model.objects.filter(user=user, confirmed=True))
    if not devices:
        return (
            _("You have no recovery codes left.")
            if recovery
            else _("Your account has no authenticator app.")
        )
    code = normalise(code)
    for device in devices:
        allowed, why = device.verify_is_allowed()
        if not allowed:
            return wait_message(why.get("locked_until"))
        with transaction.atomic():
            if device.verify_token(code):
                mark_verified(request, device)
                return None
    return (
        _("That recovery code is not valid or was already used.")
        if recovery
        else _("That code is not right. Type the six digits the app shows now.")
    )


def wait_message(locked_until) -> str:
    seconds = (
        max(1, math.ceil((locked_until - timezone.now()).total_seconds())) if locked_until else 1
    )
    return ngettext(
        "Too many wrong codes. Try again in %(seconds)d second.",
        "Too many wrong codes. Try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def mark_verified(request, device) -> None:
    """The session now carries the second factor; a new session key, so that a key seen
    before the second factor is worth nothing after it."""
    request.session.cycle_key()
    otp_login(request, device)


# --- holding an unverified session ------------------------------------------------------------


OPEN_PATHS = (
    "two_factor_verify",
    "two_factor_setup",
    "two_factor_qr",
    "logout",
    "set_language",
    "jsi18n",
)


class TwoFactorMiddleware:
    """Sends a signed-in session that still owes its second factor to the two-factor page
    (or to setting one up), whatever it asks for; only those pages, signing out and the
    language switch stay open. Comes after django-otp's ``OTPMiddleware``."""

    def __init__(self, get_response):
        self.get_response = get_response
        self._open: tuple[str, ...] | None = None

    def open_paths(self) -> tuple[str, ...]:
        if self._open is None:
            paths = []
            for name in OPEN_PATHS:
                try:
                    paths.append(reverse(name))
                except Exception:  # noqa: BLE001 - a name this URL configuration lacks
                    continue
            self._open = tuple(paths)
        return self._open

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and not is_verified(request)
            and request.path not in self.open_paths()
            and not request.path.startswith(settings.STATIC_URL)
        ):
            # Asked of the database on each request of an unverified session (a verified
            # one never gets here): a session signed in before the account turned it on,
            # elsewhere, owes the code from then on.
            has_app = has_authenticator(user)
            if has_app or staff_must(user):
                return self.hold(request, has_app=has_app)
        return self.get_response(request)

    def hold(self, request, has_app: bool):
        target = reverse("two_factor_verify" if has_app else "two_factor_setup")
        if request.method == "GET" and not request.headers.get("HX-Request"):
            target = f"{target}?{urlencode({'next': request.get_full_path()})}"
        else:
            messages.info(request, _("Sign-in is not finished: the second step is missing."))
        if request.headers.get("HX-Request") == "true":
            return HttpResponseClientRedirect(target)
        return redirect(target)

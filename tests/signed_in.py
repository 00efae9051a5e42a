"""Signing a test client in past both steps: the password (``force_login``) and the second
factor that staff accounts owe (``clubsite.accounts.two_factor``), as a confirmed authenticator of
the user's and the session's note that it verified."""

from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice


def sign_in_verified(client: Client, user) -> Client:
    client.force_login(user)
    device = TOTPDevice.objects.filter(
        user=user, confirmed=True
    ).first() or TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return client


def app_code(device: TOTPDevice, steps_ahead: int = 0) -> str:
    """The six digits ``device``'s phone app shows now (or ``steps_ahead`` thirty-second
    steps later). A code is taken once, so when this step's code was already used it is
    the next step's (which the site accepts, a step of drift either way), or after a wait."""
    import time

    from django_otp.oath import TOTP

    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    while device.last_t >= totp.t():
        if device.last_t == totp.t() and not steps_ahead:
            totp.time += device.step
        else:
            time.sleep(1)
            totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():06d}"


def key_code(secret: str) -> str:
    """The six digits an app shows for a base32 key typed or scanned from the set-up page."""
    import base64

    from django_otp.oath import TOTP

    key = "".join(secret.split())
    return f"{TOTP(base64.b32decode(key + '=' * (-len(key) % 8))).token():06d}"

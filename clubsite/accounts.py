"""Login accounts for members: a secretary opens one, the member sets the password by email."""

import secrets

from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils.text import slugify

from .models import Member
from .permissions import Role, ensure_roles


class AccountError(ValueError):
    pass


def _free_username(member: Member) -> str:
    base = slugify(member.email.split("@")[0] if member.email else member.full_name)[:30]
    base = base or "socio"
    candidate, n = base, 1
    while User.objects.filter(username=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


@transaction.atomic
def open_player_account(member: Member, request=None) -> User:
    """Create a Player login linked to ``member`` and mail a set-your-password link.

    The password is never chosen by the secretary: the member sets it through Django's
    password-reset link, which also proves the address works.
    """
    if member.user_id:
        raise AccountError("already has an account")
    ensure_roles()
    user = User.objects.create_user(
        username=_free_username(member), email=member.email,
        first_name=member.first_name[:150], last_name=member.last_name[:150],
    )
    # A random password nobody knows; Django only mails reset links to usable passwords.
    user.set_password(secrets.token_urlsafe(32))
    user.save()
    user.groups.add(Group.objects.get(name=Role.PLAYER))
    member.user = user
    member.save(update_fields=["user"])
    if member.email:
        form = PasswordResetForm({"email": member.email})
        if form.is_valid():
            form.save(request=request, use_https=request.is_secure() if request else False,
                      email_template_name="registration/account_opened_email.txt",
                      subject_template_name="registration/account_opened_subject.txt")
    return user

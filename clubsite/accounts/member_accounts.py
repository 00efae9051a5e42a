"""Login accounts for members: a secretary opens one, the member sets the password by email;
a player who already has an account at another club is asked to link it (``account_links``)."""

import secrets
from dataclasses import dataclass

from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify

from clubsite.accounts import account_links
from clubsite.accounts.permissions import Role, grant
from clubsite.models import AccountLink, Member
from clubsite.tenancy import scopes_disabled


class AccountError(ValueError):
    pass


class AlreadyLinked(AccountError):
    """The member has an account already."""


class AlreadyAsked(AccountError):
    """The owner of the member's account at another club has been asked and not answered."""


@dataclass(frozen=True)
class Opened:
    """What opening an account did: a new ``user``, or (``waiting``) the owner of ``user``,
    the player's account at another club, asked to confirm; nothing is linked then."""

    user: User
    waiting: AccountLink | None = None


def _free_username(member: Member) -> str:
    base = slugify(member.email.split("@")[0] if member.email else member.full_name)[:30]
    base = base or "socio"
    candidate, n = base, 1
    while User.objects.filter(username=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


def account_at_another_club(member: Member) -> User | None:
    """The account of the player ``member`` is at another club: the federation licence
    number names one player across clubs, and the account's own email address must be the
    one this club has for the member (a licence number alone is public: it would let a
    secretary attach anyone's account to their club)."""
    if not member.licence_number or not member.email:
        return None
    with scopes_disabled():
        found = (
            Member.objects.filter(licence_number=member.licence_number, user__isnull=False)
            .exclude(club_id=member.club_id)
            .values_list("user_id", flat=True)
            .first()
        )
    if not found:
        return None
    return User.objects.filter(pk=found, email__iexact=member.email).first()


@transaction.atomic
def open_player_account(member: Member, request=None) -> Opened:
    """Create a Player login linked to ``member`` and mail a set-your-password link.

    The password is never chosen by the secretary: the member sets it through Django's
    password-reset link, which also proves the address works. A player whose account is
    linked at another club keeps one account: its owner is asked by mail to confirm the
    link (``account_links.ask``), and nothing is linked until they do.
    """
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.user_id:
        raise AlreadyLinked("already has an account")
    if account_links.pending_for(member) is not None:
        raise AlreadyAsked("the account's owner has not answered yet")
    user = account_at_another_club(member)
    if user is not None:  # one person, one account: its owner says whether to join it
        asked_by = getattr(request, "user", None)
        return Opened(user, account_links.ask(member, user, asked_by=asked_by, request=request))
    user = User.objects.create_user(
        username=_free_username(member),
        email=member.email,
        first_name=member.first_name[:150],
        last_name=member.last_name[:150],
    )
    # A random password nobody knows; Django only mails reset links to usable passwords.
    user.set_password(secrets.token_urlsafe(32))
    user.save()
    grant(user, Role.PLAYER)
    member.user = user
    member.save(update_fields=["user"])
    if member.email:
        form = PasswordResetForm({"email": member.email})
        if form.is_valid():
            form.save(
                request=request,
                use_https=request.is_secure() if request else False,
                email_template_name="registration/account_opened_email.txt",
                subject_template_name="registration/account_opened_subject.txt",
            )
    return Opened(user)

"""A club's member joined to an account already linked at another club, once its owner agrees.

When a secretary opens a player account for a member whose licence number and email are
those of an account linked at another club (``member_accounts.account_at_another_club``),
nothing is linked: the account's owner is mailed (in the member's language) a link to a page
at this club's address where, signed in as that account, they confirm or decline.

The link carries ``[request id, nonce]`` signed with ``django.core.signing`` (a
``TimestampSigner`` under the site's secret key and a salt of its own): nobody can make or
alter one, and it expires ``MAX_AGE`` after it was sent. The request's row makes it single
use: it is answered once (``state`` leaves ``pending``), and sending the mail again gives it
a new nonce, so only the newest link works. The row is club-owned (scoped through its
member): another club's link finds no row at this club's address.
"""

from __future__ import annotations

import datetime
import secrets

from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import Role, grant
from clubsite.mail.languages import language_of
from clubsite.mail.records import one_line
from clubsite.models import AccountLink, AccountLinkState, Member

MAX_AGE = datetime.timedelta(days=7)
SALT = "clubsite.accounts.account_links"


class LinkRefused(Exception):
    """The link cannot be used: ``message`` (translated) says why, ``status`` is the answer's."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def pending_for(member: Member) -> AccountLink | None:
    return member.account_links.filter(state=AccountLinkState.PENDING).first()


def latest_for(member: Member) -> AccountLink | None:
    """The newest request for ``member`` (what the secretary's member page tells)."""
    return member.account_links.order_by("-asked_at", "-id").first()


def expired(link: AccountLink) -> bool:
    return link.sent_at + MAX_AGE < timezone.now()


def token_for(link: AccountLink) -> str:
    return signing.dumps([link.pk, link.nonce], salt=SALT)


def _url(link: AccountLink, request=None) -> str:
    path = reverse("clubsite:account_link", args=[token_for(link)])
    base = link.member.club.site_url
    if base:
        return base + path
    return request.build_absolute_uri(path) if request is not None else path


def _mail(link: AccountLink, request=None) -> None:
    """The owner's mail, in the member's language, to the account's own address."""
    member, user = link.member, link.user
    names = {
        "club": member.club.name,
        "member": member.full_name,
        "name": user.first_name or member.first_name,
        "username": user.get_username(),
        "days": MAX_AGE.days,
        "url": _url(link, request),
    }
    with translation.override(language_of(member)):
        subject = _("%(club)s asks to link your account") % names
        body = "\n".join(
            [
                _("Hello %(name)s,") % names,
                "",
                _(
                    "%(club)s has you on its list of members as %(member)s and would like to "
                    "link that membership to your account %(username)s, which you already use "
                    "at another club. Nothing is linked until you confirm."
                )
                % names,
                "",
                _(
                    "Sign in as %(username)s and confirm or decline here (the link works once, "
                    "for %(days)d days):"
                )
                % names,
                names["url"],
                "",
                _("If you do not know this club, decline or ignore this message."),
                "",
                names["club"],
            ]
        )
    EmailMessage(one_line(subject), body, None, [user.email]).send()


@transaction.atomic
def ask(member: Member, user, *, asked_by=None, request=None) -> AccountLink:
    """Ask ``user``'s owner to confirm joining ``member``: a pending request and its mail.
    Nothing is linked. A request already pending for the member is kept as it is."""
    Member.objects.select_for_update().filter(pk=member.pk).first()  # one ask at a time
    link = pending_for(member)
    if link is not None:
        return link
    link = AccountLink.objects.create(
        member=member,
        user=user,
        nonce=secrets.token_hex(16),
        asked_by=asked_by if getattr(asked_by, "is_authenticated", False) else None,
        sent_at=timezone.now(),
    )
    _mail(link, request)
    return link


@transaction.atomic
def send_again(member: Member, *, request=None) -> AccountLink | None:
    """Mail the pending request for ``member`` again with a new link (the old one stops
    working); None when nothing is pending."""
    link = member.account_links.select_for_update().filter(state=AccountLinkState.PENDING).first()
    if link is None:
        return None
    link.nonce = secrets.token_hex(16)
    link.sent_at = timezone.now()
    link.save(update_fields=["nonce", "sent_at"])
    _mail(link, request)
    return link


def read(token: str, user, *, lock: bool = False) -> AccountLink:
    """The pending request ``token`` names, if ``user`` may answer it here and now; else
    ``LinkRefused`` with the reason. Changes nothing."""
    try:
        value = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkRefused(
            _("This link has expired. Ask the club to send it again."), status=410
        ) from None
    except signing.BadSignature:
        raise LinkRefused(_("This link is not valid."), status=400) from None
    if not (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and isinstance(value[1], str)
    ):
        raise LinkRefused(_("This link is not valid."), status=400)
    rows = AccountLink.objects.select_related("member__club", "user")
    link = (rows.select_for_update(of=("self",)) if lock else rows).filter(pk=value[0]).first()
    if link is None:  # another club's request (scoped away), or gone with its member
        raise LinkRefused(_("This link is not for this club's site."), status=404)
    if link.user_id != user.pk:
        raise LinkRefused(
            _(
                "This link is for another account. Sign out, then sign in with the account "
                "the mail was sent to."
            ),
            status=403,
        )
    if link.state != AccountLinkState.PENDING or not secrets.compare_digest(link.nonce, value[1]):
        raise LinkRefused(
            _("This link has already been used, or a newer one was sent."), status=410
        )
    return link


def _decided(link: AccountLink, state: str) -> AccountLink:
    link.state = state
    link.decided_at = timezone.now()
    link.save(update_fields=["state", "decided_at"])
    return link


@transaction.atomic
def confirm(token: str, user) -> AccountLink:
    """The owner agrees: the member is linked to their account, which becomes a Player of
    this club."""
    link = read(token, user, lock=True)
    member = Member.objects.select_for_update().get(pk=link.member_id)
    if member.user_id:
        raise LinkRefused(_("This member is already linked to an account."), status=409)
    if Member.objects.filter(user=user).exists():
        raise LinkRefused(
            _("Your account is already linked to another member of this club."), status=409
        )
    member.user = user
    member.save(update_fields=["user"])
    grant(user, Role.PLAYER)
    return _decided(link, AccountLinkState.CONFIRMED)


@transaction.atomic
def decline(token: str, user) -> AccountLink:
    """The owner refuses: nothing is linked, and the secretary sees the answer."""
    return _decided(read(token, user, lock=True), AccountLinkState.DECLINED)

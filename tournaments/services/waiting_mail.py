"""The notice to players whose entry moves up from the waiting list.

``online_entry.fill_places`` calls ``promoted`` with the entries that just took a place: each
of their players with an e-mail address gets one mail in their language, recorded first
(one ``PlayerMail`` per entry and member, so the notice goes once even if the worker's task
runs twice) and sent by the worker once the place is committed. The opt-out of results mails
does not apply: this is about their own entry. The link names the event's calendar page when
the site's address is known (``SITE_URL``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from clubsite.models import Club

from ..models import MailingKind, PlayerMail, Registration
from . import mail_texts
from .signals import player_mails_ready, send_to_worker


def promoted(registrations: list[Registration]) -> list[PlayerMail]:
    """Record (once) and queue the mails telling these entries' players they have a place."""
    if not registrations:
        return []
    club = Club.load().name
    rows = []
    for registration in registrations:
        tournament = registration.tournament
        link = (settings.SITE_URL + reverse("calendar:event", args=[tournament.slug])
                if settings.SITE_URL else "")
        for player in registration.players.select_related("member").order_by("pk"):
            member = player.member
            if not member.email or PlayerMail.objects.filter(
                    registration=registration, member=member).exists():
                continue
            language = mail_texts.language_of(member)
            subject, body = mail_texts.promoted_mail(club=club, tournament=tournament,
                                                     member=member, language=language,
                                                     link=link)
            rows.append(PlayerMail.objects.create(
                kind=MailingKind.PROMOTED, tournament=tournament, registration=registration,
                member=member, email=member.email, language=language, subject=subject,
                body=body))
    ids = [row.pk for row in rows]
    if ids:
        transaction.on_commit(lambda: send_to_worker(player_mails_ready, ids=ids))
    return rows

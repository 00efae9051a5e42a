"""The notice to players whose entry moves up from the waiting list.

``online_entry.fill_places`` calls ``promoted`` with the entries that just took a place: each
of their players with an e-mail address gets one mail in their language, recorded first
(one ``PlayerMail`` per entry and member, so the notice goes once even if the worker's task
runs twice) and sent by the worker once the place is committed. The opt-out of results mails
does not apply: this is about their own entry. The link names the event's calendar page when
the club's address is known (``Club.site_url``).
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from clubsite.models import Club
from tournaments import queueing
from tournaments.models import MailingKind, PlayerMail, Registration
from tournaments.services.mail import mail_texts


def promoted(registrations: list[Registration]) -> list[PlayerMail]:
    """Record (once) and queue the mails telling these entries' players they have a place."""
    if not registrations:
        return []
    club = Club.current()
    base = club.site_url
    club = club.name
    rows = []
    for registration in registrations:
        tournament = registration.tournament
        link = base + reverse("calendar:event", args=[tournament.slug]) if base else ""
        for player in registration.players.select_related("member").order_by("pk"):
            member = player.member
            if (
                not member.email
                or PlayerMail.objects.filter(registration=registration, member=member).exists()
            ):
                continue
            language = mail_texts.language_of(member)
            subject, body = mail_texts.promoted_mail(
                club=club, tournament=tournament, member=member, language=language, link=link
            )
            rows.append(
                PlayerMail.objects.create(
                    kind=MailingKind.PROMOTED,
                    tournament=tournament,
                    registration=registration,
                    member=member,
                    email=member.email,
                    language=language,
                    subject=subject,
                    body=body,
                )
            )
    ids = [row.pk for row in rows]
    if ids:
        transaction.on_commit(lambda: queueing.player_mails(ids))
    return rows

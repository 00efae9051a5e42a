"""Arrears reminders: preview every mail, send only what the secretary confirms, keep a record.

The secretary first sees each mail (recipient, subject, text) for the members in arrears;
nothing is sent until they confirm the ones ticked there. Each confirmed mail becomes an
``ArrearsReminder`` row (who asked, when, to whom, which debt) before a worker sends it,
so a retried or repeated job never mails a row twice. A member already reminded about the
same debt (same season, same balance owed) is left out unless the secretary asks again for
that member.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from clubsite.members.services import Arrear, arrears
from clubsite.models import ArrearsReminder, Club, Season


@dataclass(frozen=True)
class Draft:
    """One reminder as the preview shows it."""

    arrear: Arrear
    subject: str
    body: str
    last: ArrearsReminder | None  # the latest reminder about this same debt

    @property
    def member(self):
        return self.arrear.member

    @property
    def can_mail(self) -> bool:
        return bool(self.arrear.member.email)

    @property
    def already_sent(self) -> bool:
        return self.last is not None


def compose(club: Club, season: Season, arrear: Arrear) -> tuple[str, str]:
    """Subject and text of the reminder, in the active language."""
    subject = _("%(club)s: fees pending for %(season)s") % {"club": club.name, "season": season}
    body = _(
        "Dear %(name)s,\n\nour records show %(amount)s pending for season %(season)s.\n"
        "If you have already paid, please ignore this message.\n\n%(club)s"
    ) % {
        "name": arrear.member.first_name,
        "amount": arrear.balance,
        "season": season,
        "club": club.name,
    }
    return subject, body


def _previous(season: Season) -> dict[tuple[int, object], ArrearsReminder]:
    """The latest reminder per (member, balance) of ``season``."""
    latest: dict[tuple[int, object], ArrearsReminder] = {}
    for row in ArrearsReminder.objects.filter(season=season).order_by("requested_at", "id"):
        latest[(row.member_id, row.balance)] = row
    return latest


def drafts(season: Season, language: str) -> list[Draft]:
    """Every reminder that could go out now, with what was already sent for the same debt."""
    club = Club.current()
    previous = _previous(season)
    out = []
    with translation.override(language):
        for arrear in arrears(season):
            subject, body = compose(club, season, arrear)
            out.append(
                Draft(arrear, subject, body, previous.get((arrear.member.pk, arrear.balance)))
            )
    return out


def queue(season: Season, *, members, again=(), user, language: str) -> list[ArrearsReminder]:
    """Record the reminders the secretary confirmed, ready for the worker to mail.

    ``members`` are the ids ticked on the preview; a member reminded before about the same
    debt is only included when also in ``again``. Members no longer in arrears, or without
    an email address, are left out.
    """
    wanted = {int(pk) for pk in members}
    resend = {int(pk) for pk in again}
    rows = []
    with transaction.atomic():
        for draft in drafts(season, language):
            pk = draft.member.pk
            if pk not in wanted or not draft.can_mail:
                continue
            if draft.already_sent and pk not in resend:
                continue
            rows.append(
                ArrearsReminder.objects.create(
                    season=season,
                    member=draft.member,
                    email=draft.member.email,
                    due=draft.arrear.due,
                    paid=draft.arrear.paid,
                    balance=draft.arrear.balance,
                    subject=draft.subject,
                    body=draft.body,
                    requested_by=user,
                )
            )
    return rows


def history(season: Season):
    """What was sent for ``season``: newest first, with who asked."""
    return ArrearsReminder.objects.filter(season=season).select_related("member", "requested_by")

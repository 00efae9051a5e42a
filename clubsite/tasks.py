"""Background jobs of the club app."""

from celery import shared_task
from django.core.mail import send_mass_mail
from django.utils import translation
from django.utils.translation import gettext as _

from .models import Club, Season
from .services import arrears


@shared_task(acks_late=True)
def send_arrears_reminders(season_id: int, language: str = "es") -> int:
    """Mail every member in arrears for the season who has an email address.

    Runs in a worker because an SMTP server can be slow or down; returns how many mails
    went out, so the caller (and a retry) can see the outcome.
    """
    season = Season.objects.get(pk=season_id)
    club = Club.load()
    with translation.override(language):
        messages = []
        for row in arrears(season):
            if not row.member.email:
                continue
            subject = _("%(club)s: fees pending for %(season)s") % {
                "club": club.name, "season": season}
            body = _(
                "Dear %(name)s,\n\nour records show %(amount)s pending for season %(season)s.\n"
                "If you have already paid, please ignore this message.\n\n%(club)s"
            ) % {"name": row.member.first_name, "amount": row.balance, "season": season,
                 "club": club.name}
            messages.append((subject, body, None, [row.member.email]))
    return send_mass_mail(messages, fail_silently=False) if messages else 0

"""Mails to players: the results mailing a director confirmed, and each mail sent once.

A ``ResultsMailing`` is one sending of a tournament's results (on publication, or after a
correction) for one results version; it keeps every player's ranking line as it was mailed,
so the next correction's mail can say old → new. A ``PlayerMail`` is one mail to one member,
written (address, language, subject, text) before a worker sends it: at most one per
(mailing, member), and one per (waiting-list entry, member) for the "you have a place"
notice, so a retried or repeated task never mails anyone twice (``clubsite.mail.records``).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member
from clubsite.tenancy import club_manager
from clubsite.web.collation import collated

from .event import Tournament
from .registrations import Registration


class MailingKind(models.TextChoices):
    RESULTS = "results", _("Results published")
    CORRECTION = "correction", _("Results corrected")
    PROMOTED = "promoted", _("Place from the waiting list")


class ResultsMailing(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="mailings"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=MailingKind.choices)
    version = models.CharField(_("results version"), max_length=60)
    lines = models.JSONField(_("ranking lines mailed"), default=dict)
    changes = models.JSONField(_("changes"), default=list)
    base_url = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("sent by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("results mailing")
        verbose_name_plural = _("results mailings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="one_mailing_per_results_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.get_kind_display()} · v{self.version}"


class PlayerMail(models.Model):
    kind = models.CharField(_("kind"), max_length=10, choices=MailingKind.choices)
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="player_mails",
    )
    mailing = models.ForeignKey(
        ResultsMailing, null=True, blank=True, on_delete=models.CASCADE, related_name="mails"
    )
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.CASCADE, related_name="mails"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="player_mails"
    )
    email = models.EmailField(_("sent to"))
    language = models.CharField(_("language"), max_length=5)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("message"))
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    taken_at = models.DateTimeField(null=True, blank=True, editable=False)
    sent_at = models.DateTimeField(_("mailed at"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = [*collated("member__last_name", "member__first_name"), "id"]
        verbose_name = _("mail to a player")
        verbose_name_plural = _("mails to players")
        constraints = [
            models.UniqueConstraint(
                fields=["mailing", "member"],
                condition=Q(mailing__isnull=False),
                name="one_mail_per_mailing_and_member",
            ),
            models.UniqueConstraint(
                fields=["registration", "member"],
                condition=Q(registration__isnull=False),
                name="one_mail_per_promotion_and_member",
            ),
        ]
        indexes = [models.Index(fields=["sent_at", "created_at"])]

    def __str__(self) -> str:
        return f"{self.member} · {self.subject}"

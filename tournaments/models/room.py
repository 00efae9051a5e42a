"""The room screen of a session: its secret link, the round clock and the rounds it hides.

A TV or projector in the playing room opens the screen by its link alone (no sign-in), so
``token`` is too long to guess, like a table card's QR link; the director makes it, and a
new one ends the old. The clock is stored, not kept by a browser, so every screen and a
reload agree: while it runs it has a deadline (``clock_ends_at``), while paused the time it
had left (``clock_left``). ``hidden_rounds`` keeps the ranking some rounds behind play, for
players' phones as for the screen (``services.results.running_ranking``).

A session has no row until the director first changes something (a page read writes
nothing); until then ``for_session`` answers with the defaults, unsaved.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import club_manager

from .boards import new_table_token
from .event import Session


class RoomScreen(models.Model):
    session = models.OneToOneField(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="room_screen"
    )
    token = models.CharField(
        _("link token"), max_length=43, unique=True, default=new_table_token, editable=False
    )
    hidden_rounds = models.PositiveSmallIntegerField(
        _("rounds hidden from the ranking"),
        default=0,
        help_text=_("The running ranking counts only the rounds before the last ones played."),
    )
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=0)
    clock_round = models.PositiveSmallIntegerField(_("round on the clock"), default=0)
    clock_ends_at = models.DateTimeField(_("round ends at"), null=True, blank=True)
    clock_left = models.DurationField(_("time left when paused"), null=True, blank=True)
    language = models.CharField(
        _("screen language"),
        max_length=8,
        blank=True,
        help_text=_("Empty: the club's language."),
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    objects = club_manager("session__tournament__club")

    class Meta:
        verbose_name = _("room screen")
        verbose_name_plural = _("room screens")

    def __str__(self) -> str:
        return str(self.session)

    @classmethod
    def for_session(cls, session: Session) -> "RoomScreen":
        """The session's row, or an unsaved one with the defaults (no link yet)."""
        found = cls.objects.filter(session=session).first()
        return found if found is not None else cls(session=session, token="")

"""Master points: the club's (or its federation's) scale, and what each tournament awarded.

The scale is one table the secretary edits: each row gives the points for a place, or for
reaching a percentage, in one kind of event (pairs, teams, individual) whose field holds
between ``min_field`` and ``max_field`` pairs, teams or players. ``services.master_points``
applies it once a tournament's results are final and keeps ``PointsAward`` rows, one per
player; a correction after that replaces them (the audit trail keeps both).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import Federation, Member
from clubsite.tenancy import ClubOwned, club_field, club_manager

from .entries import Entry
from .event import EventType, Tournament


class PointsIssuer(models.TextChoices):
    CLUB = "CLUB", _("The club")
    AEB = Federation.AEB.value, Federation.AEB.label
    FPB = Federation.FPB.value, Federation.FPB.label
    ABA = Federation.ABA.value, Federation.ABA.label
    OTHER = Federation.OTHER.value, _("Another federation")


class PointsScale(ClubOwned, models.Model):
    """The scale in force: one per club (``load``)."""

    club = club_field("points_scales")
    name = models.CharField(_("name"), max_length=80, default="")
    issuer = models.CharField(
        _("whose points"), max_length=8, choices=PointsIssuer.choices, default=PointsIssuer.CLUB
    )
    split = models.BooleanField(
        _("share the points between the players"),
        default=True,
        help_text=_(
            "On: a pair's 2 points give each player 1. Off: each player receives the whole award."
        ),
    )

    objects = club_manager("club")

    class Meta:
        verbose_name = _("master points scale")
        verbose_name_plural = _("master points scales")
        constraints = [models.UniqueConstraint(fields=["club"], name="one_points_scale_per_club")]

    def __str__(self) -> str:
        return self.name or str(self.get_issuer_display())

    @classmethod
    def load(cls, *, create: bool = True) -> "PointsScale":
        """The club's one scale. A page that only reads passes ``create=False`` and gets
        an unsaved empty scale while the secretary has never saved one (a GET writes
        nothing); saving it (the scale form) stores it as the one row."""
        scale = cls.objects.first()
        if scale is None:
            if not create:
                return cls()
            scale, _created = cls.objects.get_or_create()
        return scale


class PointsScaleRow(models.Model):
    scale = models.ForeignKey(PointsScale, on_delete=models.CASCADE, related_name="rows")
    category = models.CharField(
        _("event"), max_length=12, choices=EventType.choices, default=EventType.PAIRS
    )
    min_field = models.PositiveSmallIntegerField(_("field from"), default=1)
    max_field = models.PositiveSmallIntegerField(_("field up to"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    min_percentage = models.DecimalField(
        _("from percentage"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=2)

    objects = club_manager("scale__club")

    class Meta:
        ordering = ["category", "min_field", "place", "-min_percentage", "pk"]
        verbose_name = _("scale row")
        verbose_name_plural = _("scale rows")

    def __str__(self) -> str:
        return f"{self.category} {self.min_field}-{self.max_field or ''}: {self.points}"


def results_version(tournament: Tournament) -> str:
    """The tournament's results version: its sessions' ranking versions, e.g. "3.1"."""
    return ".".join(
        str(v)
        for v in tournament.sessions.order_by("number").values_list("ranking_version", flat=True)
    )


class PointsAwarding(models.Model):
    """A tournament's points were awarded (possibly to nobody): when, by whom, how often."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="points_awarding"
    )
    awarded_at = models.DateTimeField(_("awarded at"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    scale_name = models.CharField(_("scale"), max_length=120, blank=True)
    times = models.PositiveSmallIntegerField(_("times awarded"), default=1)
    # the sessions' ranking versions the awards were made from ("3.1"): a re-classification
    # that leaves them as they were (the import's own) is no correction
    version = models.CharField(max_length=60, blank=True, editable=False)
    # the scale's rows and sharing when awarded (``master_points.scale_key``): a later
    # change of the scale shows which awards used the earlier one; "" for awards made
    # before the key was kept
    scale_key = models.CharField(max_length=64, blank=True, editable=False)

    objects = club_manager("tournament__club")

    class Meta:
        verbose_name = _("points awarding")
        verbose_name_plural = _("points awardings")

    def __str__(self) -> str:
        return f"{self.tournament_id} · {self.awarded_at:%Y-%m-%d %H:%M}"


class PointsAward(models.Model):
    """The points one player received in one tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="points_awards"
    )
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="points_awards")
    entry = models.ForeignKey(Entry, null=True, on_delete=models.SET_NULL, related_name="+")
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=2)
    entry_points = models.DecimalField(
        _("points of the pair or team"), max_digits=8, decimal_places=2
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True)
    tied = models.BooleanField(default=False)
    field = models.PositiveSmallIntegerField(_("field"))

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["tournament", "-points", "member"]
        verbose_name = _("points award")
        verbose_name_plural = _("points awards")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member"], name="one_points_award_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member_id} · {self.tournament_id}: {self.points}"

"""The event and its structure: a tournament has sessions, a session has sections.

A section keeps the movement it plays as the plain dict of ``Movement.to_dict()``, so the
database never depends on the generator's classes; sections of a session that share a
``pool`` key play the same physical boards and are scored together.
"""

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubsite.tenancy import ClubOwned, club_field, club_manager
from tournaments.scoring import methods


class EventType(models.TextChoices):
    PAIRS = "pairs", _("Pairs")
    TEAMS = "teams", _("Teams")
    INDIVIDUAL = "individual", _("Individual")


class ScoringMethod(models.TextChoices):
    """The methods of ``scoring.methods`` with their translated labels (codes and every other
    fact of a method are there; ``tests/test_scoring_methods.py`` keeps the two equal)."""

    MATCHPOINTS = methods.MATCHPOINTS.code, _("Matchpoints")
    CROSS_IMPS = methods.CROSS_IMPS.code, _("Cross-IMPs")
    BUTLER = methods.BUTLER.code, _("Butler")
    IMPS = methods.TEAM_IMPS.code, _("IMPs (teams)")
    VPS = methods.TEAM_VPS.code, _("Victory points (teams)")


class VPScale(models.TextChoices):
    WBF20 = "wbf20", _("WBF 20-VP scale, continuous (two decimals)")
    WBF20_DISCRETE = "wbf20-discrete", _("WBF 20-VP scale, whole VPs")
    COURSE25 = "course25", _("25-VP scale (AEB course table)")


def vp_scales() -> list[tuple[str, str]]:
    """The VP scales a Butler or cross-IMP pairs event may convert its matches with (the
    teams' scales)."""
    return VPScale.choices


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    RUNNING = "running", _("Running")
    PROVISIONAL = "provisional", _("Provisional results")
    FINAL = "final", _("Final results")


class Tournament(ClubOwned, models.Model):
    """One event as players know it ("Torneo del martes"), with its publication rules."""

    club = club_field("tournaments")
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=180)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    event_type = models.CharField(
        _("event type"), max_length=12, choices=EventType.choices, default=EventType.PAIRS
    )
    scoring_method = models.CharField(
        _("scoring method"),
        max_length=12,
        choices=ScoringMethod.choices,
        default=methods.DEFAULT.code,
    )
    match_vp_scale = models.CharField(
        _("VPs per match"),
        max_length=16,
        blank=True,
        default="",
        choices=vp_scales,
        help_text=_(
            "Butler and cross-IMP pairs only, when the conditions of contest say so: "
            "each pair's IMPs of a round against one opponent are converted to VPs on "
            "this scale for the round's boards, and pairs are ranked by their VPs. The "
            "course's 25-VP table needs 8 to 48 boards a round."
        ),
    )
    session_count = models.PositiveSmallIntegerField(_("sessions"), default=1)
    mixed = models.BooleanField(
        _("mixed pairs"),
        default=False,
        help_text=_("Men sit South or East."),
    )
    public_results = models.BooleanField(_("public results"), default=True)
    live_ranking = models.BooleanField(
        _("players follow the ranking during play"),
        default=False,
        help_text=_(
            "On: while a session is played, its running ranking is on the results pages "
            "(without the rounds the director hides). Off: players see it when the session "
            "ends; the room screen shows it all the same."
        ),
    )
    show_traveller = models.BooleanField(_("show the traveller at the table"), default=True)
    opponent_confirmation = models.BooleanField(_("opponents confirm each result"), default=True)
    ask_lead = models.BooleanField(_("ask for the opening lead at the table"), default=True)
    handicap_ranking = models.BooleanField(
        _("ranked with handicaps too"),
        default=False,
        help_text=_(
            "Matchpoint pairs: besides the scratch ranking, each pair's percentage "
            "plus half its handicap ranks it again."
        ),
    )
    correction_minutes = models.PositiveSmallIntegerField(
        _("correction period (minutes)"),
        default=30,
        help_text=_(
            "Law 79C: time after the official results are published to ask for a correction."
        ),
    )
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
    )
    provisional_at = models.DateTimeField(
        _("provisional results published at"), null=True, blank=True
    )
    published_at = models.DateTimeField(_("final results published at"), null=True, blank=True)
    # An event imported from another scorer's file: the file's content hash and the scorer's
    # EVENT_IDENTIFIER find it again (a second import of the same file), and ``conventions``
    # holds how that scorer scored it, so our scoring reproduces the file (events scored here
    # leave it empty and keep the club's own rules).
    import_hash = models.CharField(
        _("imported file (SHA-256)"), max_length=64, blank=True, db_index=True, editable=False
    )
    import_identifier = models.CharField(
        _("imported event identifier"), max_length=80, blank=True, editable=False
    )
    conventions = models.JSONField(
        _("scoring conventions of the imported file"), default=dict, blank=True, editable=False
    )
    # The result of record of an imported event is its file's (``Session.file_figures``);
    # False once a director re-scores it with the club's rules (``services.file_record``).
    keeps_file_results = models.BooleanField(
        _("shows the imported file's results"), default=False, editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The calendar and online entry (services.online_entry, views.calendar).
    start_time = models.TimeField(
        _("start time"),
        null=True,
        blank=True,
        help_text=_("Shown in the calendar; empty: the whole day."),
    )
    in_calendar = models.BooleanField(_("in the public calendar"), default=True)
    online_entry = models.BooleanField(
        _("online entry"),
        default=False,
        help_text=_("Members enter from the calendar, with a partner or a team."),
    )
    entry_opens_at = models.DateTimeField(
        _("entry opens at"), null=True, blank=True, help_text=_("Empty: open now.")
    )
    entry_closes_at = models.DateTimeField(
        _("entry closes at"),
        null=True,
        blank=True,
        help_text=_(
            "After it members can no longer enter or cancel online; the director "
            "still can. Empty: when the event starts."
        ),
    )
    max_tables = models.PositiveSmallIntegerField(
        _("maximum tables"),
        null=True,
        blank=True,
        help_text=_("Entries beyond the tables go to the waiting list. Empty: no limit."),
    )

    objects = club_manager("club")

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [models.Index(fields=["status", "date"])]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="slug_per_club")]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def correction_period_ends(self) -> datetime.datetime | None:
        """End of the Law 79C correction period; None until the final results are out."""
        if self.published_at is None:
            return None
        return self.published_at + datetime.timedelta(minutes=self.correction_minutes)

    def correction_period_over(self, now: datetime.datetime | None = None) -> bool:
        """Whether the correction period has ended (by ``now``, by default now)."""
        ends = self.correction_period_ends
        return ends is not None and (now or timezone.now()) > ends

    @property
    def method(self) -> methods.Method:
        """Everything the scoring method decides (``scoring.methods``)."""
        return methods.method(self.scoring_method)

    @property
    def is_matchpoints(self) -> bool:
        return self.method.is_matchpoints

    @property
    def converts_matches_to_vps(self) -> bool:
        """Whether a Butler or cross-IMP pairs event ranks by VPs per match."""
        return (
            bool(self.match_vp_scale)
            and self.event_type == EventType.PAIRS
            and self.method.is_pair_imps
        )


class SessionStatus(models.TextChoices):
    DRAFT = "draft", _("Being set up")
    RUNNING = "running", _("Being played")
    FINISHED = "finished", _("Finished")


def new_table_pin() -> str:
    """The PIN that takes a device out of table mode: four digits the director reads out."""
    return f"{secrets.randbelow(10000):04d}"


class Session(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="sessions",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=0)
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=SessionStatus.choices, default=SessionStatus.DRAFT
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Stamp of the newest result/penalty change the stored rankings include: rankings are
    # stale when a newer change exists, so pages can re-classify only when needed.
    classified_through = models.DateTimeField(null=True, blank=True, editable=False)
    ranking_version = models.PositiveIntegerField(default=0, editable=False)
    # An imported session's figures as its file published them: marks, totals, percentages
    # and places by entry (``services.file_record``); empty for sessions scored here.
    file_figures = models.JSONField(default=dict, blank=True, editable=False)
    table_pin = models.CharField(
        _("table PIN"),
        max_length=8,
        blank=True,
        default=new_table_pin,
        help_text=_("Typed on a table's device to leave table mode; empty: any device may leave."),
    )

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_session_number")
        ]

    def __str__(self) -> str:
        return _("%(tournament)s, session %(number)s") % {
            "tournament": self.tournament.name,
            "number": self.number,
        }

    @property
    def is_running(self) -> bool:
        return self.status == SessionStatus.RUNNING


class Section(models.Model):
    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="sections"
    )
    letter = models.CharField(_("letter"), max_length=3)
    pool = models.CharField(
        _("board pool"),
        max_length=3,
        help_text=_("Sections with the same pool play the same boards and are ranked together."),
    )
    movement = models.JSONField(_("movement"), default=dict, blank=True)
    tables = models.PositiveSmallIntegerField(_("tables"), default=0)
    board_offset = models.PositiveSmallIntegerField(
        _("board offset"),
        default=0,
        help_text=_("Added to the movement's board numbers (section B playing 31-60: 30)."),
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", "letter"]
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        constraints = [
            models.UniqueConstraint(fields=["session", "letter"], name="one_section_letter")
        ]

    def __str__(self) -> str:
        return _("Section %(letter)s") % {"letter": self.letter}

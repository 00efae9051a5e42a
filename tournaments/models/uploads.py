"""Background work the secretary and directors follow on a page: federation uploads (with
every attempt), USEBIO imports (with their verify report) and generated PDFs.

An upload keeps the exact bytes it sends, so a retry (or the manual download) is the very
same file, and an ``upload_id`` the federation sees as ``Idempotency-Key``: the same results
are never filed twice, by us (one upload per endpoint and file content) or by a retry the
federation already received.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import Federation, Season
from clubsite.tenancy import club_field, club_manager

from .event import Tournament


class FileFormat(models.TextChoices):
    USEBIO = "usebio", _("USEBIO 1.2 (XML)")
    PBN = "pbn", _("PBN 2.1")
    LICENCE_CSV = "licence_csv", _("Licence requests (CSV)")


class PostMode(models.TextChoices):
    FORM = "form", _("Form upload (multipart POST)")
    JSON = "json", _("JSON POST")


class AuthKind(models.TextChoices):
    NONE = "none", _("None")
    TOKEN = "token", _("Bearer token")
    BASIC = "basic", _("User and password")


class FederationEndpoint(models.Model):
    """Where and how one kind of file goes to a federation; set up by the secretary."""

    club = club_field("federation_endpoints")
    name = models.CharField(_("name"), max_length=80)
    federation = models.CharField(
        _("federation"), max_length=8, choices=Federation.choices, default=Federation.AEB
    )
    url = models.URLField(_("endpoint URL"), max_length=300)
    auth = models.CharField(
        _("credentials"), max_length=6, choices=AuthKind.choices, default=AuthKind.TOKEN
    )
    username = models.CharField(_("user"), max_length=120, blank=True)
    secret = models.CharField(_("token or password"), max_length=300, blank=True)
    file_format = models.CharField(
        _("file format"), max_length=12, choices=FileFormat.choices, default=FileFormat.USEBIO
    )
    mode = models.CharField(
        _("how to send"), max_length=4, choices=PostMode.choices, default=PostMode.FORM
    )
    enabled = models.BooleanField(_("enabled"), default=True)
    timeout = models.PositiveSmallIntegerField(_("timeout (seconds)"), default=30)
    max_retries = models.PositiveSmallIntegerField(_("automatic retries"), default=5)

    objects = club_manager("club")

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation endpoint")
        verbose_name_plural = _("federation endpoints")

    def __str__(self) -> str:
        return self.name


class UploadState(models.TextChoices):
    QUEUED = "queued", _("Waiting")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")
    MANUAL = "manual", _("Uploaded by hand")


class Upload(models.Model):
    upload_id = models.UUIDField(_("upload id"), default=uuid.uuid4, unique=True, editable=False)
    endpoint = models.ForeignKey(
        FederationEndpoint,
        verbose_name=_("endpoint"),
        on_delete=models.PROTECT,
        related_name="uploads",
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="uploads",
    )
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    results_version = models.CharField(_("results version"), max_length=40, blank=True)
    file_format = models.CharField(_("file format"), max_length=12, choices=FileFormat.choices)
    file_name = models.CharField(_("file name"), max_length=200)
    content = models.TextField(_("file"))
    content_hash = models.CharField(max_length=64, editable=False)
    state = models.CharField(
        _("state"), max_length=8, choices=UploadState.choices, default=UploadState.QUEUED
    )
    error = models.TextField(_("last error"), blank=True)
    response_status = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # When a run should have the job by: set when it is queued, taken by a run, or put off
    # to a later retry. Waiting or sending past it by ``JOB_STALL_SECONDS`` means the job was
    # lost (broker down, worker killed): ``jobs.sweep`` sends it again.
    due_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The task run (Celery task id) that took the job: the same message handed back after
    # its worker died takes it over at once; another message for it waits for ``due_at``.
    taken_by = models.CharField(max_length=64, blank=True, editable=False)

    objects = club_manager("endpoint__club")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("federation upload")
        verbose_name_plural = _("federation uploads")
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "content_hash"], name="one_upload_per_file_and_endpoint"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} → {self.endpoint}"


class UploadAttempt(models.Model):
    upload = models.ForeignKey(
        Upload, verbose_name=_("upload"), on_delete=models.CASCADE, related_name="attempts"
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    http_status = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    response = models.TextField(_("response (start)"), blank=True)
    error = models.TextField(_("error"), blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)

    objects = club_manager("upload__endpoint__club")

    class Meta:
        ordering = ["upload", "at", "id"]
        verbose_name = _("upload attempt")
        verbose_name_plural = _("upload attempts")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.http_status or self.error[:40]}"


class ImportState(models.TextChoices):
    RUNNING = "running", _("Being imported")
    DONE = "done", _("Imported")
    FAILED = "failed", _("Refused")


class ResultImport(models.Model):
    """A results file brought in from another scoring program, and what checking it found."""

    club = club_field("result_imports")
    file_name = models.CharField(_("file name"), max_length=200)
    # The request's key: a task run twice (a lost worker) finds the first run's import.
    key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imports",
    )
    state = models.CharField(_("state"), max_length=8, choices=ImportState.choices)
    error = models.TextField(_("error"), blank=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    differences = models.JSONField(_("differences"), default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("imported by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    objects = club_manager("club")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("results import")
        verbose_name_plural = _("results imports")

    def __str__(self) -> str:
        return self.file_name


class PdfKind(models.TextChoices):
    RESULTS = "results", _("Results")
    SETUP = "setup", _("Table cards")


class PdfState(models.TextChoices):
    QUEUED = "queued", _("Waiting")
    RUNNING = "running", _("Being made")
    DONE = "done", _("Ready")
    FAILED = "failed", _("Failed")


class ResultsPdf(models.Model):
    """One PDF of a tournament (or of one of its sessions) for one results version and
    language; a correction makes a new version, hence a new PDF, and the old row stays."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="pdfs"
    )
    kind = models.CharField(
        _("kind"), max_length=8, choices=PdfKind.choices, default=PdfKind.RESULTS
    )
    language = models.CharField(_("language"), max_length=8)
    # 0 for the whole tournament; otherwise the results of that session alone, whose
    # version is then that session's ranking version.
    session_number = models.PositiveSmallIntegerField(_("session"), default=0)
    version = models.CharField(_("results version"), max_length=40)
    state = models.CharField(
        _("state"), max_length=8, choices=PdfState.choices, default=PdfState.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    file = models.FileField(_("file"), upload_to="pdf/%Y/%m/", blank=True)
    pages = models.PositiveIntegerField(_("pages"), default=0)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # As ``Upload.due_at``: when it was queued or taken by a run (``jobs.sweep``).
    due_at = models.DateTimeField(null=True, blank=True, editable=False)
    taken_by = models.CharField(max_length=64, blank=True, editable=False)

    objects = club_manager("tournament__club")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("results PDF")
        verbose_name_plural = _("results PDFs")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "kind", "language", "session_number", "version"],
                name="one_pdf_per_version_and_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.kind} · v{self.version}"

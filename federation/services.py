"""What a federation's officer reads and does, across the federation's clubs.

Every read here crosses clubs, so each one opens ``scopes_disabled()`` on purpose and
filters by the federation's clubs (``Club.federation``): nothing of another federation's
clubs is read. Writes to one club (naming its secretary, exporting it) run in that club's
own scope.
"""

from __future__ import annotations

import datetime
import io
import logging
import zipfile
from dataclasses import dataclass
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import Count, F, Max, ProtectedError, Q, Sum, Value
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import Role, grant
from clubsite.members import columns
from clubsite.members.exports import csv_bytes_with_bom
from clubsite.members.services import members_with_licence_state
from clubsite.models import (
    ArchiveState,
    Club,
    ClubArchive,
    Licence,
    LicenceStatus,
    Member,
    Season,
)
from clubsite.tenancy import club_scope, default_club_id, scopes_disabled
from tournaments.documents import FORMATS, export_text
from tournaments.exports.licences import licence_batch
from tournaments.models import Tournament, TournamentStatus
from tournaments.models.points import PointsAward
from tournaments.models.uploads import Upload
from tournaments.services.errors import TournamentError

PUBLISHED = (TournamentStatus.PROVISIONAL, TournamentStatus.FINAL)
EXTENSIONS = {"usebio": "xml", "pbn": "pbn"}

logger = logging.getLogger(__name__)


class FederationError(Exception):
    """A request the federation's rules refuse; shown to the officer as it is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def clubs_of(federation: str):
    """The federation's clubs, by name (``Club`` is above the scopes: no scope needed)."""
    return Club.objects.filter(federation=federation).order_by("name", "pk")


def club_of(federation: str, pk: int) -> Club | None:
    """The federation's club ``pk``; None for a club of another federation."""
    return clubs_of(federation).filter(pk=pk).first()


# --- reading across the clubs ----------------------------------------------------------------


def published_results(federation: str, limit: int = 200) -> list[Tournament]:
    """The published tournaments of every club of the federation, newest first, each with
    its ``club`` read."""
    with scopes_disabled():
        return list(
            Tournament.objects.filter(club__federation=federation, status__in=PUBLISHED)
            .select_related("club")
            .order_by("-date", "club__name", "name")[:limit]
        )


@dataclass(frozen=True)
class ClubLicences:
    club: Club
    season: Season | None  # the club's season holding today (None: not made yet)
    requested: int  # licences requested this season: the batch the federation receives
    uploads: list  # the newest uploads to the federation (results and licence batches)


def licences_and_uploads(federation: str, uploads_each: int = 10) -> list[ClubLicences]:
    """For each club of the federation: this season's licence batch and its newest uploads."""
    today = timezone.localdate()
    out = []
    with scopes_disabled():
        for club in clubs_of(federation):
            season = Season.objects.filter(club=club).containing(today).first()
            requested = (
                Licence.objects.filter(
                    member__club=club, season=season, status=LicenceStatus.REQUESTED
                ).count()
                if season
                else 0
            )
            uploads = list(
                Upload.objects.filter(endpoint__club=club)
                .select_related("endpoint", "tournament")
                .order_by("-created_at", "-id")[:uploads_each]
            )
            out.append(ClubLicences(club, season, requested, uploads))
    return out


# A federation's season runs September to August ("2025-2026"), as a club's own seasons do
# by default (``Club.season_start_month``); each club may start its own elsewhere, so the
# federation's periods are its own, not any club's ``Season`` rows.
SEASON_START_MONTH = 9


@dataclass(frozen=True)
class Period:
    """The days a federation ranking sums: one season, or every award (no bounds)."""

    key: str  # "2025-2026", or "all"
    start: datetime.date | None = None
    end: datetime.date | None = None

    @property
    def label(self) -> str:
        return self.key if self.start else _("All seasons")


ALL_SEASONS = Period("all")


def season_of(day: datetime.date) -> Period:
    """The federation season (September to August) holding ``day``."""
    year = day.year if day.month >= SEASON_START_MONTH else day.year - 1
    start = datetime.date(year, SEASON_START_MONTH, 1)
    end = datetime.date(year + 1, SEASON_START_MONTH, 1) - datetime.timedelta(days=1)
    return Period(f"{year}-{year + 1}", start, end)


def ranking_periods(federation: str) -> list[Period]:
    """The seasons an officer may rank, newest first: every season holding a tournament
    with master points at the federation's clubs, and the current one even with none; then
    every season together."""
    with scopes_disabled():
        dates = (
            PointsAward.objects.filter(tournament__club__federation=federation)
            .values_list("tournament__date", flat=True)
            .distinct()
        )
        seasons = {season_of(day) for day in dates}
    seasons.add(season_of(timezone.localdate()))
    return [*sorted(seasons, key=lambda p: p.start, reverse=True), ALL_SEASONS]


def club_licence_batch(club: Club, season_id: int | None = None) -> tuple[str, str] | None:
    """(file name, CSV text) of ``club``'s licence batch: the very file its secretary
    downloads and sends to the federation (``tournaments.exports.licences``), named after
    the club. The season is the club's ``season_id``, else its season holding today; None
    when the club has no such season."""
    with club_scope(club):
        seasons = Season.objects.all()
        season = (
            seasons.filter(pk=season_id).first()
            if season_id
            else seasons.containing(timezone.localdate()).first()
        )
        if season is None:
            return None
        name, text = licence_batch(season)
    return f"{club.slug or f'club-{club.pk}'}-{name}", text


@dataclass(frozen=True)
class RankedPlayer:
    place: int
    licence_number: str
    name: str
    clubs: int  # clubs where the player won points
    tournaments: int
    points: Decimal


def ranking(
    federation: str,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> list[RankedPlayer]:
    """Master points won at the federation's clubs, per player: a player of two clubs is one
    licence number, their points summed; a member with no licence number stands alone. Only
    tournaments played from ``since`` to ``until`` (both included) count, when given."""
    with scopes_disabled():
        awards = PointsAward.objects.filter(tournament__club__federation=federation)
        if since:
            awards = awards.filter(tournament__date__gte=since)
        if until:
            awards = awards.filter(tournament__date__lte=until)
        totals = {
            "total": Sum("points"),
            "played": Count("tournament", distinct=True),
            "clubs": Count("tournament__club", distinct=True),
            "first": Max("member__first_name"),
            "last": Max("member__last_name"),
        }
        licensed = (
            awards.exclude(member__licence_number="")
            .values(licence=F("member__licence_number"))
            .annotate(**totals)
        )
        unlicensed = (
            awards.filter(member__licence_number="")
            .values("member")
            .annotate(licence=Value(""), **totals)
        )
        rows = [*licensed, *unlicensed]
    rows.sort(key=lambda r: (-r["total"], r["last"], r["first"]))
    ranked, place, previous = [], 0, None
    for index, r in enumerate(rows, start=1):
        if r["total"] != previous:
            place, previous = index, r["total"]
        ranked.append(
            RankedPlayer(
                place=place,
                licence_number=r["licence"],
                name=f"{r['first']} {r['last']}".strip(),
                clubs=r["clubs"],
                tournaments=r["played"],
                points=r["total"],
            )
        )
    return ranked


# --- a club added ----------------------------------------------------------------------------


def add_club(federation: str, club: Club) -> Club:
    """Store ``club`` (an unsaved club, e.g. from a form) as a club of ``federation``. What
    a club needs on first use (its season, its points scale) is made then, as for any club."""
    club.federation = federation
    club.save()
    return club


def name_secretary(club: Club, who: str):
    """Grant the secretary's role at ``club`` to the account whose username or email is
    ``who``; returns that account."""
    who = (who or "").strip()
    users = (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(Q(username__iexact=who) | Q(email__iexact=who))[:2]
    )
    users = list(users) if who else []
    if len(users) != 1:
        raise FederationError(
            _("No account has this username or email.")
            if not users
            else _("Several accounts have this email: give the username.")
        )
    with club_scope(club):
        grant(users[0], Role.SECRETARY)
    return users[0]


# --- a club leaves ---------------------------------------------------------------------------


# A club may be deleted once an archive of it, begun within this time, is ready.
ARCHIVE_FRESH = datetime.timedelta(hours=24)


def latest_archive(club: Club) -> ClubArchive | None:
    """The club's newest archive, whatever its state (the leave page shows it)."""
    return ClubArchive.objects.filter(club=club).order_by("-created_at", "-pk").first()


def ready_archive(club: Club, now: datetime.datetime | None = None) -> ClubArchive | None:
    """The club's newest archive made and begun less than ``ARCHIVE_FRESH`` ago (the data it
    holds is the club's as it was then); None if there is none."""
    since = (now or timezone.now()) - ARCHIVE_FRESH
    return (
        ClubArchive.objects.filter(club=club, state=ArchiveState.DONE, started_at__gte=since)
        .exclude(file="")
        .order_by("-started_at", "-pk")
        .first()
    )


def archives_of_clubs_gone(federation: str, limit: int = 50):
    """The made archives of the federation's clubs that have left, newest first."""
    return ClubArchive.objects.filter(
        federation=federation, club__isnull=True, state=ArchiveState.DONE
    ).exclude(file="")[:limit]


def archive_of(federation: str, pk: int) -> ClubArchive | None:
    """The federation's made archive ``pk`` (of a club still here or gone); None for one of
    another federation or not made."""
    return (
        ClubArchive.objects.filter(federation=federation, pk=pk, state=ArchiveState.DONE)
        .exclude(file="")
        .first()
    )


def archive_name(club: Club) -> str:
    return f"{club.slug or f'club-{club.pk}'}-{timezone.localdate().isoformat()}.zip"


def club_archive(club: Club) -> bytes:
    """The club's whole data as one ZIP, in memory (``write_club_archive``)."""
    buffer = io.BytesIO()
    write_club_archive(club, buffer)
    return buffer.getvalue()


def write_club_archive(club: Club, out, progress=None) -> int:
    """Write the club's whole data as one ZIP into ``out`` (a binary file): its members
    (the secretary's CSV) and each tournament's results as USEBIO and PBN; a file a
    tournament cannot give (a teams event in USEBIO, an event with no result) is named in
    ``README.txt``. ``progress(done, total)`` is called after the members and after each
    tournament (the job's progress and its sign of life). Returns the tournaments written."""
    notes = [
        f"{club.name}",
        club.address,
        "",
        _("Exported on %(day)s.") % {"day": timezone.localdate().isoformat()},
    ]
    with club_scope(club), zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        season = Season.objects.containing(timezone.localdate()).first()
        members = (
            members_with_licence_state(season)
            if season
            else Member.objects.annotate(licence_state=Value(""))
        )
        archive.writestr(
            "members.csv",
            csv_bytes_with_bom(
                columns.csv_header(),
                (columns.csv_row(m) for m in members.select_related("category")),
            ),
        )
        tournaments = list(Tournament.objects.order_by("date", "pk"))
        if progress:
            progress(0, len(tournaments))
        for done, tournament in enumerate(tournaments, start=1):
            for fmt in sorted(FORMATS):
                name = f"tournaments/{tournament.date:%Y-%m-%d}-{tournament.slug}.{EXTENSIONS.get(fmt, fmt)}"
                try:
                    text = export_text(tournament, fmt)
                except TournamentError as refused:
                    notes.append(f"{name}: {refused.message}")
                    continue
                archive.writestr(name, text)
            if progress:
                progress(done, len(tournaments))
        archive.writestr("README.txt", "\n".join(str(n) for n in notes) + "\n")
    return len(tournaments)


def delete_club(club: Club, *, without_archive: bool = False) -> dict[str, int]:
    """Delete ``club`` and every row of it; returns the rows deleted per model. The default
    club (the one a host naming no club reaches) cannot leave, nor a club with no archive
    begun in the last ``ARCHIVE_FRESH`` and ready (``ready_archive``), unless
    ``without_archive`` (a caller that archived it otherwise). A row protected from
    deletion (a payment holding its member, a result its pairs) goes first, once it is
    checked to be of this club."""
    if club.pk == default_club_id():
        raise FederationError(_("The installation's default club cannot be deleted."))
    if not without_archive and ready_archive(club) is None:
        raise FederationError(
            _(
                "Prepare the club's archive first: a club is deleted only once an archive "
                "of its data made in the last 24 hours is ready."
            )
        )
    deleted: dict[str, int] = {}
    with transaction.atomic():
        files = stored_files(club)
        with scopes_disabled():
            member_ids = list(Member.objects.filter(club=club).values_list("pk", flat=True))
            _delete(club, Club.objects.filter(pk=club.pk), deleted)
            _forget_history(club, member_ids, deleted)
        # The files go only once the rows naming them are gone for good: a rollback keeps both.
        transaction.on_commit(lambda: remove_files(files), robust=True)
    transaction.on_commit(club.forget_cached)
    return deleted


def stored_files(club: Club) -> list[tuple[models.FileField, str]]:
    """Every stored file a row of ``club`` names (its results PDFs, any ``FileField`` of a
    club-owned model, found through the model's scoped manager in the club's scope), as
    (field, name in the field's storage)."""
    found = []
    with club_scope(club):
        for model in apps.get_models():
            manager = model._default_manager
            if not hasattr(manager, "with_scope"):  # not club-owned: shared by every club
                continue
            for field in model._meta.concrete_fields:
                if isinstance(field, models.FileField):
                    names = manager.exclude(**{field.name: ""}).values_list(field.name, flat=True)
                    found.extend((field, name) for name in names if name)
    return found


def remove_files(files: list[tuple[models.FileField, str]]) -> None:
    """Delete ``files`` through their storage (Django's storage API: a folder or a bucket
    alike). A file some remaining row still names stays; one that cannot be deleted is
    logged and left, never an error: the club's rows are gone already."""
    for field, name in files:
        if field.model._base_manager.filter(**{field.name: name}).exists():
            continue
        try:
            field.storage.delete(name)
        except Exception:
            logger.exception("A file of a deleted club could not be removed: %s", name)


def _delete(club: Club, queryset, deleted: dict[str, int], depth: int = 0) -> None:
    """Delete ``queryset``, first deleting (checked to be ``club``'s) the rows that protect it."""
    for _attempt in range(50):
        try:
            _total, counts = queryset.delete()
        except ProtectedError as error:
            if depth > 20:
                raise
            by_model: dict = {}
            for row in error.protected_objects:
                by_model.setdefault(type(row), set()).add(row.pk)
            for model, pks in by_model.items():
                _check_of_club(club, model, pks)
                _delete(club, model._base_manager.filter(pk__in=pks), deleted, depth + 1)
            continue
        for label, count in counts.items():
            deleted[label] = deleted.get(label, 0) + count
        return
    raise FederationError(_("The club's rows could not be deleted."))


def _check_of_club(club: Club, model, pks: set) -> None:
    """Every row ``pks`` of ``model`` still there is ``club``'s: its scoped manager finds
    each in the club's scope (one may have gone already with a row deleted before it). A
    row of another club (which no path should reach) stops the deletion."""
    with club_scope(club):
        mine = model._default_manager.filter(pk__in=pks).count()
    if mine != model._base_manager.filter(pk__in=pks).count():
        raise FederationError(_("A row of another club depends on this club: nothing was deleted."))


def _forget_history(club: Club, member_ids: list[int], deleted: dict[str, int]) -> None:
    """The change history of the club's members, licences and payments (kept by
    simple_history, which no foreign key cascades to)."""
    for model in apps.get_app_config("clubsite").get_models():
        if not model.__name__.startswith("Historical"):
            continue
        names = {f.name for f in model._meta.fields}
        if "club" in names:
            rows = model._base_manager.filter(club_id=club.pk)
        elif "member" in names:
            rows = model._base_manager.filter(member_id__in=member_ids)
        else:
            continue
        _total, counts = rows.delete()
        for label, count in counts.items():
            deleted[label] = deleted.get(label, 0) + count

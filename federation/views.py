"""A federation's officer pages: reachable on any club's host, each about the federation
named in its URL, which the officer must serve (``officer_required``)."""

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import federations_of, officer_required
from clubsite.models import ArchiveState, Club, Federation
from clubsite.web.club_host import club_address
from clubsite.web.params import int_param
from federation import jobs, services
from federation.forms import ClubForm, LeaveForm, RankingPeriodForm, SecretaryForm


def _federation(code: str) -> str:
    if code not in Federation.values:
        raise Http404
    return code


def _club(federation: str, pk: int) -> Club:
    club = services.club_of(federation, pk)
    if club is None:
        raise Http404
    return club


def _context(request, federation: str, **extra) -> dict:
    """A page's context; the club a page is about is ``their_club``: ``club`` is the club of
    the request's host, whose name every page's header and footer show."""
    return {
        "federation": federation,
        "federation_name": Federation(federation).label,
        "offices": sorted(federations_of(request.user)),
        **extra,
    }


@officer_required
def index(request):
    """The federations the officer serves: straight to the one, else a choice."""
    offices = sorted(federations_of(request.user))
    if len(offices) == 1:
        return redirect("federation:clubs", federation=offices[0])
    choices = [(code, Federation(code).label) for code in offices]
    return render(request, "federation/index.html", {"choices": choices})


@officer_required
def clubs(request, federation):
    federation = _federation(federation)
    rows = list(services.clubs_of(federation))
    for club in rows:
        club.address_url = club_address(request, club)
    return render(
        request,
        "federation/clubs.html",
        _context(
            request,
            federation,
            clubs=rows,
            archives_gone=list(services.archives_of_clubs_gone(federation)),
        ),
    )


@officer_required
def results(request, federation):
    """Every club's published results, each linked to the club's own result page."""
    federation = _federation(federation)
    tournaments = services.published_results(federation)
    bases = {}
    for tournament in tournaments:
        if tournament.club_id not in bases:
            bases[tournament.club_id] = club_address(request, tournament.club)
        base = bases[tournament.club_id]
        path = reverse("results:tournament", args=[tournament.slug])
        tournament.link = None if base is None else base + path
    return render(
        request,
        "federation/results.html",
        _context(request, federation, tournaments=tournaments),
    )


@officer_required
def licences(request, federation):
    """Each club's licence batch of this season and its newest uploads to the federation."""
    federation = _federation(federation)
    return render(
        request,
        "federation/licences.html",
        _context(request, federation, rows=services.licences_and_uploads(federation)),
    )


@officer_required
def club_licences(request, federation, pk):
    """The club's licence batch as CSV, the file its secretary sends to the federation
    (``?season=id`` of the club's seasons; the one holding today by default)."""
    federation = _federation(federation)
    club = _club(federation, pk)
    batch = services.club_licence_batch(club, int_param(request.GET, "season"))
    if batch is None:
        raise Http404
    name, text = batch
    response = HttpResponse(text.encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@officer_required
def ranking(request, federation):
    """Master points across the federation's clubs, one line per licence number, for one
    season (``?season=2025-2026``; the current one by default) or all (``?season=all``)."""
    federation = _federation(federation)
    form = RankingPeriodForm(
        request.GET,
        periods=services.ranking_periods(federation),
        default=services.season_of(timezone.localdate()),
    )
    period = form.period
    players = services.ranking(federation, since=period.start, until=period.end)
    return render(
        request,
        "federation/ranking.html",
        _context(request, federation, form=form, period=period, players=players),
    )


@officer_required
def club_new(request, federation):
    federation = _federation(federation)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.add_club(federation, form.save(commit=False))
        messages.success(request, _("Club %(name)s added.") % {"name": club.name})
        return redirect("federation:club_secretary", federation=federation, pk=club.pk)
    return render(request, "federation/club_form.html", _context(request, federation, form=form))


@officer_required
def club_secretary(request, federation, pk):
    """Name the club's secretary: an account already on the site takes the role there."""
    federation = _federation(federation)
    club = _club(federation, pk)
    form = SecretaryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.name_secretary(club, form.cleaned_data["who"])
        except services.FederationError as refused:
            form.add_error("who", refused.message)
        else:
            messages.success(
                request,
                _("%(user)s is now secretary of %(club)s.") % {"user": user, "club": club.name},
            )
            return redirect("federation:clubs", federation=federation)
    return render(
        request,
        "federation/club_secretary.html",
        _context(request, federation, their_club=club, form=form),
    )


BADGES = {
    ArchiveState.QUEUED: "badge-pending",
    ArchiveState.RUNNING: "badge-pending",
    ArchiveState.DONE: "badge-valid",
    ArchiveState.FAILED: "badge-expired",
}


def _archive_context(club: Club) -> dict:
    """What the leave page's archive card shows: the club's newest archive (polled while it
    is waiting or being made) and whether one is ready for the club to be deleted."""
    archive = services.latest_archive(club)
    if archive is not None:
        archive.badge = BADGES.get(archive.state, "")
    return {
        "archive": archive,
        "archive_pending": archive is not None and archive.state in jobs.PENDING,
        "archive_ready": services.ready_archive(club),
    }


@officer_required
def club_archive(request, federation, pk):
    """The club's archive: POST asks for it (made in the worker; in-process without a
    broker); GET is its card, which the leave page polls with htmx while it is made."""
    federation = _federation(federation)
    club = _club(federation, pk)
    if request.method == "POST":
        jobs.request_archive(club, request.user)
        if not getattr(request, "htmx", False):
            return redirect("federation:club_leave", federation=federation, pk=club.pk)
    return render(
        request,
        "federation/_archive.html",
        _context(request, federation, their_club=club, **_archive_context(club)),
    )


@officer_required
def archive_download(request, federation, pk):
    """A made archive of one of the federation's clubs, here or gone (the record outlives
    the club); read through its storage."""
    federation = _federation(federation)
    archive = services.archive_of(federation, pk)
    if archive is None:
        raise Http404
    name = f"{archive.club_slug or f'club-{archive.club_id}'}-{archive.started_at:%Y-%m-%d}.zip"
    return FileResponse(
        archive.file.open("rb"), as_attachment=True, filename=name, content_type="application/zip"
    )


@officer_required
def club_leave(request, federation, pk):
    """A club leaves: its archive prepared and downloaded, then the club deleted once its
    short name is typed (refused until an archive of the last 24 hours is ready)."""
    federation = _federation(federation)
    club = _club(federation, pk)
    form = LeaveForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            services.delete_club(club)
        except services.FederationError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(
                request,
                _("%(name)s deleted. Its archive stays on the clubs page.") % {"name": club.name},
            )
            return redirect("federation:clubs", federation=federation)
    return render(
        request,
        "federation/club_leave.html",
        _context(
            request,
            federation,
            their_club=club,
            form=form,
            is_default=club.pk == services.default_club_id(),
            **_archive_context(club),
        ),
    )

"""Background work on pages: federation uploads (secretary) and USEBIO imports with their
verify report (directors); results PDFs are in ``views.pdfs``. HTTP and permissions only;
the work is in ``jobs`` (asking, queueing), ``exports.federation`` (sending),
``imports.usebio`` and the Celery tasks of ``jobs``."""

import base64
import uuid

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import (
    director_required,
    secretary_or_director_required,
    secretary_required,
)
from clubsite.models import Season
from clubsite.web.params import int_param
from tournaments import jobs, queueing
from tournaments.exports import federation
from tournaments.exports.licences import licence_batch, requested_licences
from tournaments.forms.uploads import EndpointForm, ImportForm
from tournaments.imports.usebio import clean_file_name, import_progress
from tournaments.imports.usebio_conventions import describe
from tournaments.imports.usebio_verify import shown_differences
from tournaments.models import Tournament, TournamentStatus
from tournaments.models.uploads import (
    FederationEndpoint,
    FileFormat,
    ImportState,
    PdfState,
    ResultImport,
    Upload,
    UploadState,
)
from tournaments.services.classification import file_record
from tournaments.services.errors import TournamentError

BADGES = {
    UploadState.SENT: "badge-valid",
    UploadState.MANUAL: "badge-active",
    UploadState.FAILED: "badge-expired",
    UploadState.QUEUED: "badge-pending",
    UploadState.SENDING: "badge-pending",
    PdfState.DONE: "badge-valid",
    PdfState.FAILED: "badge-expired",
    PdfState.RUNNING: "badge-pending",
}
MAX_IMPORT_BYTES = 20 * 1024 * 1024


def _pending(uploads) -> bool:
    return any(u.state in (UploadState.QUEUED, UploadState.SENDING) for u in uploads)


def _say_how_it_went(request, upload: Upload, queued: str) -> None:
    """Tell what became of an upload just handed to the worker. Without a broker the job
    runs inside this request, so by now it is sent or has failed; with one it waits."""
    upload.refresh_from_db()
    names = {"file": upload.file_name}
    if upload.state == UploadState.SENT:
        messages.success(request, _("Upload sent: %(file)s.") % names)
    elif upload.state == UploadState.FAILED:
        messages.error(
            request,
            _("The upload of %(file)s failed: %(error)s")
            % (names | {"error": upload.error or _("no reason given")}),
        )
    else:
        messages.info(request, queued)


@secretary_required
def index(request):
    """Endpoints, what was sent where (with every attempt), and the send forms."""
    uploads = list(
        Upload.objects.select_related("endpoint", "tournament", "season").prefetch_related(
            "attempts"
        )[:50]
    )
    for u in uploads:
        u.badge = BADGES.get(u.state, "")
    context = {
        "endpoints": FederationEndpoint.objects.all(),
        "uploads": uploads,
        "pending": _pending(uploads),
        "tournaments": Tournament.objects.filter(
            status__in=[TournamentStatus.PROVISIONAL, TournamentStatus.FINAL]
        )[:100],
        "seasons": Season.objects.order_by("-start")[:5],
        "season": Season.current(),
        "recent": Tournament.objects.exclude(status=TournamentStatus.DRAFT).order_by(
            "-date", "-created_at"
        )[:20],
    }
    template = (
        "tournaments/uploads/_uploads.html"
        if getattr(request, "htmx", False)
        else "tournaments/uploads/index.html"
    )
    return render(request, template, context)


@secretary_required
def endpoint_edit(request, pk: int | None = None):
    endpoint = get_object_or_404(FederationEndpoint, pk=pk) if pk else None
    form = EndpointForm(request.POST or None, instance=endpoint)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Endpoint saved."))
        return redirect("uploads:index")
    return render(
        request, "tournaments/uploads/endpoint_form.html", {"form": form, "endpoint": endpoint}
    )


@secretary_required
@require_POST
def send(request):
    """Queue an upload of a tournament's results or of a licence batch."""
    endpoint = get_object_or_404(FederationEndpoint, pk=int_param(request.POST, "endpoint", 0))
    tournament = season = None
    if endpoint.file_format == FileFormat.LICENCE_CSV:
        season = Season.objects.filter(pk=int_param(request.POST, "season", 0)).first()
    else:
        tournament = Tournament.objects.filter(pk=int_param(request.POST, "tournament", 0)).first()
    try:
        upload, created = jobs.request_upload(
            endpoint, tournament=tournament, season=season, user=request.user
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("uploads:index")
    if created:
        _say_how_it_went(
            request, upload, _("Upload queued: %(file)s.") % {"file": upload.file_name}
        )
    else:
        messages.info(
            request,
            _(
                "This very file was already uploaded to this endpoint "
                "(%(state)s); it is not sent twice."
            )
            % {"state": upload.get_state_display()},
        )
    return redirect("uploads:index")


@secretary_required
@require_POST
def retry(request, upload_id):
    upload = get_object_or_404(Upload, upload_id=upload_id)
    try:
        jobs.retry_upload(upload)
        _say_how_it_went(request, upload, _("Upload queued again."))
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("uploads:index")


@secretary_required
@require_POST
def manual(request, upload_id):
    upload = get_object_or_404(Upload, upload_id=upload_id)
    try:
        federation.mark_manual(upload)
        messages.success(request, _("Marked as uploaded by hand."))
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("uploads:index")


@secretary_required
def download(request, upload_id):
    """The exact file of an upload, for uploading by hand on the federation's site."""
    upload = get_object_or_404(Upload, upload_id=upload_id)
    types = {
        FileFormat.USEBIO: "application/xml",
        FileFormat.PBN: "text/plain",
        FileFormat.LICENCE_CSV: "text/csv",
    }
    response = HttpResponse(
        upload.content.encode(),
        content_type=f"{types.get(upload.file_format, 'text/plain')}; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{upload.file_name}"'
    return response


@secretary_required
def licences(request):
    """The season's licence requests and renewals as CSV (``?season=id``, current by default)."""
    season = (
        Season.objects.filter(pk=int_param(request.GET, "season", 0)).first() or Season.current()
    )
    if request.GET.get("download"):
        name, text = licence_batch(season)
        response = HttpResponse(text.encode(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return render(
        request,
        "tournaments/uploads/licences.html",
        {
            "season": season,
            "seasons": Season.objects.order_by("-start")[:5],
            "licences": requested_licences(season),
            "endpoints": FederationEndpoint.objects.filter(
                file_format=FileFormat.LICENCE_CSV, enabled=True
            ),
        },
    )


# --- imports (directors) ----------------------------------------------------------------


@secretary_or_director_required
def imports(request):
    """Import a USEBIO file (in the worker) and list past imports with their verify result.
    The import's record exists from the start (being imported), so its page can follow it."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            form.add_error("file", _("The file is too large (more than 20 MB)."))
        else:
            # The bytes as sent: the parser decodes them as the file's XML declaration says.
            content = base64.b64encode(upload.read()).decode("ascii")
            key = uuid.uuid4().hex
            pending = ResultImport.objects.create(
                file_name=clean_file_name(upload.name)[:200],
                key=key,
                state=ImportState.RUNNING,
                created_by=request.user,
            )
            if queueing.send(
                jobs.import_usebio_file,
                content,
                upload.name,
                key,
                request.user.pk,
                form.cleaned_data["replace"],
            ):
                record = ResultImport.objects.filter(pk=pending.pk).first()
                if record is not None:
                    return redirect("uploads:import", pk=record.pk)
                messages.info(
                    request, _("The file is being imported; this page shows it when done.")
                )
                return redirect("uploads:imports")
            # The broker is down: nothing was started, the form keeps its place.
            pending.delete()
            form.add_error(
                "file", _("The import could not be started; send the file again in a minute.")
            )
    return render(
        request,
        "tournaments/uploads/imports.html",
        {"form": form, "imports": ResultImport.objects.select_related("tournament")[:50]},
    )


@secretary_or_director_required
def import_detail(request, pk: int):
    """The verify report: every figure of the file our scoring does not reproduce, with the
    conventions recognised in the file. While the worker imports, the page polls its
    progress (htmx) and reloads itself when the report is ready."""
    record = get_object_or_404(ResultImport.objects.select_related("tournament"), pk=pk)
    running = record.state == ImportState.RUNNING
    if request.headers.get("HX-Request") and not running:
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    context = {
        "record": record,
        "progress": import_progress(record.key) if running else 0,
        "conventions": describe(record.summary.get("conventions") or {}),
        "differences": shown_differences(record.differences or []),
        "replace_form": ImportForm(initial={"replace": True}),
        "file_record": file_record.note(record.tournament) if record.tournament else None,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/uploads/_import_progress.html", context)
    return render(request, "tournaments/uploads/import_detail.html", context)


@director_required
@require_POST
def import_record(request, pk: int):
    """The director's decision on an imported event's result of record: the file's figures
    (as the club published them) or a re-score with the club's rules; audited, reversible."""
    record = get_object_or_404(ResultImport.objects.select_related("tournament"), pk=pk)
    tournament = record.tournament
    if record.state != ImportState.DONE or tournament is None or not file_record.note(tournament):
        messages.error(request, _("This import has no results of its own to choose from."))
        return redirect("uploads:import", pk=record.pk)
    reason = request.POST.get("reason", "").strip()[:300]
    if request.POST.get("results") == "ours":
        file_record.rescore(tournament, request.user, reason)
        messages.success(request, _("The event now shows our scoring with the club's rules."))
    else:
        file_record.restore(tournament, request.user, reason)
        messages.success(request, _("The event shows the imported file's results again."))
    return redirect("uploads:import", pk=record.pk)

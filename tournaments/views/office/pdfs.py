"""A tournament's results office (secretary and director): its PDFs with their progress, the
final publication, and what was sent to the federation; and the public download of the
published results' PDF. HTTP and permissions only; the work is in ``jobs`` (asking for,
making and finding the PDFs) and ``services.publish``."""

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import Role, has_role, public, secretary_or_director_required
from tournaments import jobs
from tournaments.documents import current_version
from tournaments.models import SessionStatus, Tournament, TournamentStatus
from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf, Upload
from tournaments.services.errors import TournamentError
from tournaments.services.results import pages as results
from tournaments.services.results import publish
from tournaments.views.office.uploads import BADGES


def _download(item: ResultsPdf) -> FileResponse:
    if not item.file:
        raise Http404
    part = f"-s{item.session_number}" if item.session_number else ""
    name = f"{item.tournament.slug}-{item.kind}{part}-v{item.version}.pdf"
    response = FileResponse(
        item.file.open("rb"), as_attachment=True, filename=name, content_type="application/pdf"
    )
    if getattr(item, "superseded", False):
        response["X-Results-Superseded"] = item.version  # the name carries it for people
    return response


@secretary_or_director_required
def pdf_status(request, slug: str):
    """The tournament's PDFs for the current results: ask for one, watch it (the list polls
    while one is queued or running), download it; publish the final results; the uploads."""
    tournament = get_object_or_404(Tournament, slug=slug)
    language = request.POST.get("language") or request.GET.get("language")
    if language not in dict(settings.LANGUAGES):  # a language the site has, or the reader's
        language = get_language()
    if request.method == "POST":
        kind = request.POST.get("kind", PdfKind.RESULTS)
        number = request.POST.get("session", "0")
        if kind not in PdfKind.values or not number.isdigit():
            raise Http404
        try:
            jobs.request_pdf(tournament, kind, language, int(number))
        except ValueError as exc:  # a session without results, or set-up cards of one
            raise Http404 from exc
        if not getattr(request, "htmx", False):
            return redirect("uploads:pdf", slug=slug)
    version = current_version(tournament)
    items = list(ResultsPdf.objects.filter(tournament=tournament)[:20])
    versions = {0: version}
    for item in items:
        if item.session_number not in versions:
            versions[item.session_number] = current_version(tournament, item.session_number)
        item.badge = BADGES.get(item.state, "badge-pending")
        item.current = item.version == versions[item.session_number]
    # Publishing queues the results PDF's job, which records it when it runs: until then the
    # list says it is coming and keeps looking.
    awaited = (
        settings.RESULTS_PDF_ON_PUBLISH
        and tournament.status in (TournamentStatus.PROVISIONAL, TournamentStatus.FINAL)
        and not any(i.kind == PdfKind.RESULTS and not i.session_number and i.current for i in items)
    )
    pending = awaited or any(i.state in (PdfState.QUEUED, PdfState.RUNNING) for i in items)
    context = {
        "tournament": tournament,
        "pdfs": items,
        "version": version,
        "pending": pending,
        "awaited": awaited,
        "kinds": PdfKind.choices,
    }
    if getattr(request, "htmx", False):
        return render(request, "tournaments/uploads/_pdfs.html", context)
    uploads = list(
        Upload.objects.filter(tournament=tournament)
        .select_related("endpoint")
        .prefetch_related("attempts")[:20]
    )
    for upload in uploads:
        upload.badge = BADGES.get(upload.state, "")
    context.update(
        uploads=uploads,
        secretary=has_role(request.user, Role.SECRETARY),
        sessions=list(
            tournament.sessions.filter(sections__isnull=False)
            .distinct()
            .order_by("number")
            .values_list("number", flat=True)
        ),
        finished=not tournament.sessions.exclude(status=SessionStatus.FINISHED).exists(),
    )
    return render(request, "tournaments/uploads/pdf.html", context)


@secretary_or_director_required
@require_POST
def publish_final(request, slug: str):
    """Publish the final results from the results office; the service decides whether it
    may (every session finished; a new publication after the correction period needs the
    director's override, which only the director's page offers)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if tournament.status == TournamentStatus.FINAL:
        messages.info(request, _("The results are already final."))
        return redirect("uploads:pdf", slug=slug)
    try:
        publish.publish_final(tournament, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Final results published; the correction period is open."))
    return redirect("uploads:pdf", slug=slug)


@secretary_or_director_required
def pdf_download(request, pk: int):
    return _download(get_object_or_404(ResultsPdf, pk=pk, state=PdfState.DONE))


@public
def published_pdf(request, slug: str):
    """The PDF of the published results, as the public tournament page links it: only for
    a tournament the visitor may see, once published, and only of the current version."""
    tournament = results.visible_tournament(request.user, slug)
    item = jobs.published_pdf(tournament, get_language()) if tournament else None
    if tournament is not None and (item is None or item.superseded):
        # The current version is asked for (made here without a broker); until it is
        # ready the last good PDF is served, marked with its version.
        made = jobs.ensure_published_pdf(tournament)
        if made is not None and made.state == PdfState.DONE:
            item = jobs.published_pdf(tournament, get_language())
    if item is None:
        raise Http404(_("No PDF of these results."))
    return _download(item)

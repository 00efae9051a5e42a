"""A tournament's documents: its USEBIO and PBN files and its PDFs' HTML, each from one snapshot.

Where the flow out starts: ``services.snapshot_build`` reads the event once (bringing the
classification up to date first) and the writers (``exports.usebio``, ``exports.pbn``) or the
renderer (``pdf``) turn the snapshot into text; they never ask services anything. The jobs
(``jobs``), the federation uploads and ``manage.py export_results`` call these.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.services.results.snapshot import public_deals, without_marks
from tournaments.services.results.snapshot_build import build_event_snapshot, results_version

from .exports.licences import licence_batch
from .exports.writers import FORMATS, write
from .models import Tournament
from .models.uploads import FileFormat, PdfKind
from .pdf import results_html, setup_html
from .pdf.parts import ResultsDocument, results_parts
from .services.errors import TournamentError

__all__ = [
    "FORMATS",
    "build_file",
    "current_version",
    "export_text",
    "public_hands",
    "render_html",
    "results_document",
]


def export_text(tournament: Tournament, fmt: str = "usebio") -> str:
    """The tournament's current results as USEBIO 1.2 (``fmt`` "usebio", a teams event our
    USEBIO cannot carry refused with a ``TournamentError``) or PBN 2.1 ("pbn") text."""
    return write(build_event_snapshot(tournament), fmt)


def public_hands(
    tournament: Tournament, session_number: int, *, marks: bool = True
) -> tuple[str, str]:
    """(file name, PBN 2.1 text) of one session's boards anybody may see, each with its deal
    and traveller (``snapshot.public_deals``: a board a table has still to play is left out);
    the text is empty while no board shows. Reads the stored classification as it is: the
    caller brings it up to date (``reclassification.follow_live``). Without ``marks`` (the
    running ranking hides rounds), no ranking and no marks: deals and scores only."""
    data = public_deals(
        build_event_snapshot(tournament, session_number=session_number, classify=False)
    )
    if not marks:
        data = without_marks(data)
    name = f"{tournament.slug}-{session_number}.pbn"
    if not any(section.boards for session in data.sessions for section in session.sections):
        return name, ""
    return name, write(data, "pbn")


def build_file(
    fmt: str, *, tournament: Tournament | None = None, season=None
) -> tuple[str, str, str]:
    """(file name, text, results version) of what a federation endpoint of format ``fmt``
    takes: a licence batch of ``season``, or the tournament's results."""
    if fmt == FileFormat.LICENCE_CSV:
        if season is None:
            raise TournamentError(_("Choose the season of the licence batch."), "season")
        name, text = licence_batch(season)
        return name, text, ""
    if tournament is None:
        raise TournamentError(_("Choose the tournament to upload."), "tournament")
    data = build_event_snapshot(tournament)
    if fmt == FileFormat.PBN:
        return f"{tournament.slug}-v{data.version}.pbn", write(data, "pbn"), data.version
    return f"{tournament.slug}-v{data.version}.xml", write(data, "usebio"), data.version


def render_html(
    tournament: Tournament,
    kind: str = PdfKind.RESULTS,
    language: str | None = None,
    session_number: int = 0,
    *,
    classify: bool = True,
) -> tuple[str, str]:
    """(HTML, results version) of a PDF document in ``language`` (the club's by default): the
    results of the tournament, or with ``session_number`` of that session alone, or the
    set-up cards. ``classify=False``: the caller has just brought the classification up to
    date (``snapshot_build.build_event_snapshot``)."""
    if kind == PdfKind.SETUP:
        return setup_html(tournament, language)
    data = build_event_snapshot(tournament, session_number=session_number, classify=classify)
    return results_html(data, language, session_number), data.version


def results_document(
    tournament: Tournament,
    language: str | None = None,
    session_number: int = 0,
    *,
    classify: bool = True,
) -> tuple[ResultsDocument, str]:
    """(parts, results version) of the results PDF of the tournament (or of its session
    ``session_number``) in ``language``, for ``pdf.join.render``. ``classify=False``: as in
    ``render_html``."""
    data = build_event_snapshot(tournament, session_number=session_number, classify=classify)
    return results_parts(data, language, session_number), data.version


def current_version(tournament: Tournament, session_number: int = 0) -> str:
    """The results' version: every played session's ranking version ("3.1"), or with
    ``session_number`` that session's alone."""
    return results_version(tournament, session_number)

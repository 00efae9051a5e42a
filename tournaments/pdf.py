"""Printable PDFs with WeasyPrint: the results of a tournament and the cards to set it up.

*Results*: ranking per section (and line), travellers with their frequency table, hand
records with the double-dummy table and par, and each entry's personal scorecard.
*Set-up*: table guide cards, pair movement cards and the table codes with a QR code each.
A4, page headers with the club and the event, "page n / N" from CSS counters, a table of
contents with page numbers (``target-counter``) when the document has several parts.

Data comes from ``exports.data.load_event`` (the stored classification, brought up to date
first) and the display helpers of ``services.results``; the PDF is stored in media storage
under the results' version, so a correction (a new version) gives a new file.
"""

from __future__ import annotations

import base64
import io
from collections import defaultdict

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.models import Club

from . import pdf_tables
from .exports.data import EventData, Line, load_event, number_text
from .models import Section, TableCode, Tournament
from .models.boards import Seat
from .models.uploads import PdfKind, PdfState, ResultsPdf
from .services import board_visibility, individual, plan
from .services.board_words import (
    contract_call,
    double_dummy_rows,
    lead_card,
    par_text,
    parse_deal,
    strain_headers,
    trick_result,
)
from .services.bridge_words import seat_word
from .services.results import PUBLISHED

VULNERABLE = {"": gettext_lazy("None"), "NS": gettext_lazy("N-S"), "EW": gettext_lazy("E-W"),
              "All": gettext_lazy("All")}


def _line_row(line: Line, letter_of: dict[int, str], many: bool) -> dict:
    def pair(p):
        return f"{letter_of.get(p.entry_id, '') if many else ''}{p.number}"

    return {"ns": pair(line.ns), "ew": pair(line.ew), "contract": contract_call(line.contract),
            "declarer": seat_word(line.declarer), "lead": lead_card(line.lead),
            "result": trick_result(line.contract, line.tricks),
            "ns_score": line.ns_score if line.ns_score is not None and line.ns_score >= 0
            and not line.adjustment else "",
            "ew_score": -line.ns_score if line.ns_score is not None and line.ns_score < 0
            and not line.adjustment else "",
            "adjusted": bool(line.adjustment), "ns_mark": number_text(line.ns_mark),
            "ew_mark": number_text(line.ew_mark), "table": line.table, "round": line.round}


def _frequencies(lines: list[Line]) -> list[dict]:
    table: dict[int, dict] = {}
    for line in lines:
        if line.ns_score is None or line.adjustment:
            continue
        row = table.setdefault(line.ns_score, {"score": line.ns_score, "count": 0,
                                               "ns_mark": number_text(line.ns_mark),
                                               "ew_mark": number_text(line.ew_mark)})
        row["count"] += 1
    return [table[s] for s in sorted(table, reverse=True)]


def _traveller(lines: list[Line], letter_of: dict[int, str], many: bool) -> pdf_tables.Block:
    """A board's traveller, its frequency table beside it when the line has room."""
    rows = []
    for ln in lines:
        r = _line_row(ln, letter_of, many)
        contract = pdf_tables.Marked(_("adjusted"), "adj") if r["adjusted"] else r["contract"]
        rows.append([r["ns"], r["ew"], contract, r["declarer"], r["lead"], r["result"],
                     r["ns_score"], r["ew_score"], r["ns_mark"], r["ew_mark"]])
    C = pdf_tables.Column
    traveller = pdf_tables.layout(
        [C(_("NS")), C(_("EW")), C(_("Contract"), right=False), C(_("By"), right=False),
         C(_("Lead"), right=False), C(_("Result")), C(_("NS score")), C(_("EW score")),
         C(_("NS")), C(_("EW"))], rows, pass_word=_("Pass"))
    frequencies = _frequencies(lines)
    if not frequencies:
        return traveller
    table = pdf_tables.layout(
        [C(_("NS score")), C(_("Tables")), C(_("NS")), C(_("EW"))],
        [[f["score"], f["count"], f["ns_mark"], f["ew_mark"]] for f in frequencies])
    both = pdf_tables.beside(traveller, table)
    if both is None:
        traveller.rows += [""] + table.head + table.rows
        return traveller
    return both


def _hand_record(hands: dict | None, number: int, dd: list[dict]) -> pdf_tables.Block | None:
    """The deal around the board number, the double-dummy tricks beside it."""
    if not hands:
        return None
    diagram = pdf_tables.hand_diagram(hands, number)
    if not dd:
        return diagram
    C = pdf_tables.Column
    table = pdf_tables.layout(
        [C("", right=False)] + [C(symbol, css=css, minimum=2) for symbol, css in strain_headers()],
        [[seat_word(row["seat"]), *("" if t is None else t for t in row["tricks"])] for row in dd])
    return pdf_tables.beside(diagram, table, gap=6) or diagram


# A scorecard line of a board still in play: who met whom, but no contract, score or mark.
IN_PLAY_LINE = {"adjusted": False, "contract": "", "declarer": "", "result": "",
                "ns_score": "", "ew_score": "", "mark": ""}


def _scorecard(rows: list[dict]) -> pdf_tables.Block:
    C = pdf_tables.Column
    return pdf_tables.layout(
        [C(_("Round")), C(_("Board")), C(_("Line"), right=False),
         C(_("Opponents"), right=False, flexible=True, minimum=12),
         C(_("Contract"), right=False), C(_("By"), right=False), C(_("Result")),
         C(_("NS score")), C(_("EW score")), C(_("Mark"))],
        [[r["round"], r["board"], r["side"], r["versus"],
          pdf_tables.Marked(_("adjusted"), "adj") if r["adjusted"] else r["contract"],
          r["declarer"], r["result"], r["ns_score"], r["ew_score"], r["mark"]] for r in rows],
        pass_word=_("Pass"))


def results_context(data: EventData) -> dict:
    """Everything the results template shows, computed once (no queries in the template).

    Travellers and scorecards come as fixed-width blocks (``pdf_tables``): as HTML tables
    they made a 60-table session's PDF take minutes.

    The PDF is a public document: a board some table has still to play
    (``services.board_visibility``, provisional results published during play) has no
    traveller or hand record in it, and the scorecards leave out its contracts, scores and
    marks."""
    stored = {s.number: s for s in data.tournament.sessions.all()}
    sessions = []
    for session in data.sessions:
        visible = (board_visibility.visibility(stored[session.number])
                   if session.number in stored else board_visibility.BoardVisibility(False))
        pools: dict[str, list] = defaultdict(list)
        for section in session.sections:
            pools[section.pool].append(section)
        many = len(session.sections) > 1
        letter_of = {p.entry_id: s.letter for s in session.sections for p in s.participants}
        rankings = []
        for section in session.sections:
            lines = ("NS", "EW") if section.directional else ("",)
            for line in lines:
                rankings.append({"section": section.letter, "line": line, "rows": [
                    p for p in section.participants if p.direction == line]})
        boards = []
        for pool_sections in pools.values():
            merged: dict[int, dict] = {}
            for section in pool_sections:
                for b in section.boards:
                    item = merged.setdefault(b.number, {"board": b, "lines": []})
                    item["lines"] += b.lines
            pool = pool_sections[0].pool
            for number in sorted(merged):
                b, lines = merged[number]["board"], merged[number]["lines"]
                lines.sort(key=lambda ln: -(ln.ns_score or 0))
                if not visible.shows(pool, number):
                    boards.append({
                        "number": number, "dealer": Seat(b.dealer).label,
                        "vulnerability": VULNERABLE.get(b.vulnerability, b.vulnerability),
                        "hand_record": None, "par": None, "traveller": None, "in_play": True})
                    continue
                boards.append({
                    "number": number, "dealer": Seat(b.dealer).label,
                    "vulnerability": VULNERABLE.get(b.vulnerability, b.vulnerability),
                    "hand_record": _hand_record(parse_deal(b.deal), number,
                                                double_dummy_rows(b.double_dummy)),
                    "par": par_text(b.par),
                    "traveller": _traveller(lines, letter_of, many)})
        cards = []
        for section in session.sections:
            for p in sorted(section.participants, key=lambda p: (p.direction, p.number)):
                rows = []
                for b in section.boards:
                    for ln in b.lines:
                        if p.entry_id in (ln.ns.entry_id, ln.ew.entry_id):
                            ns_side = ln.ns.entry_id == p.entry_id
                            row = _line_row(ln, letter_of, many)
                            other = ln.ew if ns_side else ln.ns
                            row.update(board=b.number, side=seat_word("NS" if ns_side else "EW"),
                                       versus=f"{row['ew'] if ns_side else row['ns']} "
                                              f"{other.name}",
                                       mark=row["ns_mark"] if ns_side else row["ew_mark"])
                            if not visible.shows(section.pool, b.number):
                                row.update(IN_PLAY_LINE, contract=_("in play"))
                            rows.append(row)
                rows.sort(key=lambda r: (r["round"], r["board"]))
                cards.append({"participant": p, "section": section.letter,
                              "table": _scorecard(rows)})
        sessions.append({"number": session.number, "rankings": rankings, "boards": boards,
                         "cards": cards, "many": len(data.sessions) > 1})
    return {"sessions": sessions, "totals": data.totals, "strains": strain_headers(),
            "imp": not data.tournament.is_matchpoints,
            "vps": data.tournament.converts_matches_to_vps}


def _qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG data URI (vector: sharp at any print size)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10)
    buffer = io.BytesIO()
    image.save(buffer)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode()


def table_link(token: str) -> str:
    """A table's sign-in link (``table:enter`` with the card's secret token) for its QR code
    in a PDF, when ``SITE_URL`` says where the site lives; otherwise "" and the card has no QR
    code, only the table and its short code to type (a PDF is made in a worker, with no
    request to ask the address of)."""
    base = settings.SITE_URL.rstrip("/")
    return f"{base}{reverse('table:enter', args=[token])}" if base else ""


def setup_context(tournament: Tournament) -> dict:
    sessions = []
    for session in tournament.sessions.order_by("number"):
        sections = []
        for section in Section.objects.filter(session=session).order_by("letter"):
            mv = section.movement or {}
            codes = []
            for code in TableCode.objects.filter(section=section, active=True).order_by("table"):
                link = table_link(code.token)
                codes.append({"table": code.table, "code": code.code, "link": link,
                              "qr": _qr_svg(link) if link else ""})
            if plan.is_individual(mv):  # four seats a table, one card per player
                sections.append({"letter": section.letter, "individual": True,
                                 "table_cards": individual.table_cards(section),
                                 "player_cards": individual.player_cards(section),
                                 "codes": codes})
                continue
            names = {(s.number, s.direction): s.entry.name or s.entry.display_name
                     for s in section.seatings.select_related("entry")}
            directional = plan.is_directional(mv)
            tables: dict[int, list] = defaultdict(list)
            pairs: dict[tuple[int, str], list] = defaultdict(list)
            for slot in plan.slots(mv):
                boards = [b + section.board_offset for b in slot.boards]
                tables[slot.table].append({"round": slot.round, "ns": slot.ns, "ew": slot.ew,
                                           "boards": boards})
                for own, other, line in ((slot.ns, slot.ew, "NS"), (slot.ew, slot.ns, "EW")):
                    if own is not None:
                        key = (own, line if directional else "")
                        pairs[key].append({"round": slot.round, "table": slot.table,
                                           "line": line, "versus": other, "boards": boards})
            sections.append({
                "letter": section.letter,
                "tables": [{"table": t, "rounds": sorted(r, key=lambda x: x["round"])}
                           for t, r in sorted(tables.items())],
                "pairs": [{"number": n, "line": line, "name": names.get((n, line), ""),
                           "rounds": sorted(r, key=lambda x: x["round"])}
                          for (n, line), r in sorted(pairs.items(),
                                                     key=lambda kv: (kv[0][1], kv[0][0]))],
                "codes": codes})
        if sections:
            sessions.append({"number": session.number, "sections": sections})
    return {"sessions": sessions, "many": len(sessions) > 1}


def render_html(tournament: Tournament, kind: str = PdfKind.RESULTS, language: str | None = None,
                data: EventData | None = None, session_number: int = 0) -> tuple[str, str]:
    """(HTML, results version) of a document, in ``language`` (the club's by default); with
    ``session_number``, the results of that session alone."""
    language = language or settings.LANGUAGE_CODE
    with translation.override(language):
        if kind == PdfKind.SETUP:
            context = setup_context(tournament)
            version = ".".join(str(v) for v in tournament.sessions.order_by("number")
                               .values_list("ranking_version", flat=True)) or "0"
            template, title = "pdf/setup.html", _("Table cards")
        else:
            data = data or load_event(tournament, session_number=session_number)
            context = results_context(data)
            context["session_number"] = session_number
            version, template, title = data.version, "pdf/results.html", _("Results")
        club = Club.load()
        context.update(
            tournament=tournament, club=club, title=title, version=version, language=language,
            generated=timezone.localtime())
        return render_to_string(template, context), version


def render_pdf(html: str) -> tuple[bytes, int]:
    """PDF bytes and page count of ``html``; it may load the site's static files and inline
    images only (``pdf_fetcher``)."""
    from weasyprint import HTML

    from .pdf_fetcher import SiteFilesFetcher

    document = HTML(string=html, base_url=str(settings.BASE_DIR),
                    url_fetcher=SiteFilesFetcher()).render()
    return document.write_pdf(), len(document.pages)


def current_version(tournament: Tournament, session_number: int = 0) -> str:
    """The results' version: every played session's ranking version ("3.1"), or with
    ``session_number`` that session's alone."""
    sessions = tournament.sessions.filter(sections__isnull=False).distinct()
    if session_number:
        sessions = sessions.filter(number=session_number)
    return ".".join(str(v) for v in sessions.order_by("number")
                    .values_list("ranking_version", flat=True)) or "0"


def request_pdf(tournament: Tournament, kind: str = PdfKind.RESULTS,
                language: str | None = None, session_number: int = 0
                ) -> tuple[ResultsPdf, bool]:
    """The PDF of the current results version (of the tournament, or of the session
    ``session_number``: results only), queued for the worker if not made yet."""
    from .services.classification import ensure_current

    sessions = tournament.sessions.all()
    if session_number:
        if kind != PdfKind.RESULTS or not sessions.filter(number=session_number,
                                                          sections__isnull=False).exists():
            raise ValueError(f"no results PDF of session {session_number}")
        sessions = sessions.filter(number=session_number)
    for session in sessions:
        if session.sections.exists():
            ensure_current(session)
    language = language or settings.LANGUAGE_CODE
    with transaction.atomic():
        pdf, created = ResultsPdf.objects.get_or_create(
            tournament=tournament, kind=kind, language=language, session_number=session_number,
            version=current_version(tournament, session_number))
        if created or pdf.state == PdfState.FAILED:
            if not created:
                ResultsPdf.objects.filter(pk=pdf.pk).update(state=PdfState.QUEUED, error="",
                                                            progress=0)
            from .jobs import generate_pdf

            transaction.on_commit(lambda: generate_pdf.delay(pdf.pk))
    return pdf, created


def published_pdf(tournament: Tournament, language: str | None = None) -> ResultsPdf | None:
    """The finished results PDF a visitor may download, once the tournament's results are
    published (provisional or final): the current version's, in ``language`` if made in
    it, else in the club's language, else in any; while the current one is not made yet,
    the last good one (``superseded`` set, its version on it), so a published PDF never
    vanishes because the results moved on."""
    if tournament.status not in PUBLISHED:
        return None
    made = list(ResultsPdf.objects.filter(
        tournament=tournament, kind=PdfKind.RESULTS, state=PdfState.DONE, session_number=0)
        .exclude(file="").order_by(F("finished_at").desc(nulls_last=True), "-pk")[:20])
    if not made:
        return None
    current = current_version(tournament)
    preferred = {language: 0, settings.LANGUAGE_CODE: 1}
    newest = {pdf.pk: i for i, pdf in enumerate(made)}
    made.sort(key=lambda pdf: (pdf.version != current, newest[pdf.pk] if pdf.version != current
                               else 0, preferred.get(pdf.language, 2)))
    best = made[0]
    best.superseded = best.version != current
    return best


def ensure_published_pdf(tournament: Tournament) -> ResultsPdf | None:
    """The results PDF of the current version in the club's language, asked for if it is
    not made or being made yet (for a visitor who finds only a superseded one, or none).
    Without a broker it is made here, in-process (the embedded site: on first download)."""
    if tournament.status not in PUBLISHED:
        return None
    version = current_version(tournament)
    existing = ResultsPdf.objects.filter(
        tournament=tournament, kind=PdfKind.RESULTS, session_number=0, version=version,
        language=settings.LANGUAGE_CODE).first()
    if existing is not None and existing.state != PdfState.FAILED:
        return existing
    pdf, _created = request_pdf(tournament, PdfKind.RESULTS, settings.LANGUAGE_CODE)
    pdf.refresh_from_db()
    from .jobs import generate_pdf

    if generate_pdf.app.conf.task_always_eager and pdf.state != PdfState.DONE:
        pdf = make_pdf(pdf.pk)  # no worker: made now (the queued run then finds it made)
    return pdf


def refresh_results(tournament: Tournament) -> list[ResultsPdf]:
    """The results PDF of the current version in the club's language, and of every language
    and session a results PDF of the tournament was made for, each queued if not made yet
    (a session the correction left alone keeps its PDF)."""
    made = set(ResultsPdf.objects.filter(tournament=tournament, kind=PdfKind.RESULTS)
               .values_list("language", "session_number")) | {(settings.LANGUAGE_CODE, 0)}
    return [request_pdf(tournament, PdfKind.RESULTS, language, number)[0]
            for language, number in sorted(made)]


class Outdated(RuntimeError):
    """The results changed between asking for a PDF and making it."""


def make_pdf(pdf_pk: int) -> ResultsPdf:
    """Render and store one requested PDF (the task's work). Idempotent: a PDF already made
    is kept; one whose results moved on is made for the version it names only if that
    version is still current, otherwise it is marked failed as outdated."""
    pdf = ResultsPdf.objects.select_related("tournament").get(pk=pdf_pk)
    if pdf.state == PdfState.DONE and pdf.file:
        return pdf
    ResultsPdf.objects.filter(pk=pdf.pk).update(state=PdfState.RUNNING, progress=5)
    try:
        html, version = render_html(pdf.tournament, pdf.kind, pdf.language,
                                    session_number=pdf.session_number)
        ResultsPdf.objects.filter(pk=pdf.pk).update(progress=40)
        if pdf.kind == PdfKind.RESULTS and version != pdf.version:
            raise Outdated(_("The results changed while the PDF was being made; "
                             "the new version is made instead."))
        content, pages = render_pdf(html)
    except Exception as exc:  # a broken template or data: recorded, shown on the page
        ResultsPdf.objects.filter(pk=pdf.pk).update(
            state=PdfState.FAILED, error=_("The PDF could not be made: %(error)s")
            % {"error": exc}, finished_at=timezone.now())
        pdf.refresh_from_db()
        if isinstance(exc, Outdated):
            # The results moved on (a result or correction came in meanwhile): make the
            # version they are at now, so a published PDF always follows.
            request_pdf(pdf.tournament, pdf.kind, pdf.language, pdf.session_number)
        return pdf
    part = f"-s{pdf.session_number}" if pdf.session_number else ""
    name = f"{pdf.tournament.slug}-{pdf.kind}{part}-{pdf.language}-v{pdf.version}.pdf"
    pdf.refresh_from_db()
    if pdf.file:
        pdf.file.delete(save=False)  # a half-finished earlier run
    pdf.file.save(name, ContentFile(content), save=False)
    pdf.state, pdf.progress, pdf.pages = PdfState.DONE, 100, pages
    pdf.finished_at, pdf.error = timezone.now(), ""
    pdf.save(update_fields=["file", "state", "progress", "pages", "finished_at", "error"])
    return pdf

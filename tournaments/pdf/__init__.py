"""Printable PDFs with WeasyPrint: the results of a tournament and the cards to set it up.

*Results*: ranking per section (and line), travellers with their frequency table, hand
records with the double-dummy table and par, and each entry's personal scorecard.
*Set-up*: table guide cards, pair movement cards and the table codes with a QR code each.
A4, page headers with the club and the event, "page n / N" from CSS counters, a table of
contents with page numbers (``target-counter``) when the document has several parts.

The results come from the event's snapshot (``services.snapshot``, built by the caller:
``documents.render_html``) and nothing else: this module neither queries nor scores them, and
``notation`` writes contracts, cards and deals as the pages do. The set-up cards read the
section's movement and codes through ``services.printing`` and ``services.individual``.
Asking for, making and storing a PDF (its ``ResultsPdf`` record, under the results' version)
is the jobs' part (``jobs.request_pdf``, ``jobs.make_pdf``).
"""

from __future__ import annotations

import base64
import functools
import io
from collections import defaultdict

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.models import Club
from tournaments.services.boards.board_words import (
    contract_call,
    double_dummy_rows,
    lead_card,
    par_text,
    parse_deal,
    strain_headers,
    trick_result,
)
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.results.snapshot import EventSnapshot, Line
from tournaments.services.running.adjustments import describe
from tournaments.services.setup import individual, printing

from ..models import ScoringMethod, Section, TableCode, Tournament
from ..models.boards import Seat
from . import charts as pdf_charts
from . import fixed_width as pdf_tables
from . import rankings as pdf_rankings

VULNERABLE = {
    "": gettext_lazy("None"),
    "NS": gettext_lazy("N-S"),
    "EW": gettext_lazy("E-W"),
    "All": gettext_lazy("All"),
}


def _adjusted(line: Line) -> bool:
    """An adjusted score stands in for the table's result; a fouled board (Law 87) is a real
    result, scored only within its group, and prints as played."""
    return bool(line.adjustment) and line.adjustment.get("kind") != "fouled"


def _mark(value) -> str:
    """A mark as the pages print it: two decimals in the reader's language ("12,50")."""
    return "" if value is None else _number(value, translation.get_language())


@functools.lru_cache(maxsize=4096)
def _number(value, language: str) -> str:
    """``number_format`` of a mark, kept: a session's marks are a few hundred values printed
    thousands of times (the traveller and both pairs' scorecards)."""
    return number_format(value, 2)


def _seat(code) -> str:
    """``seat_word`` in the reader's language, kept: a handful of words printed on every
    line (a lazy translation looked up each time was a sixth of writing the parts)."""
    return _seat_in(code, translation.get_language())


@functools.lru_cache(maxsize=256)
def _seat_in(code, language: str) -> str:
    return seat_word(code)


def _line_row(line: Line, letter_of: dict[int, str], many: bool) -> dict:
    def pair(p):
        return f"{letter_of.get(p.entry_id, '') if many else ''}{p.number}"

    adjusted = _adjusted(line)
    row = {
        "ns": pair(line.ns),
        "ew": pair(line.ew),
        "contract": contract_call(line.contract),
        "declarer": _seat(line.declarer),
        "lead": lead_card(line.lead),
        "result": trick_result(line.contract, line.tricks),
        "ns_score": line.ns_score
        if line.ns_score is not None and line.ns_score >= 0 and not adjusted
        else "",
        "ew_score": -line.ns_score
        if line.ns_score is not None and line.ns_score < 0 and not adjusted
        else "",
        "adjusted": describe(line.adjustment) if adjusted else "",
        "ns_mark": _mark(line.ns_mark),
        "ew_mark": _mark(line.ew_mark),
        "table": line.table,
        "round": line.round,
    }
    if adjusted:  # the adjustment replaces the play: no contract, declarer, lead or result
        row.update(contract="", declarer="", lead="", result="")
    return row


def _rows_of(letter_of: dict[int, str], many: bool):
    """``_line_row`` for each line once: a line prints in its traveller and on both pairs'
    scorecards; each caller gets its own copy to add to."""
    made: dict[int, dict] = {}

    def row(line: Line) -> dict:
        if id(line) not in made:
            made[id(line)] = _line_row(line, letter_of, many)
        return dict(made[id(line)])

    return row


def _adjusted_text(row: dict) -> pdf_tables.Marked:
    word = _("adjusted")  # outside the f-string: makemessages finds it
    return pdf_tables.Marked(f"{word} {row['adjusted']}".strip(), "adj")


def _frequencies(lines: list[Line] | tuple[Line, ...]) -> list[dict]:
    table: dict[int, dict] = {}
    for line in lines:
        if line.ns_score is None or line.adjustment:
            continue
        row = table.setdefault(
            line.ns_score,
            {
                "score": line.ns_score,
                "count": 0,
                "ns_mark": _mark(line.ns_mark),
                "ew_mark": _mark(line.ew_mark),
            },
        )
        row["count"] += 1
    return [table[s] for s in sorted(table, reverse=True)]


def _traveller(lines: list[Line] | tuple[Line, ...], line_row) -> list[pdf_tables.Block]:
    """A board's traveller and its frequency table: beside it when the line has room, else
    a table of its own under it (with its own header)."""
    rows = []
    for ln in lines:
        r = line_row(ln)
        contract = _adjusted_text(r) if r["adjusted"] else r["contract"]
        rows.append(
            [
                r["ns"],
                r["ew"],
                contract,
                r["declarer"],
                r["lead"],
                r["result"],
                r["ns_score"],
                r["ew_score"],
                r["ns_mark"],
                r["ew_mark"],
            ]
        )
    C = pdf_tables.Column
    traveller = pdf_tables.layout(
        [
            C(_("NS")),
            C(_("EW")),
            C(_("Contract"), right=False, maximum=36),
            C(_("By"), right=False),
            C(_("Lead"), right=False),
            C(_("Result")),
            C(_("NS score")),
            C(_("EW score")),
            C(_("NS")),
            C(_("EW")),
        ],
        rows,
        pass_word=_("Pass"),
    )
    frequencies = _frequencies(lines)
    if not frequencies:
        return [traveller]
    table = pdf_tables.layout(
        [C(_("NS score")), C(_("Tables")), C(_("NS")), C(_("EW"))],
        [[f["score"], f["count"], f["ns_mark"], f["ew_mark"]] for f in frequencies],
    )
    both = pdf_tables.beside(traveller, table)
    return [traveller, table] if both is None else [both]


def _hand_record(hands: dict | None, number: int, dd: list[dict]) -> pdf_tables.Block | None:
    """The deal around the board number, the double-dummy tricks beside it."""
    if not hands:
        return None
    diagram = pdf_tables.hand_diagram(hands, number)
    if not dd:
        return diagram
    C = pdf_tables.Column
    table = pdf_tables.layout(
        [C("", right=False)]
        + [C(pdf_tables.printed_suit(symbol), minimum=2) for symbol, _css in strain_headers()],
        [[seat_word(row["seat"]), *("" if t is None else t for t in row["tricks"])] for row in dd],
    )
    return pdf_tables.beside(diagram, table, gap=6) or diagram


def _ranking_chart(
    session: int, letter: str, line: str, rows, *, imps: bool, vps: bool
) -> pdf_tables.Block | None:
    """The ranking's bars as lines under the chart's title, each named by its pair's number
    (the names are in the table above it); None when nothing is scored. As an SVG image its
    every letter was a Pango layout: a quarter of the ranking part's time, and the process
    that drew it kept ~20 MiB more."""
    chart = pdf_charts.ranking(session, letter, line, rows, imps=imps, vps=vps)
    if chart is None:
        return None
    return pdf_tables.bar_lines(chart, labels=[row[0] for row in chart.rows], title=chart.title)


def _board_chart(
    session: int, pool: str, number: int, lines, *, imps: bool
) -> pdf_tables.Block | None:
    """The board's scores and marks as lines of bars (``pdf.fixed_width.bar_lines``), or None."""
    chart = pdf_charts.board(session, pool, number, lines, imps=imps)
    return pdf_tables.bar_lines(chart) if chart is not None else None


# A scorecard line of a board still in play: who met whom, but no contract, score or mark.
IN_PLAY_LINE = {
    "adjusted": "",
    "contract": "",
    "declarer": "",
    "result": "",
    "ns_score": "",
    "ew_score": "",
    "mark": "",
}


def _scorecard(rows: list[dict]) -> pdf_tables.Block:
    C = pdf_tables.Column
    return pdf_tables.layout(
        [
            C(_("Round")),
            C(_("Board")),
            C(_("Line"), right=False),
            C(_("Opponents"), right=False, flexible=True, minimum=12),
            C(_("Contract"), right=False, maximum=20),
            C(_("By"), right=False),
            C(_("Result")),
            C(_("NS score")),
            C(_("EW score")),
            C(_("Mark")),
        ],
        [
            [
                r["round"],
                r["board"],
                r["side"],
                r["versus"],
                _adjusted_text(r) if r["adjusted"] else r["contract"],
                r["declarer"],
                r["result"],
                r["ns_score"],
                r["ew_score"],
                r["mark"],
            ]
            for r in rows
        ],
        pass_word=_("Pass"),
    )


def results_context(data: EventSnapshot) -> dict:
    """Everything the results template shows, computed once (no queries in the template).

    Travellers and scorecards come as fixed-width blocks (``pdf.fixed_width``): as HTML tables
    they made a 60-table session's PDF take minutes.

    The PDF is a public document: a board some table has still to play (the snapshot's
    ``public``, from ``services.board_visibility``; provisional results published during
    play) has no traveller or hand record in it, and the scorecards leave out its
    contracts, scores and marks."""
    imps, vps = not data.tournament.is_matchpoints, data.tournament.converts_matches_to_vps
    sessions = []
    for session in data.sessions:
        pools: dict[str, list] = defaultdict(list)
        for section in session.sections:
            pools[section.pool].append(section)
        many = len(session.sections) > 1
        letter_of = {p.entry_id: s.letter for s in session.sections for p in s.participants}
        line_row = _rows_of(letter_of, many)
        rankings = []
        for section in session.sections:
            lines = ("NS", "EW") if section.directional else ("",)
            for line in lines:
                rows = [p for p in section.participants if p.direction == line]
                rankings.append(
                    {
                        "section": section.letter,
                        "line": line,
                        "rows": rows,
                        "table": pdf_rankings.section_ranking(rows, imps=imps, vps=vps),
                        "chart": _ranking_chart(
                            session.number, section.letter, line, rows, imps=imps, vps=vps
                        ),
                    }
                )
        boards = []
        for pool_sections in pools.values():
            merged: dict[int, dict] = {}
            for section in pool_sections:
                for b in section.boards:
                    item = merged.setdefault(b.number, {"board": b, "lines": []})
                    item["lines"] += b.lines
            for number in sorted(merged):
                b, lines = merged[number]["board"], merged[number]["lines"]
                lines.sort(key=lambda ln: -(ln.ns_score or 0))
                if not b.public:
                    boards.append(
                        {
                            "number": number,
                            "dealer": Seat(b.dealer).label,
                            "vulnerability": VULNERABLE.get(b.vulnerability, b.vulnerability),
                            "hand_record": None,
                            "par": None,
                            "traveller": None,
                            "in_play": True,
                        }
                    )
                    continue
                boards.append(
                    {
                        "number": number,
                        "dealer": Seat(b.dealer).label,
                        "vulnerability": VULNERABLE.get(b.vulnerability, b.vulnerability),
                        "hand_record": _hand_record(
                            parse_deal(b.deal), number, double_dummy_rows(b.double_dummy)
                        ),
                        "par": par_text(b.par),
                        "traveller": _traveller(lines, line_row),
                        "chart": _board_chart(
                            session.number, pool_sections[0].pool, number, lines, imps=imps
                        ),
                    }
                )
        cards = []
        for section in session.sections:
            for p in sorted(section.participants, key=lambda p: (p.direction, p.number)):
                rows = []
                for b in section.boards:
                    for ln in b.lines:
                        if p.entry_id in (ln.ns.entry_id, ln.ew.entry_id):
                            ns_side = ln.ns.entry_id == p.entry_id
                            row = line_row(ln)
                            other = ln.ew if ns_side else ln.ns
                            row.update(
                                board=b.number,
                                side=_seat("NS" if ns_side else "EW"),
                                versus=f"{row['ew'] if ns_side else row['ns']} {other.name}",
                                mark=row["ns_mark"] if ns_side else row["ew_mark"],
                            )
                            if not b.public:
                                row.update(IN_PLAY_LINE, adjusted="", contract=_("in play"))
                            rows.append(row)
                rows.sort(key=lambda r: (r["round"], r["board"]))
                cards.append(
                    {"participant": p, "section": section.letter, "table": _scorecard(rows)}
                )
        sessions.append(
            {
                "number": session.number,
                "rankings": rankings,
                "boards": boards,
                "hands": [b for b in boards if b["hand_record"]],
                "cards": cards,
                "many": len(data.sessions) > 1,
            }
        )
    return {
        "sessions": sessions,
        "totals": data.totals,
        "totals_table": pdf_rankings.overall_ranking(data.totals) if data.totals else None,
        "strains": strain_headers(),
        "scoring_label": dict(ScoringMethod.choices).get(
            data.tournament.scoring_method, data.tournament.scoring_method
        ),
        "imp": imps,
        "vps": vps,
    }


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
    base = Club.for_pages().site_url
    return f"{base}{reverse('table:enter', args=[token])}" if base else ""


def setup_context(tournament: Tournament) -> dict:
    sessions = []
    for session in tournament.sessions.order_by("number"):
        sections = []
        for section in Section.objects.filter(session=session).order_by("letter"):
            codes = []
            for code in TableCode.objects.filter(section=section, active=True).order_by("table"):
                link = table_link(code.token)
                codes.append(
                    {
                        "table": code.table,
                        "code": code.code,
                        "link": link,
                        "qr": _qr_svg(link) if link else "",
                    }
                )
            if individual.is_individual(section):  # four seats a table, one card per player
                sections.append(
                    {
                        "letter": section.letter,
                        "individual": True,
                        "table_cards": individual.table_cards(section),
                        "player_cards": individual.player_cards(section),
                        "codes": codes,
                    }
                )
                continue
            sections.append(
                {"letter": section.letter, **printing.movement_cards(section), "codes": codes}
            )
        if sections:
            sessions.append({"number": session.number, "sections": sections})
    return {"sessions": sessions, "many": len(sessions) > 1}


def publication_revision(data: EventSnapshot) -> int:
    """What the front page tells a reader about the version: 0 for the first results PDF of
    the tournament (no word), else how many other versions had a results PDF before this
    one ("corrected results, revision n"). The internal ranking version ("11" after eleven
    classifications while the event ran) means nothing to a reader."""
    return len(set(data.pdf_versions) - {data.version})


def document_context(data: EventSnapshot, language: str, session_number: int = 0) -> dict:
    """The results template's context (call inside ``translation.override(language)``): the
    results, the words around them and the table of contents (``toc``: each part's anchor
    and label, in the order they print)."""
    context = results_context(data)
    context.update(
        session_number=session_number,
        tournament=data.tournament,
        club={"name": data.club_name},
        title=_("Results"),
        version=data.version,
        language=language,
        generated=timezone.localtime(),
        revision=publication_revision(data),
    )
    toc = [{"target": "totals", "label": _("Overall ranking")}] if data.totals else []
    for s in context["sessions"]:
        suffix = (" · " + _("session %(n)s") % {"n": s["number"]}) if s["many"] else ""
        toc.append({"target": f"ranking-{s['number']}", "label": _("Ranking") + suffix})
        toc.append(
            {
                "target": f"travellers-{s['number']}",
                "label": _("Travellers and frequencies") + suffix,
            }
        )
        if s["hands"]:  # no deals, no heading (and no entry pointing at an empty page)
            toc.append({"target": f"hands-{s['number']}", "label": _("Hand records") + suffix})
        toc.append({"target": f"cards-{s['number']}", "label": _("Personal scorecards") + suffix})
    context["toc"] = toc
    return context


def results_html(data: EventSnapshot, language: str | None = None, session_number: int = 0) -> str:
    """The results document of ``data`` (a snapshot of the tournament, or of its session
    ``session_number``) as one HTML document, in ``language`` (the club's by default).
    The results PDF itself is made in parts (``pdf.parts``, ``pdf.join``)."""
    language = language or settings.LANGUAGE_CODE
    with translation.override(language):
        return render_to_string(
            "pdf/results.html", document_context(data, language, session_number)
        )


def setup_html(tournament: Tournament, language: str | None = None) -> tuple[str, str]:
    """(HTML, version) of the set-up cards: table guide cards, movement cards, table codes."""
    language = language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = setup_context(tournament)
        version = (
            ".".join(
                str(v)
                for v in tournament.sessions.order_by("number").values_list(
                    "ranking_version", flat=True
                )
            )
            or "0"
        )
        context.update(
            tournament=tournament,
            club=Club.current(),
            title=_("Table cards"),
            version=version,
            language=language,
            generated=timezone.localtime(),
        )
        return render_to_string("pdf/setup.html", context), version


def render_pdf(html: str) -> tuple[bytes, int]:
    """PDF bytes and page count of ``html``; it may load the site's static files and inline
    images only (``pdf.fetcher``)."""
    from weasyprint import HTML

    from .fetcher import SiteFilesFetcher

    document = HTML(
        string=html, base_url=str(settings.BASE_DIR), url_fetcher=SiteFilesFetcher()
    ).render()
    return document.write_pdf(), len(document.pages)

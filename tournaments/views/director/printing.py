"""Print views: table guide cards, pair movement cards, board lists and the session sheet.

Plain HTML laid out for paper (``@media print``, one card a page); the session sheet carries
each table's short code and a QR code of its sign-in link (with the table's secret token),
drawn as inline SVG (no network).
"""

import qrcode
import qrcode.image.svg
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe

from clubsite.accounts.permissions import director_required
from clubsite.models import Club
from tournaments.services.setup import plan, printing
from tournaments.views.director.common import get_section, get_session


def _context(section, **extra):
    return {
        "section": section,
        "session": section.session,
        "tournament": section.session.tournament,
        **extra,
    }


@director_required
def table_cards(request, pk):
    section = get_section(pk)
    if plan.is_individual(section.movement or {}):
        return redirect("director:individual_tables", section.pk)
    return render(
        request,
        "tournaments/director/print_tables.html",
        _context(section, cards=printing.table_cards(section)),
    )


@director_required
def pair_cards(request, pk):
    section = get_section(pk)
    if plan.is_individual(section.movement or {}):
        return redirect("director:individual_players", section.pk)
    return render(
        request,
        "tournaments/director/print_pairs.html",
        _context(section, cards=printing.pair_cards(section)),
    )


@director_required
def board_lists(request, pk):
    section = get_section(pk)
    return render(
        request,
        "tournaments/director/print_boards.html",
        _context(section, lists=printing.board_lists(section)),
    )


def table_url(request, token: str) -> str:
    """The absolute address of a table's sign-in link (the table pages' ``table:enter``): on
    the site's public address when ``SITE_URL`` is set, else on the one this page was asked at."""
    path = reverse("table:enter", args=[token])
    base = Club.for_pages().site_url
    if base:
        return base + path
    return request.build_absolute_uri(path)


def qr_svg(text: str) -> str:
    """A QR code as an inline SVG element."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    svg = image.to_string(encoding="unicode")
    return svg[svg.index("<svg") :]


@director_required
def session_sheet(request, pk):
    session = get_session(pk)
    tables = []
    for row in printing.session_sheet(session):
        url = table_url(request, row.token)
        tables.append({"row": row, "url": url, "qr": mark_safe(qr_svg(url))})  # noqa: S308
    return render(
        request,
        "tournaments/director/print_sheet.html",
        {"session": session, "tournament": session.tournament, "tables": tables},
    )

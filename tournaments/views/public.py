"""Results for players: index, tournament, rankings, scorecards, boards, players, season.

The pages are declared ``public``; whether a given tournament may be seen is decided per
tournament by ``services.results`` (public results, or a logged-in club user), and a hidden
one answers 404 exactly like a missing one, so its existence is not revealed. Rankings come
from the stored classification; these pages only read it. While results arrive, a stale
session is re-classified by the worker (``reclassification.follow_live``) and the page says
which results it includes.
"""

from contextlib import suppress

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubsite.celery import app as celery_app
from clubsite.models import Member, Season
from clubsite.params import int_param
from clubsite.permissions import login_required, public

from .. import jobs
from ..imports.usebio_conventions import describe
from ..models import EventType, Section
from ..services import (
    board_visibility,
    board_words,
    file_record,
    master_points,
    player_history,
    reclassification,
    results,
    scorecards,
)
from ..services.season_ranking import season_ranking as build_season_ranking
from ..tables import SeasonRankingTable, ranking_table
from . import charts, conditional

LINE_NAMES = {"NS": gettext_lazy("North-South"), "EW": gettext_lazy("East-West"), "": ""}


def _tournament_or_404(request, slug):
    tournament = results.visible_tournament(request.user, slug)
    if tournament is None:
        raise Http404(_("No results for this tournament."))
    return tournament


def _session_or_404(request, slug, number):
    session = results.visible_session(request.user, slug, number)
    if session is None:
        raise Http404(_("No results for this session."))
    return session


def _status(tournament, session=None, pending: bool = False) -> dict:
    """The publication badges; on a session's pages also how up to date its ranking is."""
    out = {"tournament": tournament, "correction": results.correction_period(tournament)}
    if session is not None and (pending or session.is_running):
        out["ranking_through"] = session.classified_through
        out["ranking_pending"] = pending
    return out


@public
def index(request):
    """Tournaments with published results, newest first; ones being played are flagged."""
    page = Paginator(results.visible_tournaments(request.user), 30).get_page(
        request.GET.get("page"))
    return render(request, "tournaments/results/index.html", {
        "page": page, "member": player_history.member_for(request.user),
    })


@login_required
def my_results(request):
    """The logged-in player's own page, when their account is linked to a member."""
    member = player_history.member_for(request.user)
    if member is None:
        return render(request, "tournaments/results/no_member.html", status=404)
    return redirect("results:player", pk=member.pk)


@public
def tournament(request, slug):
    tournament = _tournament_or_404(request, slug)
    overview = results.tournament_overview(tournament)
    has_event = tournament.session_count > 1
    return render(request, "tournaments/results/tournament.html", {
        **_status(tournament), "sessions": overview, "has_event": has_event,
        "pdf": jobs.published_pdf(tournament, get_language()),
        # Without a broker the PDF is made on its first download, so the link is offered
        # as soon as the results are published.
        "pdf_on_demand": tournament.status in results.PUBLISHED
        and bool(celery_app.conf.task_always_eager),
        # an imported event says how the other program scored it (ours has none)
        "conventions": describe(tournament.conventions) if tournament.conventions else [],
        "file_record": file_record.note(tournament),
    })


def _decimal_text(value, separator: str) -> str:
    """A stored two-decimal number as the visitor's locale writes it ("61,23")."""
    return "" if value is None else str(value).replace(".", separator)


def _tables(request, groups, imps: bool, link, individual: bool = False,
            vps: bool = False) -> list[dict]:
    """One sortable table per line, each with its own sort parameter (``ns-sort``…)."""
    separator = get_format("DECIMAL_SEPARATOR")
    out = []
    for group in groups:
        handicaps = any(row.get("handicap_percentage") is not None for row in group.rows)
        for row in group.rows:
            row["url"] = link(row)
            row["points_text"] = _decimal_text(row["points"], separator)
            row["percentage_text"] = _decimal_text(row["percentage"], separator)
            if handicaps:
                row["handicap_text"] = _decimal_text(row.get("handicap"), separator)
                row["handicap_percentage_text"] = _decimal_text(row["handicap_percentage"],
                                                                separator)
        prefix = f"{group.direction.lower()}-" if group.direction else ""
        table = ranking_table(group.rows, imps, prefix=prefix, individual=individual, vps=vps,
                              handicaps=handicaps)
        table.handicaps = handicaps and not imps and not individual
        RequestConfig(request, paginate=False).configure(table)
        out.append({"direction": group.direction, "title": LINE_NAMES[group.direction],
                    "table": table, "chart": charts.ranking(
                        group.rows, group.direction,
                        str(LINE_NAMES[group.direction]) or _("Ranking"), imps=imps, vps=vps)})
    return out


def _individual(tournament) -> bool:
    return tournament.event_type == EventType.INDIVIDUAL


def _scorecard_link(session):
    slug, number = session.tournament.slug, session.number
    return lambda row: reverse("results:scorecard", args=[slug, number, row["entry_id"]])


# Only these parameters change the ranking tables, and only to one of the table's own
# columns (ascending or descending): the cache key is built from them alone.
SORT_PARAMETERS = frozenset({"sort", "ns-sort", "ew-sort"})
RANKING_HTML_SECONDS = 600


def _sort_values(tournament, imps: bool) -> frozenset[str]:
    """Every sort the session's ranking table knows: its orderable columns, either way."""
    table = ranking_table([], imps, individual=_individual(tournament),
                          vps=tournament.converts_matches_to_vps)
    names = [column.name for column in table.columns if column.orderable]
    return frozenset(names) | frozenset(f"-{name}" for name in names)


def _cacheable_sort(request, allowed: frozenset[str]) -> str | None:
    """The request's sort as a cache key part, or None when the page must not be cached.

    Anyone can add parameters or invent sort values, and each new spelling used to be a new
    cache entry (an anonymous visitor could fill the cache). Only the whitelisted sort
    parameters, once each, with one of the table's real columns, make a key: at most one
    entry per column and direction. Anything else is rendered without the cache, since
    the header links the page writes carry the query string along."""
    if not set(request.GET) <= SORT_PARAMETERS:
        return None
    parts = []
    for name in sorted(request.GET):
        values = request.GET.getlist(name)
        if len(values) != 1 or values[0] not in allowed:
            return None
        parts.append(f"{name}={values[0]}")
    return "&".join(parts)


def _ranking_html(request, session, scope: str, imps: bool, build) -> str | None:
    """The ranking tables as HTML, rendered once per stored ranking and kept in the cache.

    While a session is played, fifty people may reload its ranking every few seconds and
    it changes only when the worker stores a new version: rendering the tables was most
    of a page's cost. The key holds the version and its stamp (a rebuilt database reuses
    versions), the language (decimal separators, headers) and the sort, from a closed list
    (``_cacheable_sort``). ``build`` returns the tables to render, or None when there is no
    such ranking (then nothing is cached).
    """
    key = None
    sort = _cacheable_sort(request, _sort_values(session.tournament, imps))
    if sort is not None:
        stamp = session.classified_through.timestamp() if session.classified_through else 0
        key = ":".join(str(part) for part in (
            "clubsite:ranking-html", session.pk, scope, session.ranking_version, stamp,
            session.tournament.slug, int(imps), get_language(), sort))
        with suppress(Exception):  # a cache that is down only costs the rendering
            html = cache.get(key)
            if html is not None:
                return mark_safe(html)  # noqa: S308 - rendered by this view from escaped values
    tables = build()
    if tables is None:
        return None
    html = render_to_string("tournaments/results/_ranking_tables.html",
                            {"tables": tables, "imps": imps}, request=request)
    if key is not None:
        with suppress(Exception):
            cache.set(key, html, RANKING_HTML_SECONDS)
    return html


def _poll_seconds(session) -> int:
    """How often a live ranking's page asks again (0: the session is not being played)."""
    return settings.LIVE_RANKING_POLL_SECONDS if session.is_running else 0


@public
def section_ranking(request, slug, session, letter):
    """A section's ranking: NS and EW for a Mitchell, one ranking otherwise."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    etag = conditional.ranking_etag(request, session, f"section-{letter}", pending)
    if (unchanged := conditional.not_modified(request, etag)) is not None:
        return unchanged  # a 404 never had an ETag to send back
    sections = list(Section.objects.filter(session=session).defer("movement")
                    .order_by("letter"))
    section = next((s for s in sections if s.letter == letter), None)
    if section is None:
        raise Http404(_("No such section."))
    siblings = [(s.letter, s.pool) for s in sections]
    imps = session.tournament.scoring_method in results.IMP_SCORED
    tables = _ranking_html(request, session, f"section-{section.pk}", imps, lambda: _tables(
        request, results.section_ranking(section), imps, _scorecard_link(session),
        individual=_individual(session.tournament),
        vps=session.tournament.converts_matches_to_vps))
    return conditional.revalidate(render(request, "tournaments/results/ranking.html", {
        **_status(session.tournament, session, pending), "session": session, "section": section,
        "tables_html": tables, "poll_seconds": _poll_seconds(session),
        "title": _("Section %(letter)s") % {"letter": section.letter},
        "current_letter": section.letter, "siblings": siblings, "imps": imps,
        "vps": session.tournament.converts_matches_to_vps,
        "overall_pool": section.pool if sum(1 for _l, p in siblings if p == section.pool) > 1
        else "",
    }), etag)


@public
def pool_ranking(request, slug, session, pool):
    """Every section playing the same boards ranked together."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    etag = conditional.ranking_etag(request, session, f"pool-{pool}", pending)
    if (unchanged := conditional.not_modified(request, etag)) is not None:
        return unchanged
    imps = session.tournament.scoring_method in results.IMP_SCORED

    def build():
        groups = results.pool_ranking(session, pool)
        if not groups:
            return None
        for group in groups:
            for row in group.rows:
                row["show_section"] = True
        return _tables(request, groups, imps, _scorecard_link(session),
                       individual=_individual(session.tournament),
                       vps=session.tournament.converts_matches_to_vps)

    tables = _ranking_html(request, session, f"pool-{pool}", imps, build)
    if tables is None:
        raise Http404(_("No overall ranking here."))
    siblings = list(Section.objects.filter(session=session).order_by("letter")
                    .values_list("letter", "pool"))
    return conditional.revalidate(render(request, "tournaments/results/ranking.html", {
        **_status(session.tournament, session, pending), "session": session, "pool": pool,
        "tables_html": tables, "poll_seconds": _poll_seconds(session),
        "title": _("Overall ranking"), "siblings": siblings, "imps": imps,
        "vps": session.tournament.converts_matches_to_vps,
        "current_letter": "", "overall_pool": pool,
    }), etag)


@public
def event_ranking(request, slug):
    """Totals over every session of a multi-session tournament."""
    tournament = _tournament_or_404(request, slug)
    results.refresh(tournament.sessions.all())
    groups = results.event_ranking(tournament)
    if not groups:
        raise Http404(_("No overall ranking here."))
    imps = tournament.scoring_method in results.IMP_SCORED
    tournament_url = reverse("results:tournament", args=[slug])
    tables = render_to_string("tournaments/results/_ranking_tables.html", {
        "tables": _tables(request, groups, imps, lambda row: tournament_url,
                          individual=_individual(tournament),
                          vps=tournament.converts_matches_to_vps), "imps": imps,
    }, request=request)
    return render(request, "tournaments/results/ranking.html", {
        **_status(tournament), "tables_html": tables,
        "title": _("All sessions"), "imps": imps, "siblings": [], "current_letter": "",
        "vps": tournament.converts_matches_to_vps,
        "overall_pool": "",
    })


@public
def scorecard(request, slug, session, entry):
    """A pair's every board: opponents, contract, score, marks; and the totals."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    players = list(Member.objects.filter(entry_seats__entry_id=entry).order_by(
        "entry_seats__seat").distinct())
    me = player_history.member_for(request.user)
    card = scorecards.scorecard(session, entry, board_visibility.visibility(session, request.user),
                             viewer_plays=me is not None and me in players)
    if card is None:
        raise Http404(_("This pair did not play in this session."))
    return render(request, "tournaments/results/scorecard.html", {
        **_status(session.tournament, session, pending), "session": session, "card": card, "players": players,
        "entry_id": entry,
    })


@public
def board(request, slug, session, pool, number):
    """A board: its traveller, frequency table and hand record; while a table has still to
    play it (``services.board_visibility``), a note saying so instead."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    data = scorecards.traveller(session, pool, number, get_language(), shown=(
        board_visibility.may_see_board(request.user, session, pool, number)))
    if data is None:
        raise Http404(_("No such board."))
    numbers = list(session.boards.filter(pool=pool).order_by("number")
                   .values_list("number", flat=True))
    at = numbers.index(number)
    return render(request, "tournaments/results/board.html", {
        **_status(session.tournament, session, pending), "session": session, "pool": pool, "data": data,
        "previous": numbers[at - 1] if at > 0 else None,
        "next": numbers[at + 1] if at + 1 < len(numbers) else None,
        "strains": board_words.strain_headers(),
        "highlight": str(int_param(request.GET, "pair") or ""),
        "chart": charts.board(number, data.frequencies, imps=data.imps),
    })


@public
def player(request, pk):
    """A player's tournaments (partner, percentage, place), average and partners."""
    member = get_object_or_404(Member, pk=pk)
    history = player_history.player_history(member, request.user)
    if not history.rows and not request.user.is_authenticated:
        raise Http404(_("No results for this player."))
    return render(request, "tournaments/results/player.html", {
        "history": history, "is_me": player_history.member_for(request.user) == member,
        "chart": charts.history(player_history.session_percentages(history)),
    })


@public
def season_ranking(request, pk=None):
    """The club's ranking for a season under its rule (sortable), and beside it the
    players' master points of the season."""
    season = get_object_or_404(Season, pk=pk) if pk else Season.current()
    ranking = build_season_ranking(season, request.user)
    rows = ranking.rows()
    for row in rows:
        row["url"] = reverse("results:player", args=[row["member_id"]])
        row["average_sort"] = row["average"] if row["average"] is not None else -1
    table = SeasonRankingTable(rows)
    RequestConfig(request, paginate=False).configure(table)
    return render(request, "tournaments/results/season.html", {
        "ranking": ranking, "table": table,
        "points": master_points.season_points(season, request.user),
        "seasons": Season.objects.filter(start__lte=timezone.localdate()).order_by("-start")[:6],
    })

"""Results for players: index, tournament, rankings, scorecards, boards, players, season.

The pages are declared ``public``; whether a given tournament may be seen is decided per
tournament by ``services.results`` (public results, or a logged-in club user), and a hidden
one answers 404 exactly like a missing one, so its existence is not revealed. Rankings come
from the stored classification; these pages only read it. While results arrive, a stale
session is re-classified by the worker (``reclassification.follow_live``) and the page says
which results it includes.
"""

from contextlib import suppress
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubsite.accounts.permissions import login_required, public
from clubsite.celery import app as celery_app
from clubsite.models import Member, Season
from clubsite.web.club_host import club_address
from clubsite.web.collation import collation_key, language_code
from clubsite.web.params import int_param
from tournaments import jobs
from tournaments.imports.usebio_conventions import describe
from tournaments.models import EventType, RankingScope, Section, SessionStatus
from tournaments.services.boards import board_words
from tournaments.services.classification import file_record, reclassification
from tournaments.services.results import (
    analysis,
    board_visibility,
    other_clubs,
    player_history,
    running_ranking,
    scorecards,
)
from tournaments.services.results import (
    pages as results,
)
from tournaments.services.results import season_ranking as season_ranking_service
from tournaments.services.results.season_ranking import rule_for, season_tables
from tournaments.tables import ranking_table
from tournaments.views.public import charts, conditional

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


def _status(tournament, session=None, pending: bool = False, seen=None) -> dict:
    """The publication badges; on a session's pages also how up to date its ranking is
    (``seen``: the running ranking's ``Visibility``, when rounds are hidden)."""
    out = {"tournament": tournament, "correction": results.correction_period(tournament)}
    if session is not None and (pending or session.is_running):
        out["ranking_through"] = session.classified_through
        out["ranking_pending"] = pending
    if seen is not None:
        out["ranking_after"] = seen.through
        out["ranking_held"] = not seen.allowed
        out["hidden_rounds"] = seen.hidden
    return out


@public
def index(request):
    """Tournaments with published results, newest first; ones being played are flagged."""
    page = Paginator(results.visible_tournaments(request.user), 30).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "tournaments/results/index.html",
        {
            "page": page,
            "member": player_history.member_for(request.user),
        },
    )


@login_required
def my_results(request):
    """The logged-in player's own page: their history at this club (the player page), then
    their newest results at each other club where their account is a member, linked to that
    club's own pages. An account that is a member nowhere gets the "no member" page (404)."""
    member = player_history.member_for(request.user)
    elsewhere = other_clubs.results_at_other_clubs(request.user, request.club_id)
    for club in elsewhere:
        club.address = club_address(request, club.club)
    if member is None:
        return render(
            request,
            "tournaments/results/no_member.html",
            {"elsewhere": elsewhere},
            status=200 if elsewhere else 404,
        )
    return _player_page(request, member, is_me=True, elsewhere=elsewhere)


@public
def tournament(request, slug):
    tournament = _tournament_or_404(request, slug)
    overview = results.tournament_overview(tournament)
    has_event = tournament.session_count > 1
    return render(
        request,
        "tournaments/results/tournament.html",
        {
            **_status(tournament),
            "sessions": overview,
            "has_event": has_event,
            "pdf": jobs.published_pdf(tournament, get_language()),
            # Without a broker the PDF is made on its first download, so the link is offered
            # as soon as the results are published.
            "pdf_on_demand": tournament.status in results.PUBLISHED
            and bool(celery_app.conf.task_always_eager),
            # an imported event says how the other program scored it (ours has none)
            "conventions": describe(tournament.conventions) if tournament.conventions else [],
            "file_record": file_record.note(tournament),
        },
    )


def _decimal_text(value, separator: str) -> str:
    """A stored two-decimal number as the visitor's locale writes it ("61,23")."""
    return "" if value is None else str(value).replace(".", separator)


def _tables(
    request, groups, imps: bool, link, individual: bool = False, vps: bool = False
) -> list[dict]:
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
                row["handicap_percentage_text"] = _decimal_text(
                    row["handicap_percentage"], separator
                )
        prefix = f"{group.direction.lower()}-" if group.direction else ""
        table = ranking_table(
            group.rows, imps, prefix=prefix, individual=individual, vps=vps, handicaps=handicaps
        )
        table.handicaps = handicaps and not imps
        RequestConfig(request, paginate=False).configure(table)
        out.append(
            {
                "direction": group.direction,
                "title": LINE_NAMES[group.direction],
                "table": table,
                "chart": charts.ranking(
                    group.rows,
                    group.direction,
                    str(LINE_NAMES[group.direction]) or _("Ranking"),
                    imps=imps,
                    vps=vps,
                ),
            }
        )
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
    table = ranking_table(
        [], imps, individual=_individual(tournament), vps=tournament.converts_matches_to_vps
    )
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
        key = ":".join(
            str(part)
            for part in (
                "clubsite:ranking-html",
                session.pk,
                scope,
                session.ranking_version,
                stamp,
                session.tournament.slug,
                int(imps),
                get_language(),
                sort,
            )
        )
        with suppress(Exception):  # a cache that is down only costs the rendering
            html = cache.get(key)
            if html is not None:
                return mark_safe(html)  # noqa: S308 - rendered by this view from escaped values
    tables = build()
    if tables is None:
        return None
    html = render_to_string(
        "tournaments/results/_ranking_tables.html",
        {"tables": tables, "imps": imps},
        request=request,
    )
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
    seen = running_ranking.visibility(request.user, session)
    etag = conditional.ranking_etag(request, session, f"section-{letter}-{seen.key}", pending)
    if (unchanged := conditional.not_modified(request, etag)) is not None:
        return unchanged  # a 404 never had an ETag to send back
    sections = list(Section.objects.filter(session=session).defer("movement").order_by("letter"))
    section = next((s for s in sections if s.letter == letter), None)
    if section is None:
        raise Http404(_("No such section."))
    siblings = [(s.letter, s.pool) for s in sections]
    imps = session.tournament.method.ranks_by_imps

    def groups():
        if seen.through is None:
            return results.section_ranking(section)
        return running_ranking.running_ranking(session).groups(
            RankingScope.SECTION, section_id=section.pk
        )

    tables = None
    if seen.shown:
        tables = _ranking_html(
            request,
            session,
            f"section-{section.pk}" + (f"-after-{seen.through}" if seen.through else ""),
            imps,
            lambda: _tables(
                request,
                groups(),
                imps,
                _scorecard_link(session),
                individual=_individual(session.tournament),
                vps=session.tournament.converts_matches_to_vps,
            ),
        )
    return conditional.revalidate(
        render(
            request,
            "tournaments/results/ranking.html",
            {
                **_status(session.tournament, session, pending, seen),
                "session": session,
                "section": section,
                "tables_html": tables,
                "poll_seconds": _poll_seconds(session),
                "title": _("Section %(letter)s") % {"letter": section.letter},
                "current_letter": section.letter,
                "siblings": siblings,
                "imps": imps,
                "individual": _individual(session.tournament),
                "vps": session.tournament.converts_matches_to_vps,
                "overall_pool": section.pool
                if sum(1 for _l, p in siblings if p == section.pool) > 1
                else "",
            },
        ),
        etag,
    )


@public
def pool_ranking(request, slug, session, pool):
    """Every section playing the same boards ranked together."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    seen = running_ranking.visibility(request.user, session)
    etag = conditional.ranking_etag(request, session, f"pool-{pool}-{seen.key}", pending)
    if (unchanged := conditional.not_modified(request, etag)) is not None:
        return unchanged
    imps = session.tournament.method.ranks_by_imps
    siblings = list(
        Section.objects.filter(session=session).order_by("letter").values_list("letter", "pool")
    )
    if sum(1 for _letter, p in siblings if p == pool) < 2:
        raise Http404(_("No overall ranking here."))

    def build():
        if seen.through is None:
            groups = results.pool_ranking(session, pool)
        else:
            groups = running_ranking.running_ranking(session).groups(RankingScope.POOL, pool=pool)
        if not groups:
            return None
        for group in groups:
            for row in group.rows:
                row["show_section"] = True
        return _tables(
            request,
            groups,
            imps,
            _scorecard_link(session),
            individual=_individual(session.tournament),
            vps=session.tournament.converts_matches_to_vps,
        )

    tables = None
    if seen.shown:
        scope = f"pool-{pool}" + (f"-after-{seen.through}" if seen.through else "")
        tables = _ranking_html(request, session, scope, imps, build)
        if tables is None and seen.through is None:
            raise Http404(_("No overall ranking here."))
    return conditional.revalidate(
        render(
            request,
            "tournaments/results/ranking.html",
            {
                **_status(session.tournament, session, pending, seen),
                "session": session,
                "pool": pool,
                "tables_html": tables,
                "poll_seconds": _poll_seconds(session),
                "title": _("Overall ranking"),
                "siblings": siblings,
                "imps": imps,
                "individual": _individual(session.tournament),
                "vps": session.tournament.converts_matches_to_vps,
                "current_letter": "",
                "overall_pool": pool,
            },
        ),
        etag,
    )


@public
def event_ranking(request, slug):
    """Totals over every session of a multi-session tournament."""
    tournament = _tournament_or_404(request, slug)
    results.refresh(tournament.sessions.all())
    seen = [
        running_ranking.visibility(request.user, s)
        for s in tournament.sessions.filter(status=SessionStatus.RUNNING)
    ]
    held = any(not v.allowed or v.through is not None for v in seen)
    if held:  # the totals would show what the running session's ranking holds back
        return render(
            request,
            "tournaments/results/ranking.html",
            {
                **_status(tournament),
                "ranking_held": True,
                "tables_html": None,
                "title": _("All sessions"),
                "siblings": [],
                "current_letter": "",
                "overall_pool": "",
            },
        )
    groups = results.event_ranking(tournament)
    if not groups:
        raise Http404(_("No overall ranking here."))
    imps = tournament.method.ranks_by_imps
    tournament_url = reverse("results:tournament", args=[slug])
    tables = render_to_string(
        "tournaments/results/_ranking_tables.html",
        {
            "tables": _tables(
                request,
                groups,
                imps,
                lambda row: tournament_url,
                individual=_individual(tournament),
                vps=tournament.converts_matches_to_vps,
            ),
            "imps": imps,
        },
        request=request,
    )
    return render(
        request,
        "tournaments/results/ranking.html",
        {
            **_status(tournament),
            "tables_html": tables,
            "title": _("All sessions"),
            "imps": imps,
            "siblings": [],
            "current_letter": "",
            "vps": tournament.converts_matches_to_vps,
            "overall_pool": "",
        },
    )


@public
def scorecard(request, slug, session, entry):
    """A pair's every board: opponents, contract, score, marks; and the totals. Below, the
    pair's own analysis of the boards that show (``services.results.analysis``)."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    card = scorecards.scorecard(
        session,
        entry,
        board_visibility.visibility(session, request.user),
        viewer=player_history.member_for(request.user),
    )
    if card is None:
        raise Http404(_("This pair did not play in this session."))
    seen = running_ranking.visibility(request.user, session)
    running_ranking.hold_scorecard(card, seen, session)
    return render(
        request,
        "tournaments/results/scorecard.html",
        {
            **_status(session.tournament, session, pending, seen),
            "session": session,
            "card": card,
            "analysis": analysis.analyse(card, through=seen.through),
            "players": card.players,
            "entry_id": entry,
        },
    )


@public
def board(request, slug, session, pool, number):
    """A board: its traveller, frequency table and hand record; while a table has still to
    play it (``services.board_visibility``), a note saying so instead."""
    session = _session_or_404(request, slug, session)
    pending = reclassification.follow_live(session)
    data = scorecards.traveller(
        session,
        pool,
        number,
        get_language(),
        shown=(board_visibility.may_see_board(request.user, session, pool, number)),
    )
    if data is None:
        raise Http404(_("No such board."))
    seen = running_ranking.visibility(request.user, session)
    running_ranking.hold_traveller(data, seen, session)
    return render(
        request,
        "tournaments/results/board.html",
        {
            **_status(session.tournament, session, pending, seen),
            "session": session,
            "pool": pool,
            "data": data,
            "previous": data.board.previous_number,
            "next": data.board.next_number,
            "strains": board_words.strain_headers(),
            "highlight": str(int_param(request.GET, "pair") or ""),
            "chart": charts.board(number, data.frequencies, imps=data.imps),
        },
    )


HISTORY_PAGE_SIZE = 50


@public
def player(request, pk):
    """A player's tournaments (partner, percentage, place), average and partners."""
    member = get_object_or_404(Member, pk=pk)
    return _player_page(request, member)


def _player_page(request, member, is_me: bool | None = None, **extra):
    """A member's page; "my results" adds the player's other clubs (``elsewhere``), which a
    member's public page never shows."""
    history = player_history.player_history(member, request.user)
    if not history.rows and not request.user.is_authenticated:
        raise Http404(_("No results for this player."))
    return render(
        request,
        "tournaments/results/player.html",
        {
            "history": history,
            # a career grows without end: its tournaments a page at a time, newest first
            "page": Paginator(history.rows, HISTORY_PAGE_SIZE).get_page(request.GET.get("page")),
            "is_me": player_history.member_for(request.user) == member if is_me is None else is_me,
            "chart": charts.history(player_history.session_percentages(history)),
            **extra,
        },
    )


# The season ranking's columns a visitor may sort on, each with its key (ties by name).
SEASON_SORTS = {
    "place": lambda row: (row["place"], row["name_key"]),
    "name": lambda row: (row["name_key"],),
    "score": lambda row: (row["score"], row["name_key"]),
    "counted": lambda row: (row["counted"], row["name_key"]),
    "played": lambda row: (row["played"], row["name_key"]),
    "average": lambda row: (row["average"] if row["average"] is not None else -1, row["name_key"]),
}
SEASON_COLUMNS = (  # (sort, header, cell class)
    ("place", gettext_lazy("Place"), "place"),
    ("name", gettext_lazy("Player"), "names"),
    ("score", gettext_lazy("Score"), "num score"),
    ("counted", gettext_lazy("Counted"), "num counted hide-phone"),
    ("played", gettext_lazy("Played"), "num played hide-phone"),
    ("average", gettext_lazy("Average %"), "num average"),
)


def _season(pk) -> tuple[Season, list[Season]]:
    """The season asked for (the current one by default) and the latest six, with their
    rules: one query unless an older season is asked for."""
    today = timezone.localdate()
    seasons = list(
        Season.objects.filter(start__lte=today)
        .select_related("ranking_rule")
        .order_by("-start")[:6]
    )
    if pk:
        season = next((s for s in seasons if s.pk == pk), None)
        if season is None:
            season = get_object_or_404(Season.objects.select_related("ranking_rule"), pk=pk)
    else:
        season = next((s for s in seasons if s.start <= today <= s.end), None) or Season.current()
    return season, seasons


def _season_rows(rows: list[dict], sort: str) -> list[dict]:
    """The ranking's rows in the visitor's order, names as their language sorts them."""
    language = language_code()  # once: asking for it per row cost more than the sort
    for row in rows:
        row["name_key"] = collation_key(row["name"], language)
    descending = sort.startswith("-")
    return sorted(rows, key=SEASON_SORTS[sort.lstrip("-")], reverse=descending)


@public
def season_ranking(request, pk=None):
    """The club's ranking for a season under its rule, and beside it the players' master
    points of the season: a page of each at a time (a season of ten clubs has hundreds of
    players), sortable, with a search (and "find me") that opens the page with the player."""
    season, seasons = _season(pk)
    rule = rule_for(season)
    tables = season_tables(season, request.user, rule)
    sort = request.GET.get("sort", "place")
    if sort.lstrip("-") not in SEASON_SORTS:
        sort = "place"
    rows = _season_rows(tables.rows, sort)
    me = player_history.member_for(request.user)
    query = request.GET.get("q", "")[:100]
    not_found = ""
    if query or request.GET.get("find") == "me":
        wanted = me.pk if request.GET.get("find") == "me" and me is not None else None
        at = season_ranking_service.find(rows, query, wanted)
        in_points = season_ranking_service.find(tables.points, query, wanted)
        member_id = (
            rows[at]["member_id"]
            if at is not None
            else tables.points[in_points]["member_id"]
            if in_points is not None
            else None
        )
        if member_id is not None:
            params = {"sort": sort} if sort != "place" else {}
            if at is not None:
                params["page"] = season_ranking_service.page_of(at)
            if in_points is not None:
                params["points"] = season_ranking_service.page_of(in_points)
            params["found"] = member_id
            return redirect(f"{request.path}?{urlencode(params)}#member-{member_id}")
        not_found = query
    page = Paginator(rows, season_ranking_service.PAGE_SIZE).get_page(request.GET.get("page"))
    points = Paginator(tables.points, season_ranking_service.PAGE_SIZE).get_page(
        request.GET.get("points")
    )
    found = int_param(request.GET, "found")
    # the rows' figures as text once: the template would localize each number on its own
    player_url = reverse("results:player", args=[0]).removesuffix("0/")  # one reverse a page
    separator = get_format("DECIMAL_SEPARATOR")
    for row in [*page.object_list, *points.object_list]:
        row["url"] = f"{player_url}{row['member_id']}/"
        for key in ("score", "average", "points"):
            if key in row:
                value = row[key]
                row[f"{key}_value"] = "" if value is None else str(value)
                if key == "points" and value == value.to_integral_value():
                    value = value.quantize(Decimal(1))  # as ``floatformat:"-2"``: 5, 5,50
                elif value is not None:
                    value = value.quantize(Decimal("0.01"))
                row[f"{key}_text"] = _decimal_text(value, separator)
        for key in ("member_id", "place", "counted", "played", "tournaments"):
            if key in row:
                row[f"{key}_text"] = str(row[key])
    return render(
        request,
        "tournaments/results/season.html",
        {
            "season": season,
            "rule": rule,
            "tables": tables,
            "page": page,
            "points_page": points,
            "columns": [
                {
                    "header": header,
                    "css": css,
                    "sort": sort,
                    "next": f"-{name}" if sort == name else name,
                    "current": sort.lstrip("-") == name,
                    "name": name,
                }
                for name, header, css in SEASON_COLUMNS
            ],
            "sort": sort,
            "sort_param": f"sort={sort}&" if sort != "place" else "",
            "found": found,
            "query": query,
            "not_found": not_found,
            "me": me,
            "seasons": seasons,
        },
    )

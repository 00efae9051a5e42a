"""Pages of the Laws. Public: anyone (no login), each view is declared ``public``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count, Max, Min
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import public

from . import search
from .citations import cite, parse_citation
from .compare import compare as compare_laws
from .models import Edition, Footnote

DEFAULT_LEFT, DEFAULT_RIGHT = "es-2017", "pt-1997"


def _edition(code: str) -> Edition:
    if len(code) > 40 or not code.isprintable():  # NUL or junk: no such edition
        raise Http404(_("No such edition."))
    return get_object_or_404(Edition, code=code)


@public
def index(request):
    """Public: anyone. The editions with their coverage and year."""
    editions = Edition.objects.annotate(
        n_laws=Count("laws"), first=Min("laws__number"), last=Max("laws__number")
    ).order_by("position")  # Meta.ordering is not applied to aggregate queries
    default = search.default_edition_code(get_language())
    searched = next((e for e in editions if e.code == default), None)
    return render(
        request,
        "laws/index.html",
        {"editions": editions, "searched": searched or (editions[0] if editions else None)},
    )


@public
def toc(request, code):
    """Public: anyone. Table of contents of one edition."""
    edition = _edition(code)
    chapters = edition.chapters.prefetch_related("laws")
    return render(request, "laws/toc.html", {"edition": edition, "chapters": chapters})


@public
def law_detail(request, code, number):
    """Public: anyone. One law with its sections, notes, footnotes and commentary."""
    edition = _edition(code)
    law = get_object_or_404(edition.laws.select_related("chapter"), number=number)
    nodes = list(law.nodes.order_by("position"))
    keys = [k for n in nodes for k in n.content.get("footnotes", [])]
    footnotes = list(Footnote.objects.filter(edition=edition, key__in=keys))
    neighbours = edition.laws.filter(number__in=[number - 1, number + 1]).values("number", "title")
    by_number = {n["number"]: n for n in neighbours}
    others = Edition.objects.exclude(pk=edition.pk).filter(laws__number=number)
    return render(
        request,
        "laws/law.html",
        {
            "edition": edition,
            "law": law,
            "nodes": nodes,
            "footnotes": footnotes,
            "previous": by_number.get(number - 1),
            "next": by_number.get(number + 1),
            "others": others,
        },
    )


@public
def definitions(request, code):
    """Public: anyone. The glossary of one edition."""
    edition = _edition(code)
    return render(
        request, "laws/definitions.html", {"edition": edition, "terms": edition.terms.all()}
    )


@public
def compare(request, number):
    """Public: anyone. Law ``number`` in two editions side by side."""
    left = _edition(request.GET.get("left", DEFAULT_LEFT))
    right = _edition(request.GET.get("right", DEFAULT_RIGHT))
    if not 1 <= number <= 93:
        raise Http404
    comparison = compare_laws(number, left, right)
    return render(
        request,
        "laws/compare.html",
        {"c": comparison, "editions": Edition.objects.all(), "left": left, "right": right},
    )


@public
def search_view(request):
    """Public: anyone. Full-text search, paged; the UI language's edition unless the visitor
    picks another; a law citation as the query jumps to it."""
    query = search.clean_query(request.GET.get("q", ""))
    editions = Edition.objects.all()
    code = request.GET.get("edition") or search.default_edition_code(get_language())
    edition = _edition(code)
    if query and parse_citation(query):
        citation = cite(edition.code, query)
        if citation:
            return redirect(citation.url)
    page = None
    if query:
        page = Paginator(search.Results(query, edition), search.LIMIT).get_page(
            request.GET.get("page")
        )
    return render(
        request,
        "laws/search.html",
        {
            "query": query,
            "edition": edition,
            "editions": editions,
            "page": page,
            "hits": page.object_list if page else [],
            "title": _("Search the Laws"),
        },
    )

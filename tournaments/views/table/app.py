"""The table page as an installable, offline-first app: its service worker and web manifest.

The worker is served here, at /table/sw.js, rather than from /static/: a worker controls
only the pages under the folder it is served from, and the table's pages are under /table/.
It is rendered from a template so that it imports the queue module from wherever the static
files are (hashed names with ``STATIC_MANIFEST``). Both are public: they hold no table's data.
"""

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubsite.accounts.permissions import public
from tournaments.templatetags.table_mode import TABLE_SCRIPTS

ICONS = (
    ("tournaments/icons/table-192.png", "192x192", "image/png"),
    ("tournaments/icons/table-512.png", "512x512", "image/png"),
    ("tournaments/icons/table.svg", "any", "image/svg+xml"),
)


@public
@require_GET
def service_worker(request):
    """The worker's script; never cached by HTTP, so a new version reaches the tablets."""
    body = render_to_string(
        "tournaments/table/sw.js",
        {
            "queue_url": static("tournaments/offline_queue.js"),
            "send_url": static("tournaments/offline_send.js"),
            "table_prefix": reverse("table:index"),
            "static_prefix": static(""),
            "offline_url": reverse("table:offline"),
        },
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("table:index")
    response["Cache-Control"] = "no-cache"
    return response


@public
@require_GET
def manifest(request):
    """What "add to home screen" installs: the round page, full screen, the spade icon."""
    data = {
        "name": _("Bridge table scoring"),
        "short_name": _("Table"),
        "start_url": reverse("table:home"),
        "scope": reverse("table:index"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#166534",
        "icons": [
            {"src": static(path), "sizes": sizes, "type": kind, "purpose": "any"}
            for path, sizes, kind in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


# Rounds kept ahead of the one on screen: a Wi-Fi drop of two whole rounds still finds the
# round after them.
ROUNDS_AHEAD = 2


@public
@require_GET
def offline(request):
    """What the worker shows for a table page it did not keep while there is no network,
    in the language the device was using when it kept this page (never the browser's own
    error page, in English)."""
    return render(request, "tournaments/table/offline.html")


def offline_urls(tr) -> list[str]:
    """What table.js caches when the round page loads: the round and the next ones (their
    round pages and board pages), the table's first page, and the files the pages load."""
    from tournaments.services.table import table_round

    home = reverse("table:home")
    urls = [home, reverse("table:manifest"), reverse("table:offline")]
    here = [b.board.number for b in tr.boards] if tr.plays else []
    for number, boards in [(tr.round, here), *table_round.boards_ahead(tr, ROUNDS_AHEAD)]:
        urls.append(f"{home}?round={number}")
        urls += [reverse("table:board", args=[number, board]) for board in boards]
    urls += [
        static(path)
        for path in (
            "css/site.css",
            "vendor/htmx.min.js",
            "js/site.js",
            "tournaments/table.css",
            *TABLE_SCRIPTS,
        )
    ]
    urls += [static(path) for path, _sizes, _kind in ICONS]
    return urls

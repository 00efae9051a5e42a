"""The room screen: a session's running ranking, round, clock and movement for a TV in the
playing room, opened by its secret link with no sign-in (``services.running.room_screen``).

It only reads. The page asks again by itself (htmx, every ``POLL_SECONDS``); those requests
carry an ETag of everything the screen follows (``room_screen.screen_key``) and are answered
304 while nothing changed. The page itself is never stored (a reload always renders it now):
a stored copy would restart the clock from the seconds it had left when it was stored.
A wrong or renewed link is a 404, like a missing page. The screen shows the language the
director saved for it (a TV keeps no cookie of the language switcher), and follows a change
on its next poll; a link naming one (``?lang=pt``) keeps that one, its polls too.
"""

import hashlib

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import public
from clubsite.web.middleware import use_language
from tournaments.models import EventType
from tournaments.services.classification import reclassification
from tournaments.services.running import room_screen
from tournaments.views.public import conditional

POLL_SECONDS = 5
PAGE_SECONDS = 12  # a ranking longer than a page turns its pages this often


@public
def screen(request, token):
    room = room_screen.room_for_token(token)
    # the link's language when it names one, else the one the director saved
    language = use_language(request, request.GET.get("lang") or (room and room.language))
    if room is None:
        raise Http404(_("No such room screen."))
    session = room.session
    reclassification.follow_live(session)  # the ranking follows the results, as on phones
    now = timezone.now()
    etag = None
    if request.htmx:
        key = (*room_screen.screen_key(room, now), get_language())
        digest = hashlib.blake2b("\x1f".join(map(str, key)).encode(), digest_size=12)
        etag = quote_etag(digest.hexdigest())
        if (unchanged := conditional.not_modified(request, etag)) is not None:
            patch_vary_headers(unchanged, ["HX-Request"])
            return unchanged
    data = room_screen.screen(room, now)
    response = render(
        request,
        "tournaments/room/screen.html",
        {
            "screen": data,
            "session": session,
            "tournament": session.tournament,
            "poll_seconds": POLL_SECONDS,
            "page_seconds": PAGE_SECONDS,
            "imps": session.tournament.method.ranks_by_imps,
            "individual": session.tournament.event_type == EventType.INDIVIDUAL,
            "vps": session.tournament.converts_matches_to_vps,
        },
    )
    if language is not None:
        response["Content-Language"] = language
    if etag is None:
        add_never_cache_headers(response)
    else:
        conditional.revalidate(response, etag)
    patch_vary_headers(response, ["HX-Request"])
    return response

"""A session's hands as a PBN file anybody may download: the boards whose deals are public
(``board_visibility``: none a table has still to play), each with its traveller, written by
the results' own PBN writer (``documents.public_hands``)."""

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import public
from tournaments import documents
from tournaments.services.classification import reclassification
from tournaments.services.results import pages as results
from tournaments.services.results import running_ranking


@public
def session_pbn(request, slug, session):
    """The session's public boards as PBN (404 while every board is still being played)."""
    found = results.visible_session(request.user, slug, session)
    if found is None:
        raise Http404(_("No results for this session."))
    reclassification.follow_live(found)
    seen = running_ranking.visibility(request.user, found)  # no marks the ranking hides
    name, text = documents.public_hands(
        found.tournament, found.number, marks=seen.allowed and seen.through is None
    )
    if not text:
        raise Http404(_("No hands to download yet: every board is still being played."))
    response = HttpResponse(text.encode(), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

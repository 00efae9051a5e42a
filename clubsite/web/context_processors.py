"""Template context every page needs: the club and the visitor's roles."""

from clubsite.accounts.permissions import roles_of
from clubsite.models import Club
from clubsite.tenancy import active_club_id


def club(request):
    # django-tables2 renders its table with a fresh RequestContext, which runs the context
    # processors again: keep the club on the request so a page loads it once.
    if not hasattr(request, "_clubsite_club"):
        # No club scope: a host that reaches no club, answered "not found".
        request._clubsite_club = Club.for_pages() if active_club_id() else None
    return {"club": request._clubsite_club, "roles": roles_of(getattr(request, "user", None))}

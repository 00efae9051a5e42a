"""Template context every page needs: the club and the visitor's roles."""

from .models import Club
from .permissions import roles_of


def club(request):
    # django-tables2 renders its table with a fresh RequestContext, which runs the context
    # processors again: keep the club on the request so a page loads it once.
    if not hasattr(request, "_clubsite_club"):
        request._clubsite_club = Club.load()
    return {"club": request._clubsite_club, "roles": roles_of(getattr(request, "user", None))}

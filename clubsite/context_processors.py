"""Template context every page needs: the club and the visitor's roles."""

from .models import Club
from .permissions import roles_of


def club(request):
    return {"club": Club.load(), "roles": roles_of(getattr(request, "user", None))}

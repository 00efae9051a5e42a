"""Who may use each view.

Every view in the project is wrapped by exactly one of these declarations; a test walks
the URL configuration and fails on any view that declares nothing. Roles are Django
groups (Secretary, Director, Player); superusers hold every role.
"""

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


class Role:
    SECRETARY = "Secretary"
    DIRECTOR = "Director"
    PLAYER = "Player"
    ALL = (SECRETARY, DIRECTOR, PLAYER)


PUBLIC = "public"
AUTHENTICATED = "authenticated"


def ensure_roles() -> None:
    """Create the role groups if missing (the data migration makes them; test flushes don't)."""
    from django.contrib.auth.models import Group

    for name in Role.ALL:
        Group.objects.get_or_create(name=name)


def roles_of(user) -> frozenset[str]:
    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Role.ALL)
    cached = getattr(user, "_clubsite_roles", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._clubsite_roles = cached
    return cached


def has_role(user, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))


def declare(view: Callable, access: tuple[str, ...]) -> Callable:
    """Record who may use ``view``; for guards defined elsewhere (e.g. table devices)."""
    view.access = access
    return view


def public(view: Callable) -> Callable:
    """Anyone, logged in or not."""
    return declare(view, (PUBLIC,))


def login_required(view: Callable) -> Callable:
    """Any logged-in user, whatever the role."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return declare(wrapper, (AUTHENTICATED,))


def role_required(*roles: str) -> Callable[[Callable], Callable]:
    """Users holding one of ``roles``; others get 403, anonymous users the login page."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return declare(wrapper, roles)

    return decorator


secretary_required = role_required(Role.SECRETARY)
director_required = role_required(Role.DIRECTOR)
# The results office: a tournament's PDFs, its publication and what was sent where.
secretary_or_director_required = role_required(Role.SECRETARY, Role.DIRECTOR)

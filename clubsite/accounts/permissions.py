"""Who may use each view.

Every view in the project is wrapped by exactly one of these declarations; a test walks
the URL configuration and fails on any view that declares nothing. Roles are held per club
(``ClubRole``: secretary at one club, player at another): a request has the roles its user
holds at the club of its host; superusers hold every role. Above the clubs, a federation's
officers (``FederationOfficer``) use the federation's pages on any host (``officer_required``);
superusers are officers of every federation.
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
OFFICER = "federation officer"


def grant(user, *roles: str) -> None:
    """Give ``user`` ``roles`` at the current club."""
    from clubsite.models import ClubRole

    for role in roles:
        ClubRole.objects.get_or_create(user=user, role=role)
    user.__dict__.pop("_clubsite_roles", None)


def roles_of(user) -> frozenset[str]:
    """The roles ``user`` holds at the current club (none outside any club)."""
    from clubsite.models import ClubRole
    from clubsite.tenancy import active_club_id

    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Role.ALL)
    club = active_club_id()
    cached = getattr(user, "_clubsite_roles", None)
    if cached is None or cached[0] != club:
        names = (
            frozenset(ClubRole.objects.filter(user=user).values_list("role", flat=True))
            if club is not None
            else frozenset()
        )
        cached = user._clubsite_roles = (club, names)
    return cached[1]


def federations_of(user) -> frozenset[str]:
    """The federations ``user`` is an officer of (every one for a superuser), whatever the
    club of the request: an office is held above the clubs."""
    from clubsite.models import Federation, FederationOfficer

    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Federation.values)
    cached = getattr(user, "_clubsite_federations", None)
    if cached is None:
        cached = user._clubsite_federations = frozenset(
            FederationOfficer.objects.filter(user=user).values_list("federation", flat=True)
        )
    return cached


def appoint_officer(user, federation: str) -> None:
    """Make ``user`` an officer of ``federation`` (a ``Federation`` code)."""
    from clubsite.models import FederationOfficer

    FederationOfficer.objects.get_or_create(user=user, federation=federation)
    user.__dict__.pop("_clubsite_federations", None)


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


def officer_required(view: Callable) -> Callable:
    """Officers of a federation (superusers: of every one), on any club's host; a view
    taking ``federation`` (its code) lets in only that federation's officers. Others get
    403, anonymous users the login page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        offices = federations_of(request.user)
        if not offices or kwargs.get("federation", next(iter(offices))) not in offices:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return declare(wrapper, (OFFICER,))


secretary_required = role_required(Role.SECRETARY)
director_required = role_required(Role.DIRECTOR)
# The results office: a tournament's PDFs, its publication and what was sent where.
secretary_or_director_required = role_required(Role.SECRETARY, Role.DIRECTOR)

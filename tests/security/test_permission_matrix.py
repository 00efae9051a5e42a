"""Who may reach each route: every route of the URL resolver, for every role, against the
decisions written out in ``permission_expectations.DECISIONS``.

A route with no decision fails the first test; a view whose declaration (``view.access``)
differs from its decision, or a decision whose row contradicts the declaration, fails the
second; the matrix then requests each route as each role with real arguments (the world of
``conftest.py``): pages by GET, POST-only actions by POST with an empty body. Roles that
are refused are also made to POST to pages, and nothing in the database may change from
any refused request. A 500 fails too (the test client raises the view's exception).
"""

import uuid

import pytest
from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from tests.row_counts import row_counts, table_rows
from tests.security.permission_expectations import (
    ADMIN,
    DECISIONS,
    DENIED,
    DEVICE_A,
    DEVICE_OTHER,
    DIRECTOR,
    DIRECTOR_VIEW,
    GET,
    HIDDEN_RESULTS,
    HIDDEN_RESULTS_EXCEPTIONS,
    LOGIN,
    MOVED,
    OFFICE_VIEW,
    PLAYER,
    POST,
    REFUSALS,
    ROLES,
    SECRETARY,
    SECRETARY_VIEW,
    SIGN_IN,
    admitted,
    gate,
)
from tests.security.route_args import url_of
from tournaments.models import Result, ResultStatus, Tournament
from tournaments.services.table import table_round

# Django's admin guards itself (staff only); ``test_admin_site_is_for_staff_only`` checks it.
SKIPPED_NAMESPACES = ("admin",)
# Rows an action could rewrite without changing any count; the rest are counted.
SNAPSHOT = (
    "clubsite.Club",
    "clubsite.Member",
    "clubsite.Licence",
    "tournaments.Tournament",
    "tournaments.Session",
    "tournaments.Section",
    "tournaments.Entry",
    "tournaments.EntryPlayer",
    "tournaments.TableCode",
    "tournaments.Result",
    "tournaments.TeamEvent",
    "tournaments.TeamMatch",
    "tournaments.Upload",
)


def _routes(patterns, namespace=None):
    for item in patterns:
        if isinstance(item, URLResolver):
            if item.namespace in SKIPPED_NAMESPACES:
                continue
            inner = (
                f"{namespace}:{item.namespace}"
                if namespace and item.namespace
                else item.namespace or namespace
            )
            yield from _routes(item.url_patterns, inner)
        elif isinstance(item, URLPattern):
            yield (f"{namespace}:{item.name}" if namespace else item.name), item.callback


def routes() -> dict:
    return dict(_routes(get_resolver().url_patterns))


def declared_access(view) -> tuple | None:
    access = getattr(view, "access", None) or getattr(
        getattr(view, "view_class", None), "access", None
    )
    return tuple(access) if access else None


def _state() -> tuple:
    """Every table's row count (sessions and the sign-in audit of django-axes aside: signing
    in writes them) and the rows of the tables an action would edit in place."""
    counts = row_counts(
        model
        for model in apps.get_models()
        if model._meta.label != "sessions.Session" and model._meta.app_label != "axes"
    )
    return counts, table_rows(apps.get_model(label) for label in SNAPSHOT)


def _miss(response, outcome, name, role, method) -> str | None:
    """Why ``response`` is not ``outcome`` (None when it is)."""
    location = response.get("Location", "")
    ok = response.status_code in outcome.statuses
    if ok and outcome.to == "login":
        ok = location.startswith(reverse("login"))
    elif ok and outcome.to == "table sign-in":
        ok = location == reverse("table:index")
    elif ok and outcome is MOVED:
        ok = not location.startswith(reverse("login"))
    if ok:
        return None
    where = f" to {location}" if location else ""
    return f"{name} ({method} as {role}): expected {outcome}, got {response.status_code}{where}"


def _send(world, role, method, url):
    client = world.client(role)
    return client.get(url) if method == GET else client.post(url)


# --- the table is complete and agrees with the code ------------------------------------------


def test_every_route_has_a_permission_decision():
    found = routes()
    problems = [
        f"route {name} has no permission decision" for name in found if name not in DECISIONS
    ]
    problems += [
        f"decision for {name}, which is no route" for name in DECISIONS if name not in found
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_the_view_declares_what_the_table_decides(name):
    decision = DECISIONS[name]
    view = routes().get(name)
    assert view is not None, f"{name} is no route"
    assert declared_access(view) == decision.access, (
        f"{name} declares {declared_access(view)}, the table says {decision.access}"
    )
    for role in ROLES:
        got = decision.outcomes[role]
        if admitted(decision.access, role):
            assert got not in (LOGIN, SIGN_IN), f"{name}: {role} is let in, not {got}"
        else:
            assert got == gate(decision.access, role, decision.method), (
                f"{name}: the declaration answers {role} "
                f"{gate(decision.access, role, decision.method)}, the table says {got}"
            )


# --- the matrix ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_permission_matrix(world, name):
    decision = DECISIONS[name]
    url = url_of(name, world)
    refused = [role for role in ROLES if decision.outcomes[role] in REFUSALS]
    problems = []
    before = _state() if refused else None
    for role in refused:
        problems.append(
            _miss(
                _send(world, role, decision.method, url),
                decision.outcomes[role],
                name,
                role,
                decision.method,
            )
        )
        if decision.method == GET:  # a page's form posted by a role refused the page
            expected = (
                DENIED if admitted(decision.access, role) else gate(decision.access, role, POST)
            )
            problems.append(_miss(_send(world, role, POST, url), expected, name, role, POST))
    if refused and _state() != before:
        problems.append(f"{name}: a refused request changed the database")
    for role in ROLES:
        if role not in refused:
            problems.append(
                _miss(
                    _send(world, role, decision.method, url),
                    decision.outcomes[role],
                    name,
                    role,
                    decision.method,
                )
            )
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


def _results_of_one_tournament() -> list[str]:
    """The results routes whose URL names one tournament (by its slug)."""
    names = []
    for item in get_resolver().url_patterns:
        if isinstance(item, URLResolver) and item.namespace == "results":
            names += [
                f"results:{p.name}" for p in item.url_patterns if "<slug:slug>" in str(p.pattern)
            ]
    return sorted(names)


@pytest.mark.django_db
@pytest.mark.parametrize("name", _results_of_one_tournament())
@pytest.mark.parametrize("hidden", sorted(HIDDEN_RESULTS))
def test_hidden_results_are_not_found(world, hidden, name):
    changes, outcomes = HIDDEN_RESULTS[hidden]
    outcomes = HIDDEN_RESULTS_EXCEPTIONS.get((hidden, name), outcomes)
    url = url_of(name, world)
    Tournament.objects.filter(slug=resolve(url).kwargs["slug"]).update(**changes)
    problems = [
        _miss(_send(world, role, GET, url), outcomes[role], f"{name} ({hidden})", role, GET)
        for role in ROLES
    ]
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


# --- what must hold in particular ------------------------------------------------------------


def _pages(*accesses) -> list[str]:
    return sorted(name for name, d in DECISIONS.items() if d.access in accesses and d.method == GET)


@pytest.mark.django_db
def test_secretary_director_and_player_stay_out_of_each_others_pages(world):
    """Two staff roles, two sets of pages: neither holds the other's; a player holds neither."""
    secretary, director, player = (world.client(r) for r in (SECRETARY, DIRECTOR, PLAYER))
    director_pages = _pages(DIRECTOR_VIEW)
    secretary_pages = _pages(SECRETARY_VIEW)
    assert len(director_pages) > 25 and len(secretary_pages) > 15
    for name in director_pages:
        url = url_of(name, world)
        assert secretary.get(url).status_code == 403, name
        assert player.get(url).status_code == 403, name
    for name in secretary_pages:
        url = url_of(name, world)
        assert director.get(url).status_code == 403, name
        assert player.get(url).status_code == 403, name


@pytest.mark.django_db
def test_a_table_device_is_sent_to_login_from_staff_pages(world):
    """A device is signed in with a table code, not as a user: every staff page and action
    sends it to the login page, and it stays signed in at its table."""
    device = world.client(DEVICE_A)
    assert device.get(reverse("table:home")).status_code == 200  # really a device
    staff = sorted(
        name
        for name, d in DECISIONS.items()
        if d.access in (DIRECTOR_VIEW, SECRETARY_VIEW, OFFICE_VIEW)
    )
    for name in staff:
        url = url_of(name, world)
        response = device.get(url) if DECISIONS[name].method == GET else device.post(url)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login")), name
    assert device.get(reverse("table:home")).status_code == 200


def _unplayed_board_of(table_code):
    """A board the table plays in its current round with nothing stored yet."""
    tr = table_round.table_round(table_code)
    board = next(b.board for b in tr.boards if b.result is None)
    return tr.round, board


def _result_json(round_number, board, key):
    return {
        "round": round_number,
        "board": board.number,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "N",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
        "idempotency_key": key,
    }


@pytest.mark.django_db
def test_a_device_cannot_post_a_result_for_another_tables_board(world):
    round_number, board = _unplayed_board_of(world.code_other)
    data = _result_json(round_number, board, uuid.uuid4().hex)
    stored = Result.objects.filter(section=world.section, board=board).count()
    refused = world.client(DEVICE_A).post(
        reverse("table:result"), data, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 403 and refused.json()["error"]
    assert Result.objects.filter(section=world.section, board=board).count() == stored
    # the same post from A2's own device is stored: only the table made the difference
    own = world.client(DEVICE_OTHER).post(
        reverse("table:result"), data, HTTP_ACCEPT="application/json"
    )
    assert own.status_code == 201


@pytest.mark.django_db
def test_a_device_cannot_read_or_confirm_another_tables_result(world):
    other = world.result_other
    Result.objects.filter(pk=other.pk).update(confirmed=False)
    device = world.client(DEVICE_A)
    assert (
        device.get(reverse("table:board", args=[other.round, other.board.number])).status_code
        == 403
    )
    assert device.post(reverse("table:confirm", args=[other.pk])).status_code in (403, 404)
    other.refresh_from_db()
    assert not other.confirmed and other.status == ResultStatus.OK
    # A2's own device confirms it
    mine = world.client(DEVICE_OTHER).post(reverse("table:confirm", args=[other.pk]))
    assert mine.status_code == 302
    other.refresh_from_db()
    assert other.confirmed


@pytest.mark.django_db
def test_admin_site_is_for_staff_only(world):
    """Django's admin (skipped by the matrix): only the superuser; the club's roles are not
    staff and a device is nobody."""
    url = reverse("admin:index")
    for role in ROLES:
        response = world.client(role).get(url)
        if role == ADMIN:
            assert response.status_code == 200
        else:
            assert response.status_code == 302, role
            assert response["Location"].startswith(reverse("admin:login")), role

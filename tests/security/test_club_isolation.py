"""Two clubs on one installation: nothing of one is reached from the other's host.

Club B gets the permission matrix's whole world (members, a running session with table
devices, published pairs, individual, Swiss and knockout events, uploads, imports, PDFs);
club A, the installation's default club, has nothing of its own. Every route of the site is
then requested at club A's host with club B's ids, tokens and table codes, by the
superuser (who may see every page), by club B's secretary, director and player (whose
roles are B's, not A's) and by club B's table device: none may answer with B's page. The same requests at club B's host answer as the matrix says, so the ids are real.
"""

import pytest
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test import override_settings
from django_scopes import scopes_disabled

from clubsite.models import Club, Member
from clubsite.tenancy import club_scope
from tests.security.conftest import _build
from tests.security.permission_expectations import (
    ADMIN,
    DECISIONS,
    DEVICE_A,
    DIRECTOR,
    GET,
    PLAYER,
    SECRETARY,
)
from tests.security.route_args import url_of
from tournaments.models import Tournament

HOST_B = "club-b.example.org"
MARK = "Bétera"  # in every name of club B's tournaments and members


@pytest.fixture(scope="module")
def club_b_world(django_db_setup, django_db_blocker, tmp_path_factory):
    media_root = tmp_path_factory.mktemp("isolation-media")
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=media_root, ALLOWED_HOSTS=["testserver", HOST_B]),
    ):
        from django.db import transaction

        with transaction.atomic():
            club_b = Club.objects.create(name="Club B", slug="club-b", host=HOST_B)
            with club_scope(club_b):
                world = _build(media_root)
                Tournament.objects.update(name=Concat(F("name"), Value(f" {MARK}")))
                Member.objects.update(last_name=Concat(F("last_name"), Value(f" {MARK}")))
            yield world
            transaction.set_rollback(True)


def _get_or_post(client, method, url, host):
    if method == GET:
        return client.get(url, HTTP_HOST=host)
    return client.post(url, HTTP_HOST=host)


def _page_of_b(response) -> bool:
    """Whether ``response`` shows or does something of club B."""
    if response.status_code in (403, 404, 405):
        return False
    if response.status_code in (301, 302, 303):
        return False  # to the sign-in, the table sign-in or a page checked on its own
    body = b"".join(response) if response.streaming else response.content
    if response.status_code == 200 and MARK.encode() not in body:
        return False  # a page of club A's (its list, empty of B's rows)
    return True


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_nothing_of_club_b_from_club_a_host(club_b_world, name):
    decision = DECISIONS[name]
    with scopes_disabled():  # the route's arguments: club B's rows
        with club_scope(Club.objects.get(host=HOST_B)):
            url = url_of(name, club_b_world)
    problems = []
    roles = (ADMIN, SECRETARY, DIRECTOR, PLAYER, DEVICE_A)
    if name.startswith("federation:"):
        # a federation's pages are above the clubs, on every host: the superuser, an
        # officer of every federation, sees club B there by design; the club's roles do
        # not (``tests/federation`` keeps one federation's officer out of another's clubs)
        roles = roles[1:]
    for role in roles:
        client = club_b_world.client(role)
        response = _get_or_post(client, decision.method, url, "testserver")
        assert response.status_code < 500, f"{name} as {role}: {response.status_code}"
        if _page_of_b(response):
            problems.append(f"{name} as {role} at club A: {response.status_code}")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_club_b_pages_answer_at_club_b_host(club_b_world):
    """The control: at club B's host, B's pages are there (the ids above are real)."""
    client = club_b_world.client(ADMIN)
    with club_scope(Club.objects.get(host=HOST_B)):
        slug = club_b_world.published.slug
        pages = [
            url_of("results:tournament", club_b_world),
            url_of("clubsite:member_detail", club_b_world),
            url_of("clubsite:audit_log", club_b_world),
        ]
    for url in pages:
        response = client.get(url, HTTP_HOST=HOST_B)
        assert response.status_code == 200, url
        assert MARK in response.content.decode(), url
        assert not _page_of_b(client.get(url)), url  # and not at club A's
    assert slug

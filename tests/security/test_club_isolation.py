"""Two clubs on one installation: nothing of one is reached from the other's host.

Club B gets the permission matrix's whole world (members, a running session with table
devices, published pairs, individual, Swiss and knockout events, uploads, imports, PDFs);
club A, the installation's default club, has nothing of its own. Every route of the site is
then requested at club A's host with club B's ids, tokens and table codes, by the
superuser (who may see every page), by club B's secretary, director and player (whose
roles are B's, not A's) and by club B's table device: none may answer with B's page. The same requests at club B's host answer as the matrix says, so the ids are real.
One page reads across clubs on purpose: a player's "my results" lists their own published
results at each club where their account is a member; B's player sees B's there, nobody
else does.
"""

import pytest
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test import override_settings
from django.urls import reverse
from django.utils.html import escape
from django_scopes import scopes_disabled

from clubsite.models import Club, Member
from clubsite.tenancy import club_scope
from tests.security.conftest import _build, checked
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
from tournaments.models import Session, SessionStatus, Tournament, TournamentStatus
from tournaments.services.results.results_pdf import PUBLISHED

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
            yield checked(world)
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
    if name == "results:mine":
        # the player is club B's member: their own published results at B are on their
        # page at every club's host by design (``test_my_results_show_b_to_b_members_only``)
        roles = tuple(role for role in roles if role != PLAYER)
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


@pytest.mark.django_db
def test_my_results_show_b_to_b_members_only(club_b_world):
    """At club A's host, "my results" shows B's published results to B's member (linked to
    B's host) and nothing of B to the superuser, B's secretary or B's director, who are not
    B's members; nor what B has not published."""
    club_b = Club.objects.get(host=HOST_B)
    with club_scope(club_b):
        member = club_b_world.member
        # one event taken back to a draft; tonight's and the knockout are published
        # provisionally but still being played: none of them is a result yet
        Tournament.objects.filter(pk=club_b_world.two_sessions.pk).update(
            status=TournamentStatus.DRAFT
        )
        in_play = Session.objects.filter(status=SessionStatus.RUNNING)
        played = {
            t.name: t.status in PUBLISHED and not in_play.filter(tournament=t).exists()
            for t in Tournament.objects.filter(entries__entry_players__member=member)
        }
    published = [name for name, shown in played.items() if shown]
    unpublished = [name for name, shown in played.items() if not shown]
    in_play_names = {f"{t.name} {MARK}" for t in (club_b_world.running, club_b_world.knockout)}
    assert published and in_play_names < set(unpublished)
    with override_settings(SITE_URL=""):
        response = club_b_world.client(PLAYER).get(reverse("results:mine"))
        html = response.content.decode()
        assert response.status_code == 200  # no member at A: the "no member" page
        for name in published:
            assert escape(name) in html
        for name in unpublished:
            assert escape(name) not in html
        assert f'href="http://{HOST_B}/results/' in html  # B's pages, at B's host
        for role in (ADMIN, SECRETARY, DIRECTOR):
            response = club_b_world.client(role).get(reverse("results:mine"))
            assert response.status_code == 404, role
            assert MARK not in response.content.decode(), role

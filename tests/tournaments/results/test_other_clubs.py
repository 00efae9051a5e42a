"""A player's results at their other clubs, on their "my results" page.

Two clubs on one installation, each with the demo's members (the same people) and a
published Mitchell; club B (its own host) a published Howell too. One account is a member of
both clubs, one of club A only, one of club B only. Read at club A's host, the page lists
the account's own newest published results at club B, linked to club B's host, and
nothing of B to an account that is not B's member.
"""

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test import override_settings
from django.urls import reverse

from clubsite.models import Club, Member
from clubsite.tenancy import club_scope
from tests.clubs import default_club
from tournaments.models import EntryPlayer, Tournament, TournamentStatus
from tournaments.services.results.other_clubs import results_at_other_clubs

HOST_B = "club-b.example.org"
MARK = "Bétera"  # in the name of every tournament of club B


@pytest.fixture(scope="module")
def two_clubs(django_db_setup, django_db_blocker):
    from clubsite.demo import build_club
    from tournaments.demo import build_tournaments

    with django_db_blocker.unblock(), transaction.atomic():
        club_a = default_club()
        club_b = Club.objects.create(name="Club B", slug="club-b", host=HOST_B)
        both = User.objects.create_user("both", password="pass-1234-word")
        only_a = User.objects.create_user("only-a", password="pass-1234-word")
        only_b = User.objects.create_user("only-b", password="pass-1234-word")
        members = {}
        with club_scope(club_a):
            build_club()
            build_tournaments(only=("martes",))
            played = EntryPlayer.objects.order_by("entry_id", "seat")
            members["a_both"], members["a_only"] = (p.member for p in played[:2])
        with club_scope(club_b):
            build_club()
            build_tournaments(only=("martes", "jueves"))
            Tournament.objects.update(name=Concat(F("name"), Value(f" {MARK}")))
            in_both = EntryPlayer.objects.filter(
                entry__tournament__slug__endswith="jueves",
                member__entry_seats__entry__tournament__slug__endswith="martes",
            ).order_by("entry_id", "seat")
            members["b_both"] = in_both[0].member
            members["b_only"] = in_both.exclude(member=members["b_both"])[0].member
        for key, user in (("a_both", both), ("b_both", both), ("a_only", only_a)):
            with club_scope(club_a if key.startswith("a") else club_b):
                Member.objects.filter(pk=members[key].pk).update(user=user)
        with club_scope(club_b):
            Member.objects.filter(pk=members["b_only"].pk).update(user=only_b)
        yield {
            "a": club_a,
            "b": club_b,
            "both": both,
            "only_a": only_a,
            "only_b": only_b,
            **members,
        }
        transaction.set_rollback(True)


pytestmark = pytest.mark.django_db


def _b_tournaments(member) -> list[str]:
    """The slugs of ``member``'s published tournaments at club B, newest first."""
    return list(
        Tournament.objects.filter(entries__entry_players__member=member)
        .order_by("-date", "-pk")
        .values_list("slug", flat=True)
    )


# --- the service ----------------------------------------------------------------------------


def test_a_member_of_two_clubs_reads_the_other_clubs_newest_results(
    two_clubs, django_assert_num_queries
):
    with django_assert_num_queries(4):  # the clubs, then three for club B
        found = results_at_other_clubs(two_clubs["both"], two_clubs["a"].pk)
    assert [c.club.pk for c in found] == [two_clubs["b"].pk]
    club_b = found[0]
    assert club_b.member_id == two_clubs["b_both"].pk
    with club_scope(two_clubs["b"]):
        expected = _b_tournaments(two_clubs["b_both"])
        partners = set(
            EntryPlayer.objects.filter(
                entry__in=EntryPlayer.objects.filter(member=two_clubs["b_both"]).values("entry")
            )
            .exclude(member=two_clubs["b_both"])
            .values_list("member_id", flat=True)
        )
    assert len(expected) == 2  # the Howell, then the Mitchell
    assert [row["tournament"].slug for row in club_b.rows] == expected
    assert not club_b.more
    for row in club_b.rows:
        assert MARK in row["tournament"].name
        assert row["percentage"] is not None and row["place_label"]
        assert {p.pk for p in row["partners"]} <= partners and row["partners"]
        assert all(p.club_id == two_clubs["b"].pk for p in row["partners"])


def test_the_newest_per_club_and_whether_there_are_more(two_clubs):
    (club_b,) = results_at_other_clubs(two_clubs["both"], two_clubs["a"].pk, per_club=1)
    with club_scope(two_clubs["b"]):
        newest = _b_tournaments(two_clubs["b_both"])[0]
    assert [row["tournament"].slug for row in club_b.rows] == [newest]
    assert club_b.more


def test_only_the_accounts_own_memberships_are_read(two_clubs):
    # a member of A only: nothing, though club B has members with accounts
    assert results_at_other_clubs(two_clubs["only_a"], two_clubs["a"].pk) == []
    # a member of B only, at A: B's, their own member's
    (club_b,) = results_at_other_clubs(two_clubs["only_b"], two_clubs["a"].pk)
    assert club_b.member_id == two_clubs["b_only"].pk
    # the current club is never "another club"
    assert results_at_other_clubs(two_clubs["both"], two_clubs["b"].pk)[0].club.pk == (
        two_clubs["a"].pk
    )
    assert results_at_other_clubs(None, two_clubs["a"].pk) == []


def test_unpublished_results_at_the_other_club_do_not_show(two_clubs):
    with club_scope(two_clubs["b"]):
        Tournament.objects.update(status=TournamentStatus.RUNNING)
    (club_b,) = results_at_other_clubs(two_clubs["both"], two_clubs["a"].pk)
    assert club_b.rows == [] and not club_b.more
    with club_scope(two_clubs["b"]):
        Tournament.objects.update(status=TournamentStatus.DRAFT)
    assert results_at_other_clubs(two_clubs["both"], two_clubs["a"].pk)[0].rows == []


# --- the page -------------------------------------------------------------------------------


def _mine(client, user, host="testserver"):
    client.force_login(user)
    with override_settings(ALLOWED_HOSTS=["testserver", HOST_B], SITE_URL=""):
        return client.get(reverse("results:mine"), HTTP_HOST=host)


def test_my_results_show_the_other_clubs_results_linked_to_their_host(client, two_clubs):
    response = _mine(client, two_clubs["both"])
    assert response.status_code == 200
    html = response.content.decode()
    assert response.context["history"].member == two_clubs["a_both"]  # this club's, as before
    assert response.context["history"].rows
    assert 'id="other-clubs"' in html and 'data-club="club-b"' in html
    rows = results_at_other_clubs(two_clubs["both"], two_clubs["a"].pk)[0].rows
    for row in rows:
        assert row["tournament"].name in html
        path = reverse(
            "results:scorecard", args=[row["tournament"].slug, row["session"], row["entry_id"]]
        )
        assert f'href="http://{HOST_B}{path}"' in html
    player_b = reverse("results:player", args=[two_clubs["b_both"].pk])
    assert f'href="http://{HOST_B}{player_b}"' in html  # all my results at B, on B's site


def test_a_member_of_one_club_sees_nothing_of_the_other(client, two_clubs):
    response = _mine(client, two_clubs["only_a"])
    assert response.status_code == 200
    html = response.content.decode()
    assert MARK not in html and HOST_B not in html and 'id="other-clubs"' not in html


def test_a_member_of_the_other_club_only_sees_it_on_the_no_member_page(client, two_clubs):
    response = _mine(client, two_clubs["only_b"])
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-club="club-b"' in html and MARK in html
    assert "history" not in response.context
    # an account that is a member nowhere still gets the "no member" page
    nobody = User.objects.create_user("nobody", password="pass-1234-word")
    assert _mine(client, nobody).status_code == 404


def test_the_other_clubs_unpublished_results_do_not_show(client, two_clubs):
    with club_scope(two_clubs["b"]):
        Tournament.objects.update(status=TournamentStatus.RUNNING)
    html = _mine(client, two_clubs["both"]).content.decode()
    assert 'data-club="club-b"' in html  # the club, with nothing published
    assert MARK not in html


def test_a_members_public_page_never_lists_other_clubs(client, two_clubs):
    client.force_login(two_clubs["both"])
    html = client.get(reverse("results:player", args=[two_clubs["a_both"].pk])).content.decode()
    assert MARK not in html and 'id="other-clubs"' not in html

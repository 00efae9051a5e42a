"""Clubs as tenants: which club a host reaches, queries that fail loudly outside a club,
jobs and commands that carry their club, and a one-club database migrated whole."""

import datetime
import io
import time
import types

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django_scopes import ScopeError, get_scope, scopes_disabled

from clubsite import tenancy
from clubsite.models import Club, Member, Season
from clubsite.ops.clubs import command_club_id
from clubsite.tenancy import club_scope, current_club_id
from clubsite.web.club_host import club_id_for_host

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs(settings):
    settings.CLUB_BASE_DOMAIN = "clubs.example.org"
    settings.ALLOWED_HOSTS = [".clubs.example.org", "bridge-sur.example.com", "testserver"]
    first = Club.objects.get(pk=settings.DEFAULT_CLUB_ID)
    second = Club.objects.create(name="Club Sur", slug="sur", host="bridge-sur.example.com")
    return first, second


def test_a_club_is_reached_by_its_host_or_its_sub_domain(two_clubs):
    first, second = two_clubs
    assert club_id_for_host("bridge-sur.example.com") == second.pk
    assert club_id_for_host("SUR.clubs.example.org") == second.pk
    assert club_id_for_host("testserver") == first.pk  # names no club: the default one
    assert club_id_for_host("nadie.clubs.example.org") == first.pk


def test_without_a_default_club_an_unknown_host_is_not_found(two_clubs, settings, client):
    settings.DEFAULT_CLUB_ID = None
    assert club_id_for_host("nadie.clubs.example.org") is None
    assert client.get("/", HTTP_HOST="nadie.clubs.example.org").status_code == 404
    assert client.get("/", HTTP_HOST="sur.clubs.example.org").status_code == 200


def test_each_host_shows_its_own_club(two_clubs, client):
    first, second = two_clubs
    first.name = "Club Norte"
    first.save()
    assert "Club Norte" in client.get("/").content.decode()
    page = client.get("/", HTTP_HOST="sur.clubs.example.org").content.decode()
    assert "Club Sur" in page and "Club Norte" not in page


def test_a_renamed_host_is_forgotten_at_once(two_clubs):
    _first, second = two_clubs
    assert club_id_for_host("bridge-sur.example.com") == second.pk  # now in the cache
    second.host = "sur.example.net"
    second.save()
    assert club_id_for_host("sur.example.net") == second.pk
    assert club_id_for_host("bridge-sur.example.com") != second.pk


def test_with_a_shared_cache_a_clubs_host_costs_no_query_for_an_hour(
    two_clubs, settings, monkeypatch, django_assert_num_queries
):
    """With many clubs each club's entries expiring every minute made its next page pay the
    host lookup, a query over the six (bench/bench_clubs.py). A shared cache hears of every
    save (the test above), so it keeps them an hour; each process's own memory a minute."""
    _first, second = two_clubs
    for shared, minutes, lookups in (("redis://cache.example:6379/0", 59, 0), ("", 2, 1)):
        settings.CACHE_URL = shared
        cache.clear()
        assert club_id_for_host("sur.clubs.example.org") == second.pk
        later = time.time() + minutes * 60
        monkeypatch.setattr(time, "time", lambda later=later: later)
        with django_assert_num_queries(lookups):
            assert club_id_for_host("sur.clubs.example.org") == second.pk
            assert Club.cached(second.pk).name == "Club Sur"
        monkeypatch.undo()


def test_a_query_outside_any_club_fails_loudly():
    previous = tenancy.get_scope()
    token = tenancy_state_set({})
    try:
        with pytest.raises(ScopeError):
            list(Member.objects.all())
        with pytest.raises(ScopeError):
            current_club_id()
    finally:
        tenancy_state_reset(token, previous)


def tenancy_state_set(value):
    from django_scopes.state import state

    return state.set(value)


def tenancy_state_reset(token, previous):
    from django_scopes.state import state

    state.reset(token)
    assert get_scope() == previous


def test_rows_are_made_in_and_read_from_the_scope_s_club(two_clubs):
    first, second = two_clubs
    with club_scope(second):
        Member.objects.create(first_name="Sara", last_name="Sur", licence_number="L1")
        season = Season.for_date(datetime.date(2025, 3, 4))
    assert season.club_id == second.pk
    Member.objects.create(first_name="Nora", last_name="Norte", licence_number="L1")
    assert [m.first_name for m in Member.objects.all()] == ["Nora"]
    with club_scope(second):
        assert [m.first_name for m in Member.objects.all()] == ["Sara"]
    with scopes_disabled():
        # one licence number at two clubs: the same player, a member at each
        assert Member.objects.filter(licence_number="L1").count() == 2


def test_a_queued_job_carries_its_club_and_runs_in_it(two_clubs):
    _first, second = two_clubs
    headers = {}
    with club_scope(second):
        tenancy._job_published(headers=headers)
    assert headers == {tenancy.CLUB_HEADER: second.pk}
    task = types.SimpleNamespace(request=types.SimpleNamespace(is_eager=False, **headers))
    before = get_scope()
    tenancy._job_starts(task_id="t1", task=task)
    try:
        assert current_club_id() == second.pk
    finally:
        tenancy._job_ends(task_id="t1")
    assert get_scope() == before


def test_the_beat_s_sweep_goes_club_by_club(two_clubs, monkeypatch):
    from tournaments.jobs import sweep

    seen = []
    monkeypatch.setattr(sweep, "sweep", lambda: seen.append(current_club_id()) or sweep.Swept())
    sweep.requeue_stalled_jobs()
    # every club, in order: at a default club other than 1, the migrations' club 1 too
    assert seen == list(Club.objects.order_by("pk").values_list("pk", flat=True))
    assert {club.pk for club in two_clubs} <= set(seen)


def test_a_command_works_for_the_club_it_names(two_clubs):
    first, second = two_clubs
    assert command_club_id("sur") == command_club_id("bridge-sur.example.com") == second.pk
    assert command_club_id(str(second.pk)) == second.pk
    assert command_club_id("") == first.pk  # none named: the default club
    with pytest.raises(CommandError, match="No club is named"):
        command_club_id("nadie")
    out = io.StringIO()
    with pytest.raises(CommandError, match="No club is named"):
        call_command("export_results", "martes", "--club", "nadie", stdout=out)


@pytest.mark.django_db(transaction=True)
def test_a_one_club_database_migrates_whole_into_club_one():
    """A database of the schema before clubs (rows of its one club) migrates with every
    row kept and given to club 1."""
    executor = MigrationExecutor(connection)
    before = [("clubsite", "0002_roles"), ("tournaments", "0004_result_section_modified")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    # such a database holds its one club only: at a default club other than 1 the test
    # database also holds that club's row, which no database of that schema had
    had_others = old.get_model("clubsite", "Club").objects.exclude(pk=1).delete()[0] > 0
    old.get_model("clubsite", "Club").objects.update_or_create(
        pk=1, defaults={"name": "Club de siempre"}
    )
    season = old.get_model("clubsite", "Season").objects.create(
        name="2024-25", start=datetime.date(2024, 9, 1), end=datetime.date(2025, 8, 31)
    )
    old.get_model("clubsite", "Category").objects.create(code="senior", name="Senior")
    old.get_model("clubsite", "Member").objects.create(
        first_name="Ana", last_name="Alba", licence_number="123"
    )
    old.get_model("tournaments", "Tournament").objects.create(
        name="Martes", slug="martes", date=datetime.date(2025, 3, 4)
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    with scopes_disabled():
        assert Club.objects.get().name == "Club de siempre"
        assert Season.objects.get(pk=season.pk).club_id == 1
        assert Member.objects.get().club_id == 1
        from clubsite.models import Category
        from tournaments.models import Tournament

        assert Category.objects.get().club_id == 1
        assert Tournament.objects.get().club_id == 1
        # a second club gets the next id (the old club 1 was written with its id by hand);
        # SQLite never gives again an id a deleted row had
        assert Club.objects.create(name="Otro").pk == 2 or had_others


@override_settings(DEFAULT_CLUB_ID=1)
def test_a_fresh_database_has_the_default_club():
    assert Club.objects.filter(pk=1).exists()


def test_roles_are_held_per_club(two_clubs, client):
    """Secretary at one club, player at another: one account, the roles of the host's club."""
    from django.contrib.auth.models import User

    from clubsite.accounts.permissions import Role, grant, roles_of
    from tests.signed_in import sign_in_verified

    first, second = two_clubs
    user = User.objects.create_user(username="marta", password="pass-1234-word")
    grant(user, Role.SECRETARY)
    with club_scope(second):
        grant(user, Role.PLAYER)
        assert roles_of(user) == {Role.PLAYER}
    assert roles_of(user) == {Role.SECRETARY}
    sign_in_verified(client, user)
    assert client.get("/club/members/").status_code == 200
    assert client.get("/club/members/", HTTP_HOST="sur.clubs.example.org").status_code == 403


def test_a_player_of_two_clubs_has_one_account(two_clubs):
    """The federation licence number names one player across clubs: the second club's
    account opening asks the owner of the account the first club opened, and joins it
    once they confirm."""
    from django.test import RequestFactory

    from clubsite.accounts import account_links
    from clubsite.accounts.member_accounts import open_player_account
    from clubsite.accounts.permissions import Role, roles_of

    _first, second = two_clubs
    request = RequestFactory().get("/")
    here = Member.objects.create(
        first_name="Ana", last_name="Alba", licence_number="A-77", email="ana@example.org"
    )
    account = open_player_account(here, request).user
    with club_scope(second):
        there = Member.objects.create(
            first_name="Ana", last_name="Alba", licence_number="A-77", email="ANA@example.org"
        )
        opened = open_player_account(there, request)
        assert opened.user == account and opened.waiting is not None
        assert not Member.objects.filter(user=account).exists() and not roles_of(account)
        account_links.confirm(account_links.token_for(opened.waiting), account)
        assert roles_of(account) == {Role.PLAYER}
        assert Member.objects.get(user=account) == there
    assert Member.objects.get(user=account) == here
    with scopes_disabled():
        assert account.memberships.count() == 2


def test_links_in_mails_and_cards_carry_the_club_s_own_address(two_clubs, settings):
    first, second = two_clubs
    settings.SITE_URL = "https://bridge.example.org"
    assert first.site_url == "https://bridge.example.org"  # no host of its own
    assert second.site_url == "https://bridge-sur.example.com"
    second.host = None
    assert second.site_url == "https://sur.clubs.example.org"


# --- what a hostile review of two clubs tried ------------------------------------------------


def test_a_host_under_the_base_domain_never_outranks_a_short_name(two_clubs):
    from django.core.exceptions import ValidationError

    _first, second = two_clubs
    thief = Club(name="Ladrón", slug="ladron", host="sur.clubs.example.org")
    with pytest.raises(ValidationError):
        thief.full_clean()
    thief.save()  # even written past the form
    assert club_id_for_host("sur.clubs.example.org") == second.pk


def test_an_officer_gives_a_new_club_a_short_name_not_a_host():
    from federation.forms import ClubForm

    assert "host" not in ClubForm().fields


def test_the_secretary_cannot_move_the_club_to_another_federation():
    from clubsite.members.forms import ClubForm

    assert "federation" not in ClubForm().fields


def test_a_licence_number_alone_does_not_join_another_club_s_account(two_clubs):
    from django.test import RequestFactory

    from clubsite.accounts.member_accounts import open_player_account

    _first, second = two_clubs
    request = RequestFactory().get("/")
    victim = Member.objects.create(
        first_name="Vera", last_name="Vidal", licence_number="V-1", email="vera@example.org"
    )
    account = open_player_account(victim, request).user
    with club_scope(second):
        copied = Member.objects.create(
            first_name="Vera", last_name="Vidal", licence_number="V-1", email="spy@example.org"
        )
        opened = open_player_account(copied, request)
        assert opened.user != account and opened.waiting is None


def test_table_sign_in_lockouts_are_per_club(two_clubs):
    from tournaments.services.table import table_signin

    _first, second = two_clubs
    attempt = types.SimpleNamespace(
        device=types.SimpleNamespace(id=None), known=False, ip="1.2.3.4", table="A3"
    )
    keys = [key for key, _limit in table_signin.Attempt.counters(attempt)]
    with club_scope(second):
        other = [key for key, _limit in table_signin.Attempt.counters(attempt)]
    assert [k for k in keys if ":table:" in k] != [k for k in other if ":table:" in k]


def test_the_admin_is_for_superusers_and_its_history_for_the_host_s_club(two_clubs, client):
    from django.contrib.auth.models import User

    _first, second = two_clubs
    staff = User.objects.create_user(username="staff", password="pass-1234-word", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 302
    with club_scope(second):
        theirs = Member.objects.create(first_name="Sara", last_name="Sur")
    from tests.signed_in import sign_in_verified

    root = User.objects.create_superuser(username="root", password="pass-1234-word-root")
    sign_in_verified(client, root)
    history = f"/admin/clubsite/member/{theirs.pk}/history/"
    assert client.get(history).status_code == 404
    assert client.get(history, HTTP_HOST="sur.clubs.example.org").status_code == 200

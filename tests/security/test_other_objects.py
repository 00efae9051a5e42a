"""Objects that are not yours: the permission matrix's rows for a table's own objects, tried
by a device of *another tournament* (a teams match's table, signed in tonight too), and a
player's pages tried on *another member's* records. Whatever the ids in the URL or the
form, the answer is a refusal and nothing changes."""

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from tests.security.permission_expectations import (
    DECISIONS,
    DEVICE_A,
    DEVICE_A_ACTION,
    DEVICE_A_ONLY,
    GET,
    PLAYER,
)
from tests.security.route_args import url_of
from tests.security.test_permission_matrix import _state
from tournaments.models import Result, TableCode
from tournaments.views.table.device import SESSION_KEY

pytestmark = pytest.mark.django_db

TABLE_OWN = sorted(
    name for name, d in DECISIONS.items() if d.outcomes in (DEVICE_A_ONLY, DEVICE_A_ACTION)
)


@pytest.fixture
def other_device(world, mitchell_session) -> Client:
    """Table 1 of another tournament running tonight, signed in as its device."""
    code = TableCode.objects.filter(section=mitchell_session, active=True).order_by("table").first()
    assert code is not None and code.section.session.tournament_id != world.running.pk
    client = Client()
    session = client.session
    session[SESSION_KEY] = code.pk
    session.save()
    assert client.get(reverse("table:home")).status_code == 200  # really a device
    return client


def test_table_own_routes_are_many():
    assert {"table:board", "table:confirm", "table:correct", "table:dispute"} <= set(TABLE_OWN)


@pytest.mark.parametrize("name", TABLE_OWN)
def test_a_device_of_another_tournament_gets_nothing_of_this_ones_table(world, other_device, name):
    device = other_device
    url = url_of(name, world)
    before = _state()
    method = DECISIONS[name].method
    response = device.get(url) if method == GET else device.post(url)
    if name == "table:board":  # numbers, not ids: the same round and board of its own table
        assert response.status_code in (200, 403, 404)
        assert world.running.name not in response.content.decode()
        assert world.running.name in world.client(DEVICE_A).get(url).content.decode()
    else:
        assert response.status_code in (403, 404), (name, response.status_code)
    assert _state() == before, f"{name}: a device of another tournament changed something"


def test_a_device_of_another_tournament_cannot_post_or_confirm_here(world, other_device):
    device = other_device
    mine = world.result_a
    Result.objects.filter(pk=mine.pk).update(confirmed=False)
    device.post(
        reverse("table:result"),
        {
            "round": mine.round,
            "board": mine.board.number,
            "level": "3",
            "strain": "NT",
            "double": "",
            "declarer": "N",
            "made": "=",
            "lead_suit": "",
            "lead_rank": "",
            "idempotency_key": "other-tournament-1",
        },
        HTTP_ACCEPT="application/json",
    )
    # the post can only ever be about the device's own table: nothing lands here
    assert not Result.objects.filter(
        section=world.section, idempotency_key="other-tournament-1"
    ).exists()
    assert device.post(reverse("table:confirm", args=[mine.pk])).status_code in (403, 404)
    mine.refresh_from_db()
    assert not mine.confirmed


def test_a_player_cannot_reach_another_members_records(world):
    player = world.client(PLAYER)
    other = Member.objects.exclude(pk=world.member.pk).exclude(user=world.users[PLAYER]).first()
    own = Member.objects.get(user=world.users[PLAYER])
    before = _state()
    for url in (
        reverse("clubsite:member_detail", args=[other.pk]),
        reverse("clubsite:member_edit", args=[other.pk]),
        reverse("money:balance", args=[other.pk]),
        reverse("clubsite:payment_create", args=[other.pk]),
    ):
        assert player.get(url).status_code == 403, url
        assert player.post(url, {"first_name": "X", "amount": "1"}).status_code == 403, url
    assert _state() == before
    # the player's own page edits only their own record, whatever id the form carries
    page = player.get(reverse("clubsite:profile"))
    data = {k: ("" if v is None else v) for k, v in page.context["form"].initial.items()}
    data.update({"pk": other.pk, "id": other.pk, "member": other.pk, "phone": "600 000 001"})
    assert player.post(reverse("clubsite:profile"), data).status_code == 302
    other.refresh_from_db()
    own.refresh_from_db()
    assert other.phone != "600 000 001" and own.phone == "600 000 001"

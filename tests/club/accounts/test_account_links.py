"""A player's account at another club is joined to this club's member only when its owner
confirms, from a signed, expiring, single-use link mailed to them."""

import re
import time
import types

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing
from django.test import RequestFactory
from django.urls import reverse

from clubsite.accounts import account_links
from clubsite.accounts.account_links import LinkRefused
from clubsite.accounts.member_accounts import AlreadyAsked, AlreadyLinked, open_player_account
from clubsite.accounts.permissions import Role, roles_of
from clubsite.models import AccountLink, AccountLinkState, Club, Member
from clubsite.tenancy import club_scope
from tests.conftest import make_user
from tests.signed_in import sign_in_verified

pytestmark = pytest.mark.django_db

SUR_HOST = "bridge-sur.example.com"


@pytest.fixture
def sur(settings):
    settings.ALLOWED_HOSTS = [SUR_HOST, "testserver"]
    settings.SITE_URL = "https://bridge.example.org"
    return Club.objects.create(name="Club Sur", slug="sur", host=SUR_HOST)


@pytest.fixture
def ana(sur):
    """Ana's account, opened by Club Sur, where she is a player."""
    user = User.objects.create_user("ana", email="ana@example.org", password="pass-1234-word")
    with club_scope(sur):
        Member.objects.create(
            first_name="Ana",
            last_name="Alba",
            licence_number="A-77",
            email="ana@example.org",
            user=user,
        )
    return user


@pytest.fixture
def here():
    """Ana as a member of this (the default) club, mailed in Portuguese, no account yet."""
    return Member.objects.create(
        first_name="Ana",
        last_name="Alba",
        licence_number="A-77",
        email="ANA@example.org",
        language="pt",
    )


def _ask(member, user=None):
    request = RequestFactory().post("/")
    request.user = user
    return open_player_account(member, request)


def _token(message) -> str:
    return re.search(r"/club/account-link/([^/\s]+)/", message.body)[1]


def _roles(user):
    """The roles read afresh (signing in caches them on the user object)."""
    return roles_of(User.objects.get(pk=user.pk))


def _unchanged(member, user):
    member.refresh_from_db()
    return member.user_id is None and not _roles(user)


# --- the service -----------------------------------------------------------------------------


def test_a_match_mails_the_owner_and_links_nothing(ana, here):
    secretary = make_user("sec", Role.SECRETARY)
    opened = _ask(here, secretary)
    assert opened.user == ana and opened.waiting.state == AccountLinkState.PENDING
    assert opened.waiting.asked_by == secretary
    assert _unchanged(here, ana)
    [message] = mail.outbox
    assert message.to == ["ana@example.org"]
    assert "Club de Bridge" in message.subject  # this club's name
    assert "Olá Ana," in message.body and "associar" in message.body  # her mail language
    assert "https://bridge.example.org/club/account-link/" in message.body  # this club's site
    assert signing.loads(_token(message), salt=account_links.SALT)[0] == opened.waiting.pk


def test_the_link_points_at_this_club_s_own_address(ana, sur):
    user = User.objects.create_user("bea", email="bea@example.org")
    Member.objects.create(first_name="Bea", last_name="B", licence_number="B-1", user=user)
    with club_scope(sur):
        member = Member.objects.create(
            first_name="Bea", last_name="B", licence_number="B-1", email="bea@example.org"
        )
        _ask(member)
    assert f"https://{SUR_HOST}/club/account-link/" in mail.outbox[0].body
    assert "Hola, Bea:" in mail.outbox[0].body  # no language of her own: the club's


def test_confirm_links_the_member_and_makes_a_player(ana, here):
    _ask(here)
    link = account_links.confirm(_token(mail.outbox[0]), ana)
    here.refresh_from_db()
    assert here.user == ana and _roles(ana) == {Role.PLAYER}
    assert link.state == AccountLinkState.CONFIRMED and link.decided_at


def test_decline_links_nothing(ana, here):
    _ask(here)
    link = account_links.decline(_token(mail.outbox[0]), ana)
    assert link.state == AccountLinkState.DECLINED and link.decided_at
    assert _unchanged(here, ana)


@pytest.mark.parametrize("first", [account_links.confirm, account_links.decline])
@pytest.mark.parametrize("again", [account_links.confirm, account_links.decline])
def test_a_used_link_is_refused(ana, here, first, again):
    _ask(here)
    token = _token(mail.outbox[0])
    first(token, ana)
    here.refresh_from_db()
    before = (here.user_id, AccountLink.objects.get().state, _roles(ana))
    with pytest.raises(LinkRefused) as refused:
        again(token, ana)
    assert refused.value.status == 410
    here.refresh_from_db()
    assert (here.user_id, AccountLink.objects.get().state, _roles(ana)) == before


def test_an_expired_link_is_refused(ana, here, monkeypatch):
    _ask(here)
    token = _token(mail.outbox[0])
    later = time.time() + account_links.MAX_AGE.total_seconds() + 60
    monkeypatch.setattr(signing, "time", types.SimpleNamespace(time=lambda: later))
    with pytest.raises(LinkRefused) as refused:
        account_links.confirm(token, ana)
    assert refused.value.status == 410 and "caducado" in refused.value.message
    assert _unchanged(here, ana) and AccountLink.objects.get().state == AccountLinkState.PENDING


def test_another_account_is_refused(ana, here):
    _ask(here)
    other = make_user("otro")
    with pytest.raises(LinkRefused) as refused:
        account_links.confirm(_token(mail.outbox[0]), other)
    assert refused.value.status == 403
    assert _unchanged(here, ana) and here.user_id is None and not _roles(other)


def test_another_club_s_link_is_refused_here(ana, sur):
    user = User.objects.create_user("bea", email="bea@example.org")
    Member.objects.create(first_name="Bea", last_name="B", licence_number="B-1", user=user)
    with club_scope(sur):
        member = Member.objects.create(
            first_name="Bea", last_name="B", licence_number="B-1", email="bea@example.org"
        )
        _ask(member)
    token = _token(mail.outbox[0])
    with pytest.raises(LinkRefused) as refused:  # at this (the default) club
        account_links.confirm(token, user)
    assert refused.value.status == 404
    with club_scope(sur):
        member.refresh_from_db()
        assert member.user_id is None
        assert AccountLink.objects.get().state == AccountLinkState.PENDING


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        signing.dumps([1, "x"], salt="another.salt"),
        signing.dumps("1", salt=account_links.SALT),  # signed, but not a request's pair
    ],
    ids=["nonsense", "another salt", "not a pair"],
)
def test_a_tampered_or_foreign_token_is_refused(ana, here, token):
    _ask(here)
    with pytest.raises(LinkRefused) as refused:
        account_links.confirm(token, ana)
    assert refused.value.status == 400


def test_a_token_with_its_id_changed_is_refused(ana, here):
    _ask(here)
    value, rest = _token(mail.outbox[0]).split(":", 1)
    forged = signing.b64_encode(b'[2,"x"]').decode() + ":" + rest
    with pytest.raises(LinkRefused):
        account_links.confirm(forged, ana)
    assert value and _unchanged(here, ana)


def test_sent_again_only_the_newest_link_works(ana, here):
    _ask(here)
    old = _token(mail.outbox[0])
    assert account_links.send_again(here) is not None
    new = _token(mail.outbox[1])
    with pytest.raises(LinkRefused):
        account_links.confirm(old, ana)
    account_links.confirm(new, ana)
    here.refresh_from_db()
    assert here.user == ana


def test_a_second_request_while_one_waits_and_a_linked_member(ana, here):
    _ask(here)
    with pytest.raises(AlreadyAsked):
        _ask(here)
    assert len(mail.outbox) == 1 and AccountLink.objects.count() == 1
    account_links.confirm(_token(mail.outbox[0]), ana)
    with pytest.raises(AlreadyLinked):
        _ask(here)
    assert account_links.send_again(here) is None


def test_after_a_decline_the_secretary_may_ask_again(ana, here):
    _ask(here)
    account_links.decline(_token(mail.outbox[0]), ana)
    assert _ask(here).waiting is not None
    assert AccountLink.objects.filter(state=AccountLinkState.PENDING).count() == 1


def test_an_account_already_a_member_here_is_not_linked_twice(ana, here):
    _ask(here)
    Member.objects.create(first_name="Ana", last_name="Otra", user=ana)
    with pytest.raises(LinkRefused) as refused:
        account_links.confirm(_token(mail.outbox[0]), ana)
    assert refused.value.status == 409
    here.refresh_from_db()
    assert here.user_id is None


# --- the pages -------------------------------------------------------------------------------


def _page(token):
    return reverse("clubsite:account_link", args=[token])


def test_the_owner_signs_in_sees_the_club_and_confirms(ana, here, client):
    _ask(here)
    url = _page(_token(mail.outbox[0]))
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(ana)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Club de Bridge" in html and "Ana Alba" in html and "A-77" in html
    assert client.post(url, {"answer": "confirm"})["Location"] == reverse("clubsite:profile")
    here.refresh_from_db()
    assert here.user == ana and _roles(ana) == {Role.PLAYER}
    replay = client.post(url, {"answer": "confirm"})
    assert replay.status_code == 410
    assert "Este enlace ya se ha usado" in replay.content.decode()  # Spanish, the default


def test_the_owner_declines_and_the_secretary_sees_it(ana, here, client):
    _ask(here)
    url = _page(_token(mail.outbox[0]))
    client.force_login(ana)
    assert client.post(url, {"answer": "decline"})["Location"] == reverse("home")
    assert _unchanged(here, ana)
    secretary = sign_in_verified(type(client)(), make_user("sec", Role.SECRETARY))
    html = secretary.get(here.get_absolute_url()).content.decode()
    assert "rechazó" in html and reverse("clubsite:account_open", args=[here.pk]) in html


def test_an_answer_that_is_neither_changes_nothing(ana, here, client):
    _ask(here)
    url = _page(_token(mail.outbox[0]))
    client.force_login(ana)
    assert client.post(url, {"answer": "yes please"})["Location"] == url
    assert _unchanged(here, ana) and AccountLink.objects.get().state == AccountLinkState.PENDING


def test_another_account_signed_in_is_refused_clearly(ana, here, client):
    _ask(here)
    url = _page(_token(mail.outbox[0]))
    client.force_login(make_user("otro"))
    for response in (client.get(url), client.post(url, {"answer": "confirm"})):
        assert response.status_code == 403
        html = response.content.decode()
        assert "otra cuenta" in html and "Ana Alba" not in html
    assert _unchanged(here, ana)


def test_a_tampered_link_page(ana, here, client):
    _ask(here)
    client.force_login(ana)
    response = client.get(_page(_token(mail.outbox[0])[:-2] + "xx"))
    assert response.status_code == 400 and "no es válido" in response.content.decode()


def test_another_club_s_link_is_refused_at_this_club_s_address(ana, sur, client):
    user = User.objects.create_user("bea", email="bea@example.org")
    Member.objects.create(first_name="Bea", last_name="B", licence_number="B-1", user=user)
    with club_scope(sur):
        member = Member.objects.create(
            first_name="Bea", last_name="Beta", licence_number="B-1", email="bea@example.org"
        )
        _ask(member)
    url = _page(_token(mail.outbox[0]))
    client.force_login(user)
    refused = client.post(url, {"answer": "confirm"})
    assert refused.status_code == 404 and "Beta" not in refused.content.decode()
    assert client.get(url, HTTP_HOST=SUR_HOST).status_code == 200  # at Sur's own address
    assert client.post(url, {"answer": "confirm"}, HTTP_HOST=SUR_HOST).status_code == 302
    with club_scope(sur):
        member.refresh_from_db()
        assert member.user == user and _roles(user) == {Role.PLAYER}


def test_the_secretary_sees_the_wait_and_sends_the_mail_again(ana, here, secretary_client):
    response = secretary_client.post(reverse("clubsite:account_open", args=[here.pk]), follow=True)
    html = response.content.decode()
    assert "Esperando la confirmación del jugador" in html
    resend = reverse("clubsite:account_link_resend", args=[here.pk])
    assert f'action="{resend}"' in html
    assert f'action="{reverse("clubsite:account_open", args=[here.pk])}"' not in html
    assert _unchanged(here, ana)
    again = secretary_client.post(reverse("clubsite:account_open", args=[here.pk]), follow=True)
    assert any(m.level_tag == "error" for m in again.context["messages"])
    assert len(mail.outbox) == 1
    assert secretary_client.post(resend).status_code == 302
    assert len(mail.outbox) == 2 and _token(mail.outbox[0]) != _token(mail.outbox[1])


def test_a_player_cannot_send_the_mail_again(ana, here, player_client):
    _ask(here)
    resend = reverse("clubsite:account_link_resend", args=[here.pk])
    assert player_client.post(resend).status_code == 403
    assert len(mail.outbox) == 1

"""The director's results-mail page and the player's choices, through HTTP: the preview sends
nothing, the button sends once, bad or stale posts are answered by a clear message, the
waiting-list notice goes once, and a member's opt-out and language are theirs to set."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tournaments import demo
from tournaments.models import PlayerMail, ResultsMailing, Tournament
from tournaments.services.entries import online_entry
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def final(demo_club, monkeypatch, movements):
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("martes",))
    return Tournament.objects.get(status="final")


def mail_link_state(client, tournament):
    page = client.get(reverse("director:tournament", args=[tournament.pk])).content.decode()
    return page.split('id="results-mail-link" data-state="')[1].split('"')[0]


def test_the_director_previews_then_sends_once(
    final, director_client, django_capture_on_commit_callbacks
):
    assert mail_link_state(director_client, final) == "unsent"
    url = reverse("director:results_mail", args=[final.pk])
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and mail.outbox == []
    drafts = page.context["preview"].drafts
    assert drafts and b'id="send-mails"' in page.content
    version = page.context["preview"].version
    send = reverse("director:results_mail_send", args=[final.pk])
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_client.post(send, {"version": version})
    assert answer.status_code == 302 and len(mail.outbox) == len(drafts)
    with django_capture_on_commit_callbacks(execute=True):
        again = director_client.post(send, {"version": version}, follow=True)
    assert len(mail.outbox) == len(drafts) and ResultsMailing.objects.count() == 1
    assert "ya se enviaron" in again.content.decode()  # the refusal, in the club's language
    record = director_client.get(url)
    assert record.context["history"][0]["sent"] == len(drafts)
    assert mail_link_state(director_client, final) == "sent"
    from tournaments.models import Result
    from tournaments.services.running import corrections

    result = Result.objects.filter(section__session__tournament=final).order_by("pk").first()
    corrections.correct_result(
        result,
        user=None,
        contract="7NT",
        declarer="N",
        tricks=13,
        reason="Error de anotación",
        override=True,
    )
    assert mail_link_state(director_client, final) == "correction"


@pytest.mark.parametrize("version", ["", "1.9999", "x" * 500, "1\x00"])
def test_a_stale_or_garbled_version_sends_nothing_and_says_why(final, director_client, version):
    send = reverse("director:results_mail_send", args=[final.pk])
    answer = director_client.post(send, {"version": version}, follow=True)
    assert answer.status_code == 200 and mail.outbox == []
    assert not PlayerMail.objects.exists()
    assert "han cambiado desde esta vista previa" in answer.content.decode()


def test_provisional_results_are_not_offered_for_mail(final, director_client):
    final.status = "provisional"
    final.save(update_fields=["status"])
    page = director_client.get(reverse("director:results_mail", args=[final.pk]))
    assert page.status_code == 200 and b'id="mail-problem"' in page.content
    assert b'id="send-mails"' not in page.content


def test_a_player_opts_out_and_chooses_the_language_of_mails(db, client):
    user = make_user("socia", "Player")
    member = Member.objects.create(
        first_name="Ana", last_name="Sol", user=user, email="ana@example.org"
    )
    sign_in_verified(client, user)
    answer = client.post(
        reverse("clubsite:profile"),
        {"email": "ana@example.org", "phone": "", "language": "pt", "results_mail": ""},
    )
    assert answer.status_code == 302
    member.refresh_from_db()
    assert member.results_mail is False and member.language == "pt"
    bad = client.post(
        reverse("clubsite:profile"),
        {"email": "not-an-address", "phone": "", "language": "xx", "results_mail": "on"},
    )
    assert bad.status_code == 200 and bad.context["form"].errors.keys() == {"email", "language"}
    assert b"not-an-address" in bad.content
    member.refresh_from_db()
    assert member.results_mail is False and member.email == "ana@example.org"


def test_the_secretary_sees_the_opt_out(db, secretary_client):
    member = Member.objects.create(first_name="Ana", last_name="Sol", results_mail=False)
    page = secretary_client.get(member.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es")
    assert 'id="member-results-mail">no (se ha dado de baja)' in page.content.decode()


def test_players_moving_up_from_the_waiting_list_are_told_once(
    db, django_capture_on_commit_callbacks
):
    people = [
        Member.objects.create(
            first_name=f"N{i}",
            last_name=f"A{i}",
            email=f"p{i}@example.org" if i != 5 else "",
            language=["en", "pt", "", "es", "en", ""][i],
            user=make_user(f"w{i}", "Player"),
        )
        for i in range(6)
    ]
    now = timezone.make_aware(datetime.datetime(2026, 3, 2, 12, 0))
    tournament = setup.create_tournament(
        name="Torneo de primavera",
        date=datetime.date(2026, 3, 10),
        online_entry=True,
        max_tables=1,
        start_time=datetime.time(19, 0),
    )
    regs = [
        online_entry.enter(
            tournament,
            people[2 * i : 2 * i + 2],
            user=people[2 * i].user,
            now=now + datetime.timedelta(minutes=i),
        )
        for i in range(3)
    ]
    assert regs[2].status == "waiting" and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        online_entry.cancel(regs[0], user=people[0].user, now=now)
    assert [m.to for m in mail.outbox] == [["p4@example.org"]]  # people[5] has no address
    assert mail.outbox[0].subject.startswith("Club") and "place" in mail.outbox[0].subject
    with django_capture_on_commit_callbacks(execute=True):
        online_entry.fill_places(tournament)  # nobody else moves up: nothing more
    from tournaments.services.mail import waiting_mail

    with django_capture_on_commit_callbacks(execute=True):
        waiting_mail.promoted([regs[2]])  # told again by mistake: recorded once
    assert len(mail.outbox) == 1 and PlayerMail.objects.count() == 1

"""What leaves the site by mail, read off a real SMTP server (Django's SMTP backend over a
socket): a header injection typed into any field that reaches a mail (the club's name, a
tournament's, a member's names, an address) adds no recipient and no header, and the mail
still goes, with its subject on one line; a member who opted out of results by mail gets
neither the results nor the correction, while the mails that are not optional (a fee
reminder, a place from the waiting list) still reach them."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Club, Member
from tests.conftest import make_user
from tests.signed_in import sign_in_verified
from tests.support_smtp import start
from tournaments import demo
from tournaments.models import Result, Tournament
from tournaments.services.entries import online_entry
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db

EVIL = "evil@attacker.example"
INJECTED = f"\r\nBcc: {EVIL}\r\nX-Injected: yes"


@pytest.fixture
def final_tournament(demo_club, monkeypatch, movements):
    """The demo's published Tuesday pairs tournament, its players with addresses."""
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("martes",))
    return Tournament.objects.get(status="final")


@pytest.fixture
def smtp(settings):
    controller, sink, port = start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield sink
    controller.stop()


def assert_clean(sink, expected_to: set[str]) -> None:
    """Every message went to its one member, with no header or recipient smuggled in."""
    assert sink.received, "no mail left the site"
    for got in sink.received:
        assert EVIL not in " ".join(got.envelope_to)
        assert len(got.envelope_to) == 1 and got.envelope_to[0] in expected_to
        headers = {k.lower() for k in got.message.keys()}
        assert "bcc" not in headers and "x-injected" not in headers
        assert "\n" not in got.message["Subject"] and "\r" not in got.message["Subject"]
        assert got.message["To"] == got.envelope_to[0]


def send_results(client, tournament, captured):
    page = client.get(reverse("director:results_mail", args=[tournament.pk]))
    assert page.status_code == 200, (page.status_code, page.get("Location"))
    version = page.context["preview"].version
    with captured(execute=True):
        answer = client.post(
            reverse("director:results_mail_send", args=[tournament.pk]), {"version": version}
        )
    assert answer.status_code == 302
    return page.context["preview"].drafts


def test_injection_in_every_field_of_the_results_mail_is_harmless(
    final_tournament, smtp, director_client, secretary, django_capture_on_commit_callbacks
):
    secretary_client = sign_in_verified(Client(), secretary)
    # the club's name through its own settings form, as a hostile post would send it
    club = Club.current()
    form = {
        "name": "Club Sur" + INJECTED,
        "federation": club.federation,
        "federation_club_id": club.federation_club_id,
        "address": club.address,
        "season_start_month": club.season_start_month,
        "contact_email": club.contact_email,
        "contact_phone": club.contact_phone,
    }
    assert secretary_client.post(reverse("clubsite:club_settings"), form).status_code == 302
    final_tournament.name = "Martes" + INJECTED
    final_tournament.save(update_fields=["name"])
    members = list(
        Member.objects.exclude(email="")
        .filter(entry_seats__entry__tournament=final_tournament)
        .distinct()
    )
    for member in members:
        member.first_name += INJECTED
        member.save(update_fields=["first_name"])
    drafts = send_results(director_client, final_tournament, django_capture_on_commit_callbacks)
    addresses = {m.email for m in members}
    assert len(smtp.received) == len(drafts) > 0
    assert_clean(smtp, addresses)
    subject = smtp.received[0].message["Subject"]
    assert "Club Sur" in subject and "Martes" in subject  # the words kept, on one line


def test_an_address_with_a_header_in_it_is_refused_where_it_is_typed(secretary_client):
    member = Member.objects.create(first_name="Ana", last_name="Sol", email="ana@example.org")
    data = {
        "first_name": "Ana",
        "last_name": "Sol",
        "status": "active",
        "email": f"ana@example.org{INJECTED}",
    }
    answer = secretary_client.post(reverse("clubsite:member_edit", args=[member.pk]), data)
    assert answer.status_code == 200 and answer.context["form"].errors["email"]
    member.refresh_from_db()
    assert member.email == "ana@example.org"


def test_injection_in_a_new_account_mail_is_harmless(smtp, secretary_client):
    member = Member.objects.create(
        first_name="Rui" + INJECTED, last_name="Lima" + INJECTED, email="rui@example.org"
    )
    assert (
        secretary_client.post(reverse("clubsite:account_open", args=[member.pk])).status_code == 302
    )
    assert_clean(smtp, {"rui@example.org"})


def test_injection_in_a_waiting_list_notice_is_harmless(smtp, django_capture_on_commit_callbacks):
    club = Club.current()
    club.name = "Club" + INJECTED
    club.save()
    people = [
        Member.objects.create(
            first_name=f"N{i}" + INJECTED,
            last_name=f"A{i}",
            email=f"p{i}@example.org",
            results_mail=False,
            user=make_user(f"w{i}", "Player"),
        )
        for i in range(6)
    ]
    now = timezone.make_aware(datetime.datetime(2026, 3, 2, 12, 0))
    tournament = setup.create_tournament(
        name="Primavera" + INJECTED,
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
    with django_capture_on_commit_callbacks(execute=True):
        online_entry.cancel(regs[0], user=people[0].user, now=now)
    # not an optional mail: those who opted out of results still hear they have a place
    assert_clean(smtp, {"p4@example.org", "p5@example.org"})
    assert {r.envelope_to[0] for r in smtp.received} == {"p4@example.org", "p5@example.org"}


def test_a_member_who_opted_out_gets_no_results_and_no_correction(
    final_tournament, smtp, director_client, django_capture_on_commit_callbacks
):
    client = Client()
    players = list(
        Member.objects.exclude(email="")
        .filter(entry_seats__entry__tournament=final_tournament)
        .distinct()
        .order_by("pk")
    )
    quiet = players[0]
    quiet.user = make_user("quiet", "Player")
    quiet.save(update_fields=["user"])
    client.force_login(quiet.user)
    page = client.get(reverse("clubsite:profile"))
    data = {**page.context["form"].initial, "results_mail": ""}
    data = {k: ("" if v is None else v) for k, v in data.items() if k != "results_mail"}
    assert client.post(reverse("clubsite:profile"), data).status_code == 302  # unticked
    quiet.refresh_from_db()
    assert not quiet.results_mail

    send_results(director_client, final_tournament, django_capture_on_commit_callbacks)
    sent_to = {r.envelope_to[0] for r in smtp.received}
    assert quiet.email not in sent_to
    assert {p.email for p in players[1:]} <= sent_to  # the others did get theirs

    # a correction that changes the quiet member's own line: still nothing for them
    seat = quiet.entry_seats.filter(entry__tournament=final_tournament).first()
    lines = Result.objects.filter(section__session__tournament=final_tournament)
    result = (lines.filter(ns=seat.entry) | lines.filter(ew=seat.entry)).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        corrections.correct_result(
            result,
            user=None,
            contract="7NT",
            declarer="N",
            tricks=13,
            reason="Error de anotación",
            override=True,
        )
    before = len(smtp.received)
    drafts = send_results(director_client, final_tournament, django_capture_on_commit_callbacks)
    assert drafts and len(smtp.received) - before == len(drafts)
    assert quiet.email not in {r.envelope_to[0] for r in smtp.received[before:]}

"""Players moving up from the waiting list are told once by mail; from an empty club, apart
from the demo's rows of test_results_mail_views.py."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from clubsite.models import Member
from tests.conftest import make_user
from tournaments.models import PlayerMail
from tournaments.services.entries import online_entry
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


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

"""The director's list counts entries as the entries pages do: the entries playing, the
online entries holding a place, and the waiting list apart (issue #35, finding 3: an event
with 6 entries and 2 waiting read "0")."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member
from tournaments.models import Tournament
from tournaments.services.entries import online_entry, registration
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db

NOW = timezone.make_aware(datetime.datetime(2026, 3, 2, 12, 0))


def _members(first, count):
    return [
        Member.objects.create(
            first_name=f"Nombre{i:02d}",
            last_name=f"Apellido{i:02d}",
            licence_number=f"R-{i:03d}",
            user=User.objects.create(username=f"online-{i}"),
        )
        for i in range(first, first + count)
    ]


@pytest.fixture
def six_and_two_waiting(db):
    people = _members(0, 16)
    tournament = setup.create_tournament(
        name="Torneo de primavera",
        date=datetime.date(2026, 3, 10),
        online_entry=True,
        max_tables=3,
        start_time=datetime.time(19, 0),
    )
    for i in range(0, 16, 2):  # 8 pairs for 3 tables: 6 placed, 2 waiting
        online_entry.enter(
            tournament,
            people[i : i + 2],
            user=people[i].user,
            now=NOW + datetime.timedelta(minutes=i),
        )
    return tournament


def _row(client, tournament) -> str:
    html = client.get(reverse("director:index")).content.decode()
    link = reverse("director:tournament", args=[tournament.pk])
    return html.split(f'href="{link}"')[1].split("</tr>")[0]


def test_online_entries_and_waiting_list_counted(director_client, six_and_two_waiting):
    places = online_entry.places(six_and_two_waiting)
    assert (places.entered, places.waiting) == (6, 2)
    row = _row(director_client, six_and_two_waiting)
    assert (
        '<td class="num hide-phone entry-count">6 <span class="muted">(+2 en espera)</span>' in row
    )


def test_seated_online_entries_are_not_counted_twice(
    director_client, six_and_two_waiting, director
):
    online_entry.take_into_session(six_and_two_waiting)
    other = _members(16, 2)
    registration.register_entry(six_and_two_waiting, other)  # one more at the door
    annotated = online_entry.with_entry_counts(
        Tournament.objects.filter(pk=six_and_two_waiting.pk)
    ).get()
    assert (annotated.entry_count, annotated.waiting_count) == (7, 2)
    assert "7 <span" in _row(director_client, six_and_two_waiting)


def test_the_list_is_one_query_however_many_tournaments(director_client, six_and_two_waiting):
    for day in range(5):
        setup.create_tournament(name=f"Lunes {day}", date=datetime.date(2026, 4, day + 1))
    director_client.get(reverse("director:index"))
    with CaptureQueriesContext(connection) as few:
        director_client.get(reverse("director:index"))
    for day in range(5):
        setup.create_tournament(name=f"Martes {day}", date=datetime.date(2026, 5, day + 1))
    with CaptureQueriesContext(connection) as more:
        director_client.get(reverse("director:index"))
    assert len(more) == len(few)

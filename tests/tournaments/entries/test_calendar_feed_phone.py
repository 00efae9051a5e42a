"""Issue #35, the iCalendar feed: a ``webcal://`` subscribe button (and a plain download),
UIDs that do not depend on the host name the feed was fetched by, and a VTIMEZONE for just
the span of the events instead of every summer-time change from 1970 to 2037."""

import datetime

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.models import ScoringMethod
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def _event(name, days):
    return setup.create_tournament(
        name=name,
        date=TODAY + datetime.timedelta(days),
        start_time=datetime.time(18, 30),
        scoring_method=ScoringMethod.MATCHPOINTS,
    )


def test_the_subscribe_button_is_webcal_beside_a_plain_download(client, settings):
    settings.ALLOWED_HOSTS = ["club.example"]
    html = client.get(reverse("calendar:index"), HTTP_HOST="club.example").content.decode()
    feed = reverse("calendar:feed")
    assert f'id="calendar-feed" href="webcal://club.example{feed}"' in html
    assert f'id="calendar-download" href="{feed}"' in html


def test_uids_are_the_same_whatever_the_host(client, settings):
    settings.ALLOWED_HOSTS = ["*"]
    tournament = _event("Martes", 5)

    def uids(host):
        body = client.get(reverse("calendar:feed"), HTTP_HOST=host).content
        return {str(e["uid"]) for e in icalendar.Calendar.from_ical(body).walk("VEVENT")}

    assert uids("club.example") == uids("10.0.0.7:8000") == {f"tournament-{tournament.pk}@clubsite"}


def test_the_time_zone_block_covers_only_the_events(client, settings):
    settings.TIME_ZONE = "Europe/Madrid"
    _event("Martes", 5)
    _event("Jueves", 40)
    body = client.get(reverse("calendar:feed")).content
    zone = icalendar.Calendar.from_ical(body).walk("VTIMEZONE")
    assert len(zone) == 1 and str(zone[0]["tzid"]) == "Europe/Madrid"
    rules = zone[0].walk("STANDARD") + zone[0].walk("DAYLIGHT")
    assert 1 <= len(rules) <= 3, len(rules)  # was one per change, 1970 to 2037
    assert b"DTSTART:1970" not in body and b"DTSTART:2037" not in body

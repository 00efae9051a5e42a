"""The club's calendar: which tournaments it lists, its filters, and the iCalendar feed.

The feed is made with the ``icalendar`` package (RFC 5545): it folds long lines, escapes
commas, semicolons, backslashes and new lines in the club's own text, and writes the
VTIMEZONE of the club's zone (only the span of the feed's events: the library's default,
1970-2037, repeated every summer-time change), which hand-written lines would each have to
get right. Each event's UID is the tournament's primary key (``tournament-<pk>@clubsite``),
the same whichever host name the feed was fetched by, so a phone that subscribed updates the
event (a new date, a new name) instead of adding a second one.
"""

import datetime
import re
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import EventType, Registration, Tournament
from tournaments.models.registrations import LIVE_STATUSES, RegistrationStatus
from tournaments.services.entries import online_entry

MONTH = re.compile(r"^(\d{4})-(\d{2})$")
WHEN = ("upcoming", "past", "all")
# One event of the feed when the conditions give no end: an evening's session.
SESSION_HOURS = 4
FEED_PAST_DAYS = 366


@dataclass(frozen=True)
class Filters:
    """The calendar's filters, read from the query string; anything else means "all"."""

    when: str = "upcoming"
    month: tuple[int, int] | None = None
    kind: str = ""

    @classmethod
    def from_query(cls, query) -> "Filters":
        when = query.get("when") if query.get("when") in WHEN else "upcoming"
        month = None
        found = MONTH.match((query.get("month") or "").strip())
        if found and 1 <= int(found[2]) <= 12 and 1900 < int(found[1]) < 3000:
            month = (int(found[1]), int(found[2]))
            when = query.get("when") if query.get("when") in WHEN else "all"
        kind = query.get("kind") if query.get("kind") in EventType.values else ""
        return cls(when=when, month=month, kind=kind)

    @property
    def month_value(self) -> str:
        return f"{self.month[0]:04d}-{self.month[1]:02d}" if self.month else ""


def listed() -> QuerySet:
    """Tournaments the calendar shows, with their entry figures."""
    return Tournament.objects.filter(in_calendar=True).annotate(
        placed_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.ENTERED)
        ),
        waiting_count=Count(
            "registrations", filter=Q(registrations__status=RegistrationStatus.WAITING)
        ),
    )


def events(filters: Filters, today: datetime.date | None = None) -> QuerySet:
    """The calendar's tournaments: upcoming soonest first, past newest first."""
    today = today or timezone.localdate()
    queryset = listed()
    if filters.kind:
        queryset = queryset.filter(event_type=filters.kind)
    if filters.month:
        queryset = queryset.filter(date__year=filters.month[0], date__month=filters.month[1])
    if filters.when == "upcoming":
        return queryset.filter(date__gte=today).order_by("date", "start_time", "name")
    if filters.when == "past":
        return queryset.filter(date__lt=today).order_by("-date", "name")
    return queryset.order_by("date", "start_time", "name")


def months() -> list[datetime.date]:
    """The months that have a listed tournament, for the month filter."""
    return sorted(
        {
            d.replace(day=1)
            for d in Tournament.objects.filter(in_calendar=True).values_list("date", flat=True)
        }
    )


def event(slug: str) -> Tournament | None:
    return listed().filter(slug=slug).first()


def entry_names_for(tournament: Tournament) -> dict:
    """The event page's lists: placed entries and the waiting list in their order."""
    live = list(
        Registration.objects.filter(tournament=tournament, status__in=LIVE_STATUSES).order_by(
            "queued_at", "id"
        )
    )
    return {
        "placed": [r for r in live if r.status == RegistrationStatus.ENTERED],
        "waiting": [r for r in live if r.status == RegistrationStatus.WAITING],
    }


# --- the iCalendar feed ---------------------------------------------------------------------


UID_DOMAIN = "clubsite"


def feed(tournaments, *, calendar_name: str, link) -> bytes:
    """The tournaments as an RFC 5545 calendar; ``link(tournament)`` is the event page's
    absolute URL. Times are in the club's zone (``TIME_ZONE``), a tournament without a start
    time is an all-day event."""
    import icalendar

    zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    cal = icalendar.Calendar()
    cal.add("prodid", "-//clubsite//calendar//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", calendar_name)
    cal.add("x-wr-timezone", settings.TIME_ZONE)
    stamp = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
    dates = []
    for tournament in tournaments:
        dates.append(tournament.date)
        item = icalendar.Event()
        item.add("uid", f"tournament-{tournament.pk}@{UID_DOMAIN}")
        item.add("dtstamp", stamp)
        item.add("summary", tournament.name)
        if tournament.start_time is None:
            item.add("dtstart", tournament.date)
            item.add("dtend", tournament.date + datetime.timedelta(days=1))
        else:
            start = datetime.datetime.combine(tournament.date, tournament.start_time, tzinfo=zone)
            item.add("dtstart", start)
            item.add(
                "dtend",
                start + datetime.timedelta(hours=SESSION_HOURS * max(1, tournament.session_count)),
            )
        if tournament.venue:
            item.add("location", tournament.venue)
        url = link(tournament)
        item.add("url", url)
        item.add("description", _describe(tournament, url))
        cal.add_component(item)
    if dates:  # the zone's rules only around the events, not every year since 1970
        cal.add_missing_timezones(
            first_date=min(dates) - datetime.timedelta(days=1),
            last_date=max(dates) + datetime.timedelta(days=2),
        )
    return cal.to_ical()


def _describe(tournament: Tournament, url: str) -> str:
    lines = [f"{tournament.get_event_type_display()} · {tournament.get_scoring_method_display()}"]
    if online_entry.entry_state(tournament) == online_entry.EntryState.OPEN:
        lines.append(
            _("Online entry open until %(when)s.")
            % {
                "when": timezone.localtime(online_entry.closes_at(tournament)).strftime(
                    "%Y-%m-%d %H:%M"
                )
            }
        )
    lines.append(url)
    return "\n".join(lines)


def feed_tournaments(today: datetime.date | None = None) -> QuerySet:
    """The feed's tournaments: the past year's and every upcoming one."""
    today = today or timezone.localdate()
    return Tournament.objects.filter(
        in_calendar=True, date__gte=today - datetime.timedelta(days=FEED_PAST_DAYS)
    ).order_by("date", "start_time", "name")

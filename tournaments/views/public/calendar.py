"""The club's public calendar: the list (upcoming or past, by month and kind), one
tournament's page (when, where, entry, who has entered) and the iCalendar feed phones
subscribe to. Anyone may read them; entering needs an account (``views.registrations``)."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clubsite.accounts.permissions import Role, has_role, public
from clubsite.models import Club
from tournaments.models import EventType
from tournaments.services.entries import calendar, online_entry
from tournaments.services.entries.online_entry import EntryState
from tournaments.services.results import pages as results


@public
def index(request):
    filters = calendar.Filters.from_query(request.GET)
    return render(
        request,
        "tournaments/calendar/index.html",
        {
            "filters": filters,
            "events": calendar.events(filters)[:200],
            "months": calendar.months(),
            "kinds": EventType.choices,
            "subscribe_url": subscribe_url(request),
        },
    )


def subscribe_url(request) -> str:
    """The feed as ``webcal://``: a phone offers to subscribe (and refresh) instead of
    importing a one-off copy, as it does with the plain https link beside it."""
    absolute = request.build_absolute_uri(reverse("calendar:feed"))
    return "webcal://" + absolute.split("://", 1)[1]


def event_context(request, tournament) -> dict:
    """What the tournament's page shows; the entry views render it again with their form."""
    me = online_entry.member_of(request.user)
    signed_in = request.user.is_authenticated
    return {
        "tournament": tournament,
        "state": online_entry.entry_state(tournament),
        "states": EntryState,
        "closes_at": online_entry.closes_at(tournament),
        "places": online_entry.places(tournament),
        # Names of who plays are for the club's users; visitors see the figures.
        "lists": calendar.entry_names_for(tournament) if signed_in else None,
        "partners": list(online_entry.open_partner_requests(tournament)) if signed_in else None,
        "me": me,
        "mine": online_entry.registration_of(tournament, me),
        "my_request": next(
            (
                p
                for p in online_entry.open_partner_requests(tournament)
                if me is not None and p.member_id == me.pk
            ),
            None,
        ),
        "is_director": has_role(request.user, Role.DIRECTOR),
        "results_visible": results.visible_tournament(request.user, tournament.slug) is not None,
    }


@public
def event(request, slug):
    tournament = calendar.event(slug)
    if tournament is None:
        raise Http404
    return render(request, "tournaments/calendar/event.html", event_context(request, tournament))


@public
def feed(request):
    """The calendar as text/calendar (RFC 5545), for a phone's "subscribe to calendar"."""
    body = calendar.feed(
        calendar.feed_tournaments(),
        calendar_name=Club.current().name,
        link=lambda t: request.build_absolute_uri(reverse("calendar:event", args=[t.slug])),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    return response

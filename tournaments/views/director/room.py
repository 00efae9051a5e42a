"""The director's side of the room screen: its secret link (copy it, open it, renew it), the
round clock (minutes, start, pause, resume), the rounds the ranking hides and whether
players follow the ranking on their phones during play. The screen itself is
``views.public.room``; the rules are ``services.running.room_clock`` and ``room_screen``."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from clubsite.models import Club
from tournaments.forms.room import ClockForm, SettingsForm
from tournaments.models import RoomScreen
from tournaments.services.errors import TournamentError
from tournaments.services.results import running_ranking
from tournaments.services.running import room_clock, room_round, room_screen
from tournaments.views.director.common import get_session


def _link(request, room) -> str:
    """The screen's address as a TV would open it (the site's public one when known). It names
    no language: the screen shows the one saved here, and a TV follows a change on its next
    poll (a TV keeps no cookie of the language switcher)."""
    if room.pk is None:
        return ""
    path = reverse("results:room", args=[room.token])
    base = Club.for_pages().site_url
    return base + path if base else request.build_absolute_uri(path)


def _next_round(room, state) -> int:
    """The round the start button offers: the one after the clock's, else the room's."""
    if room.clock_round:
        return min(room.clock_round + 1, max(state.rounds, 1))
    return max(state.round, 1)


@director_required
def room(request, pk):
    session = get_session(pk)
    room = RoomScreen.for_session(session)
    now = timezone.now()
    state = room_round.room_round(session, room)
    clock = room_clock.Clock.of(room)
    hidden, through = running_ranking.hidden_through(session, room)
    left = clock.remaining(now)
    language = room.language or settings.LANGUAGE_CODE  # the one saved here, else the club's
    return render(
        request,
        "tournaments/director/room.html",
        {
            "session": session,
            "tournament": session.tournament,
            "room": room,
            "link": _link(request, room),
            "screen_language": language,
            "languages": settings.LANGUAGES,
            "state": state,
            "clock": clock,
            "clock_state": clock.state(now),
            "left": None if left is None else int(left.total_seconds()),
            "left_text": room_screen.clock_text(left),
            "through": through,
            "hides_rounds": running_ranking.hides_rounds(session),
            "clock_form": ClockForm(
                initial={
                    "minutes": room.round_minutes or room_clock.suggested_minutes(session),
                    "round": _next_round(room, state),
                }
            ),
            "settings_form": SettingsForm(
                initial={
                    "hidden_rounds": room.hidden_rounds,
                    "live_ranking": session.tournament.live_ranking,
                }
            ),
        },
    )


@director_required
@require_POST
def room_clock_change(request, pk):
    """Set the minutes, start a round's clock, pause or resume it."""
    session = get_session(pk)
    form = ClockForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect("director:room", session.pk)
    data = form.cleaned_data
    try:
        if data["action"] == "start":
            room_clock.start_round(session, data["round"], minutes=data.get("minutes"))
            messages.success(
                request, _("Round %(round)s started on the clock.") % {"round": data["round"]}
            )
        elif data["action"] == "pause":
            room_clock.pause(session)
            messages.success(request, _("Clock paused."))
        elif data["action"] == "resume":
            room_clock.resume(session)
            messages.success(request, _("Clock resumed."))
        else:
            room_clock.set_minutes(session, data["minutes"])
            messages.success(request, _("Minutes per round saved: they count from the next round."))
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("director:room", session.pk)


@director_required
@require_POST
def room_settings(request, pk):
    """Make (or renew) the screen's link, choose its language, hide rounds, let players follow
    the ranking."""
    session = get_session(pk)
    form = SettingsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect("director:room", session.pk)
    data = form.cleaned_data
    try:
        if data["action"] == "link":
            room_screen.make_link(session)
            messages.success(
                request, _("A new link for the room screen: the old one no longer works.")
            )
        elif data["action"] == "hidden":
            room_screen.set_hidden_rounds(session, data.get("hidden_rounds") or 0)
            messages.success(request, _("The ranking's hidden rounds are saved."))
        elif data["action"] == "language":
            room_screen.set_language(session, data.get("language") or "")
            messages.success(request, _("The screen's language is saved: a TV showing it follows."))
        else:
            room_screen.set_live_ranking(session.tournament, data["live_ranking"])
            messages.success(
                request,
                _("Players now follow the ranking during play.")
                if data["live_ranking"]
                else _("Players no longer see the ranking during play."),
            )
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("director:room", session.pk)

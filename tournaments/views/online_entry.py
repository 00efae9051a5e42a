"""Online entry from the calendar: a member enters with a partner or a team, cancels, or
asks for a partner; the director's entry list (add anyone, guests included, cancel, and take
the entries into the session). Every rule is in ``services.online_entry``; a refusal comes
back as its translated message on the page the person was on."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.permissions import director_required, login_required

from ..forms.online_entry import EntryForm, PartnerWantedForm, entry_members
from ..models import EventType, PartnerRequest, Registration, RegistrationStatus
from ..services import calendar, online_entry
from ..services.errors import NotAllowed, TournamentError
from ..services.registration import add_guest
from .calendar import event_context
from .director_common import get_tournament


def _event_or_404(slug):
    tournament = calendar.event(slug)
    if tournament is None:
        raise Http404
    return tournament


def _posted(request):
    """The form's data on a POST, even an empty one (an empty form is an error, not a page)."""
    return request.POST if request.method == "POST" else None


def _moved_up(request, promoted) -> None:
    for registration in promoted:
        messages.info(request, _("%(names)s moved up from the waiting list.")
                      % {"names": registration.name or registration.display_name})


def _entered_message(request, registration) -> None:
    if registration.status == RegistrationStatus.WAITING:
        messages.warning(request, _("The tournament is full: you are number %(n)s on the "
                                    "waiting list, and move up when an entry cancels.")
                         % {"n": _waiting_number(registration)})
    else:
        messages.success(request, _("Entered: see you at the table."))


def _waiting_number(registration) -> int:
    queue = list(online_entry.waiting(registration.tournament).values_list("pk", flat=True))
    return queue.index(registration.pk) + 1 if registration.pk in queue else 0


@login_required
def enter(request, slug):
    """The member's entry: they are the first player; a partner or team-mates are chosen."""
    tournament = _event_or_404(slug)
    me = online_entry.member_of(request.user)
    form = EntryForm(_posted(request), tournament=tournament, me=me,
                     members=entry_members(tournament, director=False)
                     .exclude(pk=getattr(me, "pk", None)))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                registration = online_entry.enter(
                    tournament, [me, *form.chosen()] if me else form.chosen(),
                    user=request.user, name=form.cleaned_data.get("name", ""))
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                _entered_message(request, registration)
                return redirect("calendar:event", tournament.slug)
        status = 400
    return render(request, "tournaments/calendar/enter.html", {
        **event_context(request, tournament), "form": form,
        "teams": tournament.event_type == EventType.TEAMS,
    }, status=status)


@login_required
@require_POST
def cancel(request, pk):
    """A member cancels an entry they are in (before the closing time)."""
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    tournament = registration.tournament
    try:
        online_entry.cancel(registration, user=request.user)
    except NotAllowed as exc:
        messages.error(request, str(exc))
        return render(request, "tournaments/calendar/event.html",
                      event_context(request, tournament), status=403)
    except TournamentError as exc:
        messages.error(request, str(exc.message))
        return render(request, "tournaments/calendar/event.html",
                      event_context(request, tournament), status=400)
    messages.success(request, _("Your entry is cancelled."))
    return redirect("calendar:event", tournament.slug)


@login_required
def partner_wanted(request, slug):
    """Put oneself on the "partner wanted" list (GET: the form)."""
    tournament = _event_or_404(slug)
    form = PartnerWantedForm(_posted(request))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                online_entry.ask_for_partner(tournament, user=request.user,
                                              note=form.cleaned_data["note"])
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                messages.success(request, _("You are on the list of players looking for a "
                                            "partner."))
                return redirect("calendar:event", tournament.slug)
        status = 400
    return render(request, "tournaments/calendar/partner.html", {
        **event_context(request, tournament), "form": form}, status=status)


@login_required
@require_POST
def partner_withdraw(request, pk):
    partner_request = get_object_or_404(PartnerRequest.objects.select_related("tournament"),
                                        pk=pk)
    try:
        online_entry.withdraw_partner_request(partner_request, user=request.user)
    except NotAllowed as exc:
        messages.error(request, str(exc))
        return render(request, "tournaments/calendar/event.html",
                      event_context(request, partner_request.tournament), status=403)
    messages.success(request, _("You are off the list of players looking for a partner."))
    return redirect("calendar:event", partner_request.tournament.slug)


# --- the director ---------------------------------------------------------------------------


@director_required
def director_list(request, pk):
    """The entry list: placed, waiting (in order), cancelled, partners wanted; the director
    enters anyone (guests too, at any time) and takes the entries into the session."""
    tournament = get_tournament(pk)
    form = EntryForm(_posted(request), tournament=tournament, director=True,
                     members=entry_members(tournament, director=True))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                members = form.chosen()
                guest = form.guest()
                if guest is not None:
                    members.append(add_guest(**guest))
                registration = online_entry.enter(
                    tournament, members, user=request.user, by_director=True,
                    name=form.cleaned_data.get("name", ""))
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                if registration.status == RegistrationStatus.WAITING:
                    messages.warning(request, _("The tournament is full: the entry is on the "
                                                "waiting list."))
                else:
                    messages.success(request, _("Entry added."))
                return redirect("director:registrations", tournament.pk)
        status = 400
    everyone = Registration.objects.filter(tournament=tournament).order_by("queued_at", "id")
    return render(request, "tournaments/director/registrations.html", {
        "tournament": tournament, "form": form,
        "placed": [r for r in everyone if r.status == RegistrationStatus.ENTERED],
        "waiting": [r for r in everyone if r.status == RegistrationStatus.WAITING],
        "cancelled": [r for r in everyone if r.status == RegistrationStatus.CANCELLED],
        "partners": online_entry.open_partner_requests(tournament),
        "places": online_entry.places(tournament),
        "state": online_entry.entry_state(tournament),
        "closes_at": online_entry.closes_at(tournament),
        "to_take": sum(1 for r in everyone
                       if r.status == RegistrationStatus.ENTERED and r.entry_id is None),
    }, status=status)


@director_required
@require_POST
def director_cancel(request, pk):
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    try:
        promoted = online_entry.cancel(registration, user=request.user, by_director=True)
    except TournamentError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("Entry cancelled."))
        _moved_up(request, promoted)
    return redirect("director:registrations", registration.tournament_id)


@director_required
@require_POST
def take_into_session(request, pk):
    """The placed entries become the tournament's entries; then the movement page, whose
    advice counts them (teams: the teams page)."""
    tournament = get_tournament(pk)
    try:
        entries, section = online_entry.take_into_session(tournament)
    except TournamentError as exc:
        messages.error(request, str(exc.message))
        return redirect("director:registrations", tournament.pk)
    messages.success(request, _("%(count)s online entries taken into the tournament: choose "
                                "the movement.") % {"count": len(entries)})
    if tournament.event_type == EventType.TEAMS:
        return redirect("director:teams", tournament.pk)
    if section is None:
        return redirect("director:tournament", tournament.pk)
    return redirect("director:movement", section.pk)

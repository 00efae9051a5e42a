"""Online entry from the calendar: a member enters with a partner or a team, cancels, or
asks for a partner; the director's entry list (add anyone, guests included, cancel, and take
the entries into the session). Every rule is in ``services.online_entry``; a refusal comes
back as its translated message on the page the person was on."""

import re

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required, login_required
from tournaments.forms.online_entry import EntryForm, PartnerWantedForm, entry_members
from tournaments.models import EventType, PartnerRequest, Registration, RegistrationStatus
from tournaments.services.entries import calendar, online_entry
from tournaments.services.entries.registration import PLAYERS_PER_ENTRY, add_guest
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.views.director.common import get_tournament
from tournaments.views.public.calendar import event_context


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
        messages.info(
            request,
            _("%(names)s moved up from the waiting list.")
            % {"names": registration.name or registration.display_name},
        )


def _entered_message(request, registration) -> None:
    if registration.status == RegistrationStatus.WAITING:
        messages.warning(
            request,
            _(
                "The tournament is full: you are number %(n)s on the "
                "waiting list, and move up when an entry cancels."
            )
            % {"n": _waiting_number(registration)},
        )
    else:
        messages.success(request, _("Entered: see you at the table."))


def _waiting_number(registration) -> int:
    queue = list(online_entry.waiting(registration.tournament).values_list("pk", flat=True))
    return queue.index(registration.pk) + 1 if registration.pk in queue else 0


_PLAYER_FIELD = re.compile(r"player[2-6]")


def _member_id(value) -> int | None:
    """A member's id as a form sent it; None for anything else (a number no database column
    holds included)."""
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk < 2**63 else None


def _chosen_ids(data, fields, *, but: str = "") -> set[int]:
    """The members already chosen in the form's places (but ``but``), from its hidden ids."""
    ids = {_member_id(data.get(name)) for name in fields if name != but}
    return {pk for pk in ids if pk is not None}


def _slots(form, data, tournament, me, *, searching: bool) -> list[dict]:
    """Each place to fill: its hidden id, the member chosen, what was typed and, after a
    search, the members found (the page without JavaScript shows them)."""
    names = [field.name for field in form.player_fields()]
    values = {name: form[name].value() for name in names}
    chosen_ids = {_member_id(v) for v in values.values()} - {None}
    chosen = (
        {m.pk: m for m in form.fields[names[0]].queryset.filter(pk__in=chosen_ids)} if names else {}
    )
    slots = []
    for name in names:
        query = (data.get(f"{name}_q") or "")[:100] if data else ""
        results = (
            online_entry.find_partners(
                tournament, me, query, exclude=_chosen_ids(values, names, but=name)
            )
            if searching and query.strip()
            else []
        )
        slots.append(
            {
                "name": name,
                "field": form[name],
                "chosen": chosen.get(_member_id(values[name])),
                "query": query,
                "results": results,
                "searched": searching and bool(query.strip()),
            }
        )
    return slots


def _picked(data, names) -> dict | None:
    """The page without JavaScript: a "pick" button names a place and a member (an empty
    place: the first one still free; an empty member: clear the place)."""
    raw = data.get("pick")
    if raw is None or ":" not in raw:
        return None
    name, _sep, pk = raw.partition(":")
    if not name:
        name = next((n for n in names if not data.get(n)), names[0] if names else "")
    if name not in names:
        return None
    member = _member_id(pk)
    return {name: "" if member is None else str(member), f"{name}_q": ""}


@login_required
def enter(request, slug):
    """The member's entry: they are the first player; a partner or team-mates are found by
    name (as they type, or with the search button without JavaScript) or taken from the
    "partner wanted" list."""
    tournament = _event_or_404(slug)
    me = online_entry.member_of(request.user)
    candidates = online_entry.partner_candidates(tournament, me)
    data = _posted(request)
    searching = False
    if data is not None and (data.get("action") == "search" or "pick" in data):
        # a search or a pick without JavaScript: the same page again, nothing entered yet
        data = data.copy()
        high = PLAYERS_PER_ENTRY[tournament.event_type][1]
        picked = _picked(data, [f"player{i}" for i in range(2, high + 1)])
        if picked:
            data.update(picked)
        searching = True
    form = EntryForm(
        None if searching else data,
        initial=data if searching else None,
        tournament=tournament,
        me=me,
        members=candidates,
    )
    status = 200
    if request.method == "POST" and not searching:
        if form.is_valid():
            try:
                registration = online_entry.enter(
                    tournament,
                    [me, *form.chosen()] if me else form.chosen(),
                    user=request.user,
                    name=form.cleaned_data.get("name", ""),
                )
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                _entered_message(request, registration)
                return redirect("calendar:event", tournament.slug)
        status = 400
    slots = _slots(form, data, tournament, me, searching=searching)
    chosen = {slot["chosen"].pk for slot in slots if slot["chosen"]}
    return render(
        request,
        "tournaments/calendar/enter.html",
        {
            **event_context(request, tournament),
            "form": form,
            "slots": slots,
            "teams": tournament.event_type == EventType.TEAMS,
            "wanted": [
                p for p in online_entry.partners_wanted(tournament, me) if p.member_id not in chosen
            ]
            if slots
            else [],
        },
        status=status,
    )


@login_required
def partner_search(request, slug):
    """Search as you type for a partner or team-mate (an htmx fragment): up to ten members
    who may still enter, by name, accents and case ignored; only their names. For accounts
    of a member: others are refused."""
    tournament = _event_or_404(slug)
    me = online_entry.member_of(request.user)
    if me is None:
        raise PermissionDenied
    name = request.GET.get("field", "")
    if not _PLAYER_FIELD.fullmatch(name):
        name = "player2"
    query = (request.GET.get("q") or request.GET.get(f"{name}_q") or "")[:100]
    names = [f"player{i}" for i in range(2, 7)]
    results = online_entry.find_partners(
        tournament, me, query, exclude=_chosen_ids(request.GET, names, but=name)
    )
    return render(
        request,
        "tournaments/calendar/_partner_matches.html",
        {
            "slot": {
                "name": name,
                "query": query,
                "results": results,
                "searched": bool(query.strip()),
            }
        },
    )


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
        return render(
            request,
            "tournaments/calendar/event.html",
            event_context(request, tournament),
            status=403,
        )
    except TournamentError as exc:
        messages.error(request, str(exc.message))
        return render(
            request,
            "tournaments/calendar/event.html",
            event_context(request, tournament),
            status=400,
        )
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
                online_entry.ask_for_partner(
                    tournament, user=request.user, note=form.cleaned_data["note"]
                )
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                messages.success(
                    request, _("You are on the list of players looking for a partner.")
                )
                return redirect("calendar:event", tournament.slug)
        status = 400
    return render(
        request,
        "tournaments/calendar/partner.html",
        {**event_context(request, tournament), "form": form},
        status=status,
    )


@login_required
@require_POST
def partner_withdraw(request, pk):
    partner_request = get_object_or_404(PartnerRequest.objects.select_related("tournament"), pk=pk)
    try:
        online_entry.withdraw_partner_request(partner_request, user=request.user)
    except NotAllowed as exc:
        messages.error(request, str(exc))
        return render(
            request,
            "tournaments/calendar/event.html",
            event_context(request, partner_request.tournament),
            status=403,
        )
    messages.success(request, _("You are off the list of players looking for a partner."))
    return redirect("calendar:event", partner_request.tournament.slug)


# --- the director ---------------------------------------------------------------------------


@director_required
def director_list(request, pk):
    """The entry list: placed, waiting (in order), cancelled, partners wanted; the director
    enters anyone (guests too, at any time) and takes the entries into the session."""
    tournament = get_tournament(pk)
    form = EntryForm(
        _posted(request),
        tournament=tournament,
        director=True,
        members=entry_members(tournament, director=True),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                members = form.chosen()
                guest = form.guest()
                if guest is not None:
                    members.append(add_guest(**guest))
                registration = online_entry.enter(
                    tournament,
                    members,
                    user=request.user,
                    by_director=True,
                    name=form.cleaned_data.get("name", ""),
                )
            except TournamentError as exc:
                form.add_error(None, str(exc.message))
            else:
                if registration.status == RegistrationStatus.WAITING:
                    messages.warning(
                        request, _("The tournament is full: the entry is on the waiting list.")
                    )
                else:
                    messages.success(request, _("Entry added."))
                return redirect("director:registrations", tournament.pk)
        status = 400
    everyone = Registration.objects.filter(tournament=tournament).order_by("queued_at", "id")
    return render(
        request,
        "tournaments/director/registrations.html",
        {
            "tournament": tournament,
            "form": form,
            "placed": [r for r in everyone if r.status == RegistrationStatus.ENTERED],
            "waiting": [r for r in everyone if r.status == RegistrationStatus.WAITING],
            "cancelled": [r for r in everyone if r.status == RegistrationStatus.CANCELLED],
            "partners": online_entry.open_partner_requests(tournament),
            "places": online_entry.places(tournament),
            "state": online_entry.entry_state(tournament),
            "closes_at": online_entry.closes_at(tournament),
            "to_take": sum(
                1 for r in everyone if r.status == RegistrationStatus.ENTERED and r.entry_id is None
            ),
        },
        status=status,
    )


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
    messages.success(
        request,
        _("%(count)s online entries taken into the tournament: choose the movement.")
        % {"count": len(entries)},
    )
    if tournament.event_type == EventType.TEAMS:
        return redirect("director:teams", tournament.pk)
    if section is None:
        return redirect("director:tournament", tournament.pk)
    return redirect("director:movement", section.pk)

"""The director's pages for the event itself: the list, the tournament form, entries, audit
trail and publication. Sessions, movements and boards are in ``director_setup``; printing in
``director_print``; the live console and results in ``director_run``.

Views speak HTTP and check the role; every rule is in ``tournaments.services``.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import (
    Role,
    director_required,
    has_role,
    secretary_or_director_required,
)
from clubsite.members.exports import separator_for
from clubsite.models import Club, Member
from clubsite.web.params import int_param
from tournaments.exports.audit import audit_csv as audit_csv_file
from tournaments.filters import AuditFilter
from tournaments.forms.director import (
    EntryForm,
    GuestForm,
    SubstituteForm,
    TournamentForm,
    WithdrawForm,
    add_service_error,
)
from tournaments.forms.results import PublishForm
from tournaments.models import Entry, EntryPlayer, EntryStatus, EventType, Tournament
from tournaments.services.entries import online_entry, registration
from tournaments.services.errors import TournamentError
from tournaments.services.mail import results_mail
from tournaments.services.results import master_points, publish
from tournaments.services.running import audit_log
from tournaments.services.setup import events as setup
from tournaments.views.director.common import get_tournament, law_link

SEARCH_LIMIT = 12


@director_required
def index(request):
    """The director's tournaments, newest first."""
    tournaments = online_entry.with_entry_counts(Tournament.objects.all()).order_by(
        "-date", "-created_at"
    )
    return render(request, "tournaments/director/index.html", {"tournaments": tournaments})


@secretary_or_director_required
def tournament_create(request):
    """Directors; secretaries too where the club's settings say so (they put the tournament
    on the calendar and a director sets it up)."""
    director = has_role(request.user, Role.DIRECTOR)
    if not director and not Club.current().secretaries_create_tournaments:
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        sessions = data.pop("session_count")
        try:
            tournament = setup.create_tournament(sessions=sessions, user=request.user, **data)
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            if not director:
                messages.success(
                    request,
                    _("Tournament %(name)s created; a director sets it up.")
                    % {"name": tournament.name},
                )
                return redirect("home")
            messages.success(request, _("Tournament created."))
            return redirect("director:tournament", tournament.pk)
    return render(request, "tournaments/director/tournament_form.html", {"form": form})


@director_required
def tournament_edit(request, pk):
    tournament = get_tournament(pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            setup.update_tournament(tournament, form.cleaned_data)
            online_entry.fill_places(tournament)  # more tables: the waiting list moves up
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Changes saved."))
            return redirect("director:tournament", tournament.pk)
    return render(
        request,
        "tournaments/director/tournament_form.html",
        {"form": form, "tournament": tournament},
    )


@director_required
def tournament_detail(request, pk):
    tournament = get_tournament(pk)
    sessions = tournament.sessions.prefetch_related("sections")
    return render(
        request,
        "tournaments/director/tournament.html",
        {
            "tournament": tournament,
            "sessions": sessions,
            "entry_count": tournament.entries.filter(status=EntryStatus.ACTIVE).count(),
            "publish_form": PublishForm(),
            "period_over": publish.correction_period_over(tournament),
            "points_awarding": master_points.awarded(tournament),
            "points_awards": master_points.tournament_awards(tournament),
            "registrations": online_entry.live_registrations(tournament),
            "registration_places": online_entry.places(tournament),
            "registrations_to_take": online_entry.placed(tournament)
            .filter(entry__isnull=True)
            .count(),
            "mail_state": results_mail.mail_state(tournament),
        },
    )


# --- entries --------------------------------------------------------------------------------


def _slot_count(tournament) -> int:
    return registration.PLAYERS_PER_ENTRY[tournament.event_type][1]


def _entry_form(tournament, data) -> EntryForm:
    """Pairs and individuals fill every slot; a team names itself and needs four players,
    a fifth and sixth being optional (player 1 is the captain)."""
    low, high = registration.PLAYERS_PER_ENTRY[tournament.event_type]
    return EntryForm(data, slots=high, required=low, team=tournament.event_type == EventType.TEAMS)


def _playing_ids(tournament) -> set[int]:
    return set(
        EntryPlayer.objects.filter(
            entry__tournament=tournament, entry__status=EntryStatus.ACTIVE, active=True
        ).values_list("member_id", flat=True)
    )


def _member(pk) -> Member | None:
    try:
        return Member.objects.filter(pk=int(pk)).first()
    except (TypeError, ValueError):
        return None


def _guest_form(data, i: int) -> GuestForm:
    """The guest half-typed in slot ``i`` stays on the page whatever button was pressed."""
    prefix = f"guest{i}"
    typed = any(key.startswith(prefix + "-") and data.get(key) for key in data)
    return GuestForm(data if typed else None, prefix=prefix)


def _slot(tournament, data, i: int, *, playing=None, guest_form=None, error=None) -> dict:
    """What one player slot shows: the chosen member, the search and its results."""
    query = (data.get(f"q{i}") or "").strip()
    chosen = _member(data.get(f"player{i}"))
    results = list(registration.find_members(query, SEARCH_LIMIT)) if query else []
    if chosen is not None:
        results = [chosen] + [m for m in results if m.pk != chosen.pk]
    low, _high = registration.PLAYERS_PER_ENTRY[tournament.event_type]
    team = tournament.event_type == EventType.TEAMS
    return {
        "n": i,
        "query": query,
        "chosen": chosen,
        "results": results,
        "captain": team and i == 1,
        "optional": i > low,
        "playing": _playing_ids(tournament) if playing is None else playing,
        "guest": guest_form or _guest_form(data, i),
        "error": error,
    }


def _entries_page(request, tournament, data, *, form=None, guest_forms=None, status=200):
    playing = _playing_ids(tournament)
    errors = form.errors if form is not None else {}
    slots = [
        _slot(
            tournament,
            data,
            i,
            playing=playing,
            guest_form=(guest_forms or {}).get(i),
            error=(errors.get(f"player{i}") or [None])[0],
        )
        for i in range(1, _slot_count(tournament) + 1)
    ]
    entries = tournament.entries.prefetch_related("entry_players__member").order_by("status", "id")
    return render(
        request,
        "tournaments/director/entries.html",
        {
            "tournament": tournament,
            "entries": entries,
            "slots": slots,
            "non_field_errors": form.non_field_errors() if form is not None else [],
            "withdraw_form": WithdrawForm(),
            "is_teams": tournament.event_type == EventType.TEAMS,
            "team_name": data.get("name", ""),
            "name_errors": errors.get("name") if errors else None,
        },
        status=status,
    )


@director_required
def entries(request, pk):
    """Register entries: each player found by name or licence (live search) or added as a
    guest on the spot; what was typed survives every round trip."""
    tournament = get_tournament(pk)
    if request.method != "POST":
        return _entries_page(request, tournament, {})
    data = request.POST.copy()
    action = data.get("action", "register")
    if action == "search":
        return _entries_page(request, tournament, data)
    if action.startswith("guest"):
        i = int(action[5:] or 0) if action[5:].isdigit() else 0
        guest_form = GuestForm(data, prefix=f"guest{i}")
        if 1 <= i <= _slot_count(tournament) and guest_form.is_valid():
            try:
                guest = registration.add_guest(**guest_form.cleaned_data)
            except TournamentError as exc:
                add_service_error(guest_form, exc)
            else:
                data[f"player{i}"] = str(guest.pk)
                for name in GuestForm.base_fields:
                    data.pop(f"guest{i}-{name}", None)
                messages.success(request, _("Guest %(name)s added.") % {"name": guest.full_name})
                return _entries_page(request, tournament, data)
        return _entries_page(request, tournament, data, guest_forms={i: guest_form}, status=400)
    form = _entry_form(tournament, data)
    if form.is_valid():
        try:
            entry = registration.register_entry(
                tournament, form.members(), name=form.cleaned_data.get("name", "")
            )
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Registered: %(entry)s.") % {"entry": entry})
            return redirect("director:entries", tournament.pk)
    return _entries_page(request, tournament, data, form=form, status=400)


@director_required
def member_search(request, pk):
    """The live search's results for one player slot (an htmx fragment)."""
    tournament = get_tournament(pk)
    try:
        i = max(1, min(int(request.GET.get("slot", 1)), 6))
    except ValueError:
        i = 1
    slot = _slot(tournament, request.GET, i)
    return render(request, "tournaments/director/_member_results.html", {"slot": slot})


@director_required
@require_POST
def entry_withdraw(request, pk):
    entry = get_object_or_404(Entry, pk=pk)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the entry withdraws."))
    else:
        try:
            registration.withdraw_entry(
                entry, user=request.user, reason=form.cleaned_data["reason"]
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(entry)s withdrawn.") % {"entry": entry})
    return redirect("director:entries", entry.tournament_id)


@director_required
def entry_substitute(request, pk):
    """A substitute takes a player's seat in an entry (found by search or added as a guest)."""
    entry = get_object_or_404(Entry.objects.select_related("tournament"), pk=pk)
    data = request.POST.copy() if request.method == "POST" else {}
    form = SubstituteForm(data or None, entry=entry)
    guest_form = None
    action = data.get("action", "save") if data else ""
    if action == "guest1":
        guest_form = GuestForm(data, prefix="guest1")
        if guest_form.is_valid():
            try:
                guest = registration.add_guest(**guest_form.cleaned_data)
            except TournamentError as exc:
                add_service_error(guest_form, exc)
            else:
                data["player1"] = str(guest.pk)
                guest_form = None
        form = SubstituteForm(data, entry=entry)
        form.errors.clear()
    elif action == "search":
        form.errors.clear()
    elif action == "save" and form.is_valid():
        try:
            registration.substitute_player(
                entry,
                leaving=form.cleaned_data["leaving"],
                joining=form.cleaned_data["player1"],
                user=request.user,
                reason=form.cleaned_data["reason"],
            )
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Substitute recorded."))
            return redirect("director:entries", entry.tournament_id)
    slot = _slot(
        entry.tournament,
        data,
        1,
        guest_form=guest_form,
        error=(form.errors.get("player1") or [None])[0] if data else None,
    )
    return render(
        request,
        "tournaments/director/substitute.html",
        {"entry": entry, "tournament": entry.tournament, "form": form, "slot": slot},
    )


# --- audit and publication ------------------------------------------------------------------


AUDIT_PAGE = 50


@director_required
def audit(request, pk):
    """Every change after entry, filtered by session, table, person and kind, paged: who,
    when (local time), what, before → after in words, why, and whether overridden."""
    tournament = get_tournament(pk)
    found = AuditFilter(request.GET or None, tournament=tournament)
    page = Paginator(found.qs, AUDIT_PAGE).get_page(request.GET.get("page"))
    rows = [
        {
            "entry": item,
            "who": audit_log.who(item),
            "changes": audit_log.changes(item),
            "law": law_link(item.law),
        }
        for item in page.object_list
    ]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/director/audit.html",
        {
            "tournament": tournament,
            "rows": rows,
            "page": page,
            "filter": found,
            "query": query.urlencode(),
        },
    )


@director_required
def audit_csv(request, pk):
    """The trail as a CSV file, filtered as the page is (session, table, person, kind; an
    old ``?session=<id>`` link still works); local times, formula-safe cells, UTF-8 with
    BOM."""
    tournament = get_tournament(pk)
    session = None
    if request.GET.get("session"):  # the filter form sends an empty one for "every session"
        session_id = int_param(request.GET, "session")
        session = tournament.sessions.filter(pk=session_id).first() if session_id else None
        if session is None:
            raise Http404(_("No such session in this tournament."))
    found = AuditFilter(request.GET, tournament=tournament)
    name, content = audit_csv_file(
        tournament, session, delimiter=separator_for(request), rows=found.qs
    )
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@director_required
@require_POST
def publish_provisional(request, pk):
    tournament = get_tournament(pk)
    try:
        publish.publish_provisional(tournament, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Provisional results published."))
    return redirect("director:tournament", tournament.pk)


@director_required
@require_POST
def publish_final(request, pk):
    tournament = get_tournament(pk)
    form = PublishForm(request.POST)
    form.is_valid()
    try:
        publish.publish_final(
            tournament, user=request.user, override=form.cleaned_data.get("override", False)
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Final results published; the correction period is open."))
    return redirect("director:tournament", tournament.pk)

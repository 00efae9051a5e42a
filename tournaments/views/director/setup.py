"""The director's set-up of a session: sections, the movement (from the core's advice or by
hand), seating, late pairs, the number of rounds, the start; and the boards (conditions,
PBN import, dealing, double-dummy analysis)."""

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from clubsite.web.params import int_param
from clubsite.web.redirects import safe_next
from tournaments.forms.director import (
    BoardConditionsForm,
    DealForm,
    LateEntryForm,
    ManualMovementForm,
    PBNImportForm,
    RoundsForm,
    SectionForm,
)
from tournaments.imports.dealer_dup import DealerFileError, read_dup
from tournaments.models import Board, Entry, EntryStatus, Seating, SessionStatus
from tournaments.scoring import deals
from tournaments.services.boards import deals as board_service
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.entries import late_pairs, registration
from tournaments.services.errors import TournamentError
from tournaments.services.setup import advice, plan
from tournaments.services.setup import events as setup
from tournaments.services.setup import movements as section_movements
from tournaments.tasks import analyse_session_boards
from tournaments.views.director.common import get_section, get_session
from tournaments.views.director.individual import is_individual_event

PICKABLE = ("mitchell", "howell", "mitchell_pools")


def _section_cards(session):
    cards = []
    for section in session.sections.order_by("letter"):
        seated = Seating.objects.filter(section=section).count()
        places = len(plan.pair_numbers(section.movement)) if section.movement else 0
        cards.append(
            {
                "section": section,
                "seated": seated,
                "places": places,
                "summary": section_movements.movement_summary(section.movement)
                if section.movement
                else None,
                "free": registration.free_places(section) if section.movement else [],
                "late_form": _late_form(section) if section.movement else None,
                "rounds_form": RoundsForm(initial={"rounds": plan.round_count(section.movement)})
                if section.movement and not plan.is_individual(section.movement)
                else None,
                "individual": is_individual_event(section),
            }
        )
    return cards


def _late_form(section, data=None):
    seated = Seating.objects.filter(session_id=section.session_id).values("entry_id")
    entries = Entry.objects.filter(
        tournament_id=section.session.tournament_id, status=EntryStatus.ACTIVE
    ).exclude(pk__in=seated)
    return LateEntryForm(data, entries=entries, places=registration.free_places(section))


@director_required
def session_detail(request, pk):
    session = get_session(pk)
    return render(
        request,
        "tournaments/director/session.html",
        {
            "session": session,
            "tournament": session.tournament,
            "cards": _section_cards(session),
            "section_form": SectionForm(),
            "dealt": Board.objects.filter(session=session).exclude(deal="").count(),
            "analysed": Board.objects.filter(session=session, double_dummy__isnull=False).count(),
        },
    )


@director_required
@require_POST
def section_add(request, pk):
    session = get_session(pk)
    form = SectionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        if session.sections.filter(letter=data["letter"]).exists():
            messages.error(
                request, _("Section %(letter)s already exists.") % {"letter": data["letter"]}
            )
        else:
            section = setup.add_section(
                session, data["letter"], pool=data["pool"], board_offset=data["board_offset"] or 0
            )
            messages.success(request, _("Section %(letter)s added.") % {"letter": section.letter})
    else:
        messages.error(request, _("The section was not added: check the letter and the pool."))
    return redirect("director:session", session.pk)


# --- movement -------------------------------------------------------------------------------


def _available_entries(section):
    """Active entries not seated in another section of the session, in registration order."""
    elsewhere = (
        Seating.objects.filter(session_id=section.session_id)
        .exclude(section=section)
        .values("entry_id")
    )
    return list(
        Entry.objects.filter(tournament_id=section.session.tournament_id, status=EntryStatus.ACTIVE)
        .exclude(pk__in=elsewhere)
        .order_by("id")
    )


def _chosen_entries(request, available):
    ids = (
        request.POST.getlist("entries")
        if request.method == "POST"
        else request.GET.getlist("entries")
    )
    if request.method != "POST" and "picked" not in request.GET:
        return available  # first visit: every pair present
    wanted = {int(i) for i in ids if i.isascii() and i.isdigit() and len(i) < 12}
    return [e for e in available if e.pk in wanted]


def _suggestions(count):
    return advice.suggestions(count)


@director_required
def movement(request, pk):
    """Choose a movement for the pairs present: one of the advice's suggestions (ranked by
    comparisons, as the course advises) or a Mitchell/Howell by hand; then seat them."""
    section = get_section(pk)
    if is_individual_event(section):
        return redirect("director:individual_movement", section.pk)
    available = _available_entries(section)
    chosen = _chosen_entries(request, available)
    suggestions = _suggestions(len(chosen))
    manual = ManualMovementForm(
        request.POST if request.POST.get("action") == "manual" else None, pairs=len(chosen)
    )
    if request.method == "POST":
        movement_dict = None
        try:
            if request.POST.get("action") == "manual":
                if manual.is_valid():
                    movement_dict = section_movements.build_movement(
                        pairs=len(chosen) or None, **manual.cleaned_data
                    )
            else:
                index = int_param(request.POST, "suggestion", -1, low=0, high=999)
                if not 0 <= index < len(suggestions):
                    raise TournamentError(_("Choose one of the suggestions."))
                pick = suggestions[index][0]
                if pick.kind == "mitchell_pools":
                    sections = section_movements.seat_two_pools(section, pick.call, chosen)
                    messages.success(
                        request,
                        _("Pairs seated in sections %(letters)s, playing the same boards.")
                        % {"letters": " + ".join(s.letter for s in sections)},
                    )
                    return redirect("director:session", section.session_id)
                movement_dict = section_movements.build_movement(pick.kind, **pick.call)
            if movement_dict is not None:
                if Seating.objects.filter(section=section).exists():
                    setup.change_movement(
                        section,
                        movement_dict,
                        user=request.user,
                        reason=request.POST.get("reason", ""),
                    )
                    seated = {s.entry_id for s in Seating.objects.filter(section=section)}
                    extra = [e for e in chosen if e.pk not in seated]
                    if extra:
                        messages.warning(
                            request,
                            _(
                                "%(count)s pair(s) not yet seated: add them "
                                "as late pairs or seat again."
                            )
                            % {"count": len(extra)},
                        )
                else:
                    setup.seat_section(section, movement_dict, chosen)
                messages.success(request, _("Movement chosen and pairs seated."))
                return redirect("director:seating", section.pk)
        except (TournamentError, ValueError) as exc:
            message = getattr(exc, "message", None) or _("Choose one of the suggestions.")
            if request.POST.get("action") == "manual":
                manual.add_error(None, message)
            else:
                messages.error(request, message)
    return render(
        request,
        "tournaments/director/movement.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "available": available,
            "chosen": {e.pk for e in chosen},
            "count": len(chosen),
            "suggestions": [
                (i, s, advice.describe(s), s.kind in PICKABLE)
                for i, (s, _shorter) in enumerate(suggestions)
            ],
            # where the shorter evenings begin (after the course's 22-30 boards)
            "shorter_from": next(
                (i for i, (_s, shorter) in enumerate(suggestions) if shorter), None
            ),
            "manual": manual,
            "current": section_movements.movement_summary(section.movement)
            if section.movement
            else None,
        },
        status=400 if request.method == "POST" else 200,
    )


@director_required
def seating(request, pk):
    """Who holds which pair number and line; the director can move pairs by hand."""
    section = get_section(pk)
    seats = list(
        Seating.objects.filter(section=section)
        .select_related("entry")
        .order_by("direction", "number")
    )
    places = plan.pair_numbers(section.movement) if section.movement else []
    if request.method == "POST":
        assignments, taken, problem = [], set(), None
        for seat in seats:
            value = request.POST.get(f"place-{seat.entry_id}", "")
            try:
                number, line = value.split(":")
                place = (int(number), line)
            except ValueError:
                problem = _("Every pair needs a place.")
                break
            if place in taken:
                problem = _("Two pairs cannot hold place %(place)s.") % {
                    "place": f"{place[0]}{seat_word(place[1])}"
                }
                break
            taken.add(place)
            assignments.append((seat.entry, *place))
        if problem is None:
            try:
                setup.seat_section(section, section.movement, [], assignments=assignments)
            except TournamentError as exc:
                problem = exc.message
        if problem is None:
            messages.success(request, _("Seating saved."))
            return redirect("director:seating", section.pk)
        messages.error(request, problem)
    return render(
        request,
        "tournaments/director/seating.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "seats": seats,
            "places": places,
            "editable": section.session.status == SessionStatus.DRAFT,
        },
    )


@director_required
@require_POST
def late_entry(request, pk):
    section = get_section(pk)
    form = _late_form(section, request.POST)
    if form.is_valid():
        number, line = form.chosen_place()
        try:
            seat, unplayed = late_pairs.seat_late_pair(
                section,
                form.cleaned_data["entry"],
                user=request.user,
                number=number,
                direction=line,
                from_round=form.cleaned_data["from_round"] or 1,
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Late pair seated as %(place)s.")
                % {"place": f"{seat.number}{seat_word(seat.direction)}"},
            )
            if unplayed:
                messages.info(
                    request,
                    ngettext(
                        "%(n)s board it passed is scored as not played.",
                        "%(n)s boards it passed are scored as not played.",
                        unplayed,
                    )
                    % {"n": unplayed},
                )
    else:
        messages.error(request, _("Choose the late pair and a free place."))
    return HttpResponseRedirect(
        safe_next(request, reverse("director:session", args=[section.session_id]))
    )


@director_required
@require_POST
def change_rounds(request, pk):
    """Another number of rounds before the start, same kind of movement, same pairs' order."""
    section = get_section(pk)
    form = RoundsForm(request.POST)
    if section.movement and plan.is_individual(section.movement):
        messages.error(
            request,
            _("An individual movement has a fixed number of rounds: choose the movement again."),
        )
    elif form.is_valid() and section.movement:
        summary = section_movements.movement_summary(section.movement)
        seated = Seating.objects.filter(section=section).count()
        kind = "howell" if not plan.is_directional(section.movement) else "mitchell"
        try:
            movement_dict = section_movements.build_movement(
                kind,
                tables=summary["tables"],
                rounds=form.cleaned_data["rounds"],
                boards_per_round=summary["boards_per_round"],
                pairs=seated or None,
                phantom=section_movements.mitchell_phantom(section) if kind == "mitchell" else None,
            )
            setup.change_movement(
                section, movement_dict, user=request.user, reason=form.cleaned_data["reason"]
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("Now %(rounds)s rounds.") % {"rounds": form.cleaned_data["rounds"]}
            )
    else:
        messages.error(request, _("Give a number of rounds."))
    return redirect("director:session", section.session_id)


@director_required
@require_POST
def session_start(request, pk):
    session = get_session(pk)
    try:
        setup.start_session(session, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("director:session", session.pk)
    messages.success(request, _("Session started: the tables can enter results."))
    return redirect("director:console", session.pk)


@director_required
@require_POST
def session_finish(request, pk):
    session = get_session(pk)
    try:
        setup.finish_session(session, user=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Session finished: the table codes are closed."))
    return redirect("director:tournament", session.tournament_id)


# --- boards ---------------------------------------------------------------------------------


def _boards_page(request, section, *, pbn_form=None, problems=(), status=200):
    boards = Board.objects.filter(session_id=section.session_id, pool=section.pool).order_by(
        "number"
    )
    rows = [
        {
            "board": b,
            "form": BoardConditionsForm(
                initial={"dealer": b.dealer, "vulnerability": b.vulnerability}, prefix=f"b{b.pk}"
            ),
            "hands": deals.hands(b.deal) if b.deal else None,
        }
        for b in boards
    ]
    return render(
        request,
        "tournaments/director/boards.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "rows": rows,
            "pbn_form": pbn_form or PBNImportForm(),
            "deal_form": DealForm(),
            "problems": problems,
            "suits": "SHDC",
        },
        status=status,
    )


@director_required
def boards(request, pk):
    return _boards_page(request, get_section(pk))


@director_required
@require_POST
def board_conditions(request, pk, board):
    section = get_section(pk)
    item = get_object_or_404(Board, pk=board, session_id=section.session_id, pool=section.pool)
    form = BoardConditionsForm(request.POST, prefix=f"b{item.pk}")
    if form.is_valid():
        setup.override_board_conditions(
            item,
            dealer=form.cleaned_data["dealer"],
            vulnerability=form.cleaned_data["vulnerability"] or None,
        )
        messages.success(request, _("Board %(number)s updated.") % {"number": item.number})
    else:
        messages.error(request, _("Choose a dealer and a vulnerability."))
    return redirect(reverse("director:boards", args=[section.pk]) + f"#board-{item.number}")


def _dup_reader(content: bytes):
    def read(numbers: set[int]) -> list:
        try:
            return [board_service.ImportedDeal(n, d) for n, d in read_dup(content, numbers)]
        except DealerFileError as exc:
            raise board_service.PBNImportError(exc.problems) from exc

    return read


@director_required
@require_POST
def pbn_import(request, pk):
    section = get_section(pk)
    form = PBNImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            content = form.cleaned_data["file"]
            if isinstance(content, bytes):  # a dealing machine's file (Duplimate .dup)
                imported = board_service.import_deals(section, _dup_reader(content))
            else:
                imported = board_service.import_pbn(section, content)
        except board_service.PBNImportError as exc:
            form.add_error("file", exc.message)
            return _boards_page(request, section, pbn_form=form, problems=exc.problems, status=400)
        messages.success(request, _("%(count)s deals imported.") % {"count": len(imported)})
        return redirect("director:boards", section.pk)
    return _boards_page(request, section, pbn_form=form, status=400)


@director_required
@require_POST
def deal(request, pk):
    section = get_section(pk)
    form = DealForm(request.POST)
    if form.is_valid():
        dealt = board_service.deal_boards(
            section, seed=form.cleaned_data["seed"], replace=form.cleaned_data["replace"]
        )
        messages.success(request, _("%(count)s boards dealt.") % {"count": len(dealt)})
    return redirect("director:boards", section.pk)


@director_required
@require_POST
def analyse(request, pk):
    """Compute double-dummy tables and par for the session's deals (in the background)."""
    session = get_session(pk)
    result = analyse_session_boards.delay(session.pk, bool(request.POST.get("replace")))
    if result.ready():  # done: no wait (Celery's in-a-task flag is per process, not thread)
        messages.success(
            request,
            _("Hand analysis done for %(count)s boards.")
            % {"count": result.get(disable_sync_subtasks=False)},
        )
    else:  # pragma: no cover - only with a broker
        messages.info(request, _("Hand analysis started; it appears with the boards when ready."))
    return redirect("director:session", session.pk)

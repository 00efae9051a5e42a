"""Running a session: the live console, one traveller line (enter, correct, adjust, remove),
conflicts, confirmations and procedural penalties.

The console refreshes itself with htmx every few seconds (and by a plain reload without
JavaScript). After the Law 79C correction period the services refuse changes unless the
director ticks the override, which the audit trail records; the message says so here.
"""

import uuid

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from clubsite.web.params import int_param
from clubsite.web.redirects import safe_next
from tournaments.forms.adjustments import KIND_LAWS, AdjustmentForm
from tournaments.forms.director import LateEntryForm, add_service_error
from tournaments.forms.results import PenaltyForm, ReasonForm, ResultForm
from tournaments.models import (
    BoardState,
    Entry,
    EntryStatus,
    Penalty,
    Result,
    ResultStatus,
    Seating,
)
from tournaments.services.entries import late_pairs, registration
from tournaments.services.errors import CorrectionPeriodOver, TournamentError
from tournaments.services.results import publish
from tournaments.services.running import board_grid, corrections, progress
from tournaments.services.running.adjustments import describe, replaced
from tournaments.services.setup import plan
from tournaments.services.table import entry as entry_service
from tournaments.services.table import revisions
from tournaments.views.director.common import contract_html, get_section, get_session, law_link
from tournaments.views.director.disputes import dispute_context as _dispute_context
from tournaments.views.director.disputes import disputes_for_console

POLL_SECONDS = 5
BOARD_STATE_WORDS = {
    board_grid.MISSING: pgettext_lazy("board state", "Missing"),
    **dict(BoardState.choices),
}


def _line_url(section_id, rnd, table, board) -> str:
    return reverse("director:line", args=[section_id, rnd, table, board])


def _board_grid(session, round_number):
    """The per-board grid of a round, each cell with its line's link and words."""
    grid = board_grid.board_grid(session, round_number)
    rows = [
        {
            "row": row,
            "cells": [
                {
                    "cell": c,
                    "label": BOARD_STATE_WORDS[c.state],
                    "url": _line_url(c.section_id, grid.round, row.table, c.board),
                }
                for c in row.cells
            ],
        }
        for row in grid.rows
    ]
    return {
        "board_grid": grid,
        "board_rows": rows,
        "board_legend": [
            (state, BOARD_STATE_WORDS[state], grid.counts[state])
            for state in board_grid.STATE_ORDER
        ],
    }


def _console_context(session, round_number=None):
    state = progress.session_progress(session)
    sections = {s.letter: s for s in session.sections.all()}
    ids = set(state.conflicts) | set(state.unconfirmed) | {s.result_id for s in state.suspicious}
    rows = {
        r.pk: r
        for r in Result.objects.filter(pk__in=ids).select_related(
            "board", "section", "ns", "ew", "conflicts_with"
        )
    }
    first_board = {}
    for section in sections.values():
        for slot in plan.slots(section.movement):
            if slot.boards:
                first_board[(section.letter, slot.round, slot.table)] = (
                    slot.boards[0] + section.board_offset
                )
    rounds = max((len(t.rounds) for t in state.tables), default=0)
    grid = []
    for t in state.tables:
        cells = []
        for r in t.rounds:
            board = first_board.get((t.section, r.round, t.table))
            cells.append(
                {
                    "state": r,
                    "url": _line_url(sections[t.section].pk, r.round, t.table, board)
                    if board
                    else "",
                }
            )
        grid.append({"table": t, "cells": cells})

    def link(result):
        return _line_url(result.section_id, result.round, result.table, result.board.number)

    from tournaments.services.table import director_calls
    from tournaments.services.teams import knockout, team_schedule

    return {
        "teams_draw": team_schedule.can_draw(session) or knockout.can_draw_stage(session),
        "session": session,
        "tournament": session.tournament,
        "progress": state,
        "grid": grid,
        "round_numbers": range(1, rounds + 1),
        "missing": [
            {"item": m, "url": _line_url(sections[m.section].pk, m.round, m.table, m.board)}
            for m in state.missing
        ],
        # one line a round, each table linked to its first missing board
        "missing_rounds": [
            {
                "group": g,
                "tables": [
                    {
                        "item": t,
                        "url": _line_url(sections[t.section].pk, g.round, t.table, t.boards[0]),
                    }
                    for t in g.tables
                ],
            }
            for g in progress.missing_by_round(state.missing)
        ],
        "suspicious": [
            {"item": s, "url": link(rows[s.result_id])}
            for s in state.suspicious
            if s.result_id in rows
        ],
        "conflicts": [
            {"result": rows[i], "url": link(rows[i])} for i in state.conflicts if i in rows
        ],
        "disputes": disputes_for_console(session, link),  # rejected at the table
        "unconfirmed": [
            {"result": rows[i], "url": link(rows[i])} for i in state.unconfirmed if i in rows
        ],
        "round_minutes": sorted(state.round_minutes.items()),
        "poll": POLL_SECONDS,
        "calls": director_calls.open_calls(session),  # "Call the director" at the tables
        **_board_grid(session, round_number),
    }


@director_required
def console(request, pk):
    """The live console; htmx asks for the body alone every few seconds."""
    session = get_session(pk)
    chosen = int_param(request.GET, "round")
    context = _console_context(session, chosen)
    context["chosen_round"] = chosen
    if request.htmx:
        return render(request, "tournaments/director/_console_body.html", context)
    context["line_form_sections"] = session.sections.order_by("letter")
    context["late_forms"] = _late_forms(session) if session.is_running else []
    return render(request, "tournaments/director/console.html", context)


def _late_forms(session):
    """A form per section with a free place (a phantom's) while an active pair is unseated:
    the late pair takes the place from the round in play."""
    seated = Seating.objects.filter(session=session).values("entry_id")
    waiting = Entry.objects.filter(
        tournament_id=session.tournament_id, status=EntryStatus.ACTIVE
    ).exclude(pk__in=seated)
    if not waiting.exists():
        return []
    forms = []
    for section in session.sections.order_by("letter"):
        places = registration.free_places(section) if section.movement else []
        if places:
            forms.append(
                {
                    "section": section,
                    "form": LateEntryForm(
                        entries=waiting,
                        places=places,
                        initial={"from_round": late_pairs.rounds_in_play(section)},
                    ),
                }
            )
    return forms


@director_required
def find_line(request, pk):
    """The console's "open a line" box: section, round, table and board → that line."""
    session = get_session(pk)
    try:
        section = session.sections.get(pk=int(request.GET.get("section", "")))
        numbers = [int(request.GET.get(k, "")) for k in ("round", "table", "board")]
    except (ValueError, TypeError, session.sections.model.DoesNotExist):
        messages.error(request, _("Give the section, round, table and board."))
        return redirect("director:console", session.pk)
    return redirect(_line_url(section.pk, *numbers))


# --- one traveller line ---------------------------------------------------------------------


def _current(section, line):
    rows = list(
        Result.objects.filter(
            section=section,
            round=line.round,
            board=line.board,
            ns=line.ns,
            ew=line.ew,
            status__in=[ResultStatus.OK, ResultStatus.CONFLICT],
        )
        .select_related("entered_by", "entered_by_table")
        .order_by("id")
    )
    current = next((r for r in rows if r.status == ResultStatus.OK), None)
    return current, [r for r in rows if r.status == ResultStatus.CONFLICT]


def _result_initial(current):
    if current is None or current.adjustment:
        return {}
    tricks = current.tricks
    result = ""
    if tricks is not None and current.contract and current.contract != "PASS":
        level = int(current.contract[0])
        diff = tricks - level - 6
        result = "=" if diff == 0 else f"{diff:+d}"
    return {
        "contract": current.contract,
        "declarer": current.declarer,
        "result": result,
        "lead": current.lead,
    }


def _shown(results):
    """Attach the contract as the traveller shows it (suit symbols, adjusted scores)."""
    for result in results:
        result.shown = contract_html(result)
        # the table's score an adjusted score replaced, shown struck through beside it
        result.replaced = replaced(result.ns_score, result.adjustment)
    return results


def _traveller(line):
    return _shown(
        list(
            Result.objects.filter(board=line.board, status=ResultStatus.OK)
            .select_related("section", "ns", "ew")
            .order_by("section__letter", "round", "table")
        )
    )


def _adjustment_from(form, board) -> dict:
    data = form.cleaned_data
    if "adjustment" in data:
        return data["adjustment"]
    outcomes = []
    for percent, contract, declarer, tricks in data.get("outcomes", []):
        score = entry_service.scored(board, contract, declarer, tricks)["ns_score"]
        outcomes.append([percent, score])
    return {"kind": "weighted", "outcomes": outcomes}


@director_required
def line(request, pk, rnd, table, board):
    """One line of a traveller: the director enters or corrects the result, awards an
    adjusted score, or removes the line; conflicts for it are decided here too."""
    section = get_section(pk)
    tournament = section.session.tournament
    try:
        found = entry_service.resolve_line(section, rnd, table, board)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("director:console", section.session_id)
    current, conflicts = _current(section, found)
    _shown([r for r in [current, *conflicts] if r is not None])
    action = request.POST.get("action") if request.method == "POST" else None
    result_form = ResultForm(
        request.POST if action == "result" else None, initial=_result_initial(current)
    )
    adjust_form = AdjustmentForm(
        request.POST if action == "adjust" else None,
        initial={"kind": "artificial", "preset": "60/40", "law": KIND_LAWS["artificial"]},
    )
    # The law's hint follows what is typed: htmx asks ``law_hint`` as the director types.
    adjust_form.fields["law"].widget.attrs.update(
        {
            "hx-get": reverse("director:law_hint"),
            "hx-trigger": "input changed delay:300ms",
            "hx-target": "#law-hint",
            "hx-swap": "outerHTML",
            "autocomplete": "off",
        }
    )
    remove_form = ReasonForm(request.POST if action == "remove" else None)
    forms = {"result": result_form, "adjust": adjust_form, "remove": remove_form}
    # The revision of the line this page showed: a change based on an older one is refused
    # (a post without one, from an older page, is not checked).
    revision = request.POST.get("revision", None) if action else revisions.revision(current)
    if action in forms and forms[action].is_valid():
        form = forms[action]
        data = form.cleaned_data | {"revision": revision}
        try:
            if action == "result":
                _save_result(request, section, found, current, data)
            elif action == "adjust":
                corrections.adjust_score(
                    user=request.user,
                    section=section,
                    round=rnd,
                    table=table,
                    board=board,
                    adjustment=_adjustment_from(form, found.board),
                    reason=data["reason"],
                    law=data["law"],
                    override=data["override"],
                    revision=revision,
                )
            elif current is None:
                raise TournamentError(_("There is no result to remove."))
            else:
                corrections.remove_result(
                    current,
                    user=request.user,
                    reason=data["reason"],
                    override=data["override"],
                    revision=revision,
                )
        except revisions.StaleRevision as exc:  # the page again, with the current value
            messages.error(request, exc.message)
            return redirect(_line_url(section.pk, rnd, table, board))
        except CorrectionPeriodOver as exc:
            form.add_error("override", exc.message)
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Board %(board)s, table %(table)s, round %(round)s saved.")
                % {"board": board, "table": table, "round": rnd},
            )
            return redirect(_line_url(section.pk, rnd, table, board))
    return render(
        request,
        "tournaments/director/line.html",
        {
            "section": section,
            "session": section.session,
            "tournament": tournament,
            "line": found,
            "current": current,
            "conflicts": conflicts,
            **_dispute_context(current),
            "current_adjustment": describe(current.adjustment) if current else "",
            "current_law": law_link(current.law) if current else None,
            "result_form": result_form,
            "adjust_form": adjust_form,
            "remove_form": remove_form,
            "period_over": publish.correction_period_over(tournament),
            "traveller": _traveller(found),
            "resolve_form": ReasonForm(),
            "law_preview": law_link(adjust_form["law"].value() or ""),
            "revision": revision if revision is not None else revisions.revision(current),
        },
        status=400 if action else 200,
    )


@director_required
def law_hint(request):
    """The adjusted-score form's law hint for the citation typed so far ("12C2" → a link to
    Law 12C2's text); empty when it cites no law (htmx swaps it in as the director types)."""
    return render(
        request,
        "tournaments/director/_law_hint.html",
        {"law_preview": law_link(request.GET.get("law", "")[:40])},
    )


def _save_result(request, section, found, current, data):
    common = {
        "contract": data["contract"],
        "declarer": data["declarer"],
        "tricks": data["tricks"],
        "lead": data["lead"],
        "ns_score": data["ns_score"],
    }
    if current is not None:
        corrections.correct_result(
            current,
            user=request.user,
            reason=data["reason"],
            law=data["law"],
            override=data["override"],
            revision=data["revision"],
            **common,
        )
        return
    publish.correction_allowed(section.session.tournament, data["override"])
    entry_service.submit_result(
        round=found.round,
        board=found.board.number,
        idempotency_key=f"director-{uuid.uuid4()}",
        user=request.user,
        section=section,
        table=found.table,
        **common,
    )


@director_required
@require_POST
def resolve(request, pk):
    """Keep the conflicting (new) result or the stored one."""
    conflict = get_object_or_404(
        Result.objects.select_related("section__session__tournament", "board"), pk=pk
    )
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why: a change to a result needs a reason."))
    else:
        try:
            corrections.resolve_conflict(
                conflict,
                user=request.user,
                keep_new=request.POST.get("keep") == "new",
                reason=form.cleaned_data["reason"],
                override=form.cleaned_data["override"],
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Conflict resolved."))
    return redirect(
        _line_url(conflict.section_id, conflict.round, conflict.table, conflict.board.number)
    )


@director_required
@require_POST
def confirm(request, pk):
    result = get_object_or_404(Result, pk=pk)
    entry_service.confirm_result(result, user=request.user)
    messages.success(request, _("Result confirmed."))
    # A URL, never looked up as a view name (a posted "abc" is a relative address).
    return HttpResponseRedirect(
        safe_next(request, reverse("director:console", args=[result.section.session_id]))
    )


@director_required
def penalties(request, pk):
    """Procedural penalties of the session (a fraction of a top off a pair's total)."""
    session = get_session(pk)
    entries = Entry.objects.filter(
        pk__in=Seating.objects.filter(session=session).values("entry_id")
    )
    form = PenaltyForm(request.POST or None, entries=entries)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            corrections.add_penalty(
                user=request.user,
                entry=data["entry"],
                session=session,
                fraction_of_top=data["fraction_of_top"],
                reason=data["reason"],
                law=data["law"],
                board=data["board"],
                override=data["override"],
            )
        except CorrectionPeriodOver as exc:
            form.add_error("override", exc.message)
        except TournamentError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect("director:penalties", session.pk)
    rows = [
        {"penalty": p, "law": law_link(p.law)}
        for p in Penalty.objects.filter(session=session).select_related("entry", "given_by")
    ]
    return render(
        request,
        "tournaments/director/penalties.html",
        {
            "session": session,
            "tournament": session.tournament,
            "form": form,
            "rows": rows,
            "period_over": publish.correction_period_over(session.tournament),
        },
        status=400 if request.method == "POST" else 200,
    )

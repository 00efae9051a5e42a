"""Score entry at the table: a tablet (or the players' phones) signed in as one table.

Views here check the device and nothing else: the table code in the Django session says
which section and table the device is; ``services.entry`` decides what that table may write
(its own boards, its own rounds, a session in play) and stores each result once. The board
page works as a plain form; ``static/tournaments/table.js`` adds the offline queue.
"""

import uuid

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubsite.web.jsonbody import BadJSON, read_json
from tournaments.forms.table import (
    DOUBLES,
    LEAD_RANKS,
    LEAD_SUITS,
    LEVELS,
    MADE,
    PASS,
    SEATS,
    STRAINS,
    ResultForm,
    made_text,
)
from tournaments.models import Result, ResultStatus
from tournaments.scoring import parse_contract
from tournaments.services.errors import InvalidResult, KeyReused, NotAllowed
from tournaments.services.results import board_visibility
from tournaments.services.running.adjustments import replaced
from tournaments.services.table import entry, play_order, table_corrections, table_round
from tournaments.views.table import app as table_app
from tournaments.views.table.device import (
    js_text,
    refuse,
    round_param,
    table_device_required,
    wants_json,
)
from tournaments.views.table.teams import teams_context

# The service names the inputs by what it stores; the form by the buttons.
FORM_FIELD = {"contract": "level", "declarer": "declarer", "tricks": "made", "lead": "lead_suit"}
# NT is a word (SA in Spanish, ST in Portuguese): translated when the page is drawn.
SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": gettext_lazy("NT")}


# --- the table's round ----------------------------------------------------------------------


@table_device_required
def home(request):
    """The round at this table: pairs, boards and what is saved, then where everyone moves."""
    current = table_round.table_round(request.table_code)
    shown = (
        table_round.table_round(request.table_code, round_param(request))
        if round_param(request)
        else current
    )
    states = table_corrections.states([b.result for b in shown.boards])
    return render(
        request,
        "tournaments/table/home.html",
        {
            "table_code": request.table_code,
            "tr": shown,
            "current_round": current.round,
            "round_numbers": range(1, shown.rounds + 1),
            "boards": [_board_row(b, states) for b in shown.boards],
            "js_text": js_text(),
            "offline_urls": table_app.offline_urls(shown),
            **teams_context(request.table_code, shown),  # a teams match and the Swiss wait
        },
    )


def _board_row(board_at, states: dict) -> dict:
    state = states.get(board_at.result.pk, "") if board_at.result else ""
    return {
        "board": board_at.board,
        "result": _result_parts(board_at.result),
        "conflict": board_at.conflict,
        "done": board_at.done,
        "state": state,
        "state_label": table_corrections.STATE_LABELS.get(state, ""),
    }


def _result_parts(result: Result | None) -> dict | None:
    """What a stored result looks like on screen: 4♠X N +1, lead ♥10, NS +590."""
    if result is None:
        return None
    parts = {
        "pk": result.pk,
        "confirmed": result.confirmed,
        "ns_score": result.ns_score,
        "adjusted": result.is_adjusted,
        "passed": result.contract == PASS,
    }
    contract = parse_contract(result.contract) if result.contract else None
    if contract is not None:
        parts.update(
            level=contract.level,
            strain=SUIT_SYMBOL[contract.strain],
            strain_class=f"suit-{contract.strain.lower()}",
            double="X" * contract.doubled,
            declarer=result.declarer,
            made=made_text(contract.level, result.tricks),
        )
    if result.lead:
        parts.update(
            lead_suit=SUIT_SYMBOL[result.lead[0]],
            lead_class=f"suit-{result.lead[0].lower()}",
            lead_rank="10" if result.lead[1:] == "T" else result.lead[1:],
        )
    return parts


def _score_parts(ns_score: int | None) -> dict:
    if ns_score is None:
        return {"side": "", "points": None}
    if ns_score == 0:
        return {"side": "", "points": 0}
    return {"side": _("NS") if ns_score > 0 else _("EW"), "points": abs(ns_score)}


# --- one board ------------------------------------------------------------------------------


def _board_context(request, round_number: int, board_number: int, form=None) -> dict:
    table_code = request.table_code
    line = entry.resolve_line(
        table_code.section, round_number, table_code.table, board_number, table_code=table_code
    )
    tr = table_round.table_round(table_code, round_number)
    rows = Result.objects.filter(
        section=line.section,
        round=round_number,
        board=line.board,
        ns=line.ns,
        ew=line.ew,
        status__in=[ResultStatus.OK, ResultStatus.CONFLICT],
    )
    stored = next((r for r in rows if r.status == ResultStatus.OK), None)
    conflict = any(r.status == ResultStatus.CONFLICT for r in rows)
    tournament = line.section.session.tournament
    choices = table_corrections.table_choices(stored)  # state, correct, reject
    to_confirm = tournament.opponent_confirmation and choices["state"] == table_corrections.ENTERED
    show_traveller = stored is not None and tournament.show_traveller and not to_confirm
    # Other tables' results only once every table has played the board (its own result the
    # table sees above).
    in_play = show_traveller and not board_visibility.may_see_board(
        table_code, table_code.section.session, line.board.pool, line.board.number
    )
    later = [b.board.number for b in tr.boards if not b.done and b.board.number != board_number]
    if form is None and stored is None:
        form = ResultForm(
            initial={
                "round": round_number,
                "board": board_number,
                "idempotency_key": uuid.uuid4().hex,
            }
        )
    return {
        "table_code": table_code,
        "tr": tr,
        "line": line,
        "board": line.board,
        "round": round_number,
        "form": form,
        "stored": _result_parts(stored),
        "score": _score_parts(stored.ns_score if stored else None),
        "conflict": conflict,
        "to_confirm": to_confirm,
        "table_state": choices,
        "correct_form": _correct_form(stored, round_number, board_number)
        if choices["can_correct"]
        else None,
        "traveller": _traveller(line.board) if show_traveller and not in_play else None,
        "in_play": in_play,
        "next_board": later[0] if later else None,
        "round_boards": [b.board.number for b in tr.boards],
        "choices": {
            "levels": LEVELS,
            "strains": STRAINS,
            "doubles": DOUBLES,
            "seats": SEATS,
            "lead_suits": LEAD_SUITS,
            "lead_ranks": LEAD_RANKS,
            "made": MADE,
        },
        "js_text": js_text(),
        "ask_lead": tournament.ask_lead,
    }


def _correct_form(stored: Result, round_number: int, board_number: int) -> ResultForm:
    """The pad again, showing the saved result, for the table's correction."""
    initial = {
        "round": round_number,
        "board": board_number,
        "idempotency_key": uuid.uuid4().hex,
        "level": stored.contract or PASS,
    }
    contract = parse_contract(stored.contract) if stored.contract else None
    if contract is not None:
        made = made_text(contract.level, stored.tricks).replace("−", "-")
        initial.update(
            level=str(contract.level),
            strain=contract.strain,
            double="X" * contract.doubled,
            declarer=stored.declarer,
            made=made,
            lead_suit=stored.lead[:1],
            lead_rank=stored.lead[1:],
        )
    return ResultForm(initial=initial)


def _traveller(board) -> dict:
    """The table's traveller; an adjusted score stands alone, the table's score it replaced
    shown struck through (``replaced``), not as a score."""
    rows, top = table_round.traveller(board)
    out = []
    for row in rows:
        result = row["result"]
        gone = replaced(result.ns_score, result.adjustment)
        out.append(
            row
            | {
                "parts": _result_parts(result),
                "replaced": gone,
                "score": _score_parts(None if gone else result.ns_score),
            }
        )
    return {"top": top, "rows": out}


def _submit(request, form: ResultForm) -> entry.Submission:
    """Hand a valid form to the service; its refusals land on the form's fields."""
    data = form.cleaned_data
    try:
        return entry.submit_result(
            table_code=request.table_code,
            round=data["round"],
            board=data["board"],
            contract=data["contract"],
            declarer=data["declarer"],
            tricks=data["tricks"],
            lead=data["lead"] if request.table_code.section.session.tournament.ask_lead else "",
            idempotency_key=data["idempotency_key"],
        )
    except InvalidResult as exc:
        form.add_error(FORM_FIELD.get(exc.field), exc.message)
        return None


@table_device_required
def board(request, round, board):
    """The board screen: the entry buttons, or the saved result with the opponents' tap
    and the traveller. Posting here is the path without JavaScript."""
    if request.method == "POST":
        form = ResultForm(request.POST)
        if form.is_valid():
            if (form.cleaned_data["round"], form.cleaned_data["board"]) != (round, board):
                return refuse(request, _("This form belongs to another board."))
            try:
                submission = _submit(request, form)
            except (KeyReused, play_order.RoundNotOpen) as exc:
                form.add_error(None, str(exc))
                return render(
                    request,
                    "tournaments/table/board.html",
                    _board_context(request, round, board, form),
                    status=409,
                )
            if submission is not None:
                if submission.outcome in ("created", "duplicate"):
                    messages.success(request, _("Board %(board)s saved.") % {"board": board})
                else:
                    messages.warning(request, js_text()["conflict"])
                return redirect("table:board", round=round, board=board)
        return render(
            request,
            "tournaments/table/board.html",
            _board_context(request, round, board, form),
            status=400,
        )
    try:
        context = _board_context(request, round, board)
    except InvalidResult as exc:
        return render(
            request, "tournaments/table/refused.html", {"message": exc.message}, status=404
        )
    return render(request, "tournaments/table/board.html", context)


@table_device_required
@require_POST
def preview(request):
    """The score of what the buttons say, before saving (htmx): the server's Law 77 only."""
    form = ResultForm(request.POST)
    context = {"complete": form.is_complete(), "error": None, "score": None}
    if context["complete"]:
        if form.is_valid():
            data = form.cleaned_data
            table_code = request.table_code
            try:
                line = entry.resolve_line(
                    table_code.section,
                    data["round"],
                    table_code.table,
                    data["board"],
                    table_code=table_code,
                )
                scored = entry.scored(
                    line.board, data["contract"], data["declarer"], data["tricks"]
                )
            except InvalidResult as exc:
                context["error"] = exc.message
            else:
                context["score"] = _score_parts(scored["ns_score"])
        else:
            context["error"] = next(iter(form.errors.values()))[0]
    return render(request, "tournaments/table/_preview.html", context)


def _payload(request):
    """The posted fields: a JSON object (read through ``read_json``, which caps size and
    nesting and refuses what cannot be stored) or the form; ``BadJSON`` says why not."""
    if request.content_type == "application/json":
        data = read_json(request)
        if not isinstance(data, dict):
            raise BadJSON(_("Not a result."))
        return data
    return request.POST


@table_device_required
@require_POST
def result(request):
    """The JSON endpoint table.js posts to (and posts again until it hears back)."""
    try:
        data = _payload(request)
    except BadJSON as exc:
        return JsonResponse({"errors": {"__all__": [str(exc)]}}, status=400)
    form = ResultForm(data)
    try:
        submission = _submit(request, form) if form.is_valid() else None
    except KeyReused as exc:
        # Not a replay: the device must not mark its entry as sent, and nothing was stored.
        return JsonResponse(
            {"outcome": "key_reused", "error": exc.message, "errors": {"__all__": [exc.message]}},
            status=409,
        )
    except play_order.RoundNotOpen as exc:
        # Nothing stored; the device keeps it waiting and sends it again once the round
        # before is complete (offline_queue.js), so a result typed ahead is not lost.
        return JsonResponse({"outcome": "round_not_open", "error": str(exc)}, status=409)
    if submission is None:
        return JsonResponse(
            {"errors": {field: [str(e) for e in errors] for field, errors in form.errors.items()}},
            status=400,
        )
    outcome = submission.outcome
    if outcome not in ("created", "duplicate", "conflict"):
        # The key's row was later decided by the director: replaced means it had been stored.
        outcome = "duplicate" if outcome == ResultStatus.SUPERSEDED else "conflict"
    round_number, board_number = form.cleaned_data["round"], form.cleaned_data["board"]
    answer = {
        "outcome": outcome,
        "ns_score": submission.result.ns_score,
        "board": board_number,
        "round": round_number,
        "result": submission.result.pk,
        "url": reverse("table:board", kwargs={"round": round_number, "board": board_number}),
    }
    if outcome != "created":
        answer["stored"] = _stored_line(submission.result)
    return JsonResponse(answer, status=201 if outcome == "created" else 200)


def _stored_line(row: Result) -> dict:
    """The line as stored, sent back with every answer: a device that replays a post sees
    the result it is told is a duplicate of (contract, score, who entered it and when)."""
    who = (
        row.entered_by_table.label
        if row.entered_by_table_id
        else (
            row.entered_by.get_full_name() or row.entered_by.get_username()
            if row.entered_by_id
            else ""
        )
    )
    return {
        "round": row.round,
        "board": row.board.number,
        "table": row.table,
        "contract": row.contract,
        "declarer": row.declarer,
        "tricks": row.tricks,
        "lead": row.lead,
        "ns_score": row.ns_score,
        "adjusted": row.is_adjusted,
        "status": row.status,
        "entered_by": who,
        "entered_at": timezone.localtime(row.entered_at).isoformat(timespec="seconds"),
    }


@table_device_required
@require_POST
def confirm(request, pk):
    """The opponents' tap: they agree with the result shown."""
    row = get_object_or_404(Result, pk=pk, status=ResultStatus.OK)
    if not table_corrections.may_confirm(row):
        raise NotAllowed(_("The opponents rejected this result: the director will decide."))
    entry.confirm_result(row, table_code=request.table_code)
    board_url = reverse("table:board", kwargs={"round": row.round, "board": row.board.number})
    if wants_json(request):  # table.js's queue, sending a tap made offline
        return JsonResponse({"confirmed": True, "result": row.pk, "url": board_url})
    return redirect(board_url)

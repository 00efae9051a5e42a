"""The table device: the guard every table view wears, and what all the table's pages share.

Below ``table`` (a pairs table's pages) and ``teams_table`` (a teams table's match and
line-ups), so the two never import each other.
"""

from functools import wraps

from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite.accounts.permissions import declare
from tournaments.forms.table import SEATS, STRAINS
from tournaments.models import TableCode
from tournaments.services.errors import NotAllowed
from tournaments.services.table import entry

SESSION_KEY = "tournaments.table_code"
LEFT_KEY = "tournaments.table_left"  # set once by leaving: the next page forgets the kept pages
SUIT_WORDS = dict(STRAINS)  # NT in the reader's language (SA, ST)
TABLE_DEVICE = "table device"


def wants_json(request) -> bool:
    return (
        "application/json" in request.headers.get("Accept", "")
        or request.content_type == "application/json"
    )


def refuse(request, message):
    if wants_json(request):
        return JsonResponse({"error": str(message)}, status=403)
    return render(request, "tournaments/table/refused.html", {"message": message}, status=403)


def signed_in_code(request) -> TableCode | None:
    code_id = request.session.get(SESSION_KEY)
    if code_id is None:
        return None
    return entry.first_row(
        TableCode.objects.select_related("section__session__tournament").filter(pk=code_id)
    )


def table_device_required(view):
    """A device signed in with an active code of a session in play; anything else is refused.

    The view finds the table code on ``request.table_code``; a ``NotAllowed`` from the
    services (another table's board, a round it does not play) becomes a 403 page.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        table_code = signed_in_code(request)
        if table_code is None:
            if request.method == "GET" and not wants_json(request):
                return redirect("table:index")
            return refuse(request, _("Sign in with the table code first."))
        if not table_code.active or not table_code.section.session.is_running:
            request.session.pop(SESSION_KEY, None)
            return refuse(
                request,
                _(
                    "This table code no longer works: the session is over "
                    "or the director gave the table a new code."
                ),
            )
        request.table_code = table_code
        try:
            return view(request, *args, **kwargs)
        except NotAllowed as exc:
            return refuse(request, str(exc) or _("This device cannot do that."))
        finally:
            # The request sits in reference cycles (its messages, its lazy user), so what
            # hangs on it waits for the cyclic collector; the code drags its section's whole
            # movement (about a thousand objects on a 40-table night), freed here at once.
            del request.table_code

    return declare(wrapper, (TABLE_DEVICE,))


def round_param(request) -> int | None:
    try:
        return int(request.GET["round"])
    except (KeyError, ValueError):
        return None


def js_text() -> dict:
    """The words table.js shows, translated here."""
    return {
        "waiting": _(
            "Waiting to send: kept on this device, it will be sent when the connection is back."
        ),
        "sending": _("Sending…"),
        "waiting_short": _("Waiting to send"),
        "saved_short": _("Saved"),
        "saved": _("Saved."),
        "conflict": _(
            "A different result was already stored for this board: yours was sent "
            "to the director, who will decide."
        ),
        "refused": _("The server refused this result:"),
        "invalid": _("Please correct the result; nothing was saved."),
        "all_saved": _("Every result is saved."),
        "pending": _("Waiting to be sent: %(count)s"),
        "needs_you": _("Some results were not stored: see the list."),
        "conflict_director": _(
            "Conflict: a different result is stored for this board. Ask the director."
        ),
        "conflict_short": _("Conflict: ask the director"),
        "confirm_waiting": _("East-West's confirmation is waiting to be sent."),
        "correct_waiting": _("The correction is waiting to be sent."),
        "dispute_waiting": _("East-West's rejection is waiting to be sent to the director."),
        "offline_preview": _("No connection: the score will be shown once it is back."),
        "discard": _("Discard"),
        "choose": _("Choose the contract, the declarer and the result to see the score."),
        "ns": _("NS"),
        "ew": _("EW"),
        "next_board": _("Next: board %(number)s"),
        "nt": str(SUIT_WORDS["NT"]),
        "back": _("Back"),
        "passed": _("Passed out"),
        "seats": {seat: str(name) for seat, name in SEATS},
        "correcting": _(
            "Change the result and save it: East-West will be asked to confirm it again."
        ),
        "call_offline": _(
            "No connection: the call was not sent. Raise your hand for the director."
        ),
        "replaced": _(
            "The correction replaced the result waiting to be sent: East-West, confirm it again."
        ),
        "board": _("Board %(board)s"),
    }

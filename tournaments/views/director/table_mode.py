"""The director's side of table mode: answering a table's call, and the PIN that lets a
device leave its table."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from tournaments.models import DirectorCall
from tournaments.services.table import director_calls
from tournaments.views.director.common import get_session


class TablePinForm(forms.Form):
    table_pin = forms.RegexField(
        label=gettext_lazy("Table PIN"),
        regex=r"^\d{4,8}$",
        required=False,
        error_messages={"invalid": gettext_lazy("The PIN is 4 to 8 digits.")},
        help_text=gettext_lazy(
            "Typed on a table's device to leave table mode; empty: any device may leave."
        ),
    )


@director_required
@require_POST
def answer_call(request, pk):
    """The director went to the table: the call leaves the console and the table's screen."""
    call = get_object_or_404(DirectorCall.objects.select_related("section"), pk=pk)
    director_calls.answer(call, user=request.user)
    messages.success(
        request,
        _("Table %(letter)s%(table)s: call answered.")
        % {"letter": call.section.letter, "table": call.table},
    )
    return redirect("director:console", call.session_id)


@director_required
@require_POST
def table_pin(request, pk):
    """Set (or clear) the session's PIN for leaving table mode."""
    session = get_session(pk)
    form = TablePinForm(request.POST)
    if form.is_valid():
        session.table_pin = form.cleaned_data["table_pin"]
        session.save(update_fields=["table_pin"])
        messages.success(request, _("Table PIN saved."))
    else:
        messages.error(request, form.errors["table_pin"][0])
    return redirect("director:console", session.pk)

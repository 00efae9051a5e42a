"""The director's results mail: the preview of every mail, the sending, and the record.

Views speak HTTP and check the role; the rules are in ``services.results_mail``.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubsite.accounts.permissions import director_required
from clubsite.models import Club
from tournaments.forms.results import MailingVersionForm
from tournaments.services.errors import TournamentError
from tournaments.services.mail import mail_texts, results_mail
from tournaments.views.director.common import get_tournament


def _base_url(request) -> str:
    return Club.for_pages().site_url or request.build_absolute_uri("/").rstrip("/")


@director_required
def preview(request, pk):
    """Each mail as it would go out, in its member's language, and who is left out; nothing
    is sent from here. Below, the mailings already sent and each mail's state."""
    tournament = get_tournament(pk)
    shown, problem = None, ""
    try:
        shown = results_mail.preview(tournament, _base_url(request))
    except TournamentError as exc:
        problem = exc.message
    changes = [mail_texts.change_text(c) for c in shown.changes] if shown else []
    return render(
        request,
        "tournaments/director/results_mail.html",
        {
            "tournament": tournament,
            "preview": shown,
            "problem": problem,
            "changes": changes,
            "history": results_mail.history(tournament),
        },
    )


@director_required
@require_POST
def send(request, pk):
    """Send the mailing previewed (its results version posted back with the button)."""
    tournament = get_tournament(pk)
    form = MailingVersionForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _(
                "The results changed after this preview was made: read the "
                "new preview and send again."
            ),
        )
        return redirect("director:results_mail", tournament.pk)
    try:
        mailing = results_mail.confirm(
            tournament,
            version=form.cleaned_data["version"],
            user=request.user,
            base_url=_base_url(request),
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("director:results_mail", tournament.pk)
    count = mailing.mails.count()
    messages.success(
        request,
        ngettext("%(count)d mail is being sent.", "%(count)d mails are being sent.", count)
        % {"count": count},
    )
    return redirect(
        reverse("director:results_mail", args=[tournament.pk]) + f"#mailing-{mailing.pk}"
    )

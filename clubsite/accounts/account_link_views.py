"""The page where an account's owner confirms or declines a club's link (``account_links``)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubsite.accounts import account_links
from clubsite.accounts.permissions import login_required

ANSWERS = {"confirm": account_links.confirm, "decline": account_links.decline}


@login_required
def account_link(request, token):
    """Which club asks, as which member; the owner's answer by POST. Anyone else signed in,
    a used, expired, altered or other club's link: refused, with why, nothing changed."""
    try:
        link = account_links.read(token, request.user)
    except account_links.LinkRefused as refusal:
        return _refused(request, refusal)
    if request.method == "POST":
        answer = ANSWERS.get(request.POST.get("answer", ""))
        if answer is None:
            messages.error(request, _("Choose to confirm or to decline."))
            return redirect(request.path)
        try:
            answered = answer(token, request.user)
        except account_links.LinkRefused as refusal:
            return _refused(request, refusal)
        names = {"club": answered.member.club.name, "member": answered.member.full_name}
        if answered.state == "confirmed":
            messages.success(
                request, _("Your account is now linked to %(club)s as %(member)s.") % names
            )
            return redirect("clubsite:profile")
        messages.success(request, _("You declined: nothing was linked to %(club)s.") % names)
        return redirect("home")
    return render(
        request,
        "clubsite/account_link.html",
        {"link": link, "club": link.member.club, "member": link.member},
    )


def _refused(request, refusal):
    return render(
        request, "clubsite/account_link.html", {"refusal": refusal.message}, status=refusal.status
    )

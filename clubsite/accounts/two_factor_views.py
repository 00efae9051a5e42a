"""The two-factor pages: the second step of signing in, setting up an authenticator app,
and the recovery codes. The rules are in ``two_factor``; these pages only ask and show."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubsite.accounts import two_factor
from clubsite.accounts.permissions import login_required
from clubsite.members.forms import SecondFactorForm


def _next(request) -> str:
    """Where to go once the step is done: the page first asked for, if it is ours."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def _may_change(request) -> bool:
    """A new authenticator needs the old one's proof first: a password alone (perhaps a
    stolen one) must not be enough to move the second factor to another phone."""
    return two_factor.is_verified(request) or not two_factor.has_authenticator(request.user)


@never_cache
@login_required
def verify(request):
    if two_factor.is_verified(request):
        return redirect(_next(request))
    if not two_factor.has_authenticator(request.user):
        return redirect(f"{reverse('two_factor_setup')}?{request.GET.urlencode()}")
    recovery = request.GET.get("with") == "recovery"
    form = SecondFactorForm(request.POST or None, recovery=recovery)
    if request.method == "POST" and form.is_valid():
        problem = two_factor.check_code(request, form.cleaned_data["code"], recovery=recovery)
        if problem is None:
            if recovery:
                left = two_factor.remaining_recovery_codes(request.user)
                messages.warning(
                    request,
                    ngettext(
                        "You signed in with a recovery code; %(left)d is left. Make new ones "
                        "from “Two-factor sign-in” before it runs out.",
                        "You signed in with a recovery code; %(left)d are left. Make new ones "
                        "from “Two-factor sign-in” if you are running out.",
                        left,
                    )
                    % {"left": left},
                )
            return redirect(_next(request))
        form.add_error("code", problem)
    return render(
        request,
        "registration/two_factor_verify.html",
        {"form": form, "recovery": recovery, "next": _next(request)},
    )


@never_cache
@login_required
def setup(request):
    if not _may_change(request):
        messages.info(request, _("Prove your current authenticator app first."))
        return redirect("two_factor_verify")
    form = SecondFactorForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        had_codes = two_factor.remaining_recovery_codes(request.user) > 0
        codes = two_factor.confirm_authenticator(request, form.cleaned_data["code"])
        if isinstance(codes, list):
            request.session[two_factor.FRESH_CODES] = {"codes": codes, "replaced": had_codes}
            messages.success(request, _("Two-factor sign-in is on."))
            return redirect(f"{reverse('two_factor_codes')}?{urlencode({'next': _next(request)})}")
        form.add_error("code", codes)
    pending = two_factor.pending_authenticator(request)
    return render(
        request,
        "registration/two_factor_setup.html",
        {
            "form": form,
            "next": _next(request),
            "secret": two_factor.secret_for_typing(pending),
            "app_link": pending.config_url,  # opens the app on the phone showing this page
            "replacing": two_factor.has_authenticator(request.user),
            "must": two_factor.staff_must(request.user),
        },
    )


@never_cache
@login_required
def qr(request):
    if not _may_change(request):
        return HttpResponse(status=403)
    svg = two_factor.qr_svg(two_factor.pending_authenticator(request))
    return HttpResponse(svg, content_type="image/svg+xml")


@never_cache
@login_required
def codes(request):
    """The recovery codes just made, shown this once; POST makes new ones (only a session
    that gave the second factor gets here: the middleware holds the others)."""
    if request.method == "POST":
        if not two_factor.has_authenticator(request.user) or not two_factor.is_verified(request):
            return redirect("two_factor_manage")
        request.session[two_factor.FRESH_CODES] = {
            "codes": two_factor.new_recovery_codes(request.user),
            "replaced": True,
        }
        return redirect("two_factor_codes")
    fresh = request.session.pop(two_factor.FRESH_CODES, None)
    if not fresh:
        return redirect("two_factor_manage")
    return render(
        request,
        "registration/two_factor_codes.html",
        {"codes": fresh["codes"], "replaced": fresh["replaced"], "next": _next(request)},
    )


@never_cache
@login_required
def manage(request):
    return render(
        request,
        "registration/two_factor_manage.html",
        {
            "on": two_factor.has_authenticator(request.user),
            "must": two_factor.staff_must(request.user),
            "left": two_factor.remaining_recovery_codes(request.user),
        },
    )


@require_POST
@login_required
def turn_off(request):
    """Players may turn it off again; staff may not while it is required of them."""
    if two_factor.staff_must(request.user):
        messages.error(request, _("Your role requires two-factor sign-in."))
    elif two_factor.has_authenticator(request.user) and not two_factor.is_verified(request):
        return redirect("two_factor_verify")  # the middleware's answer too; kept here as well
    else:
        two_factor.turn_off(request.user)
        messages.success(request, _("Two-factor sign-in is off."))
    return redirect("two_factor_manage")

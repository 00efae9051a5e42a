"""Views of the club app: HTTP and permissions only; the rules live in services and roster."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from simple_history.utils import update_change_reason

from clubsite.accounts import account_links
from clubsite.accounts.member_accounts import AlreadyAsked, AlreadyLinked, open_player_account
from clubsite.accounts.permissions import (
    federations_of,
    login_required,
    public,
    secretary_required,
)
from clubsite.mail import reminders
from clubsite.members import columns, services
from clubsite.members.exports import csv_response
from clubsite.members.filters import MemberFilter
from clubsite.members.forms import (
    CategoryFormSet,
    ClubForm,
    FeeFormSet,
    MemberForm,
    PaymentForm,
    ProfileForm,
    RosterUploadForm,
)
from clubsite.members.roster_import import RosterPreview, commit_roster, read_roster
from clubsite.members.tables import MemberTable
from clubsite.models import Category, Club, Licence, Member, Payment, Season
from clubsite.tenancy import current_club_id
from clubsite.web.collation import Collated, collated
from clubsite.web.params import int_param

ROSTER_SESSION_KEY = "clubsite.roster_preview"


@public
def home(request):
    """The club's front page: what each visitor can do from here."""
    context = {}
    if request.user.is_authenticated:
        context["member"] = Member.objects.filter(user=request.user).first()
    return render(request, "clubsite/home.html", context)


def _filtered_members(request, season):
    queryset = services.members_with_licence_state(season)
    return MemberFilter(request.GET or None, queryset=queryset)


@secretary_required
def member_list(request):
    """The secretary's member list: filter, sort, page, select for renewal, export."""
    season = Season.current()
    member_filter = _filtered_members(request, season)
    table = MemberTable(
        member_filter.qs.annotate(
            last_name_sort=Collated("last_name"), first_name_sort=Collated("first_name")
        )
    )
    RequestConfig(request, paginate={"per_page": _per_page(request)}).configure(table)
    without_valid = services.members_without_valid_licence(season).count()
    return render(
        request,
        "clubsite/member_list.html",
        {
            "filter": member_filter,
            "table": table,
            "season": season,
            "without_valid": without_valid,
            "next_season": season.next(),
        },
    )


def _per_page(request) -> int:
    try:
        return max(10, min(200, int(request.GET.get("per_page", 25))))
    except ValueError:
        return 25


@secretary_required
def member_export(request):
    """The filtered member list as CSV (formula-safe)."""
    season = Season.current()
    members = _filtered_members(request, season).qs.order_by(*collated("last_name", "first_name"))
    rows = (columns.csv_row(m) for m in members)
    stamp = timezone.localdate().isoformat()
    return csv_response(request, f"members-{stamp}.csv", columns.csv_header(), rows)


@secretary_required
def member_create(request):
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        member = form.save()
        messages.success(request, _("Member %(name)s created.") % {"name": member})
        return redirect(member)
    return render(request, "clubsite/member_form.html", {"form": form})


@secretary_required
def member_edit(request, pk):
    member = get_object_or_404(Member, pk=pk)
    form = MemberForm(request.POST or None, instance=member)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Changes saved."))
        return redirect(member)
    return render(request, "clubsite/member_form.html", {"form": form, "member": member})


@secretary_required
def member_detail(request, pk):
    member = get_object_or_404(Member.objects.select_related("category", "user"), pk=pk)
    season = Season.current()
    current_licence = Licence.objects.filter(member=member, season=season).first()
    link = None if member.user_id else account_links.latest_for(member)
    return render(
        request,
        "clubsite/member_detail.html",
        {
            "member": member,
            "season": season,
            "licences": member.licences.select_related("season", "category"),
            "payments": member.payments.select_related("season", "recorded_by"),
            "current_licence": current_licence,
            "can_renew": services.can_renew(member, current_licence),
            "renewal_refusal": services.renewal_refusal(member),
            "payment_form": PaymentForm(
                initial={"season": season, "paid_on": timezone.localdate()}
            ),
            "account_link": link,
            "account_link_expired": link is not None and account_links.expired(link),
        },
    )


@secretary_required
@require_POST
def licence_renew(request, pk):
    """Request the member's licence for the current season (or the one posted)."""
    member = get_object_or_404(Member, pk=pk)
    season = get_object_or_404(Season, pk=int_param(request.POST, "season") or Season.current().pk)
    refusal = services.renewal_refusal(member)
    if refusal:
        messages.error(request, refusal)
        return redirect(member)
    licence = services.renew_licence(member, season)
    messages.success(
        request,
        _("Licence for %(season)s: %(status)s.")
        % {"season": season, "status": licence.get_status_display()},
    )
    return redirect(member)


@secretary_required
@require_POST
def account_open(request, pk):
    """Give the member a Player login; they set the password from the mailed link. A player
    with an account at another club is asked by mail to confirm joining it instead."""
    member = get_object_or_404(Member, pk=pk)
    try:
        opened = open_player_account(member, request)
    except AlreadyLinked:
        messages.error(request, _("This member already has a user account."))
        return redirect(member)
    except AlreadyAsked:
        messages.error(
            request,
            _("The player was already asked to confirm the link; you can send the mail again."),
        )
        return redirect(member)
    user = opened.user
    if opened.waiting is not None:
        messages.success(
            request,
            _(
                "This player already has an account at another club. We have mailed them to "
                "confirm linking it to this member; nothing is linked until they do."
            ),
        )
    elif member.email:
        messages.success(
            request,
            _("Account %(username)s created; a link to set the password was sent to %(email)s.")
            % {"username": user.username, "email": member.email},
        )
    else:
        messages.warning(
            request,
            _(
                "Account %(username)s created, but the member has no email: "
                "add one and use “Forgot your password?” to set it."
            )
            % {"username": user.username},
        )
    return redirect(member)


@secretary_required
@require_POST
def account_link_resend(request, pk):
    """Mail the player's confirmation link again (the old link stops working)."""
    member = get_object_or_404(Member, pk=pk)
    if account_links.send_again(member, request=request) is None:
        messages.error(request, _("No confirmation is waiting for this member."))
    else:
        messages.success(request, _("The confirmation mail was sent again."))
    return redirect(member)


@secretary_required
def categories(request):
    """Member categories (junior, senior, …) that fees and licences depend on."""
    formset = CategoryFormSet(request.POST or None, queryset=Category.objects.all())
    if request.method == "POST" and formset.is_valid():
        formset.save()
        messages.success(request, _("Categories saved."))
        return redirect("clubsite:categories")
    return render(request, "clubsite/categories.html", {"formset": formset})


@secretary_required
def payment_create(request, pk):
    member = get_object_or_404(Member, pk=pk)
    form = PaymentForm(
        request.POST or None, initial={"season": Season.current(), "paid_on": timezone.localdate()}
    )
    if request.method == "POST" and form.is_valid():
        services.record_payment(member=member, recorded_by=request.user, **form.cleaned_data)
        messages.success(request, _("Payment recorded."))
        return redirect(member)
    return render(request, "clubsite/payment_form.html", {"form": form, "member": member})


@secretary_required
def licences_renew(request):
    """Bulk renewal: the selected members, or everyone proposed, for the chosen season."""
    current = Season.current()
    season = current.next() if request.GET.get("season") != "current" else current
    if request.method == "POST":
        season = get_object_or_404(Season, pk=int_param(request.POST, "season", 0))
        ids = [
            i
            for i in request.POST.getlist("select") or request.POST.getlist("member")
            if i.isascii() and i.isdigit() and len(i) < 12
        ]
        chosen = Member.objects.filter(pk__in=ids)
        members = chosen.filter(category__isnull=False)
        for member in chosen.filter(category__isnull=True):
            messages.error(request, services.renewal_refusal(member))
        with transaction.atomic():
            licences = services.renew_licences(members, season)
        messages.success(
            request,
            _("%(count)d licences requested for %(season)s.")
            % {"count": len(licences), "season": season},
        )
        return redirect("clubsite:member_list")
    proposed = services.members_to_renew(season).select_related("category")
    return render(
        request,
        "clubsite/licences_renew.html",
        {
            "season": season,
            "current": current,
            "proposed": proposed,
        },
    )


@secretary_required
def roster_import(request):
    """Upload → preview with every bad row; nothing is stored until the secretary confirms."""
    form = RosterUploadForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        preview = read_roster(upload.read(), upload.name)
        if preview.ok:
            request.session[ROSTER_SESSION_KEY] = preview.to_session()
        else:
            request.session.pop(ROSTER_SESSION_KEY, None)
    return render(
        request,
        "clubsite/roster_import.html",
        {
            "form": form,
            "preview": preview,
            "season": Season.current(),
        },
    )


@secretary_required
@require_POST
def roster_confirm(request):
    data = request.session.pop(ROSTER_SESSION_KEY, None)
    if not data:
        messages.error(request, _("Upload the roster file again: the preview has expired."))
        return redirect("clubsite:roster_import")
    counts = commit_roster(RosterPreview.from_session(data), Season.current())
    messages.success(
        request, _("Roster imported: %(created)d new members, %(updated)d updated.") % counts
    )
    return redirect("clubsite:member_list")


@secretary_required
def arrears(request):
    season = Season.current()
    rows = services.arrears(season)
    return render(
        request,
        "clubsite/arrears.html",
        {
            "season": season,
            "rows": rows,
            "total": sum((r.balance for r in rows), 0),
        },
    )


@secretary_required
def arrears_preview(request):
    """Every reminder mail as it would go out, with its recipient: the secretary ticks the
    ones to send. Nothing is sent from here."""
    season = Season.current()
    drafts = reminders.drafts(season, request.LANGUAGE_CODE)
    return render(
        request,
        "clubsite/arrears_preview.html",
        {
            "season": season,
            "drafts": drafts,
            "mailable": sum(1 for d in drafts if d.can_mail and not d.already_sent),
        },
    )


@secretary_required
@require_POST
def arrears_remind(request):
    """Send the reminders ticked on the preview (recorded first; a worker mails them)."""
    from clubsite.tasks import send_arrears_reminders

    season = Season.current()
    chosen = [v for v in request.POST.getlist("member") if v.isdigit()]
    again = [v for v in request.POST.getlist("again") if v.isdigit()]
    rows = (
        reminders.queue(
            season,
            members=chosen + again,
            again=again,
            user=request.user,
            language=request.LANGUAGE_CODE,
        )
        if chosen or again
        else []
    )
    if not rows:
        messages.error(
            request, _("No reminder was sent: tick the members to remind on the preview.")
        )
        return redirect("clubsite:arrears_preview")
    ids = [row.pk for row in rows]
    transaction.on_commit(lambda: send_arrears_reminders.delay(ids))
    messages.success(
        request,
        ngettext(
            "%(count)d reminder is being sent.", "%(count)d reminders are being sent.", len(ids)
        )
        % {"count": len(ids)},
    )
    return redirect("clubsite:arrears_sent")


@secretary_required
def arrears_sent(request):
    """The record of reminders: when, asked by whom, to whom, for which debt, mailed or not."""
    season = Season.current()
    page = Paginator(reminders.history(season), 50).get_page(request.GET.get("page"))
    return render(request, "clubsite/arrears_sent.html", {"season": season, "page": page})


@secretary_required
def fee_schedule(request):
    seasons = list(Season.objects.all())
    season = get_object_or_404(Season, pk=int_param(request.GET, "season") or Season.current().pk)
    formset = FeeFormSet(request.POST or None, instance=season)
    if request.method == "POST" and formset.is_valid():
        formset.save()
        messages.success(request, _("Fee schedule saved."))
        return redirect(f"{request.path}?season={season.pk}")
    return render(
        request,
        "clubsite/fee_schedule.html",
        {
            "season": season,
            "seasons": seasons,
            "formset": formset,
        },
    )


@secretary_required
def club_settings(request):
    form = ClubForm(request.POST or None, instance=Club.current())
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Club settings saved."))
        return redirect("clubsite:club_settings")
    return render(request, "clubsite/club_settings.html", {"form": form})


@secretary_required
def audit_log(request):
    """Who changed what on members, licences and payments, newest first."""
    limit = 200
    records = []
    # The history tables are not scoped: the club's members, deleted ones too, pick its rows.
    members = Member.history.filter(club_id=current_club_id()).values("id")
    for model, by_member in (
        (Member, "id__in"),
        (Licence, "member_id__in"),
        (Payment, "member_id__in"),
    ):
        rows = model.history.filter(**{by_member: members})
        latest = rows.select_related("history_user").order_by("-history_date")[:limit]
        records.extend((model._meta.verbose_name, record) for record in latest)
    records.sort(key=lambda pair: pair[1].history_date, reverse=True)
    entries = []
    for model_name, record in records[:limit]:
        previous = record.prev_record
        changes = []
        if previous is not None:
            changes = [(c.field, c.old, c.new) for c in record.diff_against(previous).changes]
        entries.append({"record": record, "model": model_name, "changes": changes})
    return render(request, "clubsite/audit_log.html", {"entries": entries})


@login_required
def profile(request):
    """A player's own contact details and consent — nothing else of their record."""
    member = Member.objects.filter(user=request.user).first()
    offices = federations_of(request.user)  # a federation's officer finds its pages here
    if member is None:
        return render(request, "clubsite/profile.html", {"member": None, "offices": offices})
    form = ProfileForm(request.POST or None, instance=member)
    if request.method == "POST" and form.is_valid():
        member = form.save(commit=False)
        if form.cleaned_data["privacy_consent"]:
            member.privacy_consent_on = member.privacy_consent_on or timezone.localdate()
        else:
            member.privacy_consent_on = None
        member.save()
        update_change_reason(member, "profile")
        messages.success(request, _("Your details were saved."))
        return redirect("clubsite:profile")
    return render(
        request, "clubsite/profile.html", {"member": member, "form": form, "offices": offices}
    )

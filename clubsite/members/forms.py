"""Forms of the club app; their messages are translated, and a bound form keeps what was typed."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clubsite.models import Category, Club, Fee, Member, Payment, Season
from clubsite.web.club_forms import ClubModelForm


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class MemberForm(ClubModelForm):
    class Meta:
        model = Member
        fields = [
            "first_name",
            "last_name",
            "licence_number",
            "category",
            "status",
            "is_guest",
            "home_club",
            "email",
            "phone",
            "language",
            "birth_date",
            "gender",
            "joined_on",
            "privacy_consent_on",
            "notes",
        ]
        widgets = {
            "birth_date": DateInput(),
            "joined_on": DateInput(),
            "privacy_consent_on": DateInput(),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        club_language_first(self.fields["language"])

    def clean_licence_number(self):
        number = self.cleaned_data["licence_number"].strip()
        if (
            number
            and Member.objects.filter(licence_number=number).exclude(pk=self.instance.pk).exists()
        ):
            raise forms.ValidationError(
                _("Another member already has licence number %(number)s."),
                params={"number": number},
                code="duplicate",
            )
        return number


def club_language_first(field) -> None:
    """The language of mails' empty choice, named: the club's language."""
    field.choices = [("", _("the club's language")), *settings.LANGUAGES]


class ProfileForm(ClubModelForm):
    """What a player may change about themselves: contact details, consent, the language
    of the club's mails and whether results come by mail."""

    privacy_consent = forms.BooleanField(
        label=_("I consent to the club keeping my data to run its events"), required=False
    )

    class Meta:
        model = Member
        fields = ["email", "phone", "language", "results_mail"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["privacy_consent"].initial = bool(self.instance.privacy_consent_on)
        club_language_first(self.fields["language"])


class PaymentForm(ClubModelForm):
    class Meta:
        model = Payment
        fields = ["season", "kind", "amount", "method", "paid_on", "note"]
        widgets = {"paid_on": DateInput()}

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount <= 0:
            raise forms.ValidationError(_("The amount must be greater than zero."))
        return amount


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Roster file (CSV or XLSX)"),
        help_text=_(
            "First row: column names. Required columns: licence number, last name, "
            "first name. Optional: email, phone, birth date, category, licence status."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".csv", ".txt", ".xlsx", ".xlsm")):
            raise forms.ValidationError(_("Choose a CSV or XLSX file."))
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


class ClubForm(ClubModelForm):
    class Meta:
        model = Club
        fields = [
            "name",
            "federation_club_id",
            "address",
            "season_start_month",
            "contact_email",
            "contact_phone",
            "secretaries_create_tournaments",
        ]
        widgets = {"address": forms.Textarea(attrs={"rows": 3})}

    def clean_season_start_month(self):
        month = self.cleaned_data["season_start_month"]
        if not 1 <= month <= 12:
            raise forms.ValidationError(_("Give a month from 1 to 12."))
        return month


class FeeForm(ClubModelForm):
    """A line of the schedule; a fee change mid-season is a new line with its first day."""

    class Meta:
        model = Fee
        fields = ["kind", "category", "amount", "effective_from"]
        widgets = {"effective_from": DateInput()}


FeeFormSet = forms.inlineformset_factory(Season, Fee, form=FeeForm, extra=2, can_delete=True)


CategoryFormSet = forms.modelformset_factory(
    Category, fields=["code", "name"], extra=1, can_delete=False
)


class SecondFactorForm(forms.Form):
    """The six digits of an authenticator app, or (``recovery``) one recovery code."""

    code = forms.CharField(max_length=24, strip=True)

    def __init__(self, *args, recovery: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["code"]
        field.label = _("Recovery code") if recovery else _("Code from the app")
        field.widget.attrs.update(
            {
                "autocomplete": "off" if recovery else "one-time-code",
                "inputmode": "text" if recovery else "numeric",
                "autocapitalize": "off",
                "spellcheck": "false",
                "autofocus": True,
            }
        )

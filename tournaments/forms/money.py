"""Forms of table money: the season's rates, a top-up, closing and reopening a cash sheet,
a refund, and the report's period. Amounts accept "5,50" as well as "5.50"."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import Category, Season
from clubsite.web.club_forms import ClubModelForm
from tournaments.services.money.table_fees import TOP_UP_METHODS

from ..models import TableFeeRates, TableMethod

MAX = Decimal("99999.99")


class MoneyField(forms.DecimalField):
    """A decimal amount typed either way: "5,50" (Spanish, Portuguese) or "5.50"."""

    def to_python(self, value):
        if isinstance(value, str):
            text = value.strip().replace(" ", "")
            if "," in text and "." not in text and text.count(",") == 1:
                text = text.replace(",", ".")
            value = text
        return super().to_python(value)


def money_field(label, *, required=True, help_text=""):
    return MoneyField(
        label=label,
        required=required,
        min_value=Decimal("0"),
        max_value=MAX,
        max_digits=7,
        decimal_places=2,
        help_text=help_text,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "size": 8}),
        error_messages={
            "invalid": _("Give the amount as a number, such as 5.50."),
            "max_decimal_places": _("Give the amount in whole cents (two decimals at most)."),
        },
    )


class RatesForm(ClubModelForm):
    member_fee = money_field(_("Member"))
    guest_fee = money_field(_("Guest"))
    junior_fee = money_field(_("Junior"))

    class Meta:
        model = TableFeeRates
        fields = [
            "member_fee",
            "guest_fee",
            "junior_fee",
            "junior_categories",
            "free_categories",
            "overdraft_allowed",
        ]
        widgets = {
            "junior_categories": forms.CheckboxSelectMultiple,
            "free_categories": forms.CheckboxSelectMultiple,
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("junior_categories", "free_categories"):
            self.fields[name].queryset = Category.objects.all()

    def clean(self):
        data = super().clean()
        both = set(data.get("junior_categories") or []) & set(data.get("free_categories") or [])
        if both:
            raise forms.ValidationError(
                _("A category is either junior or free, not both: %(names)s.")
                % {"names": ", ".join(sorted(str(c) for c in both))}
            )
        return data


class TopUpForm(forms.Form):
    amount = money_field(_("Amount"))
    method = forms.ChoiceField(
        label=_("Paid by"),
        widget=forms.RadioSelect,
        choices=[(m.value, m.label) for m in TableMethod if m in TOP_UP_METHODS],
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class CloseSheetForm(forms.Form):
    counted_cash = money_field(_("Cash counted"))
    counted_card = money_field(_("Card receipts"))
    counted_transfer = money_field(_("Transfers received"))
    note = forms.CharField(
        label=_("Note"), required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2})
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Why"), max_length=500, error_messages={"required": _("Say why.")}
    )


class RefundForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=500, required=False)


class PeriodForm(forms.Form):
    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.none(), required=False, empty_label=None
    )
    month = forms.CharField(
        label=_("Month"),
        required=False,
        max_length=7,
        widget=forms.TextInput(
            attrs={"placeholder": "2025-03", "inputmode": "numeric", "autocomplete": "off"}
        ),
        help_text=_("Empty: the whole season."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.all()  # the club's, in the request

    def clean_month(self):
        text = (self.cleaned_data.get("month") or "").strip()
        if not text:
            return None
        parts = text.split("-")
        if (
            len(parts) != 2
            or not all(p.isascii() and p.isdigit() for p in parts)
            or not 1 <= int(parts[1]) <= 12
            or not 1900 <= int(parts[0]) <= 2999
        ):
            raise forms.ValidationError(_("Give the month as year-month, such as 2025-03."))
        return int(parts[0]), int(parts[1])

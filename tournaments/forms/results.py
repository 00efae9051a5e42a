"""The director's result forms: a result as the traveller shows it, penalties, reasons and
publishing; each may override the correction period (Law 79C)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..scoring import ScoringError, parse_contract
from ..services.boards.bridge_words import SEAT_WORDS

# The codes are posted and stored; the labels are the seat words of the active language (lazy,
# read when the form is shown): N, E, S, O in Spanish and Portuguese.
DECLARER_CHOICES = [("", "—")] + [(s, SEAT_WORDS[s]) for s in "NESW"]


def tricks_from(contract: str, result: str) -> int | None:
    """Tricks won by declarer from a contract and a result typed as ``=``, ``+1``, ``-2``
    (or a number of tricks 0–13). Raises ``forms.ValidationError``."""
    text = (result or "").strip().replace("−", "-").replace("–", "-")
    if not text:
        return None
    try:
        parsed = parse_contract(contract or "")
    except ScoringError as exc:
        raise forms.ValidationError(
            _("The contract is not valid (level 1–7, a strain, X or XX, or pass).")
        ) from exc
    if text.isdigit():
        tricks = int(text)
    elif parsed is None:
        return None
    elif text == "=":
        tricks = parsed.level + 6
    elif text[0] in "+-" and text[1:].isdigit():
        tricks = parsed.level + 6 + int(text)
    else:
        raise forms.ValidationError(_("Write the result as =, +1, -2 or the number of tricks."))
    if not 0 <= tricks <= 13:
        raise forms.ValidationError(_("Tricks won by declarer must be between 0 and 13."))
    return tricks


class OverrideMixin(forms.Form):
    override = forms.BooleanField(
        label=_("Override: change the results after the correction period (Law 79C)"),
        required=False,
    )


class ResultForm(OverrideMixin):
    contract = forms.CharField(
        label=_("Contract"), max_length=8, help_text=_("4S, 3NTX, 6HXX or PASS")
    )
    declarer = forms.ChoiceField(label=_("Declarer"), choices=DECLARER_CHOICES, required=False)
    result = forms.CharField(
        label=_("Result"), max_length=4, required=False, help_text=_("=, +1, -2 or tricks")
    )
    lead = forms.CharField(label=_("Lead"), max_length=4, required=False)
    ns_score = forms.IntegerField(
        label=_("NS score as written"),
        required=False,
        help_text=_("Only when the traveller's number differs."),
    )
    reason = forms.CharField(
        label=_("Why"),
        max_length=300,
        required=False,
        help_text=_("Needed when changing a stored result."),
    )
    law = forms.CharField(label=_("Law"), max_length=40, required=False)

    def clean(self):
        data = super().clean()
        if "contract" in data:
            try:
                data["tricks"] = tricks_from(data["contract"], data.get("result", ""))
            except forms.ValidationError as exc:
                self.add_error("result", exc)
        return data


class PenaltyForm(OverrideMixin):
    entry = forms.ModelChoiceField(queryset=None, label=_("Pair"))
    fraction_of_top = forms.DecimalField(
        label=_("Fraction of a top"), min_value=0, max_digits=5, decimal_places=3, initial="0.25"
    )
    board = forms.IntegerField(label=_("Board"), required=False, min_value=1, max_value=999)
    reason = forms.CharField(label=_("Why"), max_length=300)
    law = forms.CharField(label=_("Law"), max_length=40, required=False)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries


class ReasonForm(OverrideMixin):
    reason = forms.CharField(label=_("Why"), max_length=300)

    def clean_reason(self):
        """One line of text: a posted CR LF is kept as the LF a browser's form would send, so
        the trail holds the reason as typed."""
        return self.cleaned_data["reason"].replace("\r\n", "\n")


class PublishForm(OverrideMixin):
    pass


class MailingVersionForm(forms.Form):
    """The results version a results-mail preview showed, posted back with its send button
    (a form, so a garbled value is refused like any other field, NUL bytes included)."""

    version = forms.CharField(max_length=60)

"""The director's choice of how a later session is seated from the earlier ones."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.services.setup.seating import METHODS


class SessionSeatingForm(forms.Form):
    method = forms.ChoiceField(label=_("Method"), choices=METHODS, widget=forms.RadioSelect)
    # The preview's fingerprint: confirming is refused if the plan changed since it was shown.
    fingerprint = forms.CharField(required=False, widget=forms.HiddenInput)

"""The director's forms for the room screen: the round clock, the hidden rounds and whether
players follow the ranking during play. The services decide what is allowed."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.services.running.room_clock import MAX_MINUTES

CLOCK_ACTIONS = ("start", "pause", "resume", "minutes")
SETTINGS_ACTIONS = ("link", "hidden", "live", "language")


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in CLOCK_ACTIONS], widget=forms.HiddenInput)
    minutes = forms.IntegerField(
        label=_("Minutes per round"), min_value=1, max_value=MAX_MINUTES, required=False
    )
    round = forms.IntegerField(label=_("Round"), min_value=1, required=False)

    def clean(self):
        data = super().clean()
        if data.get("action") == "start" and not data.get("round"):
            self.add_error("round", _("Say which round starts."))
        if data.get("action") == "minutes" and not data.get("minutes"):
            self.add_error("minutes", _("Say how many minutes a round lasts."))
        return data


class SettingsForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in SETTINGS_ACTIONS], widget=forms.HiddenInput)
    hidden_rounds = forms.IntegerField(
        label=_("Hide the last rounds"),
        min_value=0,
        required=False,
        help_text=_(
            "The ranking counts the rounds up to the one being played minus these; 0 hides "
            "none. Everything shows once the session is finished."
        ),
    )
    live_ranking = forms.BooleanField(
        label=_("Players follow the ranking on their phones during play"), required=False
    )
    language = forms.ChoiceField(
        label=_("The screen's language"), choices=settings.LANGUAGES, required=False
    )

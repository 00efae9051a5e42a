"""The director's form for a teams event's settings (rules are checked by ``services.teams``)."""

from django import forms

from ..models import TeamEvent


class TeamEventForm(forms.ModelForm):
    class Meta:
        model = TeamEvent
        fields = ["format", "round_robin_method", "swiss_rounds", "random_first_round",
                  "boards_per_match", "vp_scale", "bye_vp", "tie_breaks"]
        widgets = {"swiss_rounds": forms.NumberInput(attrs={"min": 1, "max": 30}),
                   "boards_per_match": forms.NumberInput(attrs={"min": 1, "max": 64})}

    def __init__(self, *args, started: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if started:  # the schedule is laid out: only how it is scored may still change
            for name in ("format", "round_robin_method", "boards_per_match",
                         "random_first_round"):
                self.fields[name].disabled = True

"""The director's form for a teams event's settings (rules are checked by ``services.teams``)."""

from django import forms

from ..models import TeamEvent


class TeamEventForm(forms.ModelForm):
    OPTIONAL = ("legs", "knockout_seeding", "knockout_tie", "tie_boards")

    class Meta:
        model = TeamEvent
        fields = ["format", "round_robin_method", "legs", "swiss_rounds", "random_first_round",
                  "knockout_seeding", "knockout_tie", "tie_boards",
                  "boards_per_match", "scoring", "vp_scale", "bye_vp", "tie_breaks"]
        widgets = {"swiss_rounds": forms.NumberInput(attrs={"min": 1, "max": 30}),
                   "boards_per_match": forms.NumberInput(attrs={"min": 1, "max": 64}),
                   "legs": forms.NumberInput(attrs={"min": 1, "max": 4}),
                   "tie_boards": forms.NumberInput(attrs={"min": 1, "max": 16})}

    def __init__(self, *args, started: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._kept = {name: getattr(self.instance, name) for name in self.OPTIONAL}
        for name in self.OPTIONAL:  # a form without them keeps the saved value
            self.fields[name].required = False
        if started:  # the schedule is laid out: only how it is scored may still change
            for name in ("format", "round_robin_method", "boards_per_match",
                         "random_first_round", "legs", "knockout_seeding"):
                self.fields[name].disabled = True

    def clean(self):
        data = super().clean()
        for name in self.OPTIONAL:
            if data.get(name) in (None, ""):
                data[name] = self._kept[name]
                setattr(self.instance, name, self._kept[name])
                if name in self.changed_data:
                    self.changed_data.remove(name)
        return data

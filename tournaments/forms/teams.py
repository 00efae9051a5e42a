"""The teams forms: the event's settings and a team's line-up (rules are checked by the services)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.web.club_forms import ClubModelForm

from ..models import TeamEvent


class TeamEventForm(ClubModelForm):
    OPTIONAL = ("legs", "knockout_seeding", "knockout_tie", "tie_boards")

    class Meta:
        model = TeamEvent
        fields = [
            "format",
            "round_robin_method",
            "legs",
            "swiss_rounds",
            "random_first_round",
            "knockout_seeding",
            "knockout_tie",
            "tie_boards",
            "boards_per_match",
            "scoring",
            "vp_scale",
            "bye_vp",
            "tie_breaks",
        ]
        widgets = {
            "swiss_rounds": forms.NumberInput(attrs={"min": 1, "max": 30}),
            "boards_per_match": forms.NumberInput(attrs={"min": 1, "max": 64}),
            "legs": forms.NumberInput(attrs={"min": 1, "max": 4}),
            "tie_boards": forms.NumberInput(attrs={"min": 1, "max": 16}),
        }

    def __init__(self, *args, started: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._kept = {name: getattr(self.instance, name) for name in self.OPTIONAL}
        for name in self.OPTIONAL:  # a form without them keeps the saved value
            self.fields[name].required = False
        if started:  # the schedule is laid out: only how it is scored may still change
            for name in (
                "format",
                "round_robin_method",
                "boards_per_match",
                "random_first_round",
                "legs",
                "knockout_seeding",
            ):
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


class LineupForm(forms.Form):
    """One team's four players for one half of a match: North or East first in each room.
    The labels say the seat, since the room decides the line (home NS in the open room)."""

    SEATS = ("open_first", "open_second", "closed_first", "closed_second")

    open_first = forms.TypedChoiceField(coerce=int)
    open_second = forms.TypedChoiceField(coerce=int)
    closed_first = forms.TypedChoiceField(coerce=int)
    closed_second = forms.TypedChoiceField(coerce=int)
    reason = forms.CharField(
        label=_("Why (a player replaced during the half, or a substitution)"),
        required=False,
        max_length=500,
        widget=forms.TextInput(),
    )

    def __init__(self, *args, squad, home: bool, **kwargs):
        super().__init__(*args, **kwargs)
        labels = (
            (
                _("Open room, North"),
                _("Open room, South"),
                _("Closed room, East"),
                _("Closed room, West"),
            )
            if home
            else (
                _("Open room, East"),
                _("Open room, West"),
                _("Closed room, North"),
                _("Closed room, South"),
            )
        )
        choices = [("", "—")] + [(m.pk, m.full_name) for m in squad]
        for name, label in zip(self.SEATS, labels, strict=True):
            self.fields[name].choices = choices
            self.fields[name].label = label

    def players(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.SEATS]

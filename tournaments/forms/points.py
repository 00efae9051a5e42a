"""The secretary's master points scale: who awards it, and its rows (``services.master_points``).

Each row gives the points of one place, or of reaching one percentage, in one kind of
event for fields of a range of sizes. A row is checked on its own (a place or a percentage,
not both; no negative points; a range that runs upwards), then the rows together: two rows
giving the same place in the same kind of event to overlapping field sizes are refused,
naming both.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.web.club_forms import ClubModelForm
from tournaments.services.results.master_points import ScaleRow, overlaps

from ..models import PointsScale, PointsScaleRow


class ScaleForm(ClubModelForm):
    class Meta:
        model = PointsScale
        fields = ["name", "issuer", "split"]


class ScaleRowForm(ClubModelForm):
    points = forms.DecimalField(
        label=_("points"),
        max_digits=8,
        decimal_places=2,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    min_percentage = forms.DecimalField(
        label=_("from percentage"),
        max_digits=5,
        decimal_places=2,
        required=False,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )

    class Meta:
        model = PointsScaleRow
        fields = ["category", "min_field", "max_field", "place", "min_percentage", "points"]
        widgets = {
            name: forms.NumberInput(attrs={"min": 1, "class": "narrow"})
            for name in ("min_field", "max_field", "place")
        }

    def clean_points(self):
        points = self.cleaned_data["points"]
        if points < 0:
            raise forms.ValidationError(_("Points cannot be negative."))
        return points

    def clean_min_field(self):
        value = self.cleaned_data["min_field"]
        if value is None or value < 1:
            raise forms.ValidationError(_("A field has at least one pair, team or player."))
        return value

    def clean_min_percentage(self):
        value = self.cleaned_data.get("min_percentage")
        if value is not None and not 0 < value <= 100:
            raise forms.ValidationError(_("Give a percentage above 0 and up to 100."))
        return value

    def clean(self):
        data = super().clean()
        low, high = data.get("min_field"), data.get("max_field")
        if low is not None and high is not None and high < low:
            self.add_error("max_field", _("The field's upper size is below its lower size."))
        place, pct = data.get("place"), data.get("min_percentage")
        if "place" not in self.errors and "min_percentage" not in self.errors:
            if place is None and pct is None:
                raise forms.ValidationError(_("Give a place or a percentage."))
            if place is not None and pct is not None:
                raise forms.ValidationError(
                    _("Give a place or a percentage, not both: one row each.")
                )
        if place is not None and place < 1:
            self.add_error("place", _("Places start at 1."))
        return data


class BaseScaleRowFormSet(forms.BaseInlineFormSet):
    def clean(self):
        super().clean()
        if any(self.errors):
            return
        kept = [
            form for form in self.forms if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        rows = [
            ScaleRow(
                f.cleaned_data["category"],
                f.cleaned_data["min_field"],
                f.cleaned_data.get("max_field"),
                f.cleaned_data.get("place"),
                f.cleaned_data.get("min_percentage"),
                f.cleaned_data["points"],
            )
            for f in kept
        ]
        problems = []
        for i, j in overlaps(rows):
            row = rows[i]
            what = (
                _("place %(place)s") % {"place": row.place}
                if row.place is not None
                else _("from %(pct)s%%") % {"pct": row.min_percentage}
            )
            problems.append(
                _(
                    "Rows %(first)s and %(second)s overlap: both give %(what)s in %(kind)s events "
                    "to some of the same field sizes. Change a field range or delete one row."
                )
                % {
                    "first": self.forms.index(kept[i]) + 1,
                    "second": self.forms.index(kept[j]) + 1,
                    "what": what,
                    "kind": str(dict(kept[i].fields["category"].choices)[row.category]).lower(),
                }
            )
        if problems:
            raise forms.ValidationError(problems)


ScaleRowFormSet = forms.inlineformset_factory(
    PointsScale,
    PointsScaleRow,
    form=ScaleRowForm,
    formset=BaseScaleRowFormSet,
    extra=3,
    can_delete=True,
)

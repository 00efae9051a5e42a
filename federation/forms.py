"""The officer's forms: the ranking's season, a new club, its first secretary, and the
confirmation a club leaves."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import Club


class ClubForm(forms.ModelForm):
    """A new club of the officer's federation: its short name is its sub-domain."""

    class Meta:
        model = Club
        # No host name: a host that names no club reaches the default club, so only the
        # installation's superuser (the admin) gives a club one; officers give a short name.
        fields = ["name", "slug", "address", "contact_email"]
        widgets = {"address": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = True
        self.fields["name"].initial = ""

    def clean_slug(self):
        return (self.cleaned_data.get("slug") or "").lower()


class SecretaryForm(forms.Form):
    who = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        help_text=_("An account already on this site; it becomes the club's secretary."),
    )


class LeaveForm(forms.Form):
    """A club is deleted only once its short name is typed."""

    confirm = forms.CharField(label=_("Type the club's short name to confirm"), max_length=40)

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_confirm(self):
        typed = self.cleaned_data["confirm"].strip()
        if typed != (self.club.slug or str(self.club.pk)):
            raise forms.ValidationError(_("That is not this club's short name."))
        return typed


class RankingPeriodForm(forms.Form):
    """The season a ranking sums (a GET form): one of ``periods``; a missing or unknown
    choice is ``default``, shown chosen."""

    season = forms.ChoiceField(label=_("Season"))

    def __init__(self, data, *, periods, default):
        chosen = {p.key: p for p in periods}.get((data or {}).get("season"))
        super().__init__(data if chosen else None, initial={"season": default.key})
        self.fields["season"].choices = [(p.key, p.label) for p in periods]
        self.period = chosen or default

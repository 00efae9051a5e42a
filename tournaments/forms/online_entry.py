"""Forms of online entry: a member's entry (partner or team), the "partner wanted" note, and
the director's entry (any member or a guest typed on the spot). The services decide what is
allowed (deadline, places, double entry); these only check the shape."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import Member, MemberStatus
from clubsite.web.collation import collated
from tournaments.services.entries import registration

from ..models import EventType, Tournament


def _label(member: Member) -> str:
    if member.licence_number:
        return f"{member.full_name} ({member.licence_number})"
    return member.full_name


class MemberChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return _label(obj)


class EntryForm(forms.Form):
    """The other players of an entry, chosen from the club's members: a partner for pairs,
    three to five team-mates (and the team's name) for teams, nobody for individuals."""

    def __init__(
        self,
        *args,
        tournament: Tournament,
        members,
        me: Member | None = None,
        director: bool = False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.tournament, self.me, self.director = tournament, me, director
        low, high = registration.PLAYERS_PER_ENTRY[tournament.event_type]
        first = 1 if director else 2
        self.required, self.slots = low, high
        if tournament.event_type == EventType.TEAMS:
            self.fields["name"] = forms.CharField(label=_("Team name"), max_length=160)
        for i in range(first, high + 1):
            label = (
                _("Partner")
                if tournament.event_type == EventType.PAIRS and i == 2
                else _("Player %(n)s") % {"n": i}
            )
            if director and i == 1 and tournament.event_type == EventType.TEAMS:
                label = _("Captain")
            # A member finds the others by name (search as you type, or the search button
            # without JavaScript); the id chosen travels in a hidden field.
            self.fields[f"player{i}"] = MemberChoice(
                members,
                required=False,
                label=label,
                empty_label=_("— choose —"),
                widget=None if director else forms.HiddenInput,
            )
        if director:
            self.fields["guest_first_name"] = forms.CharField(
                label=_("Guest's first name"), max_length=80, required=False
            )
            self.fields["guest_last_name"] = forms.CharField(
                label=_("Guest's last name"), max_length=120, required=False
            )
            self.fields["guest_home_club"] = forms.CharField(
                label=_("Guest's home club"), max_length=120, required=False
            )

    def player_fields(self):
        return [self[name] for name in self.fields if name.startswith("player")]

    def guest(self) -> dict | None:
        data = self.cleaned_data
        if not self.director or not (data.get("guest_first_name") or data.get("guest_last_name")):
            return None
        return {
            "first_name": data["guest_first_name"],
            "last_name": data["guest_last_name"],
            "home_club": data.get("guest_home_club", ""),
        }

    def clean(self):
        data = super().clean()
        chosen = self.chosen()
        guest = self.guest() if not self.errors else None
        if guest is not None and not (guest["first_name"].strip() and guest["last_name"].strip()):
            self.add_error("guest_last_name", _("A guest needs a first and a last name."))
        count = len(chosen) + (1 if guest else 0) + (0 if self.director else 1)
        if count < self.required and not self.errors:
            if self.tournament.event_type == EventType.PAIRS:
                raise forms.ValidationError(_("Choose your partner."))
            raise forms.ValidationError(
                _("A team has at least %(count)s players: choose them.") % {"count": self.required}
            )
        return data

    def chosen(self) -> list[Member]:
        return [
            self.cleaned_data[n]
            for n in self.fields
            if n.startswith("player") and self.cleaned_data.get(n) is not None
        ]


def entry_members(tournament: Tournament, *, director: bool):
    """Who can be chosen: members (and, for the director, guests) not yet entered."""
    queryset = Member.objects.exclude(
        registrations__tournament=tournament, registrations__live=True
    )
    if not director:
        queryset = queryset.filter(is_guest=False, status=MemberStatus.ACTIVE)
    return queryset.order_by(*collated("last_name", "first_name"))


class PartnerWantedForm(forms.Form):
    note = forms.CharField(
        label=_("A note for the others (optional)"),
        max_length=200,
        required=False,
        help_text=_('For example: "I usually play 2/1" or a phone number.'),
    )
